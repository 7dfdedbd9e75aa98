package llama

import (
	"math"

	rt "github.com/gpurt/gpurt/runtime"
)

// The weight groups the blocks below use; architectures compose their
// layer structs from them.

// attnWeights are separate q/k/v/o projections with optional biases.
type attnWeights struct {
	Q  *rt.Tensor `gguf:"attn_q.weight" shape:"embd,q"`
	K  *rt.Tensor `gguf:"attn_k.weight" shape:"embd,kv"`
	V  *rt.Tensor `gguf:"attn_v.weight" shape:"embd,vkv"`
	O  *rt.Tensor `gguf:"attn_output.weight" shape:"vq,embd"`
	BQ *rt.Tensor `gguf:"attn_q.bias,optional" shape:"q"`
	BK *rt.Tensor `gguf:"attn_k.bias,optional" shape:"kv"`
	BV *rt.Tensor `gguf:"attn_v.bias,optional" shape:"vkv"`
	BO *rt.Tensor `gguf:"attn_output.bias,optional" shape:"embd"`
}

// fusedAttnWeights are one [embd, q+k+v] projection (phi3).
type fusedAttnWeights struct {
	QKV  *rt.Tensor `gguf:"attn_qkv.weight" shape:"embd,qkv"`
	BQKV *rt.Tensor `gguf:"attn_qkv.bias,optional" shape:"qkv"`
	O    *rt.Tensor `gguf:"attn_output.weight" shape:"vq,embd"`
	BO   *rt.Tensor `gguf:"attn_output.bias,optional" shape:"embd"`
}

// qkNormWeights are per-head RMS norms of queries and keys (qwen3, gemma3).
type qkNormWeights struct {
	QNorm *rt.Tensor `gguf:"attn_q_norm.weight" shape:"head"`
	KNorm *rt.Tensor `gguf:"attn_k_norm.weight" shape:"head"`
}

// ffnWeights are a gated feed-forward: down(act(gate(x)) * up(x)).
type ffnWeights struct {
	Gate *rt.Tensor `gguf:"ffn_gate.weight" shape:"embd,ff"`
	Up   *rt.Tensor `gguf:"ffn_up.weight" shape:"embd,ff"`
	Down *rt.Tensor `gguf:"ffn_down.weight" shape:"ff,embd"`
}

// fusedFFNWeights have gate and up in one [embd, 2*ff] matrix, gate first (phi3).
type fusedFFNWeights struct {
	GateUp *rt.Tensor `gguf:"ffn_up.weight" shape:"embd,ff2"`
	Down   *rt.Tensor `gguf:"ffn_down.weight" shape:"ff,embd"`
}

// ropeFactors are the per-frequency divisors of Llama 3 (rope_freqs) and
// Phi-3's LongRoPE, one copy on each device that uses them.
type ropeFactors struct {
	Freqs *rt.Tensor `gguf:"rope_freqs.weight,optional,global" shape:"rope2"`
	Long  *rt.Tensor `gguf:"rope_factors_long.weight,optional,global" shape:"rope2"`
	Short *rt.Tensor `gguf:"rope_factors_short.weight,optional,global" shape:"rope2"`
}

// pick returns the factors to use, as llama.cpp's get_rope_factors:
// rope_freqs, else LongRoPE's long ones when the context exceeds the
// original one, else the short ones (nil when the file lacks them).
func (r *ropeFactors) pick(h *Hparams) *rt.Tensor {
	switch {
	case r.Freqs != nil:
		return r.Freqs
	case h.NCtx > h.RopeOrigCtx:
		return r.Long
	}
	return r.Short
}

// norm is the architecture's normalization of x with weight w and optional bias b.
func (g *graph) norm(x, w, b *rt.Tensor) *rt.Tensor {
	c := g.ctx
	if g.h.Norm == NormLayer {
		x = c.Norm(x, g.h.NormEps)
	} else {
		x = c.RmsNorm(x, g.h.NormEps)
	}
	x = c.Mul(x, w)
	if b != nil {
		x = c.Add(x, b)
	}
	return x
}

// rmsNorm is an RMSNorm whatever the architecture's norm (q/k norms).
func (g *graph) rmsNorm(x, w *rt.Tensor) *rt.Tensor {
	return g.ctx.Mul(g.ctx.RmsNorm(x, g.h.NormEps), w)
}

// softcap is c*tanh(x*scale/c), Gemma's logit soft-capping.
func (g *graph) softcap(x *rt.Tensor, c, scale float32) *rt.Tensor {
	return g.ctx.Scale(g.ctx.Tanh(g.ctx.Scale(x, scale/c, 0)), c, 0)
}

// linear is w·x plus an optional bias.
func (g *graph) linear(w, b, x *rt.Tensor) *rt.Tensor {
	y := g.ctx.MulMat(w, x)
	if b != nil {
		y = g.ctx.Add(y, b)
	}
	return y
}

