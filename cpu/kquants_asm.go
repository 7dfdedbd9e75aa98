//go:build (amd64 || arm64) && !purego

package cpu

import rt "github.com/gpurt/gpurt/runtime"

// blockDotK wraps an assembly dot kernel of super-blocks of blockBytes
// bytes with Q8_K activations, checking the bounds the kernel relies on.
func blockDotK(blockBytes int, kernel func(w *byte, qs *int8, qd *float32, bsums *int16, nb int) float32) func([]byte, q8KRow) float32 {
	return func(w []byte, y q8KRow) float32 {
		nb := y.blocks()
		if nb == 0 {
			return 0
		}
		_, _, _ = w[nb*blockBytes-1], y.qs[nb*rt.QKK-1], y.bsums[nb*16-1]
		return kernel(&w[0], &y.qs[0], &y.d[0], &y.bsums[0], nb)
	}
}

// blockDotNeg wraps an assembly dot kernel of 32-value blocks of
// blockBytes bytes with Q8_0/Q8_1 activations, which also reads the
// activations' negated block sums.
func blockDotNeg(blockBytes int, kernel func(w *byte, qs *int8, qd *float32, neg *int32, nb int) float32) func([]byte, q8Row) float32 {
	return func(w []byte, y q8Row) float32 {
		nb := y.blocks()
		if nb == 0 {
			return 0
		}
		_, _, _ = w[nb*blockBytes-1], y.qs[nb*rt.QK-1], y.neg[nb-1]
		return kernel(&w[0], &y.qs[0], &y.d[0], &y.neg[0], nb)
	}
}

// quantizeQ8KWith wraps an assembly Q8_K quantizer of nb >= 1 blocks,
// checking the bounds it relies on.
func quantizeQ8KWith(kernel func(x *float32, qs *int8, d *float32, bsums *int16, nb int)) func([]float32, q8KRow) {
	return func(x []float32, y q8KRow) {
		nb := y.blocks()
		if nb == 0 {
			return
		}
		_, _, _ = x[nb*rt.QKK-1], y.qs[nb*rt.QKK-1], y.bsums[nb*16-1]
		kernel(&x[0], &y.qs[0], &y.d[0], &y.bsums[0], nb)
	}
}
