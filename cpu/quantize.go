package cpu

import (
	"math"

	rt "github.com/gpurt/gpurt/runtime"
)

// q8Row is a row of Q8 activations for the integer dot kernels: blocks of
// 32 int8 quants qs, each with its scale d and the negated sum of its
// quants neg (which lets Q4_0 kernels multiply unsigned nibbles and correct
// for their offset of 8 afterwards).
type q8Row struct {
	qs  []int8
	d   []float32
	neg []int32
}

// blocks is the number of blocks in the row.
func (q q8Row) blocks() int { return len(q.d) }

// q8Rows holds n rows of nb blocks each.
type q8Rows struct {
	nb  int
	qs  []int8
	d   []float32
	neg []int32
}

func (q *q8Rows) resize(n, nb int) {
	q.nb = nb
	q.qs = grow(q.qs, n*nb*rt.QK)
	q.d = grow(q.d, n*nb)
	q.neg = grow(q.neg, n*nb)
}

func (q *q8Rows) row(r int) q8Row {
	return q8Row{qs: q.qs[r*q.nb*rt.QK : (r+1)*q.nb*rt.QK], d: q.d[r*q.nb : (r+1)*q.nb], neg: q.neg[r*q.nb : (r+1)*q.nb]}
}

// quantizeQ8 quantizes x (a multiple of 32 long) into y. It follows ggml's
// quantize_row_q8_0_ref exactly: the scale is amax/127, the quants are
// x/scale rounded half away from zero, and the stored scale is the scale
// rounded to half precision, so the activations equal a Q8_0 round trip of
// x.
func quantizeQ8(x []float32, y q8Row) {
	for b := range y.d {
		xb := x[b*rt.QK : b*rt.QK+rt.QK]
		q := y.qs[b*rt.QK : b*rt.QK+rt.QK]
		amax := float32(0)
		for _, v := range xb {
			amax = max(amax, float32(math.Abs(float64(v))))
		}
		d := amax / 127
		id := float32(0)
		if d != 0 {
			id = 1 / d
		}
		var sum int32
		for j, v := range xb {
			q[j] = int8(math.Round(float64(v * id)))
			sum += int32(q[j])
		}
		y.d[b] = rt.F16ToF32(rt.F32ToF16(d))
		y.neg[b] = -sum
	}
}

// grow returns s with length n, reallocating only when it is too small.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}