// qkv projects x to queries [HeadDim, NHead, n], keys [HeadDim, NHeadKV, n]
// and values [HeadDimV, NHeadKV, n].
func (g *graph) qkv(il int, a *attnWeights, x *rt.Tensor) (q, k, v *rt.Tensor) {
	h, c := g.h, g.ctx
	q = c.Reshape(g.name(g.linear(a.Q, a.BQ, x), il, "Qcur"), h.HeadDim, h.NHead, g.n)
	k = c.Reshape(g.name(g.linear(a.K, a.BK, x), il, "Kcur"), h.HeadDim, h.NHeadKV, g.n)
	v = c.Reshape(g.name(g.linear(a.V, a.BV, x), il, "Vcur"), h.HeadDimV, h.NHeadKV, g.n)
	return q, k, v
}

// qkvFused splits one fused projection into queries, keys and values.
func (g *graph) qkvFused(il int, a *fusedAttnWeights, x *rt.Tensor) (q, k, v *rt.Tensor) {
	h, c := g.h, g.ctx
	qkv := g.name(g.linear(a.QKV, a.BQKV, x), il, "wqkv")
	nq, nk := h.NHead*h.HeadDim, h.NEmbdKV()
	part := func(off, width, head, heads int) *rt.Tensor {
		return c.Reshape(c.Cont(c.View2D(qkv, width, g.n, qkv.Nb[1], off*qkv.Nb[0])), head, heads, g.n)
	}
	return part(0, nq, h.HeadDim, h.NHead), part(nq, nk, h.HeadDim, h.NHeadKV), part(nq+nk, h.NEmbdVKV(), h.HeadDimV, h.NHeadKV)
}

// rope rotates x [head, heads, n] by the batch's positions with base and
// scale, and the per-frequency factors when given (Llama 3, LongRoPE).
func (g *graph) rope(x *rt.Tensor, base, scale float32, factors *rt.Tensor) *rt.Tensor {
	h := g.h
	if factors != nil || h.YarnExt != 0 || h.YarnAttn != 1 {
		return g.ropeExt(x, base, scale, factors)
	}
	return g.ctx.Rope(x, g.in.pos, h.RopeDims, h.RopeMode, base, scale)
}

// ropeExt is ggml's rope_ext: frequency factors and YaRN.
func (g *graph) ropeExt(x *rt.Tensor, base, scale float32, factors *rt.Tensor) *rt.Tensor {
	h := g.h
	return g.ctx.RopeExt(x, g.in.pos, factors, rt.RopeParams{
		NDims: h.RopeDims, Mode: h.RopeMode, FreqBase: base, FreqScale: scale,
		NCtxOrig: h.RopeOrigCtx, ExtFactor: h.YarnExt, AttnFactor: h.YarnAttn,
		BetaFast: h.YarnBetaFast, BetaSlow: h.YarnBetaSlow,
	})
}

// attend stores the batch's keys and values in layer il's cache and
// attends over the cache: q, k [HeadDim, heads, n] (roped), v [HeadDimV,
// NHeadKV, n]. The n tokens are t from each of nS streams (stream-major),
// and each stream's tokens attend over the first nKV cells of their own
// stream, all streams in one batched product. It returns [NHead*HeadDimV,
// n], before the output projection.
func (g *graph) attend(il int, q, k, v *rt.Tensor) *rt.Tensor {
	h, c, n, nKV, t, nS := g.h, g.ctx, g.n, g.nKV, g.t, g.nS
	cache := &g.m.cache
	l := &cache.layers[il]
	kvDim, vDim, cells := h.NEmbdKV(), h.NEmbdVKV(), cache.streamSize
	if g.rows > 1 {
		// One token per stream: the query heads that share a key head
		// are the columns of one product with it, [HeadDim, rows,
		// NHeadKV, nS], which reads each key once for all of them.
		q = c.Reshape(q, h.HeadDim, g.rows, h.NHeadKV, nS)
	} else {
		q = c.Permute(c.Reshape(q, h.HeadDim, h.NHead, t, nS), 0, 2, 1, 3) // [HeadDim, t, NHead, nS]
	}

	// Views of the stores (not of the caches) order reads after writes.
	kStore := c.SetRows(l.k, c.Reshape(k, kvDim, n), g.in.kIdx)
	kRow := l.k.Nb[1]
	keys := c.View4D(kStore, h.HeadDim, nKV, h.NHeadKV, nS, kRow, l.k.Type.RowSize(h.HeadDim), cells*kRow, g.s0*cells*kRow) // [HeadDim, nKV, NHeadKV, nS]
	if !l.vTrans {
		vStore := c.SetRows(l.v, c.Reshape(g.contiguous(v), vDim, n), g.in.kIdx)
		vRow := l.v.Nb[1]
		if g.m.opts.FlashAttn {
			// FLASH_ATTN_EXT reads keys and values as rows and never
			// stores the [nKV, n] scores.
			vals := c.View4D(vStore, h.HeadDimV, nKV, h.NHeadKV, nS, vRow, l.v.Type.RowSize(h.HeadDimV), cells*vRow, g.s0*cells*vRow)
			out := c.FlashAttnExt(q, keys, vals, g.mask(il), h.AttnScale, h.AttnSoftcap) // [HeadDimV, NHead, t, nS]
			return g.name(c.Reshape(out, h.NHead*h.HeadDimV, n), il, "kqv_out")
		}
		vals := c.Cast(c.View3D(vStore, vDim, nKV, nS, vRow, cells*vRow, g.s0*cells*vRow), rt.F32) // [vDim, nKV, nS]
		valsT := c.Reshape(c.Cont(c.Permute(vals, 1, 0, 2, 3)), nKV, h.HeadDimV, h.NHeadKV, nS)
		return g.scores(il, q, keys, valsT)
	}
	// One element per row of the transposed cache, at the indices in vIdx.
	vStore := c.SetRows(c.Reshape(l.v, 1, l.v.Nelements()), c.Reshape(g.contiguous(v), 1, vDim*n), g.in.vIdx)
	// A value channel's row of one stream, and the view of every stream's.
	ves := l.v.Nb[1]
	valsT := c.View4D(vStore, nKV, h.HeadDimV, h.NHeadKV, nS, ves, h.HeadDimV*ves, vDim*ves, g.s0*vDim*ves) // [nKV, HeadDimV, NHeadKV, nS]
	return g.scores(il, q, keys, valsT)
}

