package llama

import rt "github.com/gpurt/gpurt/runtime"

// qwen3: per-head RMS norms of queries and keys before NEOX rope, head size
// from key_length. Reference: llama.cpp src/models/qwen3.cpp.

type qwen3Layer struct {
	AttnNorm *rt.Tensor `gguf:"attn_norm.weight" shape:"embd"`
	Attn     attnWeights
	QKNorm   qkNormWeights
	FFNNorm  *rt.Tensor `gguf:"ffn_norm.weight" shape:"embd"`
	FFN      ffnWeights
}

func init() {
	register(&Architecture{
		Name:     "qwen3",
		RopeMode: rt.RopeNeox,
		NewLayer: func() any { return new(qwen3Layer) },
		Block:    qwen3Block,
	})
}

func qwen3Block(g *graph, il int, layer any, x *rt.Tensor) *rt.Tensor {
	l, h, c := layer.(*qwen3Layer), g.h, g.ctx
	cur := g.name(g.norm(x, l.AttnNorm, nil), il, "attn_norm")
	q, k, v := g.qkv(il, &l.Attn, cur)
	q = g.name(g.rmsNorm(q, l.QKNorm.QNorm), il, "Qcur_normed")
	k = g.name(g.rmsNorm(k, l.QKNorm.KNorm), il, "Kcur_normed")
	q = g.rope(q, h.RopeBase, h.RopeScale, nil)
	k = g.rope(k, h.RopeBase, h.RopeScale, nil)
	cur = g.linear(l.Attn.O, l.Attn.BO, g.attend(il, q, k, v))
	x = g.name(c.Add(x, cur), il, "ffn_inp")

	cur = g.name(g.norm(x, l.FFNNorm, nil), il, "ffn_norm")
	return c.Add(x, g.ffn(il, &l.FFN, cur, actSilu))
}
