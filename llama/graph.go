package llama

import (
	"encoding/binary"
	"math"
	"strconv"

	rt "github.com/gpurt/gpurt/runtime"
)

// kvPad rounds up the number of cache rows a graph attends over, so that
// the graph for one token keeps its shape for kvPad consecutive positions
// and can be run again (llama.cpp pads the same way). The rows past the
// batch are masked out; they hold zeros (the cache starts cleared) or
// values from before a ResetCache, finite either way.
const kvPad = 32

// block is one transformer layer's weights and KV cache.
type block struct {
	attnNorm, wq, wk, wv, wo *rt.Tensor
	ffnNorm, gate, up, down  *rt.Tensor
	kCache                   *rt.Tensor // [NEmbdKV, NCtx]: one row of keys per position
	vCache                   *rt.Tensor // [NCtx, NEmbdKV]: transposed, one row per value channel
}

// batch is the input tensors of one forward graph, with host-side scratch
// for their contents.
type batch struct {
	tokens *rt.Tensor // I32 [n]
	pos    *rt.Tensor // I32 [n]: positions, also the key cache rows written
	vIdx   *rt.Tensor // I32 [NEmbdKV]: the value cache elements a single token writes; nil for batches
	mask   *rt.Tensor // F32 [nKV, n]: 0 where token j may attend to i, -Inf elsewhere
	logits *rt.Tensor // F32 [NVocab, n or 1]

	nCtx     int // the cache's length, for vIdx
	posData  []int32
	vIdxData []int32
	maskData []float32
	raw      []byte // the little-endian bytes of one input
}

// graphShape is what a forward graph's topology depends on: graphs of the
// same shape differ only in their inputs.
type graphShape struct {
	n, nKV    int
	pos0      int // where a batch of several tokens starts; 0 for single tokens
	allLogits bool
}

// forward is a built and scheduled forward graph.
type forward struct {
	shape graphShape
	b     *batch
	g     *rt.Graph
}

// shapeFor is the shape of the graph evaluating n tokens after pos0.
func (m *Model) shapeFor(n, pos0 int, allLogits bool) graphShape {
	nKV := min(m.H.NCtx, (pos0+n+kvPad-1)/kvPad*kvPad)
	if n == 1 {
		pos0 = 0
	}
	return graphShape{n: n, nKV: nKV, pos0: pos0, allLogits: allLogits}
}

// buildForward builds the graph for a batch of shape s. For a single token
// the positions, the cache elements written and read, and the mask are
// inputs, so the graph serves every position below s.nKV; a batch of
// several tokens writes its values at the fixed position s.pos0.
func (m *Model) buildForward(ctx *rt.Context, s graphShape) (*batch, *rt.Graph, error) {
	h := m.H
	n, nKV := s.n, s.nKV
	kvDim := h.NEmbdKV()
	b := &batch{
		tokens: ctx.NewTensor(rt.I32, n).SetName("inp_tokens"),
		pos:    ctx.NewTensor(rt.I32, n).SetName("inp_pos"),
		mask:   ctx.NewTensor(rt.F32, nKV, n).SetName("inp_mask"),
		nCtx:   h.NCtx,
	}
	if n == 1 {
		b.vIdx = ctx.NewTensor(rt.I32, kvDim).SetName("inp_v_idx")
		b.vIdx.SetInput()
	}
	for _, t := range []*rt.Tensor{b.tokens, b.pos, b.mask} {
		t.SetInput()
	}
	// A batch's value copies are not read through by the attention, which
	// reads the cache itself; they are added to the graph first so that
	// each comes before its readers (see BuildGraph below).
	var vCopies []*rt.Tensor
	x := ctx.GetRows(m.tokEmbd, b.tokens).SetName("inp_embd")
	kqScale := float32(1 / math.Sqrt(float64(h.HeadDim)))
	for il, l := range m.blocks {
		name := func(t *rt.Tensor, what string) *rt.Tensor { return t.SetName(layerName(il, what)) }
		cur := name(ctx.Mul(ctx.RmsNorm(x, h.NormEps), l.attnNorm), "attn_norm")
		q := ctx.Reshape(name(ctx.MulMat(l.wq, cur), "q"), h.HeadDim, h.NHead, n)
		k := ctx.Reshape(name(ctx.MulMat(l.wk, cur), "k"), h.HeadDim, h.NHeadKV, n)
		v := name(ctx.MulMat(l.wv, cur), "v")
		q = ctx.Rope(q, b.pos, h.RopeDims, rt.RopeNormal, h.RopeBase, 1)
		k = ctx.Rope(k, b.pos, h.RopeDims, rt.RopeNormal, h.RopeBase, 1)

		// Store this batch's keys and values, then attend over the cache.
		// Views of the stores (not of the caches) order reads after writes.
		// Values are stored transposed, so that the attention reads them as
		// rows without a copy: a single token's one element per row at the
		// indices in vIdx, a batch's by one strided copy.
		kStore := ctx.SetRows(l.kCache, ctx.Reshape(k, kvDim, n), b.pos)
		vStore := l.vCache
		if n == 1 {
			vStore = ctx.SetRows(ctx.Reshape(l.vCache, 1, h.NCtx*kvDim), ctx.Reshape(v, 1, kvDim), b.vIdx)
		} else {
			dst := ctx.View2D(l.vCache, n, kvDim, l.vCache.Nb[1], s.pos0*l.vCache.Nb[0])
			vCopies = append(vCopies, ctx.Cpy(ctx.Transpose(v), dst))
		}
		kes, ves := l.kCache.Nb[0], l.vCache.Nb[1]
		keys := ctx.View3D(kStore, h.HeadDim, nKV, h.NHeadKV, l.kCache.Nb[1], h.HeadDim*kes, 0) // [HeadDim, nKV, NHeadKV]
		valsT := ctx.View3D(vStore, nKV, h.HeadDim, h.NHeadKV, ves, h.HeadDim*ves, 0)           // [nKV, HeadDim, NHeadKV]
		kq := ctx.MulMat(keys, ctx.Permute(q, 0, 2, 1, 3))                                      // [nKV, n, NHead]
		kq = name(ctx.SoftMax(kq, b.mask, kqScale), "kq_softmax")
		kqv := name(ctx.MulMat(valsT, kq), "kqv") // [HeadDim, n, NHead]
		attn := ctx.ContReshape(ctx.Permute(kqv, 0, 2, 1, 3), h.NEmbd, n)
		x = name(ctx.Add(x, ctx.MulMat(l.wo, attn)), "attn_out")

		cur = name(ctx.Mul(ctx.RmsNorm(x, h.NormEps), l.ffnNorm), "ffn_norm")
		gate := name(ctx.Silu(name(ctx.MulMat(l.gate, cur), "ffn_gate")), "ffn_silu")
		gated := name(ctx.Mul(gate, name(ctx.MulMat(l.up, cur), "ffn_up")), "ffn_gated")
		x = name(ctx.Add(x, ctx.MulMat(l.down, gated)), "out")
	}
	if !s.allLogits && n > 1 {
		x = ctx.View1D(x, h.NEmbd, (n-1)*x.Nb[1])
	}
	x = ctx.Mul(ctx.RmsNorm(x, h.NormEps), m.outNorm)
	b.logits = ctx.MulMat(m.output, x).SetName("logits")
	// Graphs list nodes in the order they are reached from the outputs.
	// Layer l's copy is reached through the layers before it, whose
	// attention reads only earlier copies, so every copy precedes its readers.
	g, err := ctx.BuildGraph(append(vCopies, b.logits)...)
	if err != nil {
		return nil, nil, err
	}
	return b, g, nil
}

