package cpu

import (
	"math"

	rt "github.com/gpurt/gpurt/runtime"
)

// glu computes dst = act(a)·c (OpGLU) for two tensors of one shape: silu
// for SwiGLU, tanh GELU for GeGLU. Fused, it reads each input once and
// writes once, where SILU then MUL stores and reloads the activation.
// SwiGLU of packed f32 rows runs on the SIMD silu and mul kernels
// (swigluTask, ops_fast.go); other cases compute here in float64 per
// element.
func (b *Backend) glu(kind int, a, c, dst hostTensor) error {
	ne0 := a.ne[0]
	return b.forRows(a.rows(), 2*a.rows()*ne0, func(r0, r1 int, ws *workspace) error {
		for r := r0; r < r1; r++ {
			i1, i2, i3 := a.coords(r)
			x, y := ws.f32(0, ne0), ws.f32(1, ne0)
			a.loadRow(a.at(i1, i2, i3), x)
			c.loadRow(c.at(i1, i2, i3), y)
			for i, v := range x {
				g := float64(v)
				if kind == rt.GLUSwiGLU {
					g = g / (1 + math.Exp(-g))
				} else {
					g = geluTanh(g)
				}
				x[i] = float32(g * float64(y[i]))
			}
			if err := dst.storeRow(dst.at(i1, i2, i3), x); err != nil {
				return err
			}
		}
		return nil
	})
}
