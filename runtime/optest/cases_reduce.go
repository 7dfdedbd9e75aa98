package optest

import (
	"fmt"

	rt "github.com/gpurt/gpurt/runtime"
)

// Reductions (SUM, SUM_ROWS, MEAN, ARGMAX) and row normalizations.

func reduceCases() []Case {
	big := shape(33, 17, 3, 2)
	var cs []Case
	for _, op := range []rt.Op{rt.OpSum, rt.OpSumRows, rt.OpMean} {
		for _, ne := range [][rt.MaxDims]int{shape(1), shape(17), big, shape(1000, 3)} {
			cs = append(cs, reduceCase(op, ne, packed))
		}
		cs = append(cs, reduceCase(op, big, swap12), reduceCase(op, big, atOffset), reduceCase(op, shape(17, 33), transposed))
	}
	for _, ne := range [][rt.MaxDims]int{shape(1), shape(17, 5), shape(300, 7), shape(1, 9)} {
		cs = append(cs, reduceCase(rt.OpArgmax, ne, packed))
	}
	cs = append(cs, reduceCase(rt.OpArgmax, shape(17, 5), transposed), reduceCase(rt.OpArgmax, shape(33, 17), atOffset))
	return cs
}

func reduceCase(op rt.Op, ne [rt.MaxDims]int, l layout) *opCase {
	out := rt.F32
	if op == rt.OpArgmax {
		out = rt.I32
	}
	c := newCase(op, rt.F32, fmt.Sprintf("type=f32,ne=%s", fmtNe(ne))+l.param("view"), func(ctx *rt.Context) *rt.Tensor {
		a := input(ctx, "a", rt.F32, ne, l)
		switch op {
		case rt.OpSum:
			return ctx.Sum(a)
		case rt.OpSumRows:
			return ctx.SumRows(a)
		case rt.OpMean:
			return ctx.Mean(a)
		}
		return ctx.Argmax(a)
	})
	c.nmse = tolerance(op, out)
	return c
}

func normCases() []Case {
	big := shape(33, 17, 3, 2)
	var cs []Case
	for _, op := range []rt.Op{rt.OpNorm, rt.OpRmsNorm} {
		for _, p := range []struct {
			ne  [rt.MaxDims]int
			eps float32
		}{
			{shape(17, 3), 1e-5}, {shape(64, 5, 4, 3), 1e-6}, {shape(4096, 2), 1e-5},
			{big, 0}, {shape(1, 3), 1e-5}, {shape(1000, 3), 1e-5},
		} {
			cs = append(cs, normCase(op, p.ne, p.eps, packed, false))
		}
		cs = append(cs, normCase(op, big, 1e-5, swap12, false), normCase(op, big, 1e-5, atOffset, false))
	}
	return append(cs, normCase(rt.OpRmsNorm, big, 1e-6, packed, true))
}

func normCase(op rt.Op, ne [rt.MaxDims]int, eps float32, l layout, inplace bool) *opCase {
	params := fmt.Sprintf("type=f32,ne=%s,eps=%s", fmtNe(ne), fmtF(eps)) + l.param("view")
	if inplace {
		params += ",inplace"
	}
	c := newCase(op, rt.F32, params, func(ctx *rt.Context) *rt.Tensor {
		a := input(ctx, "a", rt.F32, ne, l)
		if inplace {
			a = ctx.Cont(a)
		}
		if op == rt.OpNorm {
			return ctx.Norm(a, eps)
		}
		return ctx.RmsNorm(a, eps)
	})
	c.inplace = inplace
	return c
}
