package models

import (
	"slices"
	"testing"

	"github.com/gpurt/gpurt/cpu"
	"github.com/gpurt/gpurt/gguf"
	"github.com/gpurt/gpurt/internal/testmodels"
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

	want := testmodels.LlamaShapes(4, 128, 352, 512, 64)
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

// pythonGreedy is the greedy continuation of BOS that PyTorch computes from
// austen.gguf (models/check_gguf.py, recorded in models/README.md).
var pythonGreedy = []int32{330, 469, 504, 368, 316, 261, 393, 314, 265, 299, 399, 350, 284, 320, 502, 281, 355, 438, 451, 447, 427, 338, 333, 451, 330, 504, 309, 368, 261, 393, 314, 265, 299, 399, 350, 284, 490, 451, 447, 427, 338, 379, 497, 497, 485, 451, 330, 469, 261, 497, 349, 265, 304, 261, 497, 349, 265, 451, 447, 427, 338, 333, 451, 330, 504, 309, 368, 261, 393, 314, 265, 299, 399, 350, 284, 490, 270, 282, 451, 285, 304, 261, 497, 349, 265, 304, 261, 497, 349, 265, 304, 261, 497, 349, 265, 451, 285, 304, 261, 497, 349, 265, 304, 261, 497, 349, 265, 304, 261, 497, 349, 265, 320, 261, 265, 316, 442, 275, 288, 261, 496, 507, 339, 503, 288, 504, 507, 489, 276, 269, 497, 453, 304, 504, 368, 261, 314, 265, 299, 399, 350, 284, 269, 497, 453, 304, 504, 368, 261, 314, 265, 299, 399, 350, 284, 269, 497, 453, 304, 504, 368, 261, 314, 265, 299, 399, 350, 284, 269, 497, 453, 304, 504, 368, 261, 314, 265, 299, 399, 350, 284, 269, 497, 453, 304, 504, 368, 261, 314, 265, 299, 399, 350, 284, 269, 497, 453, 304, 504, 368}

// TestDefaultModelGreedyCPU runs gpurt's llama forward pass on the CPU and
// compares its greedy tokens with PyTorch's: the exporter, the conventions
// in README.md and the Go forward graph must all agree.
func TestDefaultModelGreedyCPU(t *testing.T) {
	f, err := gguf.Parse(Default)
	if err != nil {
		t.Fatal(err)
	}
	b, err := cpu.NewBackend(0)
	if err != nil {
		t.Fatal(err)
	}
	m, err := llama.Load(f, llama.Options{Backends: []runtime.Backend{b}})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	s, err := llama.NewSampler(llama.SamplerConfig{})
	if err != nil {
		t.Fatal(err)
	}
	out, _, err := m.Generate([]int32{m.Tok.BOS()}, len(pythonGreedy), s, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(out, pythonGreedy) {
		n := 0
		for n < min(len(out), len(pythonGreedy)) && out[n] == pythonGreedy[n] {
			n++
		}
		t.Errorf("greedy tokens differ from PyTorch's at %d of %d:\ngot  %q\nwant %q", n, len(pythonGreedy), m.Tok.Decode(out), m.Tok.Decode(pythonGreedy))
	}
}
