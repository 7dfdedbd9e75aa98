package cpu

import (
	"math"
	"math/rand/v2"
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
)

// shiftedQ8K copies q's rows into fresh slices that start off elements
// past a 64-byte boundary, so that no kernel can rely on alignment.
func shiftedQ8K(q *q8KRows, off int) *q8KRows {
	s := &q8KRows{nb: q.nb}
	s.qs = append(make([]int8, off, off+len(q.qs)), q.qs...)[off:]
	s.d = append(make([]float32, off, off+len(q.d)), q.d...)[off:]
	s.bsums = append(make([]int16, off, off+len(q.bsums)), q.bsums...)[off:]
	return s
}

func shiftedQ8(q *q8Rows, off int) q8Row {
	r := q.row(0)
	return q8Row{
		qs:  append(make([]int8, off, off+len(r.qs)), r.qs...)[off:],
		d:   append(make([]float32, off, off+len(r.d)), r.d...)[off:],
		neg: append(make([]int32, off, off+len(r.neg)), r.neg...)[off:],
	}
}

// dotMagK is Σ |w_i·q_i·d|, the magnitude a dot's float rounding scales
// with: the mins and offsets cancel much of it, so the result alone
// understates it.
func dotMagK(typ rt.DType, w []byte, y q8KRow) float64 {
	wd := make([]float32, len(y.qs))
	dequantRowGo(typ, w, wd)
	var mag float64
	for i, v := range y.qs {
		mag += math.Abs(float64(wd[i]) * float64(v) * float64(y.d[i/rt.QKK]))
	}
	return mag
}

func dotMag(typ rt.DType, w []byte, y q8Row) float64 {
	wd := make([]float32, len(y.qs))
	dequantRowGo(typ, w, wd)
	var mag float64
	for i, v := range y.qs {
		mag += math.Abs(float64(wd[i]) * float64(v) * float64(y.d[i/rt.QK]))
	}
	return mag
}

// Every kernel set's dots of every added type, one-row and four-row, give
// the portable kernels' results on weights and activations that start at
// odd offsets, for block counts that are odd, even and longer than the
// kernels' unrolled steps.
func TestTypeDotsUnaligned(t *testing.T) {
	rng := rand.New(rand.NewPCG(61, 62))
	for _, k := range kernelSets() {
		for _, typ := range kquantTypes {
			td, _ := k.typeDotFor(typ)
			ref, _ := goKernels.typeDotFor(typ)
			for _, c := range []struct{ nb, off int }{{1, 1}, {3, 3}, {4, 5}, {7, 1}, {16, 7}} {
				wa := randomBlocks(rng, typ, c.nb)
				w := append(make([]byte, c.off, c.off+len(wa)), wa...)[c.off:]
				n := c.nb * typ.BlockSize()
				if td.vec != rt.Q8_K {
					var q q8Rows
					q.resize(1, n/rt.QK)
					goKernels.quantizeQ8(randF32(rng, n, -1, 1), q.row(0), make([]byte, rt.Q8_0.RowSize(n)))
					got, want := td.dot(w, shiftedQ8(&q, c.off)), ref.dot(wa, q.row(0))
					if !near(float64(got), float64(want), dotMag(typ, wa, q.row(0)), 1e-5) {
						t.Errorf("%s %v nb=%d off=%d: %v, want %v", k.name, typ, c.nb, c.off, got, want)
					}
					continue
				}
				var q q8KRows
				q.resize(4, c.nb)
				for r := 0; r < 4; r++ {
					goKernels.quantizeQ8K(randF32(rng, n, -1, 1), q.row(r))
				}
				sq := shiftedQ8K(&q, c.off)
				var want [4]float32
				var mag [4]float64
				for r := range want {
					mag[r] = dotMagK(typ, wa, q.row(r))
					want[r] = ref.dotK(wa, q.row(r))
					if got := td.dotK(w, sq.row(r)); !near(float64(got), float64(want[r]), mag[r], 1e-5) {
						t.Errorf("%s %v nb=%d off=%d row %d: %v, want %v", k.name, typ, c.nb, c.off, r, got, want[r])
					}
				}
				if td.dotK4 == nil {
					continue
				}
				var got [4]float32
				td.dotK4(w, sq, 0, &got)
				for r := range got {
					if !near(float64(got[r]), float64(want[r]), mag[r], 1e-5) {
						t.Errorf("%s %v x4 nb=%d off=%d row %d: %v, want %v", k.name, typ, c.nb, c.off, r, got[r], want[r])
					}
				}
			}
		}
	}
}
