package gguf

import (
	"bytes"
	"errors"
	"testing"

	"github.com/gpurt/gpurt/runtime"
)

// TestAddTensorFunc: a streamed tensor writes the same file as one added
// with its bytes, and a fill error fails the write.
func TestAddTensorFunc(t *testing.T) {
	data := []byte{1, 2, 3, 4, 5, 6, 7, 8}
	tests := []struct {
		name    string
		fill    func([]byte) error
		wantErr error
	}{
		{"copies", func(dst []byte) error { copy(dst, data); return nil }, nil},
		{"fails", func([]byte) error { return runtime.ErrOutOfMemory }, runtime.ErrOutOfMemory},
	}
	want := NewWriter()
	if err := want.AddTensor("a", runtime.F32, []int{2}, data); err != nil {
		t.Fatal(err)
	}
	var wantBuf bytes.Buffer
	if _, err := want.WriteTo(&wantBuf); err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		w := NewWriter()
		if err := w.AddTensorFunc("a", runtime.F32, []int{2}, tt.fill); err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		_, err := w.WriteTo(&buf)
		if tt.wantErr != nil {
			if !errors.Is(err, tt.wantErr) {
				t.Errorf("%s: error %v, want %v", tt.name, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !bytes.Equal(buf.Bytes(), wantBuf.Bytes()) {
			t.Errorf("%s: %v, or the bytes differ from AddTensor's", tt.name, err)
		}
	}
	if err := NewWriter().AddTensorFunc("a", runtime.F32, []int{2}, nil); !errors.Is(err, runtime.ErrInvalidArgument) {
		t.Errorf("nil fill: %v, want ErrInvalidArgument", err)
	}
}
