package optest

import (
	"fmt"

	rt "github.com/gpurt/gpurt/runtime"
)

// View ops compute nothing, so each case reads the view through CONT (or,
// for RESHAPE, through an op that depends on the new shape): a backend
// passes when it interprets the view's shape, strides and offset correctly.

func viewCases() []Case {
	var cs []Case
	// VIEW: element strides come from the dtype; nb and offset in bytes.
	for _, v := range []struct {
		dt     rt.DType
		src    [rt.MaxDims]int
		ne     []int
		nb     []int // in elements (blocks for quantized types) of the source
		offset int   // likewise
	}{
		{rt.F32, shape(100), []int{37}, nil, 5},
		{rt.F32, shape(33, 17), []int{10, 5}, []int{33}, 3*33 + 2},
		{rt.F32, shape(33, 17, 3), []int{16, 4, 2}, []int{33, 33 * 17}, 33*17 + 33 + 1},
		{rt.F32, shape(17, 5, 4, 3), []int{7, 3, 2, 2}, []int{17, 17 * 5, 17 * 5 * 4}, 17*5*4 + 17*5 + 17 + 3},
		{rt.F32, shape(64), []int{8, 8}, []int{4}, 1}, // overlapping rows
		{rt.F16, shape(33, 17), []int{10, 5}, []int{33}, 3*33 + 1},
		{rt.BF16, shape(33, 17), []int{33, 4}, []int{66}, 33},
		{rt.I32, shape(33, 17, 2), []int{11, 3, 2}, []int{66, 33 * 17}, 7},
		{rt.Q8_0, shape(128, 6), []int{64, 3}, []int{4}, 4 + 1},
		{rt.Q4_0, shape(128, 6, 2), []int{32, 5, 2}, []int{4, 24}, 2},
	} {
		cs = append(cs, viewCase(v.dt, v.src, v.ne, v.nb, v.offset))
	}
	// A view of a computed tensor, not a leaf.
	cs = append(cs, newCase(rt.OpView, rt.F32, "type=f32,src=[33,17,1,1],ne=[16,8,1,1],nb=[33],offset=35,of=SCALE", func(ctx *rt.Context) *rt.Tensor {
		a := ctx.Scale(leaf(ctx, "a", rt.F32, shape(33, 17)), 2, 0)
		return ctx.Cont(ctx.View2D(a, 16, 8, 33*4, 35*4))
	}))

	// RESHAPE, read by CONT, by a permutation and by a broadcasting ADD.
	reshape := func(dt rt.DType, src [rt.MaxDims]int, ne []int, then string, f func(ctx *rt.Context, r *rt.Tensor) *rt.Tensor) *opCase {
		params := fmt.Sprintf("type=%v,src=%s,ne=%s,then=%s", dt, fmtNe(src), fmtInts(ne), then)
		return newCase(rt.OpReshape, dt, params, func(ctx *rt.Context) *rt.Tensor {
			return f(ctx, ctx.Reshape(leaf(ctx, "a", dt, src), ne...))
		})
	}
	cont := func(ctx *rt.Context, r *rt.Tensor) *rt.Tensor { return ctx.Cont(r) }
	cs = append(cs,
		reshape(rt.F32, shape(33, 17, 3, 2), []int{17, 33, 6}, "CONT", cont),
		reshape(rt.F16, shape(64, 6), []int{16, 4, 3, 2}, "CONT", cont),
		reshape(rt.Q8_0, shape(64, 6), []int{128, 3}, "CONT", cont),
		reshape(rt.I32, shape(17, 6), []int{102}, "CONT", cont),
		reshape(rt.F32, shape(12, 10), []int{4, 3, 10}, "PERMUTE", func(ctx *rt.Context, r *rt.Tensor) *rt.Tensor {
			return ctx.Cont(ctx.Permute(r, 1, 0, 2, 3))
		}),
		reshape(rt.F32, shape(60, 4), []int{20, 3, 4}, "ADD", func(ctx *rt.Context, r *rt.Tensor) *rt.Tensor {
			return ctx.Add(r, leaf(ctx, "b", rt.F32, shape(20, 1, 4)))
		}),
	)

	// PERMUTE and TRANSPOSE, read by CONT.
	for _, p := range []struct {
		dt   rt.DType
		src  [rt.MaxDims]int
		axes [rt.MaxDims]int
	}{
		{rt.F32, shape(3, 17, 5, 2), [4]int{0, 2, 1, 3}},
		{rt.F32, shape(3, 17, 5, 2), [4]int{1, 0, 2, 3}},
		{rt.F32, shape(3, 17, 5, 2), [4]int{2, 0, 1, 3}},
		{rt.F32, shape(3, 17, 5, 2), [4]int{3, 2, 1, 0}},
		{rt.F32, shape(3, 17, 5, 2), [4]int{1, 2, 3, 0}},
		{rt.F32, shape(3, 17, 5, 2), [4]int{0, 1, 3, 2}},
		{rt.F32, shape(3, 17, 5, 2), [4]int{2, 3, 0, 1}},
		{rt.F32, shape(3, 17, 5, 2), [4]int{0, 3, 1, 2}},
		{rt.F16, shape(33, 4, 5), [4]int{2, 0, 1, 3}},
		{rt.F16, shape(33, 4, 5), [4]int{0, 2, 1, 3}},
		{rt.BF16, shape(17, 3), [4]int{1, 0, 2, 3}},
		{rt.I32, shape(3, 17, 5, 2), [4]int{3, 2, 1, 0}},
		{rt.Q8_0, shape(64, 3, 2, 2), [4]int{0, 2, 1, 3}},
		{rt.Q4_0, shape(64, 3, 2, 2), [4]int{0, 3, 2, 1}},
	} {
		cs = append(cs, newCase(rt.OpPermute, p.dt, fmt.Sprintf("type=%v,ne=%s,axes=%s", p.dt, fmtNe(p.src), fmtInts(p.axes[:])),
			func(ctx *rt.Context) *rt.Tensor {
				a := leaf(ctx, "a", p.dt, p.src)
				return ctx.Cont(ctx.Permute(a, p.axes[0], p.axes[1], p.axes[2], p.axes[3]))
			}))
	}
	for _, p := range []struct {
		dt    rt.DType
		src   [rt.MaxDims]int
		twice bool
	}{
		{rt.F32, shape(17, 33), false}, {rt.F32, shape(33, 17, 3, 2), false}, {rt.F32, shape(1, 17), false},
		{rt.F16, shape(33, 17, 3), false}, {rt.BF16, shape(17, 33), false}, {rt.I32, shape(17, 5), false},
		{rt.F32, shape(17, 33), true},
	} {
		params := fmt.Sprintf("type=%v,ne=%s", p.dt, fmtNe(p.src))
		if p.twice {
			params += ",twice"
		}
		cs = append(cs, newCase(rt.OpTranspose, p.dt, params, func(ctx *rt.Context) *rt.Tensor {
			t := ctx.Transpose(leaf(ctx, "a", p.dt, p.src))
			if p.twice {
				t = ctx.Transpose(t)
			}
			return ctx.Cont(t)
		}))
	}
	return cs
}

// viewCase views src at an offset with strides (in elements, or blocks for
// quantized types) and copies the view with CONT.
func viewCase(dt rt.DType, src [rt.MaxDims]int, ne, nb []int, offset int) *opCase {
	params := fmt.Sprintf("type=%v,src=%s,ne=%s,nb=%s,offset=%d", dt, fmtNe(src), fmtInts(ne), fmtInts(nb), offset)
	return newCase(rt.OpView, dt, params, func(ctx *rt.Context) *rt.Tensor {
		a := leaf(ctx, "a", dt, src)
		ts := dt.TypeSize()
		nbBytes := make([]int, len(nb))
		for i, s := range nb {
			nbBytes[i] = s * ts
		}
		return ctx.Cont(ctx.View(a, ne, nbBytes, offset*ts))
	})
}
