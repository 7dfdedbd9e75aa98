package cpu

import (
	"encoding/binary"
	"unsafe"

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

// quantizeQ8 quantizes x (a multiple of 32 long) into y, encoding Q8_0
// blocks into blk (scratch of Q8_0.RowSize(len(x)) bytes) on the way. It
// follows ggml's quantize_row_q8_0_ref exactly: the scale is amax/127, the
// quants are x/scale rounded half away from zero, and the stored scale is
// the scale rounded to half precision, so the activations equal a Q8_0
// round trip of x.
func (k *kernels) quantizeQ8(x []float32, y q8Row, blk []byte) {
	k.quantQ8(x, blk, y.neg)
	tab := f16Table()
	qs := int8Bytes(y.qs)
	for b := range y.d {
		src := blk[b*34 : b*34+34]
		y.d[b] = tab[binary.LittleEndian.Uint16(src)]
		copy(qs[b*rt.QK:b*rt.QK+rt.QK], src[2:])
		y.neg[b] = -y.neg[b]
	}
}

// quantQ8Go is the portable quantQ8: runtime's encoder, then the sums.
func quantQ8Go(src []float32, dst []byte, sums []int32) {
	nb := len(src) / rt.QK
	if err := rt.QuantizeRow(rt.Q8_0, src[:nb*rt.QK], dst); err != nil {
		panic(err) // the caller sized dst
	}
	if sums == nil {
		return
	}
	for b := range nb {
		var s int32
		for _, q := range dst[b*34+2 : b*34+34] {
			s += int32(int8(q))
		}
		sums[b] = s
	}
}

// int8Bytes views q as bytes.
func int8Bytes(q []int8) []byte {
	if len(q) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&q[0])), len(q))
}

// grow returns s with length n, reallocating only when it is too small.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}
