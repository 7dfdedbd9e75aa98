package cpu

import (
	"fmt"
	"math"
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
)

// refRope rotates each pair by pos·scale·base^(-2i/nDims) radians.
func refRope(x, pos arr, nDims, mode int, base, scale float64) arr {
	out := newArr(x.ne)
	copy(out.v, x.v)
	rowsOf(x, func(row []float64, i1, i2, i3 int) {
		p := pos.v[i2]
		for i := 0; i < nDims/2; i++ {
			a, c := 2*i, 2*i+1
			if mode == rt.RopeNeox {
				a, c = i, i+nDims/2
			}
			theta := p * scale * math.Pow(base, -2*float64(i)/float64(nDims))
			out.set(a, i1, i2, i3, row[a]*math.Cos(theta)-row[c]*math.Sin(theta))
			out.set(c, i1, i2, i3, row[a]*math.Sin(theta)+row[c]*math.Cos(theta))
		}
	})
	return out
}

func TestRope(t *testing.T) {
	positions := []int32{0, 7, 100, -3}
	var cases []opCase
	for _, typ := range []rt.DType{rt.F32, rt.F16} {
		for _, mode := range []int{rt.RopeNormal, rt.RopeNeox} {
			for _, nDims := range []int{8, 4} {
				for _, layout := range []string{"leaf", "view", "permuted"} {
					scale := float32(1)
					if layout == "view" {
						scale = 0.25
					}
					cases = append(cases, opCase{
						name: fmt.Sprintf("%v mode %d dims %d %s", typ, mode, nDims, layout),
						tol:  map[rt.DType]float64{rt.F32: 1e-6, rt.F16: 1e-3}[typ],
						build: func(b *tb) (*rt.Tensor, func() arr) {
							var x *rt.Tensor
							switch layout {
							case "leaf":
								x = b.rand(typ, 8, 3, 4, 2)
							case "view":
								x = b.offsetView(typ, 8, 3, 4, 2)
							default: // heads and tokens swapped, as after a reshape of QKV
								x = b.ctx.Permute(b.rand(typ, 8, 4, 3, 2), 0, 2, 1, 3)
							}
							pos := b.ints(positions, 4)
							out := b.ctx.Rope(x, pos, nDims, mode, 10000, scale)
							return out, func() arr {
								return refRope(read(x), read(pos), nDims, mode, 10000, float64(scale))
							}
						},
					})
				}
			}
		}
	}
	cases = append(cases, opCase{name: "known quarter turn", tol: 1e-7, build: func(b *tb) (*rt.Tensor, func() arr) {
		// Pair 0 turns by pos; pair 1 by pos·100^(-1/2) = pos/10.
		x := b.values(rt.F32, []float32{1, 0, 0, 2}, 4, 1, 1)
		pos := b.ints([]int32{5}, 1)
		out := b.ctx.Rope(x, pos, 4, rt.RopeNormal, 100, float32(math.Pi/10))
		// theta0 = π/2, theta1 = π/20.
		s, c := math.Sincos(math.Pi / 20)
		return out, func() arr { return arr{ne: out.Ne, v: []float64{0, 1, -2 * s, 2 * c}} }
	}})
	runOpCases(t, cases)
}

func refSoftMax(x, mask arr, hasMask bool, scale float64) arr {
	out := newArr(x.ne)
	rowsOf(x, func(row []float64, i1, i2, i3 int) {
		w := make([]float64, len(row))
		mx := math.Inf(-1)
		for i, v := range row {
			w[i] = v * scale
			if hasMask {
				w[i] += mask.at(i, i1, i2%mask.ne[2], i3%mask.ne[3])
			}
			mx = math.Max(mx, w[i])
		}
		if math.IsInf(mx, -1) {
			return // a fully masked row is zeros
		}
		sum := 0.0
		for _, v := range w {
			sum += math.Exp(v - mx)
		}
		for i, v := range w {
			out.set(i, i1, i2, i3, math.Exp(v-mx)/sum)
		}
	})
	return out
}

