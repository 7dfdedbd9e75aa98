package cpu

import (
	"fmt"
	"math"
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
)

// rowsOf calls f with each row of a as a slice, with the row's indices.
func rowsOf(a arr, f func(row []float64, i1, i2, i3 int)) {
	for i3 := 0; i3 < a.ne[3]; i3++ {
		for i2 := 0; i2 < a.ne[2]; i2++ {
			for i1 := 0; i1 < a.ne[1]; i1++ {
				s := a.idx(0, i1, i2, i3)
				f(a.v[s:s+a.ne[0]], i1, i2, i3)
			}
		}
	}
}

func TestReductions(t *testing.T) {
	shapes := [][]int{{17, 3, 2, 2}, {33, 1}, {1, 5}, {3, 1, 1, 17}}
	var cases []opCase
	for _, ne := range shapes {
		for _, layout := range []string{"leaf", "view", "transposed"} {
			name := func(op string) string { return fmt.Sprintf("%s %v %s", op, ne, layout) }
			cases = append(cases,
				opCase{name: name("sum"), tol: 1e-6, build: func(b *tb) (*rt.Tensor, func() arr) {
					x := source(b, layout, rt.F32, ne...)
					return b.ctx.Sum(x), func() arr {
						s := 0.0
						for _, v := range read(x).v {
							s += v
						}
						return arr{ne: [4]int{1, 1, 1, 1}, v: []float64{s}}
					}
				}},
				opCase{name: name("sum_rows"), tol: 1e-6, build: func(b *tb) (*rt.Tensor, func() arr) {
					x := source(b, layout, rt.F32, ne...)
					out := b.ctx.SumRows(x)
					return out, func() arr {
						want := newArr(out.Ne)
						rowsOf(read(x), func(row []float64, i1, i2, i3 int) {
							s := 0.0
							for _, v := range row {
								s += v
							}
							want.set(0, i1, i2, i3, s)
						})
						return want
					}
				}},
				opCase{name: name("mean"), tol: 1e-6, build: func(b *tb) (*rt.Tensor, func() arr) {
					x := source(b, layout, rt.F32, ne...)
					out := b.ctx.Mean(x)
					return out, func() arr {
						want := newArr(out.Ne)
						rowsOf(read(x), func(row []float64, i1, i2, i3 int) {
							s := 0.0
							for _, v := range row {
								s += v / float64(len(row))
							}
							want.set(0, i1, i2, i3, s)
						})
						return want
					}
				}},
				opCase{name: name("norm"), tol: 1e-5, build: func(b *tb) (*rt.Tensor, func() arr) {
					x := source(b, layout, rt.F32, ne...)
					out := b.ctx.Norm(x, 1e-5)
					return out, func() arr { return refNorm(read(x), false, 1e-5) }
				}},
				opCase{name: name("rms_norm"), tol: 1e-5, build: func(b *tb) (*rt.Tensor, func() arr) {
					x := source(b, layout, rt.F32, ne...)
					out := b.ctx.RmsNorm(x, 1e-6)
					return out, func() arr { return refNorm(read(x), true, 1e-6) }
				}},
			)
		}
	}
	runOpCases(t, cases)
}

func refNorm(x arr, rms bool, eps float64) arr {
	out := newArr(x.ne)
	rowsOf(x, func(row []float64, i1, i2, i3 int) {
		n := float64(len(row))
		mean := 0.0
		if !rms {
			for _, v := range row {
				mean += v / n
			}
		}
		variance := 0.0
		for _, v := range row {
			variance += (v - mean) * (v - mean) / n
		}
		for i0, v := range row {
			out.set(i0, i1, i2, i3, (v-mean)/math.Sqrt(variance+eps))
		}
	})
	return out
}

// TestNormKnownValues uses rows whose results are exact.
func TestNormKnownValues(t *testing.T) {
	runOpCases(t, []opCase{
		{name: "norm", tol: 1e-6, build: func(b *tb) (*rt.Tensor, func() arr) {
			x := b.values(rt.F32, []float32{1, 3, 1, 3, 5, 5, 5, 5}, 4, 2)
			out := b.ctx.Norm(x, 0)
			// Row 0: mean 2, variance 1. Row 1 is constant: 0/sqrt(0+0) is NaN.
			return out, func() arr { return arr{ne: out.Ne, v: []float64{-1, 1, -1, 1, nan, nan, nan, nan}} }
		}},
		{name: "rms_norm", tol: 1e-6, build: func(b *tb) (*rt.Tensor, func() arr) {
			x := b.values(rt.F32, []float32{3, -4, 0, 0}, 2, 2)
			out := b.ctx.RmsNorm(x, 0.5)
			// Row 0: mean square 12.5, +0.5 = 13. Row 1: zeros over sqrt(0.5).
			s := 1 / math.Sqrt(13)
			return out, func() arr { return arr{ne: out.Ne, v: []float64{3 * s, -4 * s, 0, 0}} }
		}},
	})
}

var nan = math.NaN()

func TestArgmax(t *testing.T) {
	ninf := float32(math.Inf(-1))
	runOpCases(t, []opCase{
		{name: "ties and infinities", build: func(b *tb) (*rt.Tensor, func() arr) {
			x := b.values(rt.F32, []float32{
				1, 5, 5, 2, // first of equal maxima
				ninf, ninf, ninf, ninf, // nothing above -Inf
				-3, -2, -7, -2,
				0, float32(math.NaN()), 1, 0, // NaN is skipped
			}, 4, 4)
			out := b.ctx.Argmax(x)
			return out, func() arr { return arr{ne: out.Ne, v: []float64{1, 0, 1, 2}} }
		}},
		{name: "random transposed", build: func(b *tb) (*rt.Tensor, func() arr) {
			x := b.transposed(rt.F32, 33, 17)
			out := b.ctx.Argmax(x)
			return out, func() arr {
				want := newArr(out.Ne)
				rowsOf(read(x), func(row []float64, i1, _, _ int) {
					best := 0
					for i, v := range row {
						if v > row[best] {
							best = i
						}
					}
					want.v[i1] = float64(best)
				})
				return want
			}
		}},
	})
}
