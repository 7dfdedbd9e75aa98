package llama

import rt "github.com/gpurt/gpurt/runtime"

// phi3 (Phi-3, Phi-3.5 mini): fused qkv and gate/up projections, NEOX rope
// (partial when rope.dimension_count < head size) with LongRoPE's short and
// long factors. llama.cpp ignores phi3's sliding_window key, and so does
// gpurt. Reference: llama.cpp src/models/phi3.cpp.

type phi3Layer struct {
	AttnNorm *rt.Tensor `gguf:"attn_norm.weight" shape:"embd"`
	Attn     fusedAttnWeights
	Rope     ropeFactors
	FFNNorm  *rt.Tensor `gguf:"ffn_norm.weight" shape:"embd"`
	FFN      fusedFFNWeights
}

func init() {
	register(&Architecture{
		Name:     "phi3",
		RopeMode: rt.RopeNeox,
		Configure: func(h *Hparams, k *keys) {
			h.SlidingWindow = 0
		},
		NewLayer: func() any { return new(phi3Layer) },
		Block:    phi3Block,
	})
}

func phi3Block(g *graph, il int, layer any, x *rt.Tensor) *rt.Tensor {
	l, h, c := layer.(*phi3Layer), g.h, g.ctx
	cur := g.name(g.norm(x, l.AttnNorm, nil), il, "attn_norm")
	q, k, v := g.qkvFused(il, &l.Attn, cur)
	factors := l.Rope.pick(h)
	q = g.rope(q, h.RopeBase, h.RopeScale, factors)
	k = g.rope(k, h.RopeBase, h.RopeScale, factors)
	cur = g.linear(l.Attn.O, l.Attn.BO, g.attend(il, q, k, v))
	x = g.name(c.Add(x, cur), il, "ffn_inp")

	cur = g.name(g.norm(x, l.FFNNorm, nil), il, "ffn_norm")
	return c.Add(x, g.ffnFused(il, &l.FFN, cur, actSilu))
}
