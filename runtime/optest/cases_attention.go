package optest

import (
	"fmt"

	rt "github.com/gpurt/gpurt/runtime"
)

// Attention ops: ROPE, SOFT_MAX with and without masks, DIAG_MASK_INF.

type ropeParams struct {
	ne          [rt.MaxDims]int
	nDims, mode int
	base, scale float32
}

func ropeCases() []Case {
	var cs []Case
	for _, mode := range []int{rt.RopeNormal, rt.RopeNeox} {
		for _, dt := range []rt.DType{rt.F32, rt.F16} {
			for _, s := range []struct {
				ne    [rt.MaxDims]int
				nDims int
			}{
				{shape(64, 4, 7), 64}, {shape(128, 2, 3, 2), 128}, {shape(64, 3, 5), 32}, {shape(16, 1, 1), 16},
			} {
				cs = append(cs, ropeCase(dt, ropeParams{s.ne, s.nDims, mode, 10000, 1}, packed, false))
			}
		}
		cs = append(cs,
			ropeCase(rt.F32, ropeParams{shape(64, 4, 7), 64, mode, 500000, 1}, packed, false),
			ropeCase(rt.F32, ropeParams{shape(64, 4, 7), 64, mode, 10000, 0.25}, packed, false),
			ropeCase(rt.F32, ropeParams{shape(64, 5, 4), 64, mode, 10000, 1}, swap12, false),
			ropeCase(rt.F32, ropeParams{shape(64, 4, 7), 32, mode, 10000, 1}, atOffset, false),
			ropeCase(rt.F32, ropeParams{shape(64, 4, 7), 64, mode, 10000, 1}, packed, true),
		)
	}
	return cs
}

func ropeCase(dt rt.DType, p ropeParams, l layout, inplace bool) *opCase {
	params := fmt.Sprintf("type=%v,ne=%s,n_dims=%d,mode=%d,freq_base=%s,freq_scale=%s",
		dt, fmtNe(p.ne), p.nDims, p.mode, fmtF(p.base), fmtF(p.scale)) + l.param("view")
	if inplace {
		params += ",inplace"
	}
	c := newCase(rt.OpRope, dt, params, func(ctx *rt.Context) *rt.Tensor {
		a := input(ctx, "a", dt, p.ne, l)
		if inplace {
			a = ctx.Cont(a)
		}
		pos := leaf(ctx, "pos", rt.I32, shape(p.ne[2]))
		return ctx.Rope(a, pos, p.nDims, p.mode, p.base, p.scale)
	})
	c.inplace = inplace
	return c.with("pos", uniform(0, 256))
}

type softMaxParams struct {
	ne     [rt.MaxDims]int
	mask   rt.DType // I32 means no mask
	neMask [rt.MaxDims]int
	scale  float32
	causal bool // mask holds -Inf above the diagonal
}

func softMaxCases() []Case {
	big := shape(33, 17, 3, 2)
	noMask := func(ne [rt.MaxDims]int, scale float32) softMaxParams {
		return softMaxParams{ne: ne, mask: rt.I32, scale: scale}
	}
	masked := func(ne [rt.MaxDims]int, mt rt.DType, nm [rt.MaxDims]int, scale float32, causal bool) softMaxParams {
		return softMaxParams{ne, mt, nm, scale, causal}
	}
	var cs []Case
	for _, p := range []softMaxParams{
		noMask(shape(17, 3), 1), noMask(big, 0.125), noMask(shape(1), 1), noMask(shape(1000, 4), 1),
		masked(big, rt.F32, shape(33, 17), 1, false),
		masked(big, rt.F16, shape(33, 17), 0.25, false),
		masked(big, rt.F32, shape(33, 32, 3), 1, false), // a taller mask, broadcast over dim 3
		masked(big, rt.F32, big, 0.5, false),
		masked(big, rt.F32, shape(33, 17), 0.125, true),
		masked(shape(17, 17, 3), rt.F16, shape(17, 17), 1, true),
		masked(shape(64, 7, 4, 2), rt.F16, shape(64, 7, 1, 2), 0.125, true),
	} {
		cs = append(cs, softMaxCase(p, packed, false))
	}
	return append(cs,
		softMaxCase(noMask(big, 1), swap12, false),
		softMaxCase(masked(big, rt.F32, shape(33, 17), 1, false), atOffset, false),
		softMaxCase(masked(big, rt.F32, shape(33, 17), 0.5, true), packed, true),
	)
}

func softMaxCase(p softMaxParams, l layout, inplace bool) *opCase {
	params := fmt.Sprintf("ne=%s", fmtNe(p.ne))
	if p.mask != rt.I32 {
		params += fmt.Sprintf(",mask=%v,ne_mask=%s", p.mask, fmtNe(p.neMask))
		if p.causal {
			params += ",causal"
		}
	}
	params += ",scale=" + fmtF(p.scale) + l.param("view")
	if inplace {
		params += ",inplace"
	}
	c := newCase(rt.OpSoftMax, rt.F32, params, func(ctx *rt.Context) *rt.Tensor {
		a := input(ctx, "a", rt.F32, p.ne, l)
		if inplace {
			a = ctx.Cont(a)
		}
		var mask *rt.Tensor
		if p.mask != rt.I32 {
			mask = leaf(ctx, "mask", p.mask, p.neMask)
		}
		return ctx.SoftMax(a, mask, p.scale)
	})
	c.inplace = inplace
	c.with("a", uniform(-4, 4))
	if p.causal {
		c.with("mask", causalMask)
	}
	return c
}

func diagMaskCases() []Case {
	var cs []Case
	for _, p := range []struct {
		ne    [rt.MaxDims]int
		nPast int
	}{
		{shape(17, 17), 0}, {shape(10, 5, 2, 2), 3}, {shape(33, 17, 3), 10}, {shape(5, 17), 0}, {shape(1), 0},
	} {
		cs = append(cs, diagMaskCase(p.ne, p.nPast, packed, false))
	}
	return append(cs, diagMaskCase(shape(10, 5, 4), 1, swap12, false), diagMaskCase(shape(17, 17, 3), 2, packed, true))
}

func diagMaskCase(ne [rt.MaxDims]int, nPast int, l layout, inplace bool) *opCase {
	params := fmt.Sprintf("ne=%s,n_past=%d", fmtNe(ne), nPast) + l.param("view")
	if inplace {
		params += ",inplace"
	}
	c := newCase(rt.OpDiagMaskInf, rt.F32, params, func(ctx *rt.Context) *rt.Tensor {
		a := input(ctx, "a", rt.F32, ne, l)
		if inplace {
			a = ctx.Cont(a)
		}
		return ctx.DiagMaskInf(a, nPast)
	})
	c.inplace = inplace
	return c
}
