package cpu

import "math"

// softMax computes softmax(x + mask) over each row, with x = a·scale or,
// when softcap > 0, softcap·tanh(a·scale/softcap). The mask row is row i1
// of mask matrix (i2 mod its ne2, i3 mod its ne3). A row whose values are
// all -Inf (fully masked) becomes zeros rather than NaN.
func (b *Backend) softMax(scale, softcap float32, a hostTensor, mask *hostTensor, dst hostTensor) error {
	ne0 := a.ne[0]
	return b.mapRowsAt(a, dst, func(x []float32, i1, i2, i3 int, ws *workspace) {
		m, e := ws.f32(1, ne0), ws.f64(0, ne0)
		if mask != nil {
			mask.loadRow(mask.at(i1, i2%mask.ne[2], i3%mask.ne[3]), m)
		}
		mx := float32(math.Inf(-1))
		for i, v := range x {
			v *= scale
			if softcap > 0 {
				v = float32(float64(softcap) * math.Tanh(float64(v)/float64(softcap)))
			}
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

// softcapRow sets dst = c·tanh(x·scale/c), SOFT_MAX's capped logit.
func softcapRow(dst, x []float32, scale, c float32) {
	for i, v := range x[:len(dst)] {
		dst[i] = c * float32(math.Tanh(float64(v*scale/c)))
	}
}