// causalMask is a [n0, n1, n2, 1] mask with -Inf above the diagonal, whose
// row fullRow (if >= 0) is -Inf everywhere; finite values vary with i0 and i2.
func causalMask(n0, n1, n2, fullRow int) []float32 {
	m := make([]float32, n0*n1*n2)
	for i2 := 0; i2 < n2; i2++ {
		for i1 := 0; i1 < n1; i1++ {
			for i0 := 0; i0 < n0; i0++ {
				v := float32(i0*(i2+1)%5) * 0.25
				if i0 > i1+1 || i1 == fullRow {
					v = float32(math.Inf(-1))
				}
				m[i0+n0*(i1+n1*i2)] = v
			}
		}
	}
	return m
}

func TestSoftMax(t *testing.T) {
	var cases []opCase
	for _, layout := range []string{"leaf", "view", "transposed"} {
		cases = append(cases,
			opCase{name: "no mask " + layout, tol: 1e-6, build: func(b *tb) (*rt.Tensor, func() arr) {
				b.lo, b.hi = -4, 4
				x := source(b, layout, rt.F32, 17, 3, 2, 2)
				out := b.ctx.SoftMax(x, nil, 0.5)
				return out, func() arr { return refSoftMax(read(x), arr{}, false, 0.5) }
			}},
		)
		for _, mt := range []rt.DType{rt.F32, rt.F16} {
			cases = append(cases, opCase{name: fmt.Sprintf("mask %v %s", mt, layout), tol: 1e-6,
				build: func(b *tb) (*rt.Tensor, func() arr) {
					x := source(b, layout, rt.F32, 17, 3, 4, 2)
					// 5 mask rows for 3 rows of x; broadcast over dims 2 and 3.
					mask := b.values(mt, causalMask(17, 5, 2, 1), 17, 5, 2, 1)
					out := b.ctx.SoftMax(x, mask, 1.25)
					return out, func() arr { return refSoftMax(read(x), read(mask), true, 1.25) }
				}})
		}
	}
	// Rows of 40 with live lengths 1 to 21: rounded up to whole vectors,
	// some end inside the masked tail, some reach the row's end.
	cases = append(cases, opCase{name: "mask long rows", tol: 1e-6, build: func(b *tb) (*rt.Tensor, func() arr) {
		m := causalMask(40, 20, 1, 3)
		for i1 := 0; i1 < 20; i1++ {
			for i0 := 32; i0 < 40 && i1 > 12; i0++ {
				m[i0+40*i1] = 0.5 // rows live to the end past the rounding
			}
		}
		x := b.rand(rt.F32, 40, 20, 3)
		mask := b.values(rt.F32, m, 40, 20)
		out := b.ctx.SoftMax(x, mask, 0.75)
		return out, func() arr { return refSoftMax(read(x), read(mask), true, 0.75) }
	}})
	cases = append(cases, opCase{name: "known", tol: 1e-7, build: func(b *tb) (*rt.Tensor, func() arr) {
		x := b.values(rt.F32, []float32{0, float32(math.Log(3)), 1000, 1000, 7}, 5)
		mask := b.values(rt.F32, []float32{0, 0, float32(math.Inf(-1)), float32(math.Inf(-1)), float32(math.Inf(-1))}, 5)
		out := b.ctx.SoftMax(x, mask, 1)
		return out, func() arr { return arr{ne: out.Ne, v: []float64{0.25, 0.75, 0, 0, 0}} }
	}})
	runOpCases(t, cases)
}

func TestDiagMaskInf(t *testing.T) {
	var cases []opCase
	for _, nPast := range []int{0, 2, 9} {
		for _, layout := range []string{"leaf", "view", "transposed"} {
			cases = append(cases, opCase{name: fmt.Sprintf("n_past %d %s", nPast, layout),
				build: func(b *tb) (*rt.Tensor, func() arr) {
					x := source(b, layout, rt.F32, 7, 5, 2, 2)
					out := b.ctx.DiagMaskInf(x, nPast)
					return out, func() arr {
						want := read(x)
						want.each(func(i0, i1, i2, i3 int) {
							if i0 > nPast+i1 {
								want.set(i0, i1, i2, i3, math.Inf(-1))
							}
						})
						return want
					}
				}})
		}
	}
	runOpCases(t, cases)
}
