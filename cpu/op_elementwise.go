package cpu

import (
	"math"

	rt "github.com/gpurt/gpurt/runtime"
)

// Elementwise kernels load each row as float32, compute in place and store
// it: F16 tensors are computed in float32 and rounded once, as ggml does,
// and a result aliasing its source (in-place) is safe because a row is read
// whole before it is written.

// binary computes dst = a op c, with c broadcast over a by repetition.
func (b *Backend) binary(op rt.Op, a, c, dst hostTensor) error {
	ne0, cn0 := a.ne[0], c.ne[0]
	return b.forRows(a.rows(), a.rows()*ne0, func(r0, r1 int, ws *workspace) error {
		x, y := ws.f32(0, ne0), ws.f32(1, cn0)
		loaded := -1
		for r := r0; r < r1; r++ {
			i1, i2, i3 := a.coords(r)
			a.loadRow(a.at(i1, i2, i3), x)
			// c's row index; consecutive rows of a often share it.
			cr := i1%c.ne[1] + c.ne[1]*(i2%c.ne[2]+c.ne[2]*(i3%c.ne[3]))
			if cr != loaded {
				c.loadRow(c.rowAt(cr), y)
				loaded = cr
			}
			binaryRow(op, x, y)
			if err := dst.storeRow(dst.at(i1, i2, i3), x); err != nil {
				return err
			}
		}
		return nil
	})
}

// binaryRow computes x[i] = x[i] op y[i mod len(y)].
func binaryRow(op rt.Op, x, y []float32) {
	for off := 0; off < len(x); off += len(y) {
		xs := x[off:min(off+len(y), len(x))]
		ys := y[:len(xs)]
		switch op {
		case rt.OpAdd:
			for i := range xs {
				xs[i] += ys[i]
			}
		case rt.OpSub:
			for i := range xs {
				xs[i] -= ys[i]
			}
		case rt.OpMul:
			for i := range xs {
				xs[i] *= ys[i]
			}
		case rt.OpDiv:
			for i := range xs {
				xs[i] /= ys[i]
			}
		}
	}
}

// rowFunc transforms a row of values in place.
type rowFunc func(x []float32)

// mapRows applies f to every row of a, writing dst (same shape).
func (b *Backend) mapRows(a, dst hostTensor, f rowFunc) error {
	return b.mapRowsAt(a, dst, func(x []float32, _, _, _ int, _ *workspace) { f(x) })
}

// mapRowsAt is mapRows for row functions that need the row's coordinates
// or scratch space (f32 slot 0 holds the row).
func (b *Backend) mapRowsAt(a, dst hostTensor, f func(x []float32, i1, i2, i3 int, ws *workspace)) error {
	ne0 := a.ne[0]
	return b.forRows(a.rows(), a.rows()*ne0, func(r0, r1 int, ws *workspace) error {
		x := ws.f32(0, ne0)
		for r := r0; r < r1; r++ {
			i1, i2, i3 := a.coords(r)
			a.loadRow(a.at(i1, i2, i3), x)
			f(x, i1, i2, i3, ws)
			if err := dst.storeRow(dst.at(i1, i2, i3), x); err != nil {
				return err
			}
		}
		return nil
	})
}

// each makes a rowFunc from a scalar function computed in float64.
func each(f func(float64) float64) rowFunc {
	return func(x []float32) {
		for i, v := range x {
			x[i] = float32(f(float64(v)))
		}
	}
}

// sqrt2OverPi is √(2/π), GELU's tanh-approximation constant.
var sqrt2OverPi = math.Sqrt(2 / math.Pi)

// elementwise returns the row function of a one-input elementwise op, or nil.
func elementwise(n *rt.Tensor) rowFunc {
	switch n.Op {
	case rt.OpScale:
		s, bias := n.ParamF(0), n.ParamF(1)
		return func(x []float32) {
			for i, v := range x {
				x[i] = float32(v*s) + bias // rounded like ggml: product, then sum
			}
		}
	case rt.OpClamp:
		lo, hi := n.ParamF(0), n.ParamF(1)
		return func(x []float32) {
			for i, v := range x {
				x[i] = max(lo, min(hi, v))
			}
		}
	case rt.OpSqr:
		return func(x []float32) {
			for i, v := range x {
				x[i] = v * v
			}
		}
	case rt.OpSqrt:
		return each(math.Sqrt)
	case rt.OpNeg:
		return func(x []float32) {
			for i, v := range x {
				x[i] = -v
			}
		}
	case rt.OpRelu:
		return func(x []float32) {
			for i, v := range x {
				if !(v > 0) {
					x[i] = 0
				}
			}
		}
	case rt.OpSilu:
		return each(func(v float64) float64 { return v / (1 + math.Exp(-v)) })
	case rt.OpSigmoid:
		return each(func(v float64) float64 { return 1 / (1 + math.Exp(-v)) })
	case rt.OpGelu:
		return each(geluTanh)
	case rt.OpGeluErf:
		return each(geluErf)
	case rt.OpTanh:
		return each(math.Tanh)
	case rt.OpExp:
		return each(math.Exp)
	}
	return nil
}

// geluTanh is GELU's tanh approximation, as ggml's GELU.
func geluTanh(v float64) float64 { return 0.5 * v * (1 + math.Tanh(sqrt2OverPi*(v+0.044715*v*v*v))) }

// geluErf is the exact GELU.
func geluErf(v float64) float64 { return 0.5 * v * (1 + math.Erf(v/math.Sqrt2)) }
