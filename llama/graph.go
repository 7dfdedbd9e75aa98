package llama

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"unsafe"

	rt "github.com/gpurt/gpurt/runtime"
)

// graphShape is what a forward graph's topology depends on: graphs of the
// same shape differ only in their inputs (tokens, positions, cells, masks,
// output rows), so one graph serves every batch of its shape.
type graphShape struct {
	n     int  // tokens: t from each of nS streams, stream-major
	t, nS int  // tokens per stream, streams
	s0    int  // the first stream
	nKV   int  // cells of each stream attended over
	nOut  int  // tokens whose logits are computed
	embed bool // the output is the final hidden states (after the output norm), not logits
}

// inputs are the input tensors of one forward graph.
type inputs struct {
	tokens  *rt.Tensor // I32 [n]
	pos     *rt.Tensor // I32 [n]: rope positions
	kIdx    *rt.Tensor // I32 [n]: the cache cell of each token
	vIdx    *rt.Tensor // I32 [NEmbdVKV*n]: elements of a transposed value cache; nil when values are rows
	mask    *rt.Tensor // F32 [nKV, t, 1, nS]: 0 where token j may attend to cell i of its stream, -Inf elsewhere
	maskSWA *rt.Tensor // the same for sliding-window layers; nil without them
	outIdx  *rt.Tensor // I32 [nOut]: the rows whose logits are computed; nil when all are
	logits  *rt.Tensor // F32 [NVocab, nOut], or [NEmbd, nOut] for embeddings
}

// forward is a built and scheduled forward graph.
type forward struct {
	shape graphShape
	in    inputs
	g     *rt.Graph
}

// graph builds one forward graph; the blocks (blocks.go) and the
// architectures' Block functions are its methods' callers.
type graph struct {
	ctx *rt.Context
	m   *Model
	h   *Hparams
	in  *inputs
	n   int // tokens
	t   int // tokens per stream
	nS  int // streams, from s0
	s0  int
	// rows are the mask rows per token: the query heads of one key head
	// for a ubatch of one token per stream (maskRows), else 1.
	rows int
	nKV  int   // cells per stream
	err  error // the first error outside the context's own (e.g. an op gpurt lacks)
}

func (g *graph) fail(err error) {
	if g.err == nil {
		g.err = err
	}
}

// name labels t as layer il's what (as llama.cpp's cb names).
func (g *graph) name(t *rt.Tensor, il int, what string) *rt.Tensor {
	return t.SetName(layerName(il, what))
}

func layerName(il int, what string) string {
	return "blk." + strconv.Itoa(il) + "." + what
}

// maskRows is how many mask rows each token of a ubatch of shape s has:
// with one token per stream (a decode step) and grouped-query heads, the
// NHead/NHeadKV query heads of each key head are the columns of one
// product with its keys (attend), and each has its row of the mask, the
// token's; else 1. Flash attention groups heads itself.
func (m *Model) maskRows(s graphShape) int {
	h := &m.H
	if s.t != 1 || m.opts.FlashAttn || h.NHeadKV <= 0 || h.NHead <= h.NHeadKV || h.NHead%h.NHeadKV != 0 {
		return 1
	}
	return h.NHead / h.NHeadKV
}

// buildForward builds the graph for a batch of shape s.
func (m *Model) buildForward(ctx *rt.Context, s graphShape) (*inputs, *rt.Graph, error) {
	h := &m.H
	in := &inputs{
		tokens: ctx.NewTensor(rt.I32, s.n).SetName("inp_tokens"),
		pos:    ctx.NewTensor(rt.I32, s.n).SetName("inp_pos"),
		kIdx:   ctx.NewTensor(rt.I32, s.n).SetName("inp_k_idx"),
		mask:   ctx.NewTensor(rt.F32, s.nKV, s.t*m.maskRows(s), 1, s.nS).SetName("inp_mask"),
	}
	inputsList := []*rt.Tensor{in.tokens, in.pos, in.kIdx, in.mask}
	if m.cache.layers[0].vTrans {
		in.vIdx = ctx.NewTensor(rt.I32, h.NEmbdVKV()*s.n).SetName("inp_v_idx")
		inputsList = append(inputsList, in.vIdx)
	}
	for il := range h.NLayer {
		if h.IsLocal(il) {
			in.maskSWA = ctx.NewTensor(rt.F32, s.nKV, s.t*m.maskRows(s), 1, s.nS).SetName("inp_mask_swa")
			inputsList = append(inputsList, in.maskSWA)
			break
		}
	}
	if s.nOut < s.n {
		in.outIdx = ctx.NewTensor(rt.I32, s.nOut).SetName("inp_out_ids")
		inputsList = append(inputsList, in.outIdx)
	}
	for _, t := range inputsList {
		t.SetInput()
	}
	g := &graph{ctx: ctx, m: m, h: h, in: in, n: s.n, t: s.t, nS: s.nS, s0: s.s0, nKV: s.nKV, rows: m.maskRows(s)}
	x := ctx.GetRows(m.w.TokEmbd, in.tokens).SetName("inp_embd")
	if h.EmbdScale != 0 {
		x = ctx.Scale(x, h.EmbdScale, 0).SetName("inp_scaled")
	}
	for il, layer := range m.layers {
		x = m.arch.Block(g, il, layer, x)
		g.name(x, il, "l_out")
	}
	if in.outIdx != nil {
		x = ctx.GetRows(x, in.outIdx)
	}
	x = g.norm(x, m.w.OutNorm, m.w.OutNrmB).SetName("result_norm")
	if s.embed {
		in.logits = x
	} else {
		logits := ctx.MulMat(m.w.Output, x)
		if h.FinalSoftcap > 0 {
			logits = g.softcap(logits, h.FinalSoftcap, 1)
		}
		in.logits = logits.SetName("result_output")
	}
	if g.err != nil {
		return nil, nil, g.err
	}
	gr, err := ctx.BuildGraph(in.logits)
	if err != nil {
		return nil, nil, err
	}
	return in, gr, nil
}

