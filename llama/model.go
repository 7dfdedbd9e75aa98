package llama

import (
	"errors"
	"fmt"

	"github.com/gpurt/gpurt/gguf"
	rt "github.com/gpurt/gpurt/runtime"
	"github.com/gpurt/gpurt/sched"
)

// PipelineParallel runs the scheduler with pipeline parallelism (several
// copies of every split input, so a split's copies overlap the previous
// split's compute) when a model spans more than one backend, as llama.cpp
// does. It is a variable so that measurements can compare both.
var PipelineParallel = true

// Options control where a model's weights and cache live.
type Options struct {
	// Backends in priority order with the CPU last, as for sched.New.
	Backends []rt.Backend
	// GPULayers is how many blocks, counted from the last, go to the
	// backends before the CPU (llama.cpp's --gpu-layers), shared out in
	// contiguous runs. More than NLayer also offloads the output layer;
	// negative means everything.
	GPULayers int
	// TensorSplit gives the proportion of the offloaded blocks each
	// backend before the CPU receives, in order (llama.cpp's
	// --tensor-split 3,1); missing entries are 0. Nil shares them evenly.
	TensorSplit []float64
	// KVType is the KV cache dtype: F16 (default), F32 or Q8_0.
	KVType rt.DType
	// KVPad is the step, in cells, by which the part of the cache a graph
	// attends over grows (llama.cpp's KV padding; default 32): the graph for
	// one token keeps its shape, and runs again without being rebuilt (or,
	// on an RPC device, sent again), for KVPad positions, while attending
	// over up to KVPad-1 masked cells. llama.cpp pads by 256; on the
	// loopback RPC benchmark 32 was faster (rpc/doc.go), though 256 sends
	// fewer bytes per token for some models.
	KVPad int
	// NCtx is the number of KV cache cells, shared by all sequences
	// (default and maximum: the model's trained context).
	NCtx int
	// NSeq is the number of sequences a Batch may use (default 1). With
	// more than one, each sequence has its own NCtx/NSeq cells of the
	// cache (llama.cpp's default, non-unified cache), and the tokens of
	// several sequences in one batch attend to their own cells in one
	// batched product.
	NSeq int
	// FlashAttn computes attention with FLASH_ATTN_EXT, which never stores
	// the scores of every query against every cached key (values are then
	// kept as rows, not transposed).
	FlashAttn bool
	// NoMmap copies the weights into backend buffers even on the CPU,
	// instead of using them in place from the memory-mapped file.
	NoMmap bool
	// Progress, if set, is called as weights load with the bytes done and
	// the total.
	Progress func(done, total int64)
	// RebuildGraphs builds and schedules a new graph for every Eval,
	// instead of running the last one again when the batch has its shape
	// (for checks and measurements; the results are the same).
	RebuildGraphs bool
	// Profile, if set, receives the time of each decode's phases outside
	// the backends' ops (graph build and allocation, input copies, compute,
	// output copies) and of sampling in Generate, one step per decode.
	// Backends implementing rt.Profiled time their ops into it when the
	// caller sets it on them too.
	Profile *rt.Profile
}

// Model is a model of any registered architecture loaded into backend memory.
type Model struct {
	H    Hparams
	Tok  *Tokenizer
	opts Options
	arch *Architecture
	bufs []rt.Buffer

	w      modelWeights
	layers []any // the architecture's layer structs
	cache  kvCache
	places []*placement
	mapped int // weights used in place from the file

	// Placement says which device holds each group of weights, for reports.
	Placement []string
	blockDevs []string

	nPast int // the next position of sequence 0, for Eval

	// The last Decode's logits: outRow[i] is batch token i's row, or -1.
	logits []float32
	outRow []int
	sc     scratch

	// Decode steps (one token per sequence) and every other batch (prompt
	// chunks, embeddings) have a scheduler each, with its own compute
	// buffers, so that a prompt evaluated between decode steps (a request
	// joining the server's slots, a chat turn) does not evict the decode
	// steps' graph: building and allocating one costs about as much as a
	// step of a small model. last[k] is the graph allocated on scheds[k],
	// run again for batches of its shape; builds counts the graphs built.
	scheds   [graphKinds]*sched.Scheduler
	last     [graphKinds]*forward
	lastKind graphKind // the kind of the last evaluation, for Splits
	builds   int
}

