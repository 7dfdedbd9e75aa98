package bench

import (
	"fmt"
	"math"

	rt "github.com/gpurt/gpurt/runtime"
)

// LlamaDims sizes the llama-like graph of the scheduler benchmark. The
// scheduler's cost depends on the number of nodes, not on their sizes, so the
// dimensions are small and the layer count makes up the nodes.
type LlamaDims struct {
	Embd, Heads, KVHeads, FF, Vocab, Tokens int
}

// DefaultLlamaDims are stories260K-sized.
var DefaultLlamaDims = LlamaDims{Embd: 64, Heads: 8, KVHeads: 4, FF: 172, Vocab: 512, Tokens: 32}

// llamaWeights are one model's weights, allocated once.
type llamaWeights struct {
	ctx    *rt.Context
	embd   *rt.Tensor
	layers []llamaLayer
	norm   *rt.Tensor
	output *rt.Tensor
}

type llamaLayer struct {
	attnNorm, wq, wk, wv, wo, ffnNorm, wGate, wUp, wDown *rt.Tensor
}

// llamaNodesPerLayer is the node count of one decoder block as built below.
const llamaNodesPerLayer = 30

// llamaLayersFor is the number of blocks that gives at least minNodes nodes.
func llamaLayersFor(minNodes int) int {
	const fixed = 8 // inputs, embedding lookup, output norm and logits
	return max(1, (minNodes-fixed+llamaNodesPerLayer-1)/llamaNodesPerLayer)
}

func newLlamaWeights(d LlamaDims, layers int) *llamaWeights {
	c := rt.NewContext()
	hd := d.Embd / d.Heads
	w := &llamaWeights{ctx: c, embd: c.NewTensor(rt.F32, d.Embd, d.Vocab).SetName("token_embd.weight")}
	for i := 0; i < layers; i++ {
		name := func(s string) string { return fmt.Sprintf("blk.%d.%s.weight", i, s) }
		w.layers = append(w.layers, llamaLayer{
			attnNorm: c.NewTensor(rt.F32, d.Embd).SetName(name("attn_norm")),
			wq:       c.NewTensor(rt.F32, d.Embd, d.Embd).SetName(name("attn_q")),
			wk:       c.NewTensor(rt.F32, d.Embd, hd*d.KVHeads).SetName(name("attn_k")),
			wv:       c.NewTensor(rt.F32, d.Embd, hd*d.KVHeads).SetName(name("attn_v")),
			wo:       c.NewTensor(rt.F32, d.Embd, d.Embd).SetName(name("attn_output")),
			ffnNorm:  c.NewTensor(rt.F32, d.Embd).SetName(name("ffn_norm")),
			wGate:    c.NewTensor(rt.F32, d.Embd, d.FF).SetName(name("ffn_gate")),
			wUp:      c.NewTensor(rt.F32, d.Embd, d.FF).SetName(name("ffn_up")),
			wDown:    c.NewTensor(rt.F32, d.FF, d.Embd).SetName(name("ffn_down")),
		})
	}
	w.norm = c.NewTensor(rt.F32, d.Embd).SetName("output_norm.weight")
	w.output = c.NewTensor(rt.F32, d.Embd, d.Vocab).SetName("output.weight")
	return w
}

// buildLlamaGraph builds a prompt-processing forward graph over w in a fresh
// context, the way llama.cpp builds one per batch: embedding lookup, and per
// block RMS norm, Q/K/V projections, RoPE, GQA attention with a causal mask
// through SOFT_MAX, the output projection, and a SwiGLU feed-forward.
func buildLlamaGraph(w *llamaWeights, d LlamaDims) (*rt.Graph, error) {
	c := rt.NewContext()
	hd, T := d.Embd/d.Heads, d.Tokens
	tokens := c.NewTensor(rt.I32, T).SetName("tokens")
	pos := c.NewTensor(rt.I32, T).SetName("pos")
	mask := c.NewTensor(rt.F32, T, T).SetName("mask")
	for _, t := range []*rt.Tensor{tokens, pos, mask} {
		t.SetInput()
	}
	scale := float32(1 / math.Sqrt(float64(hd)))
	x := c.GetRows(w.embd, tokens)
	for _, l := range w.layers {
		cur := c.Mul(c.RmsNorm(x, 1e-5), l.attnNorm)
		q := c.Rope(c.Reshape(c.MulMat(l.wq, cur), hd, d.Heads, T), pos, hd, rt.RopeNormal, 10000, 1)
		k := c.Rope(c.Reshape(c.MulMat(l.wk, cur), hd, d.KVHeads, T), pos, hd, rt.RopeNormal, 10000, 1)
		v := c.Reshape(c.MulMat(l.wv, cur), hd, d.KVHeads, T)
		q = c.Permute(q, 0, 2, 1, 3) // [hd, T, heads]
		k = c.Permute(k, 0, 2, 1, 3) // [hd, T, kv heads]
		kq := c.SoftMax(c.MulMat(k, q), mask, scale)
		vt := c.Cont(c.Permute(v, 1, 2, 0, 3))                 // [T, hd, kv heads]
		kqv := c.Cont(c.Permute(c.MulMat(vt, kq), 0, 2, 1, 3)) // [hd, heads, T]
		x = c.Add(x, c.MulMat(l.wo, c.Reshape(kqv, d.Embd, T)))
		cur = c.Mul(c.RmsNorm(x, 1e-5), l.ffnNorm)
		ff := c.Mul(c.Silu(c.MulMat(l.wGate, cur)), c.MulMat(l.wUp, cur))
		x = c.Add(x, c.MulMat(l.wDown, ff))
	}
	logits := c.MulMat(w.output, c.Mul(c.RmsNorm(x, 1e-5), w.norm)).SetName("logits")
	return c.BuildGraph(logits)
}
