package cpu

import (
	"math"
	"math/rand/v2"
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
)

// The repacked Q4_K dots (portable, and each set's rows kernel) equal the
// dots of the rows as stored, for any super-block count (odd ones padded),
// random block bytes (every scale, min and quant) and quantized rows alike.
func TestQ4KRepackedKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 36))
	ref, _ := goKernels.typeDotFor(rt.Q4_K)
	const rows = 5
	for _, nb := range []int{0, 1, 2, 3, 4, 7, 16} {
		for _, quantized := range []bool{false, true} {
			n := nb * rt.QKK
			rs := rt.Q4_K.RowSize(n)
			w := randomBlocks(rng, rt.Q4_K, rows*nb)
			for r := 0; quantized && r < rows; r++ {
				if err := rt.QuantizeRow(rt.Q4_K, randF32(rng, n, -2, 2), w[r*rs:(r+1)*rs]); err != nil {
					t.Fatal(err)
				}
			}
			var q q8KRows
			q.resize(1, nb)
			y := q.row(0)
			goKernels.quantizeQ8K(randF32(rng, n, -1, 1), y)
			var a iq4Act
			a.set(y)
			// p is unaligned and one byte longer than the rows: the kernels
			// must read neither more nor assume alignment.
			ldp := iq4Pairs(nb) * q4kPairBytes
			p := make([]byte, rows*ldp+2)[1:]
			for r := 0; r < rows; r++ {
				repackQ4K(w[r*rs:], nb, p[r*ldp:])
			}
			want := make([]float32, rows)
			mags := make([]float64, rows)
			wd := make([]float32, n)
			for r := range want {
				want[r] = ref.dotK(w[r*rs:], y)
				dequantRowGo(rt.Q4_K, w[r*rs:], wd)
				for i, v := range y.qs {
					mags[r] += math.Abs(float64(wd[i]) * float64(v) * float64(y.d[i/rt.QKK]))
				}
			}
			check := func(name string, got []float32) {
				for r := range got {
					if !near(float64(got[r]), float64(want[r]), mags[r], 1e-5) {
						t.Errorf("%s nb=%d quantized=%v row %d: %v, want %v", name, nb, quantized, r, got[r], want[r])
					}
				}
			}
			got := make([]float32, rows)
			for r := range got {
				got[r] = dotQ4KRGo(p[r*ldp:], &a)
			}
			check("go", got)
			for _, k := range kernelSets() {
				if k.dotQ4KRRows == nil {
					continue
				}
				for r0 := 0; r0 < rows; r0 += 3 { // blocks of 3 and 2 rows
					r1 := min(rows, r0+3)
					k.dotQ4KRRows(p[r0*ldp:], ldp, &a, got[r0:r1])
				}
				check(k.name, got)
			}
		}
	}
}

// BenchmarkRepackQ4K times the one-time repack of Q4_K rows (K = 4096),
// in weight bytes as stored per second: a weight's first GEMV pays it.
func BenchmarkRepackQ4K(b *testing.B) {
	const K, rows = 4096, 64
	rng := rand.New(rand.NewPCG(3, 4))
	nb := K / rt.QKK
	w := randomBlocks(rng, rt.Q4_K, rows*nb)
	rs, ldp := rt.Q4_K.RowSize(K), iq4Pairs(nb)*q4kPairBytes
	p := make([]byte, rows*ldp)
	b.SetBytes(int64(len(w)))
	for b.Loop() {
		for r := 0; r < rows; r++ {
			repackQ4K(w[r*rs:], nb, p[r*ldp:])
		}
	}
}

// BenchmarkQ4KRepacked compares the best set's Q4_K GEMV rows kernel on
// rows as stored with the repacked one, on 64 rows of K = 4096 that stay
// in L2 (so the kernels' compute rates), in weight bytes as stored per
// second; and what rearranging the activation row costs, once per op.
func BenchmarkQ4KRepacked(b *testing.B) {
	k := defaultKernels()
	td, _ := k.typeDotFor(rt.Q4_K)
	if k.dotQ4KRRows == nil || td.dotKRows == nil {
		b.Skip("no repacked Q4_K kernel in this set")
	}
	const K, rows = 4096, 64
	rng := rand.New(rand.NewPCG(5, 6))
	nb := K / rt.QKK
	w := randomBlocks(rng, rt.Q4_K, rows*nb)
	rs, ldp := rt.Q4_K.RowSize(K), iq4Pairs(nb)*q4kPairBytes
	p := make([]byte, rows*ldp)
	for r := 0; r < rows; r++ {
		repackQ4K(w[r*rs:], nb, p[r*ldp:])
	}
	var q q8KRows
	q.resize(1, nb)
	k.quantizeQ8K(randF32(rng, K, -1, 1), q.row(0))
	var a iq4Act
	a.set(q.row(0))
	out := make([]float32, rows)
	b.Run("stored", func(b *testing.B) {
		b.SetBytes(int64(len(w)))
		for b.Loop() {
			td.dotKRows(w, rs, q.row(0), out)
		}
	})
	b.Run("repacked", func(b *testing.B) {
		b.SetBytes(int64(len(w)))
		for b.Loop() {
			k.dotQ4KRRows(p, ldp, &a, out)
		}
	})
	b.Run("rearrange", func(b *testing.B) {
		for b.Loop() {
			a.set(q.row(0))
		}
	})
}
