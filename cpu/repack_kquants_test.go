package cpu

import (
	"math"
	"math/rand/v2"
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
)

// The repacked IQ4_XS and K-quant dots (portable, and each set's kernel)
// equal the dots of the rows as stored, for any super-block count (the
// pair layouts' odd ones padded), random block bytes (every scale, min,
// quant, level and high bit) and quantized rows alike.
func TestKQuantRepackedKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 36))
	const rows = 5
	type rowsDot = func(p []byte, ldp int, a *iq4Act, out []float32)
	for _, tc := range []struct {
		typ      rt.DType
		rowBytes func(nb int) int
		repack   func(w []byte, nb int, p []byte)
		act      func(a *iq4Act, y q8KRow)
		goDot    func(p []byte, a *iq4Act) float32
		rowsDot  func(k *kernels) rowsDot
	}{
		{rt.IQ4_XS, func(nb int) int { return iq4Pairs(nb) * iq4PairBytes }, repackIQ4XS, (*iq4Act).set, dotIQ4XSRGo, func(k *kernels) rowsDot {
			if k.dotIQ4XSR == nil {
				return nil
			}
			return func(p []byte, ldp int, a *iq4Act, out []float32) { // a row at a time
				for r := range out {
					out[r] = k.dotIQ4XSR(p[r*ldp:], a)
				}
			}
		}},
		{rt.Q4_K, func(nb int) int { return iq4Pairs(nb) * q4kPairBytes }, repackQ4K, (*iq4Act).set, dotQ4KRGo, func(k *kernels) rowsDot { return k.dotQ4KRRows }},
		{rt.Q5_K, func(nb int) int { return iq4Pairs(nb) * q5kPairBytes }, repackQ5K, (*iq4Act).set, dotQ5KRGo, func(k *kernels) rowsDot { return k.dotQ5KRRows }},
		{rt.Q2_K, func(nb int) int { return nb * q2kBlockBytes }, repackQ2K, (*iq4Act).setSub16,
			func(p []byte, a *iq4Act) float32 { return dotSub16RGo(rt.Q2_K, p, a) }, func(k *kernels) rowsDot { return k.dotQ2KRRows }},
		{rt.Q3_K, func(nb int) int { return nb * q3kBlockBytes }, repackQ3K, (*iq4Act).setSub16,
			func(p []byte, a *iq4Act) float32 { return dotSub16RGo(rt.Q3_K, p, a) }, func(k *kernels) rowsDot { return k.dotQ3KRRows }},
		{rt.TQ1_0, tqRowBytes, repackTQ1, (*iq4Act).setSub16, dotTQRGo, func(k *kernels) rowsDot { return k.dotTQRRows }},
		{rt.TQ2_0, tqRowBytes, repackTQ2, (*iq4Act).setSub16, dotTQRGo, func(k *kernels) rowsDot { return k.dotTQRRows }},
	} {
		ref, _ := goKernels.typeDotFor(tc.typ)
		for _, nb := range []int{0, 1, 2, 3, 4, 7, 16} {
			for _, quantized := range []bool{false, true} {
				n := nb * rt.QKK
				rs := tc.typ.RowSize(n)
				w := randomBlocks(rng, tc.typ, rows*nb)
				for r := 0; quantized && r < rows; r++ {
					if err := rt.QuantizeRow(tc.typ, randF32(rng, n, -2, 2), w[r*rs:(r+1)*rs]); err != nil {
						t.Fatal(err)
					}
				}
				var q q8KRows
				q.resize(1, nb)
				y := q.row(0)
				goKernels.quantizeQ8K(randF32(rng, n, -1, 1), y)
				var a iq4Act
				tc.act(&a, y)
				// p is unaligned and one byte longer than the rows: the
				// kernels must read neither more nor assume alignment.
				ldp := tc.rowBytes(nb)
				p := make([]byte, rows*ldp+2)[1:]
				for r := 0; r < rows; r++ {
					tc.repack(w[r*rs:], nb, p[r*ldp:])
				}
				want := make([]float32, rows)
				mags := make([]float64, rows)
				wd := make([]float32, n)
				for r := range want {
					want[r] = ref.dotK(w[r*rs:], y)
					dequantRowGo(tc.typ, w[r*rs:], wd)
					for i, v := range y.qs {
						mags[r] += math.Abs(float64(wd[i]) * float64(v) * float64(y.d[i/rt.QKK]))
					}
				}
				check := func(name string, got []float32) {
					for r := range got {
						if !near(float64(got[r]), float64(want[r]), mags[r], 1e-5) {
							t.Errorf("%v %s nb=%d quantized=%v row %d: %v, want %v", tc.typ, name, nb, quantized, r, got[r], want[r])
						}
					}
				}
				got := make([]float32, rows)
				for r := range got {
					got[r] = tc.goDot(p[r*ldp:], &a)
				}
				check("go", got)
				for _, k := range kernelSets() {
					dot := tc.rowsDot(k)
					if dot == nil {
						continue
					}
					for r0 := 0; r0 < rows; r0 += 3 { // blocks of 3 and 2 rows
						dot(p[r0*ldp:], ldp, &a, got[r0:min(rows, r0+3)])
					}
					check(k.name, got)
				}
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

// BenchmarkKQuantRepacked compares the best set's K-quant GEMV rows
// kernels on rows as stored with the repacked ones, on 64 rows of K = 4096
// that stay in L2 (so the kernels' compute rates), in weight bytes as
// stored per second; and what rearranging the activation row costs, once
// per op.
func BenchmarkKQuantRepacked(b *testing.B) {
	k := defaultKernels()
	const K, rows = 4096, 64
	rng := rand.New(rand.NewPCG(5, 6))
	nb := K / rt.QKK
	var q q8KRows
	q.resize(1, nb)
	k.quantizeQ8K(randF32(rng, K, -1, 1), q.row(0))
	var a iq4Act
	for _, tc := range []struct {
		typ     rt.DType
		ldp     int
		repack  func(w []byte, nb int, p []byte)
		act     func(a *iq4Act, y q8KRow)
		rowsDot func([]byte, int, *iq4Act, []float32)
	}{
		{rt.Q4_K, iq4Pairs(nb) * q4kPairBytes, repackQ4K, (*iq4Act).set, k.dotQ4KRRows},
		{rt.Q5_K, iq4Pairs(nb) * q5kPairBytes, repackQ5K, (*iq4Act).set, k.dotQ5KRRows},
		{rt.Q2_K, nb * q2kBlockBytes, repackQ2K, (*iq4Act).setSub16, k.dotQ2KRRows},
		{rt.Q3_K, nb * q3kBlockBytes, repackQ3K, (*iq4Act).setSub16, k.dotQ3KRRows},
		{rt.TQ1_0, tqRowBytes(nb), repackTQ1, (*iq4Act).setSub16, k.dotTQRRows},
		{rt.TQ2_0, tqRowBytes(nb), repackTQ2, (*iq4Act).setSub16, k.dotTQRRows},
	} {
		td, _ := k.typeDotFor(tc.typ)
		if tc.rowsDot == nil {
			b.Skipf("no repacked %v kernel in this set", tc.typ)
		}
		storedRows := td.dotKRows
		if storedRows == nil { // the ternary types: a row at a time
			storedRows = func(w []byte, ldw int, y q8KRow, out []float32) {
				for r := range out {
					out[r] = td.dotK(w[r*ldw:], y)
				}
			}
		}
		w := randomBlocks(rng, tc.typ, rows*nb)
		rs := tc.typ.RowSize(K)
		p := make([]byte, rows*tc.ldp)
		for r := 0; r < rows; r++ {
			tc.repack(w[r*rs:], nb, p[r*tc.ldp:])
		}
		out := make([]float32, rows)
		b.Run(tc.typ.String()+"/stored", func(b *testing.B) {
			b.SetBytes(int64(len(w)))
			for b.Loop() {
				storedRows(w, rs, q.row(0), out)
			}
		})
		b.Run(tc.typ.String()+"/repacked", func(b *testing.B) {
			tc.act(&a, q.row(0))
			b.SetBytes(int64(len(w)))
			b.ReportAllocs()
			for b.Loop() {
				tc.rowsDot(p, tc.ldp, &a, out)
			}
		})
		b.Run(tc.typ.String()+"/rearrange", func(b *testing.B) {
			for b.Loop() {
				tc.act(&a, q.row(0))
			}
		})
	}
}
