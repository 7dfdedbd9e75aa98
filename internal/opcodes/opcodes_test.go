package opcodes

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGeneratedUpToDate fails when a committed generated file differs from
// what table.go gives now (run `go generate ./internal/opcodes`).
func TestGeneratedUpToDate(t *testing.T) {
	files, err := Files()
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range files {
		got, err := os.ReadFile(filepath.Join("..", "..", path))
		if err != nil {
			t.Errorf("%s: %v (run `go generate ./internal/opcodes`)", path, err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run `go generate ./internal/opcodes`, then shaders/compile_spirv.sh", path)
		}
	}
}

func TestCheckRejectsCollisions(t *testing.T) {
	tests := []struct {
		name   string
		tables []Table
		want   string
	}{
		{"name twice", []Table{{Prefix: "A", Codes: []Code{{"X", 0, ""}}}, {Prefix: "A", Bits: true, Codes: []Code{{"X", 1, ""}}}}, "defined twice"},
		{"value twice", []Table{{Prefix: "A", Codes: []Code{{"X", 3, ""}, {"Y", 3, ""}}}}, "share value"},
		{"not a bit", []Table{{Prefix: "A", Bits: true, Codes: []Code{{"X", 3, ""}}}}, "single bit"},
		{"fine", []Table{{Prefix: "A", Codes: []Code{{"X", 0, ""}, {"Y", 1, ""}}}}, ""},
	}
	for _, tc := range tests {
		err := check(tc.tables)
		if (tc.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: check = %v, want %q", tc.name, err, tc.want)
		}
	}
	if err := check(Tables); err != nil {
		t.Errorf("Tables: %v", err)
	}
}

func TestNames(t *testing.T) {
	tb := Table{Prefix: "UNARY"}
	c := Code{Name: "GELU_ERF"}
	if g, s := goName(tb, c), shaderName(tb, c); g != "UnaryGeluErf" || s != "UNARY_GELU_ERF" {
		t.Errorf("names of UNARY GELU_ERF: %q, %q", g, s)
	}
}
