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

// blockDotKRows wraps an assembly kernel of rows of super-blocks, ldw
// bytes apart, with Q8_K activations (kernels.dotQ4KRows), checking the
// bounds it relies on.
func blockDotKRows(blockBytes int, kernel func(w *byte, ldw int, qs *int8, qd *float32, bsums *int16, nb int, out *float32, rows int)) func([]byte, int, q8KRow, []float32) {
	return func(w []byte, ldw int, y q8KRow, out []float32) {
		nb, rows := y.blocks(), len(out)
		if rows == 0 || nb == 0 {
			clear(out)
			return
		}
		_, _, _ = w[(rows-1)*ldw+nb*blockBytes-1], y.qs[nb*rt.QKK-1], y.bsums[nb*16-1]
		kernel(&w[0], ldw, &y.qs[0], &y.d[0], &y.bsums[0], nb, &out[0], rows)
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

// blockDotK4 wraps an assembly kernel that multiplies one weight row of
// super-blocks of blockBytes bytes with Q8_K activation rows r0..r0+3.
func blockDotK4(blockBytes int, kernel func(w *byte, qs *int8, qd *float32, bsums *int16, nb int, out *float32)) func([]byte, *q8KRows, int, *[4]float32) {
	return func(w []byte, y *q8KRows, r0 int, out *[4]float32) {
		nb := y.nb
		if nb == 0 {
			*out = [4]float32{}
			return
		}
		_, _, _, _ = w[nb*blockBytes-1], y.qs[(r0+4)*nb*rt.QKK-1], y.d[(r0+4)*nb-1], y.bsums[(r0+4)*nb*16-1]
		kernel(&w[0], &y.qs[r0*nb*rt.QKK], &y.d[r0*nb], &y.bsums[r0*nb*16], nb, &out[0])
	}
}
