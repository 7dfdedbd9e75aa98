package llama

import (
	"math"
	"strconv"

	rt "github.com/gpurt/gpurt/runtime"
)

// block is one transformer layer's weights and KV cache.
type block struct {
	attnNorm, wq, wk, wv, wo *rt.Tensor
	ffnNorm, gate, up, down  *rt.Tensor
	kCache, vCache           *rt.Tensor // [NEmbdKV, NCtx]
}

// batch is the input tensors of one forward graph.
type batch struct {
	tokens *rt.Tensor // I32 [n]
	pos    *rt.Tensor // I32 [n]: positions, also the KV cache rows written
	mask   *rt.Tensor // F32 [nKV, n]: 0 where token j may attend to i, -Inf elsewhere
	logits *rt.Tensor // F32 [NVocab, n or 1]
}

// buildForward builds the graph for n tokens starting at position pos0.
// With allLogits it returns logits for every token, else for the last one.
func (m *Model) buildForward(ctx *rt.Context, n, pos0 int, allLogits bool) (*batch, *rt.Graph, error) {
	h := m.H
	nKV := pos0 + n
	b := &batch{
		tokens: ctx.NewTensor(rt.I32, n).SetName("inp_tokens"),
		pos:    ctx.NewTensor(rt.I32, n).SetName("inp_pos"),
		mask:   ctx.NewTensor(rt.F32, nKV, n).SetName("inp_mask"),
	}
	for _, t := range []*rt.Tensor{b.tokens, b.pos, b.mask} {
		t.SetInput()
	}
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
		kStore := ctx.SetRows(l.kCache, ctx.Reshape(k, h.NEmbdKV(), n), b.pos)
		vStore := ctx.SetRows(l.vCache, v, b.pos)
		es := l.kCache.Type.TypeSize()
		kv := ctx.View3D(kStore, h.HeadDim, h.NHeadKV, nKV, h.HeadDim*es, l.kCache.Nb[1], 0)
		vv := ctx.View3D(vStore, h.HeadDim, h.NHeadKV, nKV, h.HeadDim*es, l.vCache.Nb[1], 0)
		keys := ctx.Cont(ctx.Permute(kv, 0, 2, 1, 3))      // [HeadDim, nKV, NHeadKV]
		valsT := ctx.Cont(ctx.Permute(vv, 1, 2, 0, 3))     // [nKV, HeadDim, NHeadKV]
		kq := ctx.MulMat(keys, ctx.Permute(q, 0, 2, 1, 3)) // [nKV, n, NHead]
		kq = name(ctx.SoftMax(kq, b.mask, kqScale), "kq_softmax")
		kqv := name(ctx.MulMat(valsT, kq), "kqv") // [HeadDim, n, NHead]
		attn := ctx.ContReshape(ctx.Permute(kqv, 0, 2, 1, 3), h.NEmbd, n)
		x = name(ctx.Add(x, ctx.MulMat(l.wo, attn)), "attn_out")

		cur = name(ctx.Mul(ctx.RmsNorm(x, h.NormEps), l.ffnNorm), "ffn_norm")
		gate := name(ctx.Silu(name(ctx.MulMat(l.gate, cur), "ffn_gate")), "ffn_silu")
		gated := name(ctx.Mul(gate, name(ctx.MulMat(l.up, cur), "ffn_up")), "ffn_gated")
		x = name(ctx.Add(x, ctx.MulMat(l.down, gated)), "out")
	}
	if !allLogits && n > 1 {
		x = ctx.View1D(x, h.NEmbd, (n-1)*x.Nb[1])
	}
	x = ctx.Mul(ctx.RmsNorm(x, h.NormEps), m.outNorm)
	b.logits = ctx.MulMat(m.output, x).SetName("logits")
	g, err := ctx.BuildGraph(b.logits)
	if err != nil {
		return nil, nil, err
	}
	return b, g, nil
}

func layerName(il int, what string) string {
	return "blk." + strconv.Itoa(il) + "." + what
}

// fill writes the batch's tokens, positions and causal mask.
func (b *batch) fill(tokens []int32, pos0 int) error {
	n := len(tokens)
	pos := make([]int32, n)
	for i := range pos {
		pos[i] = int32(pos0 + i)
	}
	nKV := pos0 + n
	mask := make([]float32, nKV*n)
	negInf := float32(math.Inf(-1))
	for j := 0; j < n; j++ {
		for i := 0; i < nKV; i++ {
			if i > pos0+j {
				mask[j*nKV+i] = negInf
			}
		}
	}
	if err := rt.TensorSetI32(b.tokens, tokens); err != nil {
		return err
	}
	if err := rt.TensorSetI32(b.pos, pos); err != nil {
		return err
	}
	return rt.TensorSetF32(b.mask, mask)
}