// Load reads hyperparameters, tokenizer and weights from f into backend
// memory. On the CPU the weights are used in place from f's memory map
// (unless Options.NoMmap), so f must stay open until the model is closed.
func Load(f *gguf.File, opts Options) (*Model, error) {
	if len(opts.Backends) == 0 {
		return nil, fmt.Errorf("llama: %w: no backends given", rt.ErrInvalidArgument)
	}
	if err := ValidateTensorSplit(opts.TensorSplit, len(opts.Backends)-1); err != nil {
		return nil, err
	}
	if opts.KVType == 0 {
		opts.KVType = rt.F16
	}
	switch opts.KVType {
	case rt.F16, rt.F32, rt.Q8_0:
	default:
		return nil, fmt.Errorf("llama: %w: KV cache dtype %v is not f16, f32 or q8_0", rt.ErrInvalidArgument, opts.KVType)
	}
	if opts.NSeq == 0 {
		opts.NSeq = 1
	}
	if opts.NSeq < 0 || opts.NCtx < 0 || opts.KVPad < 0 {
		return nil, fmt.Errorf("llama: %w: NSeq %d, NCtx %d and KVPad %d cannot be negative", rt.ErrInvalidArgument, opts.NSeq, opts.NCtx, opts.KVPad)
	}
	h, err := ReadHparams(f)
	if err != nil {
		return nil, err
	}
	arch := architectures[h.Arch]
	if opts.NCtx > h.NCtxTrain {
		return nil, fmt.Errorf("llama: %w: context %d exceeds the model's trained context of %d", rt.ErrInvalidArgument, opts.NCtx, h.NCtxTrain)
	} else if opts.NCtx > 0 {
		h.NCtx = opts.NCtx
	}
	tok, err := NewTokenizer(f)
	if err != nil {
		return nil, err
	}
	if tok.NVocab() < h.NVocab {
		return nil, fmt.Errorf("llama: %w: the tokenizer has %d tokens but token_embd.weight has %d rows", rt.ErrCorruptFile, tok.NVocab(), h.NVocab)
	}
	m := &Model{H: h, Tok: tok, opts: opts, arch: arch}
	if err := m.loadWeights(f); err != nil {
		m.Close()
		return nil, err
	}
	parallel := PipelineParallel && len(m.places) > 1
	for k := range m.scheds {
		s, err := sched.New(opts.Backends, nil, 8192, parallel, true)
		if err != nil {
			m.Close()
			return nil, err
		}
		m.scheds[k] = s
	}
	return m, nil
}

// Close frees the model's buffers and scheduler.
func (m *Model) Close() error {
	var errs []error
	m.last = [graphKinds]*forward{}
	for k, s := range m.scheds {
		if s != nil {
			errs = append(errs, s.Close())
			m.scheds[k] = nil
		}
	}
	for _, b := range m.bufs {
		errs = append(errs, b.Free())
	}
	m.bufs = nil
	return errors.Join(errs...)
}

// Architecture is the model's general.architecture.
func (m *Model) Architecture() string { return m.arch.Name }

// MappedWeights is how many weight tensors are used in place from the file.
func (m *Model) MappedWeights() int { return m.mapped }

// Splits is the number of graph splits in the last evaluation.
func (m *Model) Splits() int { return m.scheds[m.lastKind].NSplits() }

// Scheduler exposes the scheduler of decode steps (one token per
// sequence), for reports and tests; batches of several tokens per
// sequence run on a second one with the same backends.
func (m *Model) Scheduler() *sched.Scheduler { return m.scheds[decodeGraph] }

// NPast is the number of tokens of sequence 0 that Eval has added.
func (m *Model) NPast() int { return m.nPast }

// ResetCache forgets every token of every sequence; the next Eval starts
// at position 0.
func (m *Model) ResetCache() {
	m.cache.clear()
	m.nPast = 0
}

// Eval appends tokens to sequence 0 at the current position and returns the
// logits of the last token (or of every token, row-major
// [len(tokens)][NVocab], with all).
func (m *Model) Eval(tokens []int32, all bool) ([]float32, error) {
	n := len(tokens)
	if n == 0 {
		return nil, fmt.Errorf("llama: %w: no tokens to evaluate", rt.ErrInvalidArgument)
	}
	if m.nPast+n > m.cache.streamSize {
		return nil, fmt.Errorf("llama: %w: %d tokens after %d exceed the context of %d", rt.ErrContextFull, n, m.nPast, m.cache.streamSize)
	}
	b := &m.sc.batch
	b.Tokens, b.Seq = tokens, nil
	b.Pos, b.Logits = resize(b.Pos, n), resize(b.Logits, n)
	for i := range n {
		b.Pos[i] = int32(m.nPast + i)
		b.Logits[i] = all || i == n-1
	}
	if err := m.Decode(*b); err != nil {
		return nil, err
	}
	m.nPast += n
	if all {
		return append([]float32(nil), m.logits...), nil
	}
	return append([]float32(nil), m.Logits(n-1)...), nil
}
