package llama

import rt "github.com/gpurt/gpurt/runtime"

// qwen2 (Qwen2, Qwen2.5): llama's block with q/k/v biases, NEOX rope and
// usually tied embeddings. Reference: llama.cpp src/models/qwen2.cpp.

type qwen2Layer struct {
	AttnNorm *rt.Tensor `gguf:"attn_norm.weight" shape:"embd"`
	Attn     attnWeights
	FFNNorm  *rt.Tensor `gguf:"ffn_norm.weight" shape:"embd"`
	FFN      ffnWeights
}

func init() {
	register(&Architecture{
		Name:     "qwen2",
		RopeMode: rt.RopeNeox,
		NewLayer: func() any { return new(qwen2Layer) },
		Block:    qwen2Block,
	})
}

func qwen2Block(g *graph, il int, layer any, x *rt.Tensor) *rt.Tensor {
	l, h, c := layer.(*qwen2Layer), g.h, g.ctx
	cur := g.name(g.norm(x, l.AttnNorm, nil), il, "attn_norm")
	q, k, v := g.qkv(il, &l.Attn, cur)
	q = g.rope(q, h.RopeBase, h.RopeScale, nil)
	k = g.rope(k, h.RopeBase, h.RopeScale, nil)
	cur = g.linear(l.Attn.O, l.Attn.BO, g.attend(il, q, k, v))
	x = g.name(c.Add(x, cur), il, "ffn_inp")

	cur = g.name(g.norm(x, l.FFNNorm, nil), il, "ffn_norm")
	return c.Add(x, g.ffn(il, &l.FFN, cur, actSilu))
}
