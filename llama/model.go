package llama

import (
	"errors"
	"fmt"

	"github.com/gpurt/gpurt/gguf"
	rt "github.com/gpurt/gpurt/runtime"
	"github.com/gpurt/gpurt/sched"
)

// Options control where a model's weights and cache live.
type Options struct {
	// Backends in priority order with the CPU last, as for sched.New.
	Backends []rt.Backend
	// GPULayers is how many blocks, counted from the last, go to the
	// backends before the CPU (llama.cpp's --gpu-layers), shared out in
	// contiguous runs. More than NLayer also offloads the output layer;
	// negative means everything.
	GPULayers int
	// KVType is the KV cache dtype: F16 (default) or F32.
	KVType rt.DType
	// NCtx caps the context length (default: the model's, at most 2048).
	NCtx int
	// RebuildGraphs builds and schedules a new graph for every Eval,
	// instead of running the last one again when the batch has its shape
	// (for checks and measurements; the results are the same).
	RebuildGraphs bool
}

// Model is a llama-architecture model loaded into backend memory.
type Model struct {
	H      Hparams
	Tok    *Tokenizer
	opts   Options
	sched  *sched.Scheduler
	nPast  int
	bufs   []rt.Buffer
	blocks []block

	tokEmbd, outNorm, output *rt.Tensor
	// Placement says which device holds each group of weights, for reports.
	Placement []string
	blockDevs []string

	// last is the graph allocated on sched, run again for batches of its
	// shape; builds counts the graphs built.
	last   *forward
	builds int
}

// Load reads hyperparameters, tokenizer and weights from f into backend
// memory. f may be closed after Load returns.
func Load(f *gguf.File, opts Options) (*Model, error) {
	if len(opts.Backends) == 0 {
		return nil, errors.New("llama: no backends given")
	}
	if opts.KVType == 0 {
		opts.KVType = rt.F16
	}
	if opts.KVType != rt.F16 && opts.KVType != rt.F32 {
		return nil, fmt.Errorf("llama: KV cache dtype %v is not f16 or f32", opts.KVType)
	}
	h, err := readHparams(f)
	if err != nil {
		return nil, err
	}
	if opts.NCtx > 0 && opts.NCtx <= h.NCtx {
		h.NCtx = opts.NCtx
	} else if h.NCtx > 2048 {
		h.NCtx = 2048
	}
	tok, err := NewTokenizer(f)
	if err != nil {
		return nil, err
	}
	m := &Model{H: h, Tok: tok, opts: opts}
	if err := m.loadWeights(f); err != nil {
		m.Close()
		return nil, err
	}
	s, err := sched.New(opts.Backends, nil, 8192, false, true)
	if err != nil {
		m.Close()
		return nil, err
	}
	m.sched = s
	return m, nil
}

// forward returns an allocated graph of shape s: the last one when it has
// that shape, else a new one, built, split and allocated.
func (m *Model) forward(s graphShape) (*forward, error) {
	if m.last != nil && m.last.shape == s && !m.opts.RebuildGraphs {
		return m.last, nil
	}
	m.last = nil
	m.builds++
	b, g, err := m.buildForward(rt.NewContext(), s)
	if err != nil {
		return nil, fmt.Errorf("llama: build graph: %w", err)
	}
	m.sched.Reset()
	if err := m.sched.AllocGraph(g); err != nil {
		return nil, fmt.Errorf("llama: %w", err)
	}
	m.last = &forward{shape: s, b: b, g: g}
	return m.last, nil
}

func readHparams(f *gguf.File) (Hparams, error) {
	var h Hparams
	if arch, err := f.String("general.architecture"); err != nil {
		return h, fmt.Errorf("llama: %w", err)
	} else if arch != "llama" {
		return h, fmt.Errorf("llama: architecture %q is not llama", arch)
	}
	ints := []struct {
		key string
		dst *int
		def int
	}{
		{"llama.embedding_length", &h.NEmbd, -1},
		{"llama.block_count", &h.NLayer, -1},
		{"llama.attention.head_count", &h.NHead, -1},
		{"llama.attention.head_count_kv", &h.NHeadKV, 0},
		{"llama.feed_forward_length", &h.NFF, -1},
		{"llama.context_length", &h.NCtx, 2048},
		{"llama.rope.dimension_count", &h.RopeDims, 0},
	}
	for _, k := range ints {
		v, err := f.Int(k.key)
		if err != nil {
			if k.def < 0 {
				return h, fmt.Errorf("llama: %w", err)
			}
			v = k.def
		}
		*k.dst = v
	}
	if h.NHeadKV == 0 {
		h.NHeadKV = h.NHead
	}
	if h.NHead > 0 {
		h.HeadDim = h.NEmbd / h.NHead
	}
	if h.RopeDims == 0 {
		h.RopeDims = h.HeadDim
	}
	h.RopeBase = 10000
	if v, err := f.Float32("llama.rope.freq_base"); err == nil {
		h.RopeBase = v
	}
	eps, err := f.Float32("llama.attention.layer_norm_rms_epsilon")
	if err != nil {
		return h, fmt.Errorf("llama: %w", err)
	}
	h.NormEps = eps
	emb, ok := f.Tensor("token_embd.weight")
	if !ok {
		return h, errors.New("llama: token_embd.weight is missing")
	}
	h.NVocab = emb.Ne[1]
	return h, h.Validate()
}

// Close frees the model's buffers and scheduler.
func (m *Model) Close() error {
	var errs []error
	m.last = nil
	if m.sched != nil {
		errs = append(errs, m.sched.Close())
		m.sched = nil
	}
	for _, b := range m.bufs {
		errs = append(errs, b.Free())
	}
	m.bufs = nil
	return errors.Join(errs...)
}

// Splits is the number of graph splits in the last evaluation.
func (m *Model) Splits() int { return m.sched.NSplits() }

// Scheduler exposes the model's scheduler, for reports and tests.
func (m *Model) Scheduler() *sched.Scheduler { return m.sched }

// NPast is the number of tokens in the KV cache.
func (m *Model) NPast() int { return m.nPast }

// ResetCache forgets every token; the next Eval starts at position 0.
func (m *Model) ResetCache() { m.nPast = 0 }

// Eval appends tokens at the current position and returns the logits of the
// last token (or of every token, row-major [len(tokens)][NVocab], with all).
func (m *Model) Eval(tokens []int32, all bool) ([]float32, error) {
	n := len(tokens)
	if n == 0 {
		return nil, errors.New("llama: no tokens to evaluate")
	}
	if m.nPast+n > m.H.NCtx {
		return nil, fmt.Errorf("llama: %d tokens after %d exceed the context of %d: %w", n, m.nPast, m.H.NCtx, rt.ErrContextFull)
	}
	for _, t := range tokens {
		if t < 0 || int(t) >= m.H.NVocab {
			return nil, fmt.Errorf("llama: token id %d is outside the vocabulary of %d", t, m.H.NVocab)
		}
	}
	f, err := m.forward(m.shapeFor(n, m.nPast, all))
	if err != nil {
		return nil, err
	}
	if err := f.b.fill(tokens, m.nPast); err != nil {
		return nil, fmt.Errorf("llama: inputs: %w", err)
	}
	if err := m.sched.GraphCompute(f.g); err != nil {
		m.last = nil // the scheduler's state is unknown: schedule afresh
		return nil, fmt.Errorf("llama: %w", err)
	}
	logits, err := f.b.readLogits()
	if err != nil {
		return nil, fmt.Errorf("llama: logits: %w", err)
	}
	m.nPast += n
	return logits, nil
}
