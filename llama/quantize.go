package llama

import (
	"fmt"

	"github.com/gpurt/gpurt/gguf"
	rt "github.com/gpurt/gpurt/runtime"
)

// Quantize copies f's metadata and tensors into a writer, converting every
// 2-D weight matrix whose rows fill whole blocks to dtype (Q8_0 or Q4_0).
// Norm vectors and other tensors keep their type. It reports how many
// tensors were converted.
func Quantize(f *gguf.File, dtype rt.DType) (*gguf.Writer, int, error) {
	if dtype != rt.Q8_0 && dtype != rt.Q4_0 {
		return nil, 0, fmt.Errorf("quantize: target dtype %v is not q8_0 or q4_0", dtype)
	}
	w := gguf.NewWriter()
	for _, kv := range f.KVs {
		if err := w.Set(kv.Key, kv.Value); err != nil {
			return nil, 0, err
		}
	}
	if err := w.Set("general.file_type", uint32(fileType(dtype))); err != nil {
		return nil, 0, err
	}
	converted := 0
	for _, ti := range f.Tensors {
		data, err := f.TensorData(ti.Name)
		if err != nil {
			return nil, 0, err
		}
		if ti.NDims != 2 || ti.Ne[0]%dtype.BlockSize() != 0 || ti.Type.IsQuantized() || ti.Type == rt.I32 {
			if err := w.AddTensor(ti.Name, ti.Type, ti.Shape(), data); err != nil {
				return nil, 0, err
			}
			continue
		}
		values := make([]float32, ti.Nelements())
		if err := rt.DequantizeRow(ti.Type, data, values); err != nil {
			return nil, 0, fmt.Errorf("quantize %s: %w", ti.Name, err)
		}
		if err := w.AddTensorF32(ti.Name, dtype, ti.Shape(), values); err != nil {
			return nil, 0, err
		}
		converted++
	}
	return w, converted, nil
}

// fileType is llama.cpp's general.file_type for a whole-model dtype.
func fileType(t rt.DType) int {
	switch t {
	case rt.Q4_0:
		return 2
	case rt.Q8_0:
		return 7
	}
	return 0
}
