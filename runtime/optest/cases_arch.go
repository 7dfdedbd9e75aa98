package optest

import (
	"fmt"
	"math"
	"math/rand/v2"

	rt "github.com/gpurt/gpurt/runtime"
)

// The ops that architectures beyond llama need: GLU (SwiGLU, GeGLU), ROPE
// with frequency factors and YaRN, SOFT_MAX with a logit softcap and
// FLASH_ATTN_EXT. GELU_ERF is with the other unary ops.

func gluCases() []Case {
	big := shape(33, 17, 3, 2)
	var cs []Case
	for _, kind := range []int{rt.GLUSwiGLU, rt.GLUGeGLU} {
		for _, dt := range []rt.DType{rt.F32, rt.F16} {
			for _, ne := range [][rt.MaxDims]int{shape(1), shape(17, 3), big} {
				cs = append(cs, gluCase(kind, dt, ne, packed, false))
			}
		}
		cs = append(cs,
			gluCase(kind, rt.F32, shape(64, 7), packed, false),
			gluCase(kind, rt.F32, big, swap12, false),
			gluCase(kind, rt.F32, big, atOffset, false),
			gluCase(kind, rt.F32, big, packed, true),
		)
	}
	return cs
}

var gluNames = map[int]string{rt.GLUSwiGLU: "swiglu", rt.GLUGeGLU: "geglu"}

func gluCase(kind int, dt rt.DType, ne [rt.MaxDims]int, l layout, inplace bool) *opCase {
	params := fmt.Sprintf("op=%s,type=%v,ne=%s", gluNames[kind], dt, fmtNe(ne)) + l.param("view")
	if inplace {
		params += ",inplace"
	}
	c := newCase(rt.OpGLU, dt, params, func(ctx *rt.Context) *rt.Tensor {
		a := input(ctx, "a", dt, ne, l)
		if inplace {
			a = ctx.Cont(a)
		}
		b := input(ctx, "b", dt, ne, l)
		if kind == rt.GLUGeGLU {
			return ctx.GeGLU(a, b)
		}
		return ctx.SwiGLU(a, b)
	})
	c.group.Row = "GLU " + gluNames[kind]
	c.inplace = inplace
	return c.with("a", uniform(-4, 4)).with("b", uniform(-2, 2))
}

// ropeExtCase is a ROPE case with the parameters of ggml_rope_ext.
type ropeExtCase struct {
	ne       [rt.MaxDims]int
	p        rt.RopeParams
	factors  bool // frequency factors, drawn in [0.5, 4)
	maxPos   float32
	dt       rt.DType
	l        layout
	inplace  bool
	describe string
}

func ropeExtCases() []Case {
	yarn := func(mode, nDims int) rt.RopeParams {
		return rt.RopeParams{NDims: nDims, Mode: mode, FreqBase: 10000, FreqScale: 0.25, NCtxOrig: 4096,
			ExtFactor: 1, AttnFactor: 1, BetaFast: 32, BetaSlow: 1}
	}
	plain := func(mode, nDims int, base float32) rt.RopeParams {
		return rt.RopeParams{NDims: nDims, Mode: mode, FreqBase: base, FreqScale: 1, AttnFactor: 1}
	}
	var cs []Case
	for _, mode := range []int{rt.RopeNormal, rt.RopeNeox} {
		scaled := plain(mode, 64, 10000)
		scaled.AttnFactor = 0.7
		half := yarn(mode, 64)
		half.ExtFactor = 0.5
		for _, rc := range []ropeExtCase{
			{ne: shape(64, 4, 7), p: plain(mode, 64, 500000), factors: true, maxPos: 256, dt: rt.F32},
			{ne: shape(64, 4, 7), p: plain(mode, 64, 500000), factors: true, maxPos: 256, dt: rt.F16},
			{ne: shape(96, 3, 5), p: plain(mode, 32, 10000), factors: true, maxPos: 256, dt: rt.F32}, // partial rotary, Phi-3
			{ne: shape(64, 4, 7), p: yarn(mode, 64), maxPos: 4096, dt: rt.F32},
			{ne: shape(64, 4, 7), p: half, maxPos: 4096, dt: rt.F32},
			{ne: shape(64, 4, 7), p: yarn(mode, 64), factors: true, maxPos: 4096, dt: rt.F16},
			{ne: shape(80, 2, 3, 2), p: yarn(mode, 48), maxPos: 1024, dt: rt.F32},
			{ne: shape(64, 4, 7), p: scaled, maxPos: 256, dt: rt.F32},
			{ne: shape(64, 5, 4), p: yarn(mode, 64), factors: true, maxPos: 4096, dt: rt.F32, l: swap12},
			{ne: shape(64, 4, 7), p: yarn(mode, 32), factors: true, maxPos: 4096, dt: rt.F32, inplace: true},
		} {
			cs = append(cs, rc.build())
		}
	}
	return cs
}

