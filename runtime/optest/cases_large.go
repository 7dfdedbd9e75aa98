package optest

import (
	rt "github.com/gpurt/gpurt/runtime"
)

// manyRows is more rows than a GPU dispatch dimension holds (65535
// workgroups): kernels that launch one workgroup per row must split the
// launch. The rows are short, so the cases stay cheap.
const manyRows = 65600

// largeCases checks dispatch limits and long reductions, at sizes real
// models reach (vocabulary-sized GEMV, long rows).
func largeCases() []Case {
	many := shape(4, manyRows)
	cs := []Case{
		binaryCase(rt.OpAdd, rt.F32, rt.F32, many, shape(4), packed, packed, false),
		binaryCase(rt.OpMul, rt.F32, rt.F32, many, many, packed, packed, false),
		binaryCase(rt.OpAdd, rt.F16, rt.F32, many, shape(1, manyRows), packed, packed, false),
		reduceCase(rt.OpSum, many, packed),
		reduceCase(rt.OpSumRows, many, packed),
		reduceCase(rt.OpMean, many, packed),
		reduceCase(rt.OpArgmax, many, packed),
		reduceCase(rt.OpArgmax, shape(manyRows, 2), packed),
		normCase(rt.OpNorm, many, 1e-5, packed, false),
		normCase(rt.OpRmsNorm, many, 1e-5, packed, false),
		normCase(rt.OpRmsNorm, shape(manyRows), 1e-5, packed, false),
		softMaxCase(softMaxParams{ne: many, mask: rt.I32, scale: 1}, packed, false),
		softMaxCase(softMaxParams{ne: shape(manyRows, 2), mask: rt.F16, neMask: shape(manyRows, 2), scale: 0.5}, packed, false),
		ropeCase(rt.F32, ropeParams{shape(4, 128, 513), 4, rt.RopeNormal, 10000, 1}, packed, false),
		ropeCase(rt.F16, ropeParams{shape(4, 128, 513), 4, rt.RopeNeox, 10000, 1}, packed, false),
		diagMaskCase(many, 5, packed, false),
		getRowsCase(rt.F32, 4, 100, manyRows, [2]int{1, 1}, packed),
		getRowsCase(rt.Q4_0, 32, 100, manyRows, [2]int{1, 1}, packed),
		setRowsCase(rt.F16, 4, manyRows, manyRows, [2]int{1, 1}, [2]int{1, 1}, packed),
		cpyCase(rt.F32, rt.F16, many, packed, packed),
		cpyCase(rt.F32, rt.Q8_0, shape(32, manyRows/2), packed, packed),
		cpyCase(rt.Q4_0, rt.F32, shape(32, manyRows/2), packed, packed),
		dupCase(rt.OpCont, rt.F32, many, transposed, nil),
		concatCase(rt.F32, shape(4, manyRows/2), shape(4, manyRows/2), 1, packed, packed),
		concatCase(rt.F32, shape(manyRows, 2), shape(manyRows, 2), 0, packed, packed),
	}
	for _, k := range []unaryKind{scaleKind(0.5, 0), plainKind(rt.OpSilu, -4, 4)} {
		cs = append(cs, unaryCase(k, rt.F32, many, packed, false))
	}
	one := [2]int{1, 1}
	for _, w := range weightTypes {
		cs = append(cs,
			// A vocabulary-sized output projection: more rows than a dispatch dimension.
			mulMatCase(w, mm{m: manyRows, n: 1, k: 32, bs: one, nr: one, la: packed, lb: packed}),
			// Long dot products.
			mulMatCase(w, mm{m: 16, n: 1, k: 16384, bs: one, nr: one, la: packed, lb: packed}),
			mulMatCase(w, mm{m: 16, n: 3, k: 16384, bs: one, nr: one, la: packed, lb: packed}),
		)
	}
	return cs
}