func layerName(il int, what string) string {
	return "blk." + strconv.Itoa(il) + "." + what
}

// fill writes the batch's tokens, positions, value cache indices and causal
// mask for tokens starting at position pos0.
func (b *batch) fill(tokens []int32, pos0 int) error {
	n := len(tokens)
	nKV := b.mask.Ne[0]
	b.posData = resize(b.posData, n)
	b.maskData = resize(b.maskData, nKV*n)
	negInf := float32(math.Inf(-1))
	for j := range n {
		p := pos0 + j
		b.posData[j] = int32(p)
		row := b.maskData[j*nKV : (j+1)*nKV]
		for i := range row {
			if i > p {
				row[i] = negInf
			} else {
				row[i] = 0
			}
		}
	}
	if err := b.setI32(b.tokens, tokens); err != nil {
		return err
	}
	if err := b.setI32(b.pos, b.posData); err != nil {
		return err
	}
	if b.vIdx != nil {
		// Value channel e of the token goes to column pos0 of row e.
		b.vIdxData = resize(b.vIdxData, b.vIdx.Ne[0])
		for e := range b.vIdxData {
			b.vIdxData[e] = int32(e*b.nCtx + pos0)
		}
		if err := b.setI32(b.vIdx, b.vIdxData); err != nil {
			return err
		}
	}
	b.raw = resize(b.raw, 4*len(b.maskData))
	for i, v := range b.maskData {
		binary.LittleEndian.PutUint32(b.raw[4*i:], math.Float32bits(v))
	}
	return rt.TensorSet(b.mask, b.raw, 0)
}

// setI32 writes values to the I32 input t through the batch's scratch.
func (b *batch) setI32(t *rt.Tensor, values []int32) error {
	b.raw = resize(b.raw, 4*len(values))
	for i, v := range values {
		binary.LittleEndian.PutUint32(b.raw[4*i:], uint32(v))
	}
	return rt.TensorSet(t, b.raw, 0)
}

// readLogits copies the logits (a contiguous F32 result) out of the graph.
func (b *batch) readLogits() ([]float32, error) {
	out := make([]float32, b.logits.Nelements())
	b.raw = resize(b.raw, 4*len(out))
	if err := rt.TensorGet(b.logits, b.raw, 0); err != nil {
		return nil, err
	}
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b.raw[4*i:]))
	}
	return out, nil
}

// resize returns s with length n, reallocating only when it must grow.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}
