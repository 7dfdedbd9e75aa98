package llama

import (
	"fmt"
	"math"

	"github.com/gpurt/gpurt/gguf"
	rt "github.com/gpurt/gpurt/runtime"
)

// RopeScaling names how positions are stretched beyond the trained context
// (ARCH.rope.scaling.type).
type RopeScaling string

const (
	RopeScalingNone     RopeScaling = "none"
	RopeScalingLinear   RopeScaling = "linear"
	RopeScalingYaRN     RopeScaling = "yarn"
	RopeScalingLongRoPE RopeScaling = "longrope"
)

// Norm is the kind of normalization an architecture uses.
type Norm int

const (
	NormRMS   Norm = iota // RMSNorm (llama, qwen, gemma, phi3)
	NormLayer             // LayerNorm with weight and optional bias
)

// maxContext bounds ARCH.context_length: a larger value is a corrupt file
// rather than a context worth allocating a cache for.
const maxContext = 1 << 24

// Hparams are a model's hyperparameters, from the ARCH.* GGUF keys with the
// architecture's defaults, checked against the tensors in the file.
type Hparams struct {
	Arch     string // general.architecture
	NEmbd    int    // ARCH.embedding_length
	NLayer   int    // ARCH.block_count
	NHead    int    // ARCH.attention.head_count
	NHeadKV  int    // ARCH.attention.head_count_kv (GQA when < NHead)
	HeadDim  int    // ARCH.attention.key_length (default NEmbd / NHead)
	HeadDimV int    // ARCH.attention.value_length (default HeadDim)
	NFF      int    // ARCH.feed_forward_length
	NVocab   int    // rows of token_embd.weight
	// NCtxTrain is ARCH.context_length; NCtx the context in use (Options.NCtx).
	NCtxTrain, NCtx int

	RopeDims     int         // ARCH.rope.dimension_count (default HeadDim)
	RopeMode     int         // rt.RopeNormal or rt.RopeNeox, by architecture
	RopeBase     float32     // ARCH.rope.freq_base
	RopeBaseSWA  float32     // ARCH.rope.freq_base_swa: local layers (gemma3)
	RopeScaling  RopeScaling // ARCH.rope.scaling.type
	RopeScale    float32     // freq_scale = 1 / ARCH.rope.scaling.factor
	RopeOrigCtx  int         // ARCH.rope.scaling.original_context_length
	YarnExt      float32     // YaRN ext_factor (1 with YaRN scaling, else 0)
	YarnAttn     float32     // ARCH.rope.scaling.attn_factor (default 1)
	YarnBetaFast float32     // 32, as llama.cpp
	YarnBetaSlow float32     // 1

	Norm    Norm
	NormEps float32 // ARCH.attention.layer_norm_rms_epsilon (or layer_norm_epsilon)

	// SlidingWindow is ARCH.attention.sliding_window (0: none); local layers
	// are those with il % SWAPattern < SWAPattern-1.
	SlidingWindow, SWAPattern int
	AttnSoftcap               float32 // ARCH.attn_logit_softcapping (0: none)
	FinalSoftcap              float32 // ARCH.final_logit_softcapping (0: none)
	AttnScale                 float32 // scale of QK^T (default 1/sqrt(HeadDim))
	EmbdScale                 float32 // token embeddings are multiplied by it (0: not)
}

// NEmbdKV is the width of one token's keys over all KV heads.
func (h Hparams) NEmbdKV() int { return h.HeadDim * h.NHeadKV }

// NEmbdVKV is the width of one token's values over all KV heads.
func (h Hparams) NEmbdVKV() int { return h.HeadDimV * h.NHeadKV }

// IsLocal says whether layer il attends over the sliding window only.
func (h Hparams) IsLocal(il int) bool {
	return h.SlidingWindow > 0 && h.SWAPattern > 1 && il%h.SWAPattern < h.SWAPattern-1
}