func (rc ropeExtCase) build() *opCase {
	p := rc.p
	if rc.l == (layout{}) {
		rc.l = packed
	}
	params := fmt.Sprintf("type=%v,ne=%s,n_dims=%d,mode=%d,freq_base=%s,freq_scale=%s",
		rc.dt, fmtNe(rc.ne), p.NDims, p.Mode, fmtF(p.FreqBase), fmtF(p.FreqScale))
	if rc.factors {
		params += ",ff"
	}
	if p.ExtFactor != 0 {
		params += fmt.Sprintf(",n_ctx_orig=%d,ext_factor=%s,beta_fast=%s,beta_slow=%s",
			p.NCtxOrig, fmtF(p.ExtFactor), fmtF(p.BetaFast), fmtF(p.BetaSlow))
	}
	if p.AttnFactor != 1 {
		params += ",attn_factor=" + fmtF(p.AttnFactor)
	}
	params += rc.l.param("view")
	if rc.inplace {
		params += ",inplace"
	}
	c := newCase(rt.OpRope, rc.dt, params, func(ctx *rt.Context) *rt.Tensor {
		a := input(ctx, "a", rc.dt, rc.ne, rc.l)
		if rc.inplace {
			a = ctx.Cont(a)
		}
		pos := leaf(ctx, "pos", rt.I32, shape(rc.ne[2]))
		var ff *rt.Tensor
		if rc.factors {
			ff = leaf(ctx, "ff", rt.F32, shape(p.NDims/2))
		}
		return ctx.RopeExt(a, pos, ff, p)
	})
	c.inplace = rc.inplace
	return c.with("pos", uniform(0, rc.maxPos)).with("ff", uniform(0.5, 4))
}

func softCapCases() []Case {
	big := shape(33, 17, 3, 2)
	var cs []Case
	for _, p := range []struct {
		ne, neMask [rt.MaxDims]int
		mask       rt.DType
		scale, cap float32
		causal     bool
	}{
		{ne: shape(17, 3), mask: rt.I32, scale: 1, cap: 2},
		{ne: big, neMask: shape(33, 17), mask: rt.F32, scale: 0.5, cap: 1, causal: true},
		{ne: shape(64, 7, 4, 2), neMask: shape(64, 8, 1, 2), mask: rt.F16, scale: 1, cap: 50, causal: true},
		{ne: shape(1000, 4), mask: rt.I32, scale: 4, cap: 3},
	} {
		params := fmt.Sprintf("ne=%s", fmtNe(p.ne))
		if p.mask != rt.I32 {
			params += fmt.Sprintf(",mask=%v,ne_mask=%s", p.mask, fmtNe(p.neMask))
			if p.causal {
				params += ",causal"
			}
		}
		params += ",scale=" + fmtF(p.scale) + ",softcap=" + fmtF(p.cap)
		c := newCase(rt.OpSoftMax, rt.F32, params, func(ctx *rt.Context) *rt.Tensor {
			a := leaf(ctx, "a", rt.F32, p.ne)
			var mask *rt.Tensor
			if p.mask != rt.I32 {
				mask = leaf(ctx, "mask", p.mask, p.neMask)
			}
			return ctx.SoftMaxExt(a, mask, p.scale, p.cap)
		})
		c.with("a", uniform(-4, 4))
		if p.causal {
			c.with("mask", causalMask)
		}
		cs = append(cs, c)
	}
	return cs
}

// faParams describe one FLASH_ATTN_EXT case: q [d, nq, h, b], k [d, nkv,
// hkv, b], v [dv, nkv, hkv, b], and a mask of mq rows (0: none) broadcast
// over mh heads.
type faParams struct {
	d, dv, nq, nkv, h, hkv, b int
	kv                        rt.DType
	mask                      rt.DType // I32: none
	mq, mh                    int
	cap                       float32
	view                      bool // q, k and v are permuted views, as a model's graph makes them
}

