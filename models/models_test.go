package models

import (
	"fmt"
	"slices"
	"testing"

	"github.com/gpurt/gpurt/gguf"
	"github.com/gpurt/gpurt/llama"
	"github.com/gpurt/gpurt/runtime"
)

func TestDefaultModel(t *testing.T) {
	if len(Default) >= 4<<20 {
		t.Errorf("default model is %d bytes, want under 4 MiB", len(Default))
	}
	f, err := gguf.Parse(Default)
	if err != nil {
		t.Fatal(err)
	}
	if arch, err := f.String("general.architecture"); err != nil || arch != "llama" {
		t.Fatalf("architecture %q, %v", arch, err)
	}
	ints := map[string]uint32{
		"llama.context_length":          256,
		"llama.embedding_length":        128,
		"llama.block_count":             4,
		"llama.feed_forward_length":     352,
		"llama.attention.head_count":    4,
		"llama.attention.head_count_kv": 2,
		"llama.rope.dimension_count":    32,
		"tokenizer.ggml.bos_token_id":   1,
		"tokenizer.ggml.eos_token_id":   2,
	}
	for k, want := range ints {
		// llama.cpp requires these keys to be uint32.
		if v, ok := f.Value(k); !ok || v.Type() != gguf.TypeUint32 {
			t.Errorf("%s: %v is not a uint32", k, v.TypeName())
		}
		if got, err := f.Uint32(k); err != nil || got != want {
			t.Errorf("%s = %d (%v), want %d", k, got, err, want)
		}
	}
	floats := map[string]float32{"llama.rope.freq_base": 10000, "llama.attention.layer_norm_rms_epsilon": 1e-5}
	for k, want := range floats {
		if got, err := f.Float32(k); err != nil || got != want {
			t.Errorf("%s = %v (%v), want %v", k, got, err, want)
		}
	}
	if m, err := f.String("tokenizer.ggml.model"); err != nil || m != "llama" {
		t.Errorf("tokenizer model %q, %v", m, err)
	}

	const dim, ff, vocab, kvDim = 128, 352, 512, 64
	want := map[string][]int{
		"token_embd.weight":  {dim, vocab},
		"output_norm.weight": {dim},
		"output.weight":      {dim, vocab},
	}
	for i := 0; i < 4; i++ {
		b := fmt.Sprintf("blk.%d.", i)
		want[b+"attn_norm.weight"] = []int{dim}
		want[b+"attn_q.weight"] = []int{dim, dim}
		want[b+"attn_k.weight"] = []int{dim, kvDim}
		want[b+"attn_v.weight"] = []int{dim, kvDim}
		want[b+"attn_output.weight"] = []int{dim, dim}
		want[b+"ffn_norm.weight"] = []int{dim}
		want[b+"ffn_gate.weight"] = []int{dim, ff}
		want[b+"ffn_up.weight"] = []int{dim, ff}
		want[b+"ffn_down.weight"] = []int{ff, dim}
	}
	if len(f.Tensors) != len(want) {
		t.Errorf("%d tensors, want %d", len(f.Tensors), len(want))
	}
	for name, shape := range want {
		ti, ok := f.Tensor(name)
		if !ok {
			t.Errorf("missing %s", name)
			continue
		}
		if ti.Type != runtime.F32 || !slices.Equal(ti.Shape(), shape) {
			t.Errorf("%s: %v %v, want f32 %v", name, ti.Type, ti.Shape(), shape)
		}
	}
}

// TestDefaultTokenizer checks gpurt's SPM encoder against train.py's Python
// encoder, which produced the training data: the ids below are its output
// for the sentence (models/README.md).
func TestDefaultTokenizer(t *testing.T) {
	f, err := gguf.Parse(Default)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := llama.NewTokenizer(f)
	if err != nil {
		t.Fatal(err)
	}
	const s = "It is a truth universally acknowledged, that a single man in possession of a good fortune, must be in want of a wife."
	want := []int32{1, 304, 504, 368, 261, 259, 502, 325, 492, 352, 498, 493, 310, 503, 425, 509, 261, 487, 495, 498, 329, 496, 279, 491, 430, 336, 261, 263, 282, 298, 273, 297, 294, 295, 499, 413, 432, 317, 284, 261, 314, 375, 488, 335, 504, 505, 498, 371, 380, 315, 288, 294, 264, 439, 284, 261, 264, 392, 489, 453}
	got := tok.Encode(s, true)
	if !slices.Equal(got, want) {
		t.Errorf("Encode =\n%v\nwant (train.py)\n%v", got, want)
	}
	if d := tok.Decode(got); d != s {
		t.Errorf("Decode = %q", d)
	}
}
