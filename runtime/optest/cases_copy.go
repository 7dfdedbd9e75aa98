package optest

import (
	"fmt"

	rt "github.com/gpurt/gpurt/runtime"
)

// Copies and lookups: DUP, CONT, CPY (every pair of dtypes), GET_ROWS,
// SET_ROWS and CONCAT.

var plainTypes = []rt.DType{rt.F32, rt.F16, rt.BF16, rt.I32}

func copyCases() []Case {
	var cs []Case
	for _, op := range []rt.Op{rt.OpDup, rt.OpCont} {
		for _, dt := range plainTypes {
			cs = append(cs,
				dupCase(op, dt, shape(17, 3, 2), packed, nil),
				dupCase(op, dt, shape(33, 17, 3, 2), transposed, nil),
				dupCase(op, dt, shape(33, 17, 3, 2), swap12, nil),
				dupCase(op, dt, shape(17, 3, 2), atOffset, nil),
			)
		}
		for _, dt := range []rt.DType{rt.Q8_0, rt.Q4_0} {
			cs = append(cs,
				dupCase(op, dt, shape(64, 3, 2), packed, nil),
				dupCase(op, dt, shape(64, 3, 2), swap12, nil),
				dupCase(op, dt, shape(64, 3, 2), atOffset, nil),
			)
		}
		cs = append(cs, dupCase(op, rt.F32, shape(5, 17, 3, 2), permuted(2, 0, 1, 3), nil))
	}
	cs = append(cs,
		dupCase(rt.OpCont, rt.F32, shape(33, 17), transposed, []int{561}),
		dupCase(rt.OpCont, rt.F16, shape(33, 17, 3, 2), swap12, []int{33 * 17, 6}),
		dupCase(rt.OpCont, rt.Q8_0, shape(64, 3, 2), swap12, []int{128, 3}),
	)

	all := []rt.DType{rt.F32, rt.F16, rt.BF16, rt.Q8_0, rt.Q4_0, rt.I32}
	for _, src := range all {
		for _, dst := range all {
			if (src == rt.I32 && dst.IsQuantized()) || (dst == rt.I32 && src.IsQuantized()) {
				continue // no such conversion
			}
			cs = append(cs,
				cpyCase(src, dst, shape(64, 3, 2), packed, packed),
				cpyCase(src, dst, shape(64, 3, 2), swap12, packed))
			if !src.IsQuantized() && !dst.IsQuantized() {
				cs = append(cs, cpyCase(src, dst, shape(17, 3), packed, packed))
			}
		}
	}
	// The other weight types: to and from the plain floats, whole blocks.
	for _, t := range blockTypes {
		cs = append(cs,
			cpyCase(rt.F32, t, shape(256, 3, 2), packed, packed),
			cpyCase(rt.F16, t, shape(256, 3, 2), packed, packed),
			cpyCase(t, rt.F32, shape(256, 3, 2), packed, packed),
			cpyCase(t, rt.F16, shape(256, 3, 2), swap12, packed))
	}
	return append(cs,
		cpyCase(rt.F32, rt.F32, shape(33, 17), packed, transposed),
		cpyCase(rt.F32, rt.F16, shape(33, 17, 3), packed, swap12),
		cpyCase(rt.F16, rt.F32, shape(33, 17), transposed, transposed),
		cpyCase(rt.F32, rt.F16, shape(33, 5), atOffset, packed),
		cpyCase(rt.F32, rt.Q8_0, shape(64, 5), atOffset, packed),
	)
}

// dupCase copies a (in layout l) with DUP or CONT; reshape, if not nil,
// gives CONT a new shape.
func dupCase(op rt.Op, dt rt.DType, ne [rt.MaxDims]int, l layout, reshape []int) *opCase {
	params := fmt.Sprintf("type=%v,ne=%s", dt, fmtNe(ne)) + l.param("view")
	if reshape != nil {
		params += ",reshape=" + fmtInts(reshape)
	}
	c := newCase(op, dt, params, func(ctx *rt.Context) *rt.Tensor {
		a := input(ctx, "a", dt, ne, l)
		switch {
		case op == rt.OpDup:
			return ctx.Dup(a)
		case reshape != nil:
			return ctx.ContReshape(a, reshape...)
		}
		return ctx.Cont(a)
	})
	return c.with("a", uniform(-100, 100))
}

func cpyCase(src, dst rt.DType, ne [rt.MaxDims]int, ls, ld layout) *opCase {
	params := fmt.Sprintf("type_src=%v,type_dst=%v,ne=%s", src, dst, fmtNe(ne)) + ls.param("view_src") + ld.param("view_dst")
	c := newCase(rt.OpCpy, dst, params, func(ctx *rt.Context) *rt.Tensor {
		a := input(ctx, "src", src, ne, ls)
		b := input(ctx, "dst", dst, ne, ld)
		return ctx.Cpy(a, b)
	})
	c.group.Row = fmt.Sprintf("CPY from %v", src)
	if src == rt.I32 || dst == rt.I32 {
		c.with("src", uniform(-100, 100))
	} else {
		c.with("src", uniform(-4, 4))
	}
	return c
}