func flashAttnCases() []Case {
	f16 := func(d, nq, nkv, h, hkv int) faParams {
		return faParams{d: d, dv: d, nq: nq, nkv: nkv, h: h, hkv: hkv, b: 1, kv: rt.F16, mask: rt.F16, mq: nq, mh: 1}
	}
	var ps []faParams
	ps = append(ps,
		f16(64, 1, 37, 4, 4),  // one token over a cache
		f16(64, 7, 37, 8, 2),  // a batch, GQA 4:1
		f16(128, 3, 70, 4, 1), // multi-query
		f16(256, 2, 20, 2, 1), // Gemma's head size
		f16(64, 1, 1, 2, 2),   // a single key
	)
	noMask := f16(32, 5, 16, 2, 2)
	noMask.kv, noMask.mask = rt.F32, rt.I32
	f32 := f16(64, 7, 37, 8, 2)
	f32.kv, f32.mask = rt.F32, rt.F32
	padded := f16(64, 7, 37, 8, 2)
	padded.mq = 64 // ggml's GGML_KQ_MASK_PAD
	capped := f16(64, 7, 37, 4, 2)
	capped.cap = 1
	batch := f16(64, 4, 21, 4, 2)
	batch.b, batch.mh = 2, 4 // a mask per head and sequence
	dv := f16(64, 3, 21, 4, 2)
	dv.dv = 32
	views := f16(64, 5, 37, 8, 2)
	views.view = true
	q8 := f16(64, 5, 37, 4, 2)
	q8.kv = rt.Q8_0
	q4 := f16(64, 1, 37, 4, 2)
	q4.kv = rt.Q4_0
	// One token without GQA takes the CPU's per-key path: every K and V
	// dtype there.
	mhaQ8 := f16(64, 1, 37, 4, 4)
	mhaQ8.kv = rt.Q8_0
	mhaQ4 := f16(64, 1, 37, 2, 2)
	mhaQ4.kv, mhaQ4.mask = rt.Q4_0, rt.I32
	mhaF32 := f16(64, 1, 37, 2, 2)
	mhaF32.kv, mhaF32.mask, mhaF32.cap = rt.F32, rt.F32, 1
	// A long cache for one token and one kv head: the CPU splits the keys
	// over its workers and merges the partial softmaxes.
	long := f16(64, 1, 600, 4, 1)
	ps = append(ps, noMask, f32, padded, capped, batch, dv, views, q8, q4, mhaQ8, mhaQ4, mhaF32, long)
	var cs []Case
	for _, p := range ps {
		cs = append(cs, flashAttnCase(p))
	}
	return cs
}

func flashAttnCase(p faParams) *opCase {
	params := fmt.Sprintf("hsk=%d,hsv=%d,nh=%d,nr=%d,kv=%d,nb=%d,b=%d,type_KV=%v", p.d, p.dv, p.hkv, p.h/p.hkv, p.nkv, p.nq, p.b, p.kv)
	if p.mask != rt.I32 {
		params += fmt.Sprintf(",mask=%v,mask_ne=[%d,%d,%d,%d]", p.mask, p.nkv, p.mq, p.mh, p.b)
	}
	if p.cap != 0 {
		params += ",softcap=" + fmtF(p.cap)
	}
	if p.view {
		params += ",view=permute"
	}
	scale := float32(1 / math.Sqrt(float64(p.d)))
	c := newCase(rt.OpFlashAttnExt, p.kv, params, func(ctx *rt.Context) *rt.Tensor {
		lay := packed
		if p.view {
			lay = swap12
		}
		q := input(ctx, "q", rt.F32, shape(p.d, p.nq, p.h, p.b), lay)
		k := input(ctx, "k", p.kv, shape(p.d, p.nkv, p.hkv, p.b), lay)
		v := input(ctx, "v", p.kv, shape(p.dv, p.nkv, p.hkv, p.b), lay)
		var mask *rt.Tensor
		if p.mask != rt.I32 {
			mask = leaf(ctx, "mask", p.mask, shape(p.nkv, p.mq, p.mh, p.b))
		}
		return ctx.FlashAttnExt(q, k, v, mask, scale, p.cap)
	})
	c.nmse = nmseFlashAttn
	if p.kv.IsQuantized() {
		c.nmse = nmseMulMatLowP
	}
	// Scores of a few units, so that the softmax is neither flat nor one-hot.
	c.with("q", uniform(-2, 2)).with("k", uniform(-1, 1)).with("v", uniform(-1, 1))
	return c.with("mask", faMask(p.nq))
}

// faMask fills a [kv, rows, …] mask for nq queries: causal over the last
// nq keys with small uniform biases, and -Inf in the padding rows.
func faMask(nq int) initFn {
	return func(t *rt.Tensor, r *rand.Rand) ([]byte, error) {
		kv, rows := t.Ne[0], t.Ne[1]
		shift := kv - min(kv, nq)
		vals := make([]float32, t.Nelements())
		for i := range vals {
			col, row := i%kv, (i/kv)%rows
			vals[i] = 0.5 * (2*r.Float32() - 1)
			if row >= nq || col > row+shift {
				vals[i] = float32(negInf)
			}
		}
		return encode(t, vals)
	}
}
