package cpu

import (
	"math"

	rt "github.com/gpurt/gpurt/runtime"
)

// rope rotates pairs of each row of a ([head_dim, heads, tokens, ne3]) by
// theta_i = pos[i2]·freqScale·freqBase^(-2i/nDims), i < nDims/2. Mode 0
// pairs (x[2i], x[2i+1]); neox pairs (x[i], x[i+nDims/2]). Elements from
// nDims on pass through. Angles are computed in float64, once per position.
func (b *Backend) rope(n *rt.Tensor, a, pos, dst hostTensor) error {
	nDims, neox := int(n.Params[0]), n.Params[1] == rt.RopeNeox
	base, fscale := float64(n.ParamF(2)), float64(n.ParamF(3))
	half, ne0 := nDims/2, a.ne[0]
	return b.forRows(a.rows(), a.rows()*ne0, func(r0, r1 int, ws *workspace) error {
		x := ws.f32(0, ne0)
		cos, sin := ws.f64(0, half), ws.f64(1, half)
		cached, have := int32(0), false
		for r := r0; r < r1; r++ {
			i1, i2, i3 := a.coords(r)
			if p := pos.i32(pos.off + i2*pos.nb[0]); !have || p != cached {
				for i := range half {
					theta := float64(p) * fscale * math.Pow(base, -2*float64(i)/float64(nDims))
					sin[i], cos[i] = math.Sincos(theta)
				}
				cached, have = p, true
			}
			a.loadRow(a.at(i1, i2, i3), x)
			for i := range half {
				j, k := 2*i, 2*i+1
				if neox {
					j, k = i, i+half
				}
				x0, x1 := float64(x[j]), float64(x[k])
				x[j] = float32(x0*cos[i] - x1*sin[i])
				x[k] = float32(x0*sin[i] + x1*cos[i])
			}
			if err := dst.storeRow(dst.at(i1, i2, i3), x); err != nil {
				return err
			}
		}
		return nil
	})
}

// softMax computes softmax(x·scale + mask) over each row. The mask row is
// row i1 of mask matrix (i2 mod its ne2, i3 mod its ne3). A row whose values
// are all -Inf (fully masked) becomes zeros rather than NaN.
func (b *Backend) softMax(scale float32, a hostTensor, mask *hostTensor, dst hostTensor) error {
	ne0 := a.ne[0]
	return b.mapRowsAt(a, dst, func(x []float32, i1, i2, i3 int, ws *workspace) {
		m, e := ws.f32(1, ne0), ws.f64(0, ne0)
		if mask != nil {
			mask.loadRow(mask.at(i1, i2%mask.ne[2], i3%mask.ne[3]), m)
		}
		mx := float32(math.Inf(-1))
		for i, v := range x {
			v *= scale
			if mask != nil {
				v += m[i]
			}
			x[i] = v
			mx = max(mx, v)
		}
		if math.IsInf(float64(mx), -1) {
			clear(x)
			return
		}
		sum := 0.0
		for i, v := range x {
			e[i] = math.Exp(float64(v) - float64(mx))
			sum += e[i]
		}
		for i := range x {
			x[i] = float32(e[i] / sum)
		}
	})
}

// diagMaskInf copies a, setting element i0 of row i1 to -Inf where
// i0 > nPast + i1.
func (b *Backend) diagMaskInf(nPast int, a, dst hostTensor) error {
	ninf := float32(math.Inf(-1))
	return b.mapRowsAt(a, dst, func(x []float32, i1, _, _ int, _ *workspace) {
		for i0 := max(0, nPast+i1+1); i0 < len(x); i0++ {
			x[i0] = ninf
		}
	})
}