// contiguous is x itself when its elements are in order, else a
// contiguous copy: a projection's values need no CONT before the store.
func (g *graph) contiguous(x *rt.Tensor) *rt.Tensor {
	if x.IsContiguous() {
		return x
	}
	return g.ctx.Cont(x)
}

// mask is layer il's attention mask: the sliding window's on local layers.
func (g *graph) mask(il int) *rt.Tensor {
	if g.h.IsLocal(il) {
		return g.in.maskSWA
	}
	return g.in.mask
}

// scores is attention with the [nKV, t, NHead, nS] scores in memory:
// softmax of the scaled, soft-capped and masked q·k, times the values.
// q is [HeadDim, t, NHead, nS], or [HeadDim, rows, NHeadKV, nS] for one
// token per stream with grouped heads.
func (g *graph) scores(il int, q, keys, valsT *rt.Tensor) *rt.Tensor {
	h, c, n := g.h, g.ctx, g.n
	kq := c.MulMat(keys, q) // [nKV, t, NHead, nS] or [nKV, rows, NHeadKV, nS]
	// One SOFT_MAX scales, soft-caps (Gemma 2) and masks the scores.
	kq = g.name(c.SoftMaxExt(kq, g.mask(il), h.AttnScale, h.AttnSoftcap), il, "kq_softmax")
	kqv := g.name(c.MulMat(valsT, kq), il, "kqv") // [HeadDimV, t, NHead, nS] or [HeadDimV, rows, NHeadKV, nS]
	if g.rows > 1 {
		return c.Reshape(kqv, h.NHead*h.HeadDimV, n) // the heads in order already
	}
	return c.ContReshape(c.Permute(kqv, 0, 2, 1, 3), h.NHead*h.HeadDimV, n)
}

// Activations of the gated feed-forward.
const (
	actSilu = iota // SwiGLU
	actGelu        // GeGLU (tanh approximation, as ggml_gelu)
)

var actName = [...]string{actSilu: "ffn_swiglu", actGelu: "ffn_geglu"}

// glu is act(gate) * up in one GLU op.
func (g *graph) glu(il, kind int, gate, up *rt.Tensor) *rt.Tensor {
	if kind == actGelu {
		return g.name(g.ctx.GeGLU(gate, up), il, actName[kind])
	}
	return g.name(g.ctx.SwiGLU(gate, up), il, actName[kind])
}

// ffn is down(act(gate·x) * up·x).
func (g *graph) ffn(il int, f *ffnWeights, x *rt.Tensor, act int) *rt.Tensor {
	c := g.ctx
	gate := g.name(c.MulMat(f.Gate, x), il, "ffn_gate")
	up := g.name(c.MulMat(f.Up, x), il, "ffn_up")
	return g.name(c.MulMat(f.Down, g.glu(il, act, gate, up)), il, "ffn_out")
}

// ffnFused is ffn with gate and up in one matrix, gate first.
func (g *graph) ffnFused(il int, f *fusedFFNWeights, x *rt.Tensor, act int) *rt.Tensor {
	c, ff := g.ctx, g.h.NFF
	gu := g.name(c.MulMat(f.GateUp, x), il, "ffn_up")
	gate := c.Cont(c.View2D(gu, ff, g.n, gu.Nb[1], 0))
	up := c.Cont(c.View2D(gu, ff, g.n, gu.Nb[1], ff*gu.Nb[0]))
	return g.name(c.MulMat(f.Down, g.glu(il, act, gate, up)), il, "ffn_out")
}

// sqrtf is the float32 square root, for embedding scales.
func sqrtf(x int) float32 { return float32(math.Sqrt(float64(x))) }
