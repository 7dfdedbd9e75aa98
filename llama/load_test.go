package llama

import (
	"bytes"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gpurt/gpurt/gguf"
	rt "github.com/gpurt/gpurt/runtime"
)

// rewrite copies f with metadata changes (a nil value deletes the key)
// and without the tensors drop names, and parses the result.
func rewrite(t *testing.T, f *gguf.File, set map[string]any, drop func(name string) bool) *gguf.File {
	t.Helper()
	w := gguf.NewWriter()
	for _, kv := range f.KVs {
		if v, ok := set[kv.Key]; ok {
			if v != nil {
				if err := w.Set(kv.Key, v); err != nil {
					t.Fatal(err)
				}
			}
			continue
		}
		if err := w.Set(kv.Key, kv.Value.Interface()); err != nil {
			t.Fatal(err)
		}
	}
	for k, v := range set {
		if !f.Has(k) && v != nil {
			if err := w.Set(k, v); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, ti := range f.Tensors {
		if drop != nil && drop(ti.Name) {
			continue
		}
		data, err := f.TensorData(ti.Name)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.AddTensor(ti.Name, ti.Type, ti.Shape(), data); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if _, err := w.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	out, err := gguf.Parse(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestLoadRejectsInconsistentFiles: hyperparameters that disagree with the
// tensors give a clear error wrapping rt.ErrCorruptFile (or ErrUnsupported
// for an unknown architecture), before anything is sized by them: a huge
// block_count loads nothing rather than exhausting memory.
func TestLoadRejectsInconsistentFiles(t *testing.T) {
	readSynth(t)
	f := openSynth(t, "llama-f16.gguf")
	tokens, err := f.StringArray("tokenizer.ggml.tokens")
	if err != nil {
		t.Fatal(err)
	}
	notBlock1 := func(n string) bool { return strings.HasPrefix(n, "blk.1.") }
	cases := []struct {
		name string
		set  map[string]any
		drop func(string) bool
		want error
		msg  string
	}{
		{"block_count 1e9", map[string]any{"llama.block_count": uint32(1e9)}, nil, rt.ErrCorruptFile, "block_count is 1000000000 but the file has 2 blocks"},
		{"block_count 2^63-1", map[string]any{"llama.block_count": uint64(math.MaxInt64)}, nil, rt.ErrCorruptFile, "block_count"},
		{"block_count below the blocks", map[string]any{"llama.block_count": uint32(1)}, nil, rt.ErrCorruptFile, "block_count is 1 but the file has 2 blocks"},
		{"a block missing", nil, notBlock1, rt.ErrCorruptFile, "block_count is 2 but the file has 1 blocks"},
		{"vocab_size disagrees", map[string]any{"llama.vocab_size": uint32(600)}, nil, rt.ErrCorruptFile, "vocab_size = 600 disagrees with the 512 rows"},
		{"tokenizer smaller than the embedding", map[string]any{"tokenizer.ggml.tokens": tokens[:500], "tokenizer.ggml.scores": nil, "tokenizer.ggml.token_type": nil}, nil, rt.ErrCorruptFile, "the tokenizer has 500 tokens but token_embd.weight has 512 rows"},
		{"head count not dividing", map[string]any{"llama.attention.head_count_kv": uint32(3)}, nil, rt.ErrCorruptFile, "4 heads cannot share 3 KV heads"},
		{"huge context", map[string]any{"llama.context_length": uint64(1) << 40}, nil, rt.ErrCorruptFile, "context length"},
		{"NaN rope base", map[string]any{"llama.rope.freq_base": float32(math.NaN())}, nil, rt.ErrCorruptFile, "freq_base"},
		{"wrong ffn length", map[string]any{"llama.feed_forward_length": uint32(1 << 30)}, nil, rt.ErrCorruptFile, "ffn_gate.weight has shape [256 512], want [256 1073741824]"},
		{"unknown architecture", map[string]any{"general.architecture": "mamba9"}, nil, rt.ErrUnsupported, "supported: gemma2, gemma3, llama, phi3, qwen2, qwen3"},
		{"unknown rope scaling", map[string]any{"llama.rope.scaling.type": "spiral"}, nil, rt.ErrUnsupported, `rope scaling type "spiral"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			bad := rewrite(t, f, c.set, c.drop)
			m, err := Load(bad, Options{Backends: cpuBackends(t)})
			if err == nil {
				m.Close()
				t.Fatal("loaded")
			}
			if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.msg) {
				t.Fatalf("error %q, want one wrapping %v that says %q", err, c.want, c.msg)
			}
		})
	}
}

// TestMmapWeightsInPlace: on the CPU the weights are used in place from
// the file's memory map, and NoMmap copies them; both compute the same.
func TestMmapWeightsInPlace(t *testing.T) {
	readSynth(t)
	f := openSynth(t, "qwen3-f16.gguf")
	mapped := loadOn(t, f, cpuBackends(t), Options{NCtx: 64})
	copied := loadOn(t, f, cpuBackends(t), Options{NCtx: 64, NoMmap: true})
	if mapped.MappedWeights() == 0 || copied.MappedWeights() != 0 {
		t.Fatalf("mapped weights: %d with mmap, %d with NoMmap", mapped.MappedWeights(), copied.MappedWeights())
	}
	prompt := []int32{1, 304, 504, 368, 261}
	a, err := mapped.Eval(prompt, true)
	if err != nil {
		t.Fatal(err)
	}
	b, err := copied.Eval(prompt, true)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a, b) {
		t.Error("logits of mapped and copied weights differ")
	}
	t.Logf("%d of %d weight tensors used in place", mapped.MappedWeights(), len(f.Tensors))
}
