package optest

import (
	"fmt"

	rt "github.com/gpurt/gpurt/runtime"
)

// Elementwise cases: ADD, SUB, MUL, DIV with broadcasting, the unary ops,
// SCALE and CLAMP.

func binaryCases() []Case {
	type pair struct{ a, b [rt.MaxDims]int }
	big := shape(33, 17, 3, 2)
	shapes := []pair{
		{shape(1), shape(1)},
		{shape(17, 3), shape(17, 3)},
		{big, big},
		{big, shape(33)},          // one row over everything
		{big, shape(1, 17, 3, 2)}, // one column
		{big, shape(33, 17)},      // over dims 2 and 3
		{big, shape(33, 1, 3)},    // over dims 1 and 3
		{shape(16, 5, 4, 3), shape(16, 5, 4)},
		{shape(16, 5, 4, 3), shape(1)}, // a scalar
	}
	var cs []Case
	for _, op := range []rt.Op{rt.OpAdd, rt.OpSub, rt.OpMul, rt.OpDiv} {
		for _, s := range shapes {
			cs = append(cs, binaryCase(op, rt.F32, rt.F32, s.a, s.b, packed, packed, false))
		}
		for _, ty := range [][2]rt.DType{{rt.F16, rt.F32}, {rt.F16, rt.F16}, {rt.F32, rt.F16}} {
			cs = append(cs,
				binaryCase(op, ty[0], ty[1], shape(17, 3), shape(17, 3), packed, packed, false),
				binaryCase(op, ty[0], ty[1], big, shape(33, 1, 3), packed, packed, false))
		}
		cs = append(cs,
			binaryCase(op, rt.F32, rt.F32, big, shape(33), swap12, packed, false),
			binaryCase(op, rt.F32, rt.F32, big, big, swap12, swap12, false),
			binaryCase(op, rt.F32, rt.F32, shape(33, 17), shape(33, 17), transposed, packed, false),
			binaryCase(op, rt.F32, rt.F32, shape(33, 17), shape(33, 17), packed, transposed, false),
			binaryCase(op, rt.F32, rt.F32, big, shape(33, 1, 3), atOffset, packed, false),
			binaryCase(op, rt.F32, rt.F32, big, shape(33, 17), packed, atOffset, false),
			binaryCase(op, rt.F16, rt.F32, big, shape(33), swap12, packed, false),
			binaryCase(op, rt.F32, rt.F32, big, shape(33, 1, 3), packed, packed, true),
		)
	}
	return cs
}

func binaryCase(op rt.Op, ta, tb rt.DType, neA, neB [rt.MaxDims]int, la, lb layout, inplace bool) *opCase {
	params := fmt.Sprintf("type_a=%v,type_b=%v,ne_a=%s,ne_b=%s", ta, tb, fmtNe(neA), fmtNe(neB)) +
		la.param("view_a") + lb.param("view_b")
	if inplace {
		params += ",inplace"
	}
	c := newCase(op, ta, params, func(ctx *rt.Context) *rt.Tensor {
		a := input(ctx, "a", ta, neA, la)
		if inplace {
			a = ctx.Cont(a) // an intermediate the result overwrites
		}
		b := input(ctx, "b", tb, neB, lb)
		switch op {
		case rt.OpAdd:
			return ctx.Add(a, b)
		case rt.OpSub:
			return ctx.Sub(a, b)
		case rt.OpMul:
			return ctx.Mul(a, b)
		}
		return ctx.Div(a, b)
	})
	c.inplace = inplace
	if op == rt.OpDiv {
		c.with("b", awayFromZero(0.5, 2))
	}
	return c
}

// unaryKind is one unary-like op with its parameters and input range.
type unaryKind struct {
	op     rt.Op
	params string // op parameters for the name, or ""
	lo, hi float32
	apply  func(ctx *rt.Context, a *rt.Tensor) *rt.Tensor
}

func plainKind(op rt.Op, lo, hi float32) unaryKind {
	return unaryKind{op: op, lo: lo, hi: hi, apply: func(ctx *rt.Context, a *rt.Tensor) *rt.Tensor { return ctx.Unary(op, a) }}
}

func scaleKind(s, b float32) unaryKind {
	return unaryKind{op: rt.OpScale, params: ",s=" + fmtF(s) + ",b=" + fmtF(b), lo: -1, hi: 1,
		apply: func(ctx *rt.Context, a *rt.Tensor) *rt.Tensor { return ctx.Scale(a, s, b) }}
}

func clampKind(lo, hi float32) unaryKind {
	return unaryKind{op: rt.OpClamp, params: ",min=" + fmtF(lo) + ",max=" + fmtF(hi), lo: -2, hi: 2,
		apply: func(ctx *rt.Context, a *rt.Tensor) *rt.Tensor { return ctx.Clamp(a, lo, hi) }}
}

func unaryCases() []Case {
	big := shape(33, 17, 3, 2)
	kinds := []unaryKind{
		scaleKind(0.5, 0), clampKind(-0.5, 0.5),
		plainKind(rt.OpSqr, -2, 2), plainKind(rt.OpSqrt, 0, 4),
		plainKind(rt.OpSilu, -4, 4), plainKind(rt.OpGelu, -4, 4), plainKind(rt.OpGeluErf, -4, 4), plainKind(rt.OpRelu, -1, 1),
		plainKind(rt.OpTanh, -3, 3), plainKind(rt.OpSigmoid, -4, 4), plainKind(rt.OpExp, -2, 2),
		plainKind(rt.OpNeg, -1, 1),
	}
	var cs []Case
	for _, k := range kinds {
		for _, dt := range []rt.DType{rt.F32, rt.F16} {
			for _, ne := range [][rt.MaxDims]int{shape(1), shape(17, 3), big} {
				cs = append(cs, unaryCase(k, dt, ne, packed, false))
			}
		}
		cs = append(cs,
			unaryCase(k, rt.F32, big, swap12, false),
			unaryCase(k, rt.F32, shape(33, 17), transposed, false),
			unaryCase(k, rt.F32, big, atOffset, false),
			unaryCase(k, rt.F16, big, swap12, false),
			unaryCase(k, rt.F32, big, packed, true),
		)
	}
	// More SCALE and CLAMP parameters.
	for _, k := range []unaryKind{
		scaleKind(-2, 0.25), scaleKind(0, 1), scaleKind(1, 0),
		clampKind(0, 1), clampKind(-0.25, -0.25), clampKind(-1e30, 1e30),
	} {
		cs = append(cs, unaryCase(k, rt.F32, big, packed, false), unaryCase(k, rt.F16, shape(17, 3), packed, false))
	}
	return cs
}

func unaryCase(k unaryKind, dt rt.DType, ne [rt.MaxDims]int, l layout, inplace bool) *opCase {
	params := fmt.Sprintf("type=%v,ne=%s", dt, fmtNe(ne)) + k.params + l.param("view")
	if inplace {
		params += ",inplace"
	}
	c := newCase(k.op, dt, params, func(ctx *rt.Context) *rt.Tensor {
		a := input(ctx, "a", dt, ne, l)
		if inplace {
			a = ctx.Cont(a)
		}
		return k.apply(ctx, a)
	})
	c.inplace = inplace
	return c.with("a", uniform(k.lo, k.hi))
}