func getRowsCases() []Case {
	var cs []Case
	for _, dt := range []rt.DType{rt.F32, rt.F16, rt.BF16, rt.Q8_0, rt.Q4_0, rt.I32} {
		ne0 := 17
		if dt.IsQuantized() {
			ne0 = 64
		}
		cs = append(cs,
			getRowsCase(dt, ne0, 10, 5, [2]int{1, 1}, packed),
			getRowsCase(dt, ne0, 7, 3, [2]int{3, 2}, packed),
			getRowsCase(dt, ne0, 1, 1, [2]int{1, 1}, packed),
		)
	}
	for _, dt := range blockTypes {
		cs = append(cs,
			getRowsCase(dt, 256, 10, 5, [2]int{1, 1}, packed),
			getRowsCase(dt, 256, 7, 3, [2]int{3, 2}, packed),
		)
	}
	return append(cs,
		getRowsCase(rt.F32, 33, 10, 12, [2]int{1, 1}, atOffset),
		getRowsCase(rt.F32, 33, 7, 3, [2]int{3, 2}, swap12),
		getRowsCase(rt.Q8_0, 64, 7, 3, [2]int{3, 1}, swap12),
	)
}

func getRowsCase(dt rt.DType, ne0, rows, n int, bs [2]int, l layout) *opCase {
	params := fmt.Sprintf("type=%v,ne0=%d,rows=%d,n=%d,bs=%s", dt, ne0, rows, n, fmtInts(bs[:])) + l.param("view")
	c := newCase(rt.OpGetRows, dt, params, func(ctx *rt.Context) *rt.Tensor {
		a := input(ctx, "a", dt, shape(ne0, rows, bs[0], bs[1]), l)
		idx := leaf(ctx, "idx", rt.I32, shape(n, bs[0], bs[1]))
		return ctx.GetRows(a, idx)
	})
	out := rt.F32
	if dt == rt.I32 {
		out = rt.I32
		c.with("a", uniform(-1000, 1000))
	}
	c.nmse = tolerance(rt.OpGetRows, out)
	return c.with("idx", indices(rows, false))
}

func setRowsCases() []Case {
	var cs []Case
	for _, dt := range []rt.DType{rt.F32, rt.F16, rt.BF16, rt.Q8_0, rt.Q4_0} {
		ne0 := 17
		if dt.IsQuantized() {
			ne0 = 64
		}
		cs = append(cs,
			setRowsCase(dt, ne0, 10, 4, [2]int{1, 1}, [2]int{1, 1}, packed),
			setRowsCase(dt, ne0, 6, 3, [2]int{3, 2}, [2]int{3, 2}, packed),
			setRowsCase(dt, ne0, 6, 3, [2]int{3, 2}, [2]int{1, 2}, packed), // indices broadcast over dim 2
		)
	}
	for _, dt := range blockTypes { // rows quantized as ggml's CPU from_float does
		cs = append(cs, setRowsCase(dt, 256, 6, 3, [2]int{1, 1}, [2]int{1, 1}, packed))
	}
	return append(cs,
		setRowsCase(rt.F32, 33, 5, 5, [2]int{1, 1}, [2]int{1, 1}, packed), // every row
		setRowsCase(rt.F32, 33, 9, 4, [2]int{3, 1}, [2]int{3, 1}, swap12),
		setRowsCase(rt.F16, 33, 9, 4, [2]int{1, 1}, [2]int{1, 1}, atOffset),
	)
}

// setRowsCase writes n rows into a [ne0, rows, bs...] destination at
// distinct indices of shape [n, ibs...].
func setRowsCase(dt rt.DType, ne0, rows, n int, bs, ibs [2]int, l layout) *opCase {
	params := fmt.Sprintf("type=%v,ne0=%d,rows=%d,n=%d,bs=%s,bs_idx=%s", dt, ne0, rows, n, fmtInts(bs[:]), fmtInts(ibs[:])) + l.param("view_src")
	c := newCase(rt.OpSetRows, dt, params, func(ctx *rt.Context) *rt.Tensor {
		dst := leaf(ctx, "dst", dt, shape(ne0, rows, bs[0], bs[1]))
		src := input(ctx, "src", rt.F32, shape(ne0, n, bs[0], bs[1]), l)
		idx := leaf(ctx, "idx", rt.I32, shape(n, ibs[0], ibs[1]))
		return ctx.SetRows(dst, src, idx)
	})
	return c.with("idx", indices(rows, true))
}

func concatCases() []Case {
	base := shape(17, 3, 2, 2)
	grown := func(d int) [rt.MaxDims]int { s := base; s[d] = 5; return s }
	var cs []Case
	for d := range rt.MaxDims {
		cs = append(cs, concatCase(rt.F32, base, grown(d), d, packed, packed))
	}
	return append(cs,
		concatCase(rt.F16, base, grown(0), 0, packed, packed),
		concatCase(rt.F16, base, grown(2), 2, packed, packed),
		concatCase(rt.BF16, base, grown(3), 3, packed, packed),
		concatCase(rt.I32, base, grown(1), 1, packed, packed),
		concatCase(rt.F32, base, grown(1), 1, swap12, packed),
		concatCase(rt.F32, base, grown(0), 0, packed, atOffset),
		concatCase(rt.F32, shape(17, 3), shape(5, 3), 0, transposed, transposed),
	)
}

func concatCase(dt rt.DType, neA, neB [rt.MaxDims]int, dim int, la, lb layout) *opCase {
	params := fmt.Sprintf("type=%v,ne_a=%s,ne_b=%s,dim=%d", dt, fmtNe(neA), fmtNe(neB), dim) + la.param("view_a") + lb.param("view_b")
	c := newCase(rt.OpConcat, dt, params, func(ctx *rt.Context) *rt.Tensor {
		return ctx.Concat(input(ctx, "a", dt, neA, la), input(ctx, "b", dt, neB, lb), dim)
	})
	if dt == rt.I32 {
		c.with("a", uniform(-1000, 1000)).with("b", uniform(-1000, 1000))
	}
	return c
}