// Validate rejects hyperparameters the graph cannot be built from.
func (h Hparams) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("llama: %w: "+format, append([]any{rt.ErrCorruptFile}, args...)...)
	}
	switch {
	case h.NEmbd <= 0 || h.NLayer <= 0 || h.NHead <= 0 || h.NFF <= 0 || h.NVocab <= 0:
		return bad("hyperparameters must be positive: embedding %d, blocks %d, heads %d, ffn %d, vocab %d", h.NEmbd, h.NLayer, h.NHead, h.NFF, h.NVocab)
	case h.HeadDim <= 0 || h.HeadDimV <= 0:
		return bad("head size %d/%d (key/value) must be positive", h.HeadDim, h.HeadDimV)
	case h.NHeadKV <= 0 || h.NHead%h.NHeadKV != 0:
		return bad("%d heads cannot share %d KV heads", h.NHead, h.NHeadKV)
	case h.RopeDims <= 0 || h.RopeDims > h.HeadDim || h.RopeDims%2 != 0:
		return bad("rope dimension count %d does not fit head size %d", h.RopeDims, h.HeadDim)
	case h.NCtxTrain <= 0 || h.NCtxTrain > maxContext:
		return bad("context length %d is outside 1..%d", h.NCtxTrain, maxContext)
	case !(h.RopeBase > 0) || math.IsInf(float64(h.RopeBase), 0) || !(h.RopeBaseSWA > 0):
		return bad("rope freq_base %g (local layers %g) must be positive and finite", h.RopeBase, h.RopeBaseSWA)
	case !(h.RopeScale > 0) || math.IsInf(float64(h.RopeScale), 0):
		return bad("rope freq_scale %g must be positive and finite", h.RopeScale)
	case !(h.NormEps >= 0) || h.NormEps > 1:
		return bad("norm epsilon %g is not in [0, 1]", h.NormEps)
	case h.SlidingWindow < 0 || h.SWAPattern < 0:
		return bad("sliding window %d / pattern %d cannot be negative", h.SlidingWindow, h.SWAPattern)
	case !(h.AttnSoftcap >= 0) || !(h.FinalSoftcap >= 0):
		return bad("softcaps %g / %g must be non-negative", h.AttnSoftcap, h.FinalSoftcap)
	}
	return nil
}

// keys reads ARCH.* values with defaults, recording the first error.
type keys struct {
	f    *gguf.File
	arch string
	err  error
}

func (k *keys) name(key string) string { return k.arch + "." + key }

// int returns ARCH.key, or def when absent; def < 0 makes the key required.
func (k *keys) int(key string, def int) int {
	full := k.name(key)
	if !k.f.Has(full) {
		if def < 0 && k.err == nil {
			k.err = fmt.Errorf("llama: %w: key %s is missing", rt.ErrCorruptFile, full)
		}
		return def
	}
	v, err := k.f.Int(full)
	if err != nil && k.err == nil {
		k.err = fmt.Errorf("llama: %w: %w", rt.ErrCorruptFile, err)
	}
	return v
}

func (k *keys) float(key string, def float32) float32 {
	full := k.name(key)
	if !k.f.Has(full) {
		return def
	}
	v, err := k.f.Float32(full)
	if err != nil && k.err == nil {
		k.err = fmt.Errorf("llama: %w: %w", rt.ErrCorruptFile, err)
	}
	return v
}

func (k *keys) str(key, def string) string {
	full := k.name(key)
	if !k.f.Has(full) {
		return def
	}
	v, err := k.f.String(full)
	if err != nil && k.err == nil {
		k.err = fmt.Errorf("llama: %w: %w", rt.ErrCorruptFile, err)
	}
	return v
}