// graphKind says which of the model's schedulers runs a graph.
type graphKind int

const (
	decodeGraph graphKind = iota // one token per stream
	batchGraph                   // several tokens per stream, or embeddings
	graphKinds
)

func (s graphShape) kind() graphKind {
	if s.t == 1 && !s.embed {
		return decodeGraph
	}
	return batchGraph
}

// forward returns an allocated graph of shape s: the last one of its kind
// when it has that shape, else a new one, built, split and allocated on
// the kind's scheduler.
func (m *Model) forward(s graphShape) (*forward, error) {
	k := s.kind()
	m.lastKind = k
	if f := m.last[k]; f != nil && f.shape == s && !m.opts.RebuildGraphs {
		return f, nil
	}
	m.last[k] = nil
	m.builds++
	in, g, err := m.buildForward(rt.NewContext(), s)
	if err != nil {
		return nil, fmt.Errorf("llama: build graph: %w", err)
	}
	sc := m.scheds[k]
	sc.Reset()
	if err := sc.AllocGraph(g); err != nil {
		return nil, fmt.Errorf("llama: %w", err)
	}
	m.last[k] = &forward{shape: s, in: *in, g: g}
	return m.last[k], nil
}

// scratch is host memory reused between evaluations for the inputs.
type scratch struct {
	i32               []int32
	f32               []float32
	raw               []byte
	outs, cells, seqs []int32 // a ubatch's output rows; a Decode's cells, default sequences
	batch             Batch   // Eval's batch
	// split's and decodeUbatch's: the ubatches, batch indices by stream
	// and in ubatch order, and one ubatch's inputs and outputs.
	ubatches                []ubatch
	byStream                [][]int
	order                   []int
	uTok, uPos, uSeq, uCell []int32
	uOut                    []float32
	pads                    []int32 // the cells of a ubatch's padding tokens
	allOuts                 []int32 // 0..n-1, a decode step's output rows
}

func (s *scratch) setI32(t *rt.Tensor, values []int32) error {
	s.raw = resize(s.raw, 4*len(values))
	for i, v := range values {
		binary.LittleEndian.PutUint32(s.raw[4*i:], uint32(v))
	}
	return rt.TensorSet(t, s.raw, 0)
}

func (s *scratch) setF32(t *rt.Tensor, values []float32) error {
	s.raw = resize(s.raw, 4*len(values))
	for i, v := range values {
		binary.LittleEndian.PutUint32(s.raw[4*i:], math.Float32bits(v))
	}
	return rt.TensorSet(t, s.raw, 0)
}

// getF32 reads the contiguous F32 tensor t into dst (resized): on a
// little-endian host straight into dst's memory (the logits of a 32,000
// token vocabulary took 40 µs to convert word by word), else through raw.
func (s *scratch) getF32(t *rt.Tensor, dst []float32) ([]float32, error) {
	dst = resize(dst, t.Nelements())
	if littleEndian && len(dst) > 0 {
		if err := rt.TensorGet(t, unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(dst))), 4*len(dst)), 0); err != nil {
			return nil, err
		}
		return dst, nil
	}
	s.raw = resize(s.raw, 4*len(dst))
	if err := rt.TensorGet(t, s.raw, 0); err != nil {
		return nil, err
	}
	for i := range dst {
		dst[i] = math.Float32frombits(binary.LittleEndian.Uint32(s.raw[4*i:]))
	}
	return dst, nil
}

// littleEndian is whether the host stores words as GGUF and the backends
// do, least significant byte first.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// resize returns s with length n, reallocating only when it must grow.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}
