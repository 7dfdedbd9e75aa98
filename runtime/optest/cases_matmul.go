package optest

import (
	"fmt"

	rt "github.com/gpurt/gpurt/runtime"
)

// MUL_MAT cases: every weight dtype, N = 1 (the matrix-vector path), small
// and large N (tiled paths, tails on odd sizes), broadcasting over dims 2
// and 3, and non-contiguous operands.

var weightTypes = []rt.DType{rt.F32, rt.F16, rt.BF16, rt.Q8_0, rt.Q4_0}

// blockTypes are the other weight types of GGUF files (the legacy _1 and
// Q5 formats, the K-quants, IQ4, MXFP4 and the ternary types). Each gets
// fewer MUL_MAT shapes than weightTypes, in the spirit of ggml's
// test-backend-ops: odd M, N from 1 to 33, K a multiple of 256 (every
// block size divides it) and broadcast batches. Every case also runs on
// lavapipe in CI, so the count stays moderate.
var blockTypes = []rt.DType{rt.Q4_1, rt.Q5_0, rt.Q5_1, rt.Q2_K, rt.Q3_K, rt.Q4_K, rt.Q5_K, rt.Q6_K,
	rt.IQ4_NL, rt.IQ4_XS, rt.MXFP4, rt.TQ1_0, rt.TQ2_0}

type mm struct {
	m, n, k int
	bs, nr  [2]int // weight batch dims; how often src1 repeats them
	la, lb  layout
}

func mulMatCases() []Case {
	one := [2]int{1, 1}
	var cs []Case
	for _, w := range weightTypes {
		var list []mm
		if w.IsQuantized() {
			// K must be a multiple of the block size.
			for _, s := range [][3]int{
				{16, 1, 32}, {16, 1, 256}, {33, 1, 256}, {1, 1, 64}, {16, 3, 256},
				{33, 17, 64}, {16, 17, 256}, {64, 64, 64}, {128, 129, 256},
			} {
				list = append(list, mm{m: s[0], n: s[1], k: s[2], bs: one, nr: one, la: packed, lb: packed})
			}
		} else {
			for _, s := range [][3]int{
				{1, 1, 1}, {16, 1, 17}, {16, 1, 256}, {33, 1, 33}, {16, 3, 3},
				{33, 17, 17}, {16, 17, 256}, {64, 64, 64}, {128, 129, 256},
			} {
				list = append(list, mm{m: s[0], n: s[1], k: s[2], bs: one, nr: one, la: packed, lb: packed})
			}
		}
		const k = 64
		list = append(list,
			// Broadcast over dims 2 and 3.
			mm{m: 16, n: 1, k: k, bs: [2]int{3, 2}, nr: one, la: packed, lb: packed},
			mm{m: 16, n: 1, k: k, bs: [2]int{3, 1}, nr: [2]int{2, 1}, la: packed, lb: packed},
			mm{m: 16, n: 17, k: k, bs: [2]int{3, 2}, nr: one, la: packed, lb: packed},
			mm{m: 33, n: 17, k: k, bs: [2]int{2, 1}, nr: [2]int{2, 2}, la: packed, lb: packed},
			mm{m: 16, n: 3, k: k, bs: one, nr: [2]int{1, 3}, la: packed, lb: packed},
			// Non-contiguous operands.
			mm{m: 16, n: 1, k: k, bs: [2]int{3, 1}, nr: one, la: packed, lb: swap12},
			mm{m: 16, n: 17, k: k, bs: [2]int{3, 1}, nr: one, la: packed, lb: swap12},
			mm{m: 16, n: 3, k: k, bs: [2]int{3, 1}, nr: [2]int{2, 1}, la: swap12, lb: packed},
			mm{m: 16, n: 17, k: k, bs: [2]int{2, 1}, nr: one, la: swap12, lb: swap12},
			mm{m: 33, n: 17, k: k, bs: one, nr: one, la: packed, lb: atOffset},
			mm{m: 33, n: 1, k: k, bs: one, nr: one, la: atOffset, lb: packed},
			mm{m: 16, n: 3, k: k, bs: one, nr: one, la: packed, lb: transposed},
			mm{m: 16, n: 1, k: k, bs: one, nr: one, la: packed, lb: transposed},
		)
		for _, p := range list {
			cs = append(cs, mulMatCase(w, p))
		}
	}
	one3 := [2]int{1, 1}
	for _, w := range blockTypes {
		for _, p := range []mm{
			{m: 33, n: 1, k: 256}, {m: 16, n: 1, k: 1024}, {m: 33, n: 2, k: 256}, {m: 17, n: 8, k: 512},
			{m: 16, n: 17, k: 768}, {m: 33, n: 33, k: 256}, // K past one packed panel of the CPU's GEMM
			{m: 16, n: 1, k: 256, bs: [2]int{3, 2}, nr: one3},
			{m: 17, n: 5, k: 256, bs: [2]int{2, 1}, nr: [2]int{2, 2}},
		} {
			if p.bs == [2]int{} {
				p.bs, p.nr = one3, one3
			}
			p.la, p.lb = packed, packed
			cs = append(cs, mulMatCase(w, p))
		}
	}
	return cs
}

func mulMatCase(w rt.DType, p mm) *opCase {
	params := fmt.Sprintf("type_a=%v,m=%d,n=%d,k=%d,bs=%s,nr=%s", w, p.m, p.n, p.k, fmtInts(p.bs[:]), fmtInts(p.nr[:])) +
		p.la.param("view_a") + p.lb.param("view_b")
	c := newCase(rt.OpMulMat, w, params, func(ctx *rt.Context) *rt.Tensor {
		a := input(ctx, "a", w, shape(p.k, p.m, p.bs[0], p.bs[1]), p.la)
		b := input(ctx, "b", rt.F32, shape(p.k, p.n, p.bs[0]*p.nr[0], p.bs[1]*p.nr[1]), p.lb)
		return ctx.MulMat(a, b)
	})
	c.nmse = mulMatTolerance(w)
	return c
}