// readHparams reads the keys every architecture shares; the architecture's
// configure then sets its own defaults and keys.
func readHparams(f *gguf.File, a *Architecture) (Hparams, error) {
	k := &keys{f: f, arch: a.Name}
	h := Hparams{Arch: a.Name}
	h.NEmbd = k.int("embedding_length", -1)
	h.NLayer = k.int("block_count", -1)
	h.NHead = k.int("attention.head_count", -1)
	h.NHeadKV = k.int("attention.head_count_kv", 0)
	h.NFF = k.int("feed_forward_length", -1)
	h.NCtxTrain = k.int("context_length", 2048)
	if h.NHeadKV == 0 {
		h.NHeadKV = h.NHead
	}
	if h.NHead > 0 {
		h.HeadDim = k.int("attention.key_length", h.NEmbd/h.NHead)
	}
	h.HeadDimV = k.int("attention.value_length", h.HeadDim)
	h.RopeDims = k.int("rope.dimension_count", h.HeadDim)
	h.RopeMode = a.RopeMode
	h.RopeBase = k.float("rope.freq_base", 10000)
	h.RopeBaseSWA = k.float("rope.freq_base_swa", 10000)
	h.RopeScaling = RopeScaling(k.str("rope.scaling.type", string(RopeScalingNone)))
	h.RopeScale = 1
	if factor := k.float("rope.scaling.factor", 0); factor != 0 && h.RopeScaling != RopeScalingNone {
		h.RopeScale = 1 / factor
	} else if s := k.float("rope.scale_linear", 0); s != 0 {
		h.RopeScaling, h.RopeScale = RopeScalingLinear, 1/s
	}
	switch h.RopeScaling {
	case RopeScalingNone, RopeScalingLinear, RopeScalingLongRoPE:
	case RopeScalingYaRN:
		h.YarnExt = 1
	default:
		return h, fmt.Errorf("llama: %w: rope scaling type %q (known: none, linear, yarn, longrope)", rt.ErrUnsupported, h.RopeScaling)
	}
	h.RopeOrigCtx = k.int("rope.scaling.original_context_length", h.NCtxTrain)
	h.YarnAttn = k.float("rope.scaling.attn_factor", 1)
	h.YarnBetaFast, h.YarnBetaSlow = 32, 1
	if f.Has(k.name("attention.layer_norm_rms_epsilon")) {
		h.Norm, h.NormEps = NormRMS, k.float("attention.layer_norm_rms_epsilon", 0)
	} else if f.Has(k.name("attention.layer_norm_epsilon")) {
		h.Norm, h.NormEps = NormLayer, k.float("attention.layer_norm_epsilon", 0)
	} else {
		k.err = fmt.Errorf("llama: %w: key %s is missing", rt.ErrCorruptFile, k.name("attention.layer_norm_rms_epsilon"))
	}
	h.SlidingWindow = k.int("attention.sliding_window", 0)
	h.SWAPattern = k.int("attention.sliding_window_pattern", 0)
	h.AttnSoftcap = k.float("attn_logit_softcapping", 0)
	h.FinalSoftcap = k.float("final_logit_softcapping", 0)
	if a.Configure != nil {
		a.Configure(&h, k)
	}
	if k.err != nil {
		return h, k.err
	}
	if h.AttnScale == 0 && h.HeadDim > 0 {
		h.AttnScale = float32(1 / math.Sqrt(float64(h.HeadDim)))
	}
	emb, ok := f.Tensor("token_embd.weight")
	if !ok {
		return h, fmt.Errorf("llama: %w: tensor token_embd.weight is missing", rt.ErrCorruptFile)
	}
	h.NVocab = emb.Ne[1]
	if v := k.int("vocab_size", 0); v != 0 && v != h.NVocab {
		return h, fmt.Errorf("llama: %w: %s = %d disagrees with the %d rows of token_embd.weight", rt.ErrCorruptFile, k.name("vocab_size"), v, h.NVocab)
	}
	if k.err != nil {
		return h, k.err
	}
	return h, h.Validate()
}

// ReadHparams reads and checks the hyperparameters of f's architecture
// without loading anything (for choosing a context before Load).
func ReadHparams(f *gguf.File) (Hparams, error) {
	name, err := f.String("general.architecture")
	if err != nil {
		return Hparams{}, fmt.Errorf("llama: %w: %w", rt.ErrCorruptFile, err)
	}
	a, err := lookupArch(name)
	if err != nil {
		return Hparams{}, err
	}
	h, err := readHparams(f, a)
	h.NCtx = h.NCtxTrain
	return h, err
}

// KVBytesPerToken is the KV cache memory one token takes with cache dtype kv.
func (h Hparams) KVBytesPerToken(kv rt.DType) int {
	return h.NLayer * (kv.RowSize(h.NEmbdKV()) + kv.RowSize(h.NEmbdVKV()))
}
