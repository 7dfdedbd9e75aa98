package cpu

import (
	"math"

	rt "github.com/gpurt/gpurt/runtime"
)

// quantizeQ8 quantizes x to Q8 activations for the integer dot kernels:
// 32-element blocks of int8 quants qs with one scale each in qd. It follows
// ggml's quantize_row_q8_0_ref exactly: the scale is amax/127, the quants
// are x/scale rounded half away from zero, and the stored scale is the
// scale rounded to half precision, so the activations equal a Q8_0 round
// trip of x. len(x) is a multiple of 32.
func quantizeQ8(x []float32, qs []int8, qd []float32) {
	nb := len(x) / rt.QK
	qs, qd = qs[:nb*rt.QK], qd[:nb]
	for b := range qd {
		xb := x[b*rt.QK : b*rt.QK+rt.QK]
		q := qs[b*rt.QK : b*rt.QK+rt.QK]
		amax := float32(0)
		for _, v := range xb {
			amax = max(amax, float32(math.Abs(float64(v))))
		}
		d := amax / 127
		id := float32(0)
		if d != 0 {
			id = 1 / d
		}
		for j, v := range xb {
			q[j] = int8(math.Round(float64(v * id)))
		}
		qd[b] = rt.F16ToF32(rt.F32ToF16(d))
	}
}
