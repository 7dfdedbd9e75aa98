package gguf

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// FuzzRead feeds arbitrary bytes to Parse: it must never panic, and whatever
// it accepts must be self-consistent (every tensor's data readable, unless
// its type is one gpurt cannot run, and the file re-encodable by the writer
// into an image that parses the same).
//
// Short run: go test ./gguf -run='^$' -fuzz=FuzzRead -fuzztime=10s
func FuzzRead(f *testing.F) {
	valid := buildSample(f)
	f.Add(valid)
	for _, n := range []int{0, 3, 4, 8, 16, 24, 40, 100, len(valid) / 2, len(valid) - 1} {
		f.Add(valid[:n])
	}
	for _, at := range []int{4, 8, 16, 24, 30, 60, 200} {
		m := bytes.Clone(valid)
		m[at] ^= 0xff
		f.Add(m)
	}
	f.Add(nestedArrays(3))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Parse(data)
		if err != nil {
			if file != nil {
				t.Fatal("Parse returned both a file and an error")
			}
			return
		}
		w := NewWriter()
		for _, kv := range file.KVs {
			if err := w.Set(kv.Key, kv.Value); err != nil {
				t.Fatalf("accepted metadata does not re-encode: %v", err)
			}
		}
		for _, ti := range file.Tensors {
			d, err := file.TensorData(ti.Name)
			var unrunnable *UnrunnableError
			if errors.As(err, &unrunnable) {
				// A type gpurt does not know is listed, and its data
				// refused with an error naming the tensor.
				if !strings.Contains(err.Error(), ti.Name) {
					t.Fatalf("the error for %s does not name it: %v", ti.Name, err)
				}
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			if int64(len(d)) != ti.Size {
				t.Fatalf("%s: %d bytes, want %d", ti.Name, len(d), ti.Size)
			}
			if err := w.AddTensor(ti.Name, ti.Type, ti.Shape(), d); err != nil && ti.NDims > 0 {
				t.Fatalf("accepted tensor does not re-encode: %v", err)
			}
		}
		var buf bytes.Buffer
		if _, err := w.WriteTo(&buf); err != nil {
			t.Fatal(err)
		}
		again, err := Parse(buf.Bytes())
		if err != nil {
			t.Fatalf("re-encoded file does not parse: %v", err)
		}
		if len(again.KVs) != len(file.KVs) {
			t.Fatalf("re-encoded file has %d KVs, want %d", len(again.KVs), len(file.KVs))
		}
	})
}
