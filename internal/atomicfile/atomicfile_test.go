package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestWrite(t *testing.T) {
	boom := errors.New("disk full")
	cases := []struct {
		name    string
		old     string // "" = no file before
		fill    func(w io.Writer) error
		want    string
		wantErr bool
	}{
		{"new file", "", func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }, "new", false},
		{"replace", "old", func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }, "new", false},
		{"failure keeps the old file", "old", func(w io.Writer) error {
			io.WriteString(w, "half of the new")
			return boom
		}, "old", true},
		{"failure leaves no file", "", func(w io.Writer) error { return boom }, "", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "out.gguf")
			if tc.old != "" {
				if err := os.WriteFile(path, []byte(tc.old), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			err := Write(path, tc.fill, Options{})
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, want error %v", err, tc.wantErr)
			}
			got, rerr := os.ReadFile(path)
			if tc.want == "" {
				if !os.IsNotExist(rerr) {
					t.Errorf("file exists after a failed first write: %q, %v", got, rerr)
				}
			} else if string(got) != tc.want {
				t.Errorf("content %q, want %q", got, tc.want)
			}
			entries, _ := os.ReadDir(dir)
			if n := len(entries); n > 1 || (n == 1 && tc.want == "") {
				t.Errorf("temporary files left behind: %v", entries)
			}
			if tc.old != "" && !tc.wantErr {
				if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
					t.Errorf("mode %v, want the old file's 0600", st.Mode().Perm())
				}
			}
		})
	}
}

func TestWriteRefusesNonRegular(t *testing.T) {
	if err := WriteFile(t.TempDir(), []byte("x"), Options{}); err == nil {
		t.Error("writing over a directory succeeded")
	}
}
