package cpu

import (
	"encoding/binary"
	"math"

	rt "github.com/gpurt/gpurt/runtime"
)

// Reductions accumulate each row in float64 and in index order, so a row's
// result never depends on how rows are split over workers.

func sumRow(x []float32) float64 {
	s := 0.0
	for _, v := range x {
		s += float64(v)
	}
	return s
}

// sum adds every element of a: per-row sums in parallel, then the row sums
// in row order on one thread, so the total is the same for any thread count.
func (b *Backend) sum(a, dst hostTensor) error {
	nr, ne0 := a.rows(), a.ne[0]
	partial := make([]float64, nr)
	err := b.forRows(nr, nr*ne0, func(r0, r1 int, ws *workspace) error {
		x := ws.f32(0, ne0)
		for r := r0; r < r1; r++ {
			a.loadRow(a.rowAt(r), x)
			partial[r] = sumRow(x)
		}
		return nil
	})
	if err != nil {
		return err
	}
	total := 0.0
	for _, s := range partial {
		total += s
	}
	dst.putF32(dst.off, float32(total))
	return nil
}

// rowReduce computes SUM_ROWS, MEAN or ARGMAX of each row of a into the
// single element at dst's matching row (ARGMAX: element i1 of dst).
func (b *Backend) rowReduce(op rt.Op, a, dst hostTensor) error {
	nr, ne0 := a.rows(), a.ne[0]
	return b.forRows(nr, nr*ne0, func(r0, r1 int, ws *workspace) error {
		x := ws.f32(0, ne0)
		for r := r0; r < r1; r++ {
			i1, i2, i3 := a.coords(r)
			a.loadRow(a.at(i1, i2, i3), x)
			switch op {
			case rt.OpSumRows:
				dst.putF32(dst.at(i1, i2, i3), float32(sumRow(x)))
			case rt.OpMean:
				dst.putF32(dst.at(i1, i2, i3), float32(sumRow(x)/float64(ne0)))
			case rt.OpArgmax:
				binary.LittleEndian.PutUint32(dst.mem[dst.off+i1*dst.nb[0]:], uint32(argmax(x)))
			}
		}
		return nil
	})
}

// argmax is the index of the first largest value; NaNs are skipped, and a
// row with no value above -Inf gives 0.
func argmax(x []float32) int32 {
	best, idx := float32(math.Inf(-1)), 0
	for i, v := range x {
		if v > best {
			best, idx = v, i
		}
	}
	return int32(idx)
}

// norm computes NORM ((x-mean)/sqrt(var+eps)) or RMS_NORM
// (x/sqrt(mean(x²)+eps)) of each row.
func (b *Backend) norm(op rt.Op, eps float32, a, dst hostTensor) error {
	ne0 := a.ne[0]
	return b.mapRows(a, dst, func(x []float32) {
		mean := 0.0
		if op == rt.OpNorm {
			mean = sumRow(x) / float64(ne0)
		}
		ss := 0.0
		for _, v := range x {
			d := float64(v) - mean
			ss += d * d
		}
		scale := 1 / math.Sqrt(ss/float64(ne0)+float64(eps))
		for i, v := range x {
			x[i] = float32((float64(v) - mean) * scale)
		}
	})
}
