package llama

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
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
	readSynthExpected(t)
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
	readSynthExpected(t)
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

// TestHparamsFromKeys: the ARCH.* keys and the architectures' defaults
// give the hyperparameters the blocks use.
func TestHparamsFromKeys(t *testing.T) {
	readSynthExpected(t)
	cases := []struct {
		file  string
		set   map[string]any
		check func(h Hparams) bool
		what  string
	}{
		{"llama-f16.gguf", nil, func(h Hparams) bool {
			return h.HeadDim == 64 && h.HeadDimV == 64 && h.RopeMode == rt.RopeNormal && h.RopeScale == 1 && h.YarnExt == 0 && h.NormEps == 1e-5 && !h.IsLocal(0)
		}, "llama defaults: head 64, normal rope, no scaling"},
		{"llama3-f16.gguf", nil, func(h Hparams) bool {
			return h.RopeScaling == RopeScalingLinear && h.RopeScale == 0.5 && h.RopeBase == 5e5 && h.NHeadKV == 1
		}, "llama3: linear scaling factor 2, base 5e5, 1 KV head"},
		{"llama-f16.gguf", map[string]any{"llama.rope.scaling.type": "yarn", "llama.rope.scaling.factor": float32(4), "llama.rope.scaling.original_context_length": uint32(128)}, func(h Hparams) bool {
			return h.RopeScaling == RopeScalingYaRN && h.RopeScale == 0.25 && h.YarnExt == 1 && h.RopeOrigCtx == 128 && h.YarnBetaFast == 32 && h.YarnBetaSlow == 1
		}, "YaRN: ext_factor 1, original context, betas"},
		{"qwen3-f16.gguf", nil, func(h Hparams) bool { return h.RopeMode == rt.RopeNeox && h.RopeBase == 1e6 && h.NormEps == 1e-6 }, "qwen3: NEOX, base 1e6"},
		{"gemma2-f16.gguf", nil, func(h Hparams) bool {
			return h.EmbdScale == 16 && h.AttnSoftcap == 50 && h.FinalSoftcap == 30 && h.SlidingWindow == 32 && h.IsLocal(0) && !h.IsLocal(1)
		}, "gemma2: embedding x16, softcaps 50/30, window 32 on even layers"},
		{"gemma3-f16.gguf", map[string]any{"gemma3.attention.sliding_window_pattern": nil}, func(h Hparams) bool {
			return h.SWAPattern == 6 && h.IsLocal(0) && h.IsLocal(4) && !h.IsLocal(5) && h.RopeBaseSWA == 10000 && h.RopeScale == 0.125 && h.AttnSoftcap == 0
		}, "gemma3: default 5:1 pattern, local base 1e4, global scale 1/8, no softcap"},
		{"gemma2-f16.gguf", map[string]any{"gemma2.block_count": uint32(46), "gemma2.attention.key_length": uint32(32), "gemma2.rope.dimension_count": uint32(32)}, nil, "gemma2 27B: attention scale 1/sqrt(n_embd/n_head)"},
		{"phi3-f16.gguf", nil, func(h Hparams) bool {
			return h.SlidingWindow == 0 && h.RopeMode == rt.RopeNeox && h.RopeOrigCtx == 4096
		}, "phi3: no SWA (as llama.cpp), NEOX"},
	}
	for _, c := range cases {
		t.Run(c.what, func(t *testing.T) {
			f := openSynth(t, c.file)
			if c.set != nil {
				f = rewrite(t, f, c.set, nil)
			}
			if c.check == nil { // hyperparameters only: the tensors do not fit them
				h, err := ReadHparams(f)
				if err != nil || h.AttnScale != 1/sqrtf(256/4) || h.HeadDim != 32 {
					t.Errorf("%s: %v, hparams %+v", c.what, err, h)
				}
				return
			}
			m := loadOn(t, f, cpuBackends(t), Options{NCtx: 32})
			if !c.check(m.H) {
				t.Errorf("%s: hparams %+v", c.what, m.H)
			}
		})
	}
}

