package gguf

import (
	"reflect"
	"testing"

	"github.com/gpurt/gpurt/internal/testmodels"
	"github.com/gpurt/gpurt/runtime"
)

func openStories(t *testing.T) *File {
	t.Helper()
	f, err := Open(testmodels.StoriesPath(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func TestStories260K(t *testing.T) {
	f := openStories(t)
	if f.Version != 3 || f.Alignment != 32 || f.Size() != 1185376 {
		t.Errorf("version %d, alignment %d, size %d", f.Version, f.Alignment, f.Size())
	}
	if arch, err := f.String("general.architecture"); err != nil || arch != "llama" {
		t.Errorf("architecture %q, %v", arch, err)
	}
	ints := map[string]int{
		"llama.embedding_length":        64,
		"llama.block_count":             5,
		"llama.attention.head_count":    8,
		"llama.attention.head_count_kv": 4,
		"llama.feed_forward_length":     172,
		"llama.context_length":          2048,
		"tokenizer.ggml.bos_token_id":   1,
		"tokenizer.ggml.eos_token_id":   2,
	}
	for k, want := range ints {
		if got, err := f.Int(k); err != nil || got != want {
			t.Errorf("%s = %d (%v), want %d", k, got, err, want)
		}
	}
	if eps, err := f.Float32("llama.attention.layer_norm_rms_epsilon"); err != nil || eps != 1e-5 {
		t.Errorf("rms epsilon %v, %v", eps, err)
	}
	tokens, err := f.StringArray("tokenizer.ggml.tokens")
	if err != nil || len(tokens) != 512 || tokens[1] != "<s>" || tokens[3] != "<0x00>" {
		t.Errorf("tokens: %d, %v", len(tokens), err)
	}
	if scores, err := f.Float32Array("tokenizer.ggml.scores"); err != nil || len(scores) != 512 {
		t.Errorf("scores: %d, %v", len(scores), err)
	}
	if types, err := f.Int32Array("tokenizer.ggml.token_type"); err != nil || len(types) != 512 || types[3] != 6 {
		t.Errorf("token types: %d, %v", len(types), err)
	}

	if len(f.Tensors) != 48 {
		t.Fatalf("%d tensors, want 48", len(f.Tensors))
	}
	want := testmodels.LlamaShapes(5, 64, 172, 512, 32)
	if len(want) != 48 {
		t.Fatalf("expected table has %d tensors", len(want))
	}
	var total int64
	for name, shape := range want {
		ti, ok := f.Tensor(name)
		if !ok {
			t.Errorf("missing tensor %s", name)
			continue
		}
		if ti.Type != runtime.F32 || !reflect.DeepEqual(ti.Shape(), shape) {
			t.Errorf("%s: %v %v, want f32 %v", name, ti.Type, ti.Shape(), shape)
		}
		total += ti.Size
	}
	// The tensors fill the data section (up to alignment padding).
	if end := f.DataOffset + total; end > f.Size() || f.Size()-end > 48*32 {
		t.Errorf("tensor data ends at %d of %d bytes", end, f.Size())
	}
	norm, err := f.TensorF32("output_norm.weight")
	if err != nil {
		t.Fatal(err)
	}
	nonzero := 0
	for _, v := range norm {
		if v != 0 {
			nonzero++
		}
	}
	if nonzero == 0 {
		t.Error("output_norm.weight is all zeros")
	}
}
