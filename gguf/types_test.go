package gguf

import (
	"bytes"
	"errors"
	"testing"

	"github.com/gpurt/gpurt/runtime"
)

// TestEveryTypeRoundTrips writes a tensor of every ggml type gpurt knows
// and reads it back: the types with a codec from float32 values, the
// others (IQ2_XXS, …) from raw blocks, which still list and copy.
func TestEveryTypeRoundTrips(t *testing.T) {
	w := NewWriter()
	raw := map[string][]byte{}
	for _, typ := range runtime.KnownDTypes {
		name := "t." + typ.String()
		ne := []int{256, 2}
		if runtime.HasCodec(typ) {
			if err := w.AddTensorF32(name, typ, ne, sampleValues(512)); err != nil {
				t.Fatalf("%v: %v", typ, err)
			}
			continue
		}
		data := bytes.Repeat([]byte{0x5a}, typ.RowSize(512))
		raw[name] = data
		if err := w.AddTensor(name, typ, ne, data); err != nil {
			t.Fatalf("%v: %v", typ, err)
		}
	}
	var buf bytes.Buffer
	if _, err := w.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	f, err := Parse(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	for _, typ := range runtime.KnownDTypes {
		name := "t." + typ.String()
		ti, ok := f.Tensor(name)
		if !ok || ti.Type != typ || ti.Size != int64(typ.RowSize(512)) {
			t.Fatalf("%s: %+v", name, ti)
		}
		data, err := f.TensorData(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if want, ok := raw[name]; ok && !bytes.Equal(data, want) {
			t.Errorf("%s: data differs", name)
		}
		_, err = f.TensorF32(name)
		if runtime.HasCodec(typ) != (err == nil) {
			t.Errorf("%s: TensorF32 error %v", name, err)
		}
		if typ.Valid() != (ti.Runnable() == nil) {
			t.Errorf("%s: Runnable() = %v", name, ti.Runnable())
		}
	}
}

// TestUnrunnableTypesList opens a file with a type gpurt knows but cannot
// run (IQ2_XXS) and a type id it does not know at all: both list, and
// loading them names the tensor and its type.
func TestUnrunnableTypesList(t *testing.T) {
	h := new(header).start(2, 0).
		tensor("blk.0.attn_q.weight", uint32(runtime.IQ2_XXS), 0, 256).
		tensor("blk.0.attn_k.weight", 99, 96, 256)
	for h.Len()%DefaultAlignment != 0 {
		h.WriteByte(0)
	}
	h.Write(make([]byte, 192))
	f, err := Parse(h.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, want string
		size       int64
	}{
		{"blk.0.attn_q.weight", "blk.0.attn_q.weight is iq2_xxs, which gpurt cannot run yet", 66},
		{"blk.0.attn_k.weight", "blk.0.attn_k.weight is dtype(99), which gpurt cannot run yet", -1},
	}
	for _, tc := range tests {
		ti, ok := f.Tensor(tc.name)
		if !ok {
			t.Fatalf("%s is not listed", tc.name)
		}
		if ti.Size != tc.size {
			t.Errorf("%s: size %d, want %d", tc.name, ti.Size, tc.size)
		}
		err := ti.Runnable()
		if err == nil || !errors.Is(err, runtime.ErrUnsupported) || err.Error() != tc.want {
			t.Errorf("%s: Runnable() = %v, want %q wrapping ErrUnsupported", tc.name, err, tc.want)
		}
		if _, err := f.TensorF32(tc.name); !errors.Is(err, runtime.ErrUnsupported) {
			t.Errorf("%s: TensorF32 error %v", tc.name, err)
		}
	}
	if _, err := f.TensorData("blk.0.attn_k.weight"); !errors.Is(err, runtime.ErrUnsupported) {
		t.Errorf("data of an unknown type: error %v", err)
	}
}