// TestLoadOptions: the context is the trained one by default and may not
// exceed it; the progress callback ends at the total; biases on a llama
// file are bound.
func TestLoadOptions(t *testing.T) {
	readSynthExpected(t)
	f := openSynth(t, "llama-f16.gguf")
	m := loadOn(t, f, cpuBackends(t), Options{})
	if m.H.NCtx != 512 || m.H.NCtxTrain != 512 {
		t.Errorf("default context %d (trained %d), want 512", m.H.NCtx, m.H.NCtxTrain)
	}
	if _, err := Load(f, Options{Backends: cpuBackends(t), NCtx: 513}); !errors.Is(err, rt.ErrInvalidArgument) {
		t.Errorf("a context over the trained one: error %v, want ErrInvalidArgument", err)
	}
	var calls int
	var last, total int64
	loadOn(t, f, cpuBackends(t), Options{NCtx: 16, Progress: func(d, tot int64) { calls, last, total = calls+1, d, tot }})
	if calls == 0 || last != total || total < 2<<20 {
		t.Errorf("progress: %d calls, last %d of %d bytes", calls, last, total)
	}
	// A llama file with attention biases (as some fine-tunes have).
	// qwen2's keys renamed to llama.*: its q/k/v biases on a llama file.
	q := openSynth(t, "qwen2-f16.gguf")
	w := gguf.NewWriter()
	for _, kv := range q.KVs {
		key, v := strings.Replace(kv.Key, "qwen2.", "llama.", 1), kv.Value.Interface()
		if key == "general.architecture" {
			v = "llama"
		}
		if err := w.Set(key, v); err != nil {
			t.Fatal(err)
		}
	}
	for _, ti := range q.Tensors {
		data, _ := q.TensorData(ti.Name)
		if err := w.AddTensor(ti.Name, ti.Type, ti.Shape(), data); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if _, err := w.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	lf, err := gguf.Parse(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	lm := loadOn(t, lf, cpuBackends(t), Options{NCtx: 16})
	if l := lm.layers[0].(*llamaLayer); l.Attn.BQ == nil || l.Attn.BK == nil || l.Attn.BV == nil {
		t.Error("llama: attention biases present in the file are not bound")
	}
}

// TestRopeFactorsBound: per-frequency factors divide the rotation angles,
// so uniform factors of 2 (Phi-3's LongRoPE short factors, or Llama 3's
// rope_freqs) compute what linear scaling by 2 computes; the LongRoPE
// long factors apply only past the original context.
func TestRopeFactorsBound(t *testing.T) {
	readSynthExpected(t)
	twos := make([]float32, 32)
	for i := range twos {
		twos[i] = 2
	}
	withFactors := func(t *testing.T, base *gguf.File, set map[string]any, names ...string) *gguf.File {
		f := rewrite(t, base, set, nil)
		w := gguf.NewWriter()
		for _, kv := range f.KVs {
			w.Set(kv.Key, kv.Value.Interface())
		}
		for _, ti := range f.Tensors {
			data, _ := f.TensorData(ti.Name)
			w.AddTensor(ti.Name, ti.Type, ti.Shape(), data)
		}
		for _, n := range names {
			if err := w.AddTensorF32(n, rt.F32, []int{32}, twos); err != nil {
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
	prompt := []int32{1, 304, 504, 368, 261, 259, 502, 325, 492, 352}
	eval := func(t *testing.T, f *gguf.File, nCtx int) []float32 {
		m := loadOn(t, f, cpuBackends(t), Options{NCtx: nCtx})
		out, err := m.Eval(prompt, true)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	linear2 := map[string]any{"rope.scaling.type": "linear", "rope.scaling.factor": float32(2)}
	prefixed := func(arch string, kv map[string]any) map[string]any {
		out := map[string]any{}
		for k, v := range kv {
			out[arch+"."+k] = v
		}
		return out
	}
	t.Run("phi3 LongRoPE short", func(t *testing.T) {
		phi := openSynth(t, "phi3-f16.gguf")
		scaled := eval(t, rewrite(t, phi, prefixed("phi3", linear2), nil), 64)
		long := withFactors(t, phi, map[string]any{"phi3.rope.scaling.type": "longrope", "phi3.rope.scaling.original_context_length": uint32(256)}, "rope_factors_short.weight")
		if d := maxRelDiff(eval(t, long, 64), scaled); d > 1e-5 {
			t.Errorf("short factors of 2 differ from linear scaling by 2: %.3g", d)
		}
		// Past the original context the long factors (absent: none) apply.
		plain := eval(t, phi, 512)
		if d := maxRelDiff(eval(t, long, 512), plain); d > 1e-5 {
			t.Errorf("past the original context the short factors still apply: %.3g", d)
		}
	})
	t.Run("llama rope_freqs", func(t *testing.T) {
		l := openSynth(t, "llama-f16.gguf")
		scaled := eval(t, rewrite(t, l, prefixed("llama", linear2), nil), 64)
		freqs := withFactors(t, l, nil, "rope_freqs.weight")
		if d := maxRelDiff(eval(t, freqs, 64), scaled); d > 1e-5 {
			t.Errorf("rope_freqs of 2 differ from linear scaling by 2: %.3g", d)
		}
	})
}

// TestHeadSizeFromKeyLength: a llama file whose head size is not
// n_embd/n_head (Mistral-Nemo's 5120/32 with heads of 128) loads with the
// head size of attention.key_length, and a prompt batch agrees with the
// same tokens one at a time.
func TestHeadSizeFromKeyLength(t *testing.T) {
	readSynthExpected(t)
	src := openSynth(t, "llama-f16.gguf")
	const embd, heads, kvHeads, head, ff = 64, 2, 1, 48, 96
	w := gguf.NewWriter()
	for _, kv := range src.KVs {
		if strings.HasPrefix(kv.Key, "tokenizer.") || kv.Key == "general.architecture" {
			if err := w.Set(kv.Key, kv.Value.Interface()); err != nil {
				t.Fatal(err)
			}
		}
	}
	for k, v := range map[string]any{
		"llama.embedding_length": uint32(embd), "llama.block_count": uint32(1), "llama.context_length": uint32(64),
		"llama.feed_forward_length": uint32(ff), "llama.attention.head_count": uint32(heads),
		"llama.attention.head_count_kv": uint32(kvHeads), "llama.attention.key_length": uint32(head),
		"llama.attention.value_length": uint32(head), "llama.rope.dimension_count": uint32(head),
		"llama.attention.layer_norm_rms_epsilon": float32(1e-5),
	} {
		if err := w.Set(k, v); err != nil {
			t.Fatal(err)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	add := func(name string, scale float32, ne ...int) {
		n := 1
		for _, d := range ne {
			n *= d
		}
		v := make([]float32, n)
		for i := range v {
			v[i] = scale * float32(rng.NormFloat64())
			if scale == 0 {
				v[i] = 1
			}
		}
		if err := w.AddTensorF32(name, rt.F32, ne, v); err != nil {
			t.Fatal(err)
		}
	}
	add("token_embd.weight", 0.1, embd, 512)
	add("output_norm.weight", 0, embd)
	add("output.weight", 0.1, embd, 512)
	add("blk.0.attn_norm.weight", 0, embd)
	add("blk.0.attn_q.weight", 0.1, embd, heads*head)
	add("blk.0.attn_k.weight", 0.1, embd, kvHeads*head)
	add("blk.0.attn_v.weight", 0.1, embd, kvHeads*head)
	add("blk.0.attn_output.weight", 0.1, heads*head, embd)
	add("blk.0.ffn_norm.weight", 0, embd)
	add("blk.0.ffn_gate.weight", 0.1, embd, ff)
	add("blk.0.ffn_up.weight", 0.1, embd, ff)
	add("blk.0.ffn_down.weight", 0.1, ff, embd)
	var buf bytes.Buffer
	if _, err := w.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	f, err := gguf.Parse(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	m := loadOn(t, f, cpuBackends(t), Options{})
	if m.H.HeadDim != head || m.H.NEmbd/m.H.NHead == head {
		t.Fatalf("head size %d, want %d (not %d/%d)", m.H.HeadDim, head, embd, heads)
	}
	prompt := []int32{1, 304, 504, 368, 261, 259}
	batch, err := m.Eval(prompt, true)
	if err != nil {
		t.Fatal(err)
	}
	m.ResetCache()
	nv := m.H.NVocab
	for i, tok := range prompt {
		single, err := m.Eval([]int32{tok}, false)
		if err != nil {
			t.Fatal(err)
		}
		if d := maxRelDiff(single, batch[i*nv:(i+1)*nv]); d > 1e-4 || math.IsNaN(d) {
			t.Fatalf("token %d: batch and single-token logits differ by %.3g", i, d)
		}
	}
}

// TestReadHparamsBeforeLoad: the hyperparameters and the KV cache's size
// per token are known before loading, for every architecture.
func TestReadHparamsBeforeLoad(t *testing.T) {
	readSynthExpected(t)
	for _, arch := range synthArchs {
		f := openSynth(t, arch+"-f16.gguf")
		h, err := ReadHparams(f)
		if err != nil {
			t.Fatalf("%s: %v", arch, err)
		}
		m := loadOn(t, f, cpuBackends(t), Options{NCtx: 32})
		var cacheBytes int
		for _, l := range m.cache.layers {
			cacheBytes += l.k.Nbytes() + l.v.Nbytes()
		}
		if got := h.KVBytesPerToken(rt.F16) * 32; h.NLayer != m.H.NLayer || got != cacheBytes {
			t.Errorf("%s: %d blocks, %d KV bytes for 32 tokens; the loaded model has %d blocks and a %d-byte cache", arch, h.NLayer, got, m.H.NLayer, cacheBytes)
		}
	}
}
