package llama

import rt "github.com/gpurt/gpurt/runtime"

// llama (Llama 1-3, Mistral, SmolLM, TinyLlama): RMSNorm, rope on adjacent
// pairs with Llama 3's rope_freqs and linear/YaRN scaling, optional
// attention biases, head size from key_length, SwiGLU. Reference:
// llama.cpp src/models/llama.cpp.

type llamaLayer struct {
	AttnNorm *rt.Tensor `gguf:"attn_norm.weight" shape:"embd"`
	Attn     attnWeights
	Rope     ropeFactors
	FFNNorm  *rt.Tensor `gguf:"ffn_norm.weight" shape:"embd"`
	FFN      ffnWeights
}

func init() {
	register(&Architecture{
		Name:     "llama",
		RopeMode: rt.RopeNormal,
		NewLayer: func() any { return new(llamaLayer) },
		Block:    llamaBlock,
	})
}

func llamaBlock(g *graph, il int, layer any, x *rt.Tensor) *rt.Tensor {
	l, h, c := layer.(*llamaLayer), g.h, g.ctx
	cur := g.name(g.norm(x, l.AttnNorm, nil), il, "attn_norm")
	q, k, v := g.qkv(il, &l.Attn, cur)
	factors := l.Rope.pick(h)
	q = g.rope(q, h.RopeBase, h.RopeScale, factors)
	k = g.rope(k, h.RopeBase, h.RopeScale, factors)
	cur = g.linear(l.Attn.O, l.Attn.BO, g.attend(il, q, k, v))
	x = g.name(c.Add(x, cur), il, "ffn_inp")

	cur = g.name(g.norm(x, l.FFNNorm, nil), il, "ffn_norm")
	return c.Add(x, g.ffn(il, &l.FFN, cur, actSilu))
}
