package llama

import rt "github.com/gpurt/gpurt/runtime"

// gemma2 and gemma3: embeddings scaled by sqrt(n_embd), norms after the
// attention and the feed-forward as well as before, GeGLU, NEOX rope,
// local (sliding-window) and global layers. Gemma 2 soft-caps the attention
// and final logits; Gemma 3 norms queries and keys per head and gives its
// local layers their own rope base and no rope scaling. References:
// llama.cpp src/models/gemma2-iswa.cpp and gemma3-iswa.cpp.

type gemmaLayer struct {
	AttnNorm     *rt.Tensor `gguf:"attn_norm.weight" shape:"embd"`
	Attn         attnWeights
	PostAttnNorm *rt.Tensor `gguf:"post_attention_norm.weight" shape:"embd"`
	FFNNorm      *rt.Tensor `gguf:"ffn_norm.weight" shape:"embd"`
	FFN          ffnWeights
	PostFFNNorm  *rt.Tensor `gguf:"post_ffw_norm.weight" shape:"embd"`
}

type gemma3Layer struct {
	gemmaLayer
	QKNorm qkNormWeights
}

func init() {
	register(&Architecture{
		Name:     "gemma2",
		RopeMode: rt.RopeNeox,
		Configure: func(h *Hparams, k *keys) {
			h.EmbdScale = sqrtf(h.NEmbd)
			h.SWAPattern = 2 // llama.cpp: every other layer is local, starting with the first
			gemma27BScale(h, 46)
		},
		NewLayer: func() any { return new(gemmaLayer) },
		Block: func(g *graph, il int, layer any, x *rt.Tensor) *rt.Tensor {
			return gemmaBlock(g, il, layer.(*gemmaLayer), nil, x)
		},
	})
	register(&Architecture{
		Name:     "gemma3",
		RopeMode: rt.RopeNeox,
		Configure: func(h *Hparams, k *keys) {
			h.EmbdScale = sqrtf(h.NEmbd)
			h.SWAPattern = k.int("attention.sliding_window_pattern", 6)
			// Gemma 3 has no soft-capping even where a file carries the keys.
			h.AttnSoftcap, h.FinalSoftcap = 0, 0
			gemma27BScale(h, 62)
		},
		NewLayer: func() any { return new(gemma3Layer) },
		Block: func(g *graph, il int, layer any, x *rt.Tensor) *rt.Tensor {
			l := layer.(*gemma3Layer)
			return gemmaBlock(g, il, &l.gemmaLayer, &l.QKNorm, x)
		},
	})
}

// gemma27BScale gives the 27B models (known, as llama.cpp knows them, by
// their block count) the attention scale 1/sqrt(n_embd/n_head) of Gemma's
// query_pre_attn_scalar instead of 1/sqrt(head size).
func gemma27BScale(h *Hparams, blocks27B int) {
	if h.NLayer == blocks27B && h.NHead > 0 {
		h.AttnScale = 1 / sqrtf(h.NEmbd/h.NHead)
	}
}

func gemmaBlock(g *graph, il int, l *gemmaLayer, qkNorm *qkNormWeights, x *rt.Tensor) *rt.Tensor {
	h, c := g.h, g.ctx
	cur := g.name(g.norm(x, l.AttnNorm, nil), il, "attn_norm")
	q, k, v := g.qkv(il, &l.Attn, cur)
	base, scale := h.RopeBase, h.RopeScale
	if qkNorm != nil {
		q = g.name(g.rmsNorm(q, qkNorm.QNorm), il, "Qcur_normed")
		k = g.name(g.rmsNorm(k, qkNorm.KNorm), il, "Kcur_normed")
		if h.IsLocal(il) {
			base, scale = h.RopeBaseSWA, 1
		}
	}
	q = g.rope(q, base, scale, nil)
	k = g.rope(k, base, scale, nil)
	cur = g.linear(l.Attn.O, l.Attn.BO, g.attend(il, q, k, v))
	cur = g.name(g.norm(cur, l.PostAttnNorm, nil), il, "attn_post_norm")
	x = g.name(c.Add(x, cur), il, "sa_out")

	cur = g.name(g.norm(x, l.FFNNorm, nil), il, "ffn_norm")
	cur = g.ffn(il, &l.FFN, cur, actGelu)
	cur = g.name(g.norm(cur, l.PostFFNNorm, nil), il, "ffn_post_norm")
	return c.Add(x, cur)
}
