package cpu

import (
	"math"
	"math/rand/v2"
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
)

// The repacked Q4_0 GEMV (portable and assembly forms) equals the dot of
// each dequantized weight row with the Q8 activations, for any block
// count, with the rows' scales in r8ScaleOrder, for one group of 8 rows
// or several a call; it writes no more than its groups' results.
func TestQ4R8Kernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	kerns := map[string]func([]byte, q8Row, []float32){"go": dotQ4R8Go}
	for _, k := range kernelSets() {
		if k.dotQ4R8 != nil {
			kerns[k.name] = k.dotQ4R8
		}
	}
	for _, groups := range []int{1, 3} {
		for _, nb := range []int{0, 1, 2, 3, 8, 33, 128} {
			n, rows := nb*rt.QK, 8*groups
			var q q8Rows
			q.resize(1, nb)
			y := q.row(0)
			goKernels.quantizeQ8(randF32(rng, n, -1, 1), y, make([]byte, rt.Q8_0.RowSize(n)))
			stride := rt.Q4_0.RowSize(n) + 3 // rows 3 bytes of padding apart
			w := make([]byte, rows*stride)
			want, mag := make([]float64, rows), make([]float64, rows)
			for r := range rows {
				row := randF32(rng, n, -2, 2)
				if err := rt.QuantizeRow(rt.Q4_0, row, w[r*stride:]); err != nil {
					t.Fatal(err)
				}
				wd := make([]float32, n)
				if err := rt.DequantizeRow(rt.Q4_0, w[r*stride:], wd); err != nil {
					t.Fatal(err)
				}
				for i, v := range wd {
					p := float64(v) * float64(y.qs[i]) * float64(y.d[i/rt.QK])
					want[r] += p
					mag[r] += math.Abs(p)
				}
			}
			p := make([]byte, groups*nb*r8Block)
			for g := range groups {
				repackQ4R8(w[8*g*stride:], stride, nb, p[g*nb*r8Block:])
			}
			for name, dot := range kerns {
				got := make([]float32, rows+1)
				got[3], got[rows] = 7, 7 // row 3 must be overwritten, also for nb = 0; out[rows] not
				dot(p, y, got)
				for r := range rows {
					if !near(float64(got[r]), want[r], mag[r], 1e-6) {
						t.Errorf("%s groups=%d nb=%d row %d: %v, want %v", name, groups, nb, r, got[r], want[r])
					}
				}
				if got[rows] != 7 {
					t.Errorf("%s groups=%d nb=%d wrote past its %d results", name, groups, nb, rows)
				}
			}
		}
	}
}

// A weight's repacked copy is dropped whenever the weight's bytes change,
// by every way of writing them, so MUL_MAT always multiplies what the
// tensor holds; and it is made only for weights buffers. Q4_0's 8-row
// groups and the rows of IQ4_XS, the K-quants, the ternary types, MXFP4,
// IQ4_NL, Q4_1, Q5_0 and Q5_1 (Q4_K's and Q5_K's with an odd super-block count, so padded)
// alike, and F16's GEMM panels (rows past the last panel's and k past the
// last 8 padded); a batched Q4_K weight big enough that its repack splits over
// goroutines (repackBytesPerPart) puts every matrix's rows in their own
// place.
func TestRepackedWeightsFollowWrites(t *testing.T) {
	const m = 20
	k := simdKernels
	cases := []struct {
		name      string
		typ       rt.DType
		k, m, ne2 int
		vec       rt.DType // the activations' quantized type
		has       bool
	}{
		{"q4_0", rt.Q4_0, 64, m, 1, rt.Q8_0, k != nil && k.dotQ4R8 != nil},
		{"q4_0/batched", rt.Q4_0, 64, 100, 3, rt.Q8_0, k != nil && k.dotQ4R8 != nil}, // claims span matrices
		{"iq4_xs", rt.IQ4_XS, 768, m, 1, rt.Q8_K, k != nil && k.dotIQ4XSR != nil},
		{"q4_K", rt.Q4_K, 1280, m, 1, rt.Q8_K, k != nil && k.dotQ4KRRows != nil},
		{"q4_K/split", rt.Q4_K, 256, 3 * repackBytesPerPart / 2 / q4kPairBytes, 2, rt.Q8_K, k != nil && k.dotQ4KRRows != nil},
		{"q5_K", rt.Q5_K, 1280, m, 1, rt.Q8_K, k != nil && k.dotQ5KRRows != nil},
		{"q2_K", rt.Q2_K, 768, m, 1, rt.Q8_K, k != nil && k.dotQ2KRRows != nil},
		{"q3_K", rt.Q3_K, 768, m, 1, rt.Q8_K, k != nil && k.dotQ3KRRows != nil},
		{"tq1_0", rt.TQ1_0, 768, m, 1, rt.Q8_K, k != nil && k.dotTQRRows != nil},
		{"tq2_0", rt.TQ2_0, 768, m, 1, rt.Q8_K, k != nil && k.dotTQRRows != nil},
		{"mxfp4", rt.MXFP4, 544, m, 1, rt.Q8_0, k != nil && k.dotMXFP4R != nil},
		{"iq4_nl", rt.IQ4_NL, 544, m, 1, rt.Q8_0, k != nil && k.dotIQ4NLR != nil},
		{"q4_1", rt.Q4_1, 544, m, 1, rt.Q8_1, k != nil && k.dotQ4_1R != nil},
		{"q5_0", rt.Q5_0, 544, m, 1, rt.Q8_0, k != nil && k.dotQ5_0R != nil},
		{"q5_1", rt.Q5_1, 544, m, 1, rt.Q8_1, k != nil && k.dotQ5_1R != nil},
		{"f16/gemm", rt.F16, 1100, m, 2, rt.F32, k != nil && k.packF16 != nil && k.gemmF16 != nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if !tc.has {
				t.Skipf("no repacked %v kernel on this CPU", tc.typ)
			}
			if !repackEnabled {
				t.Skip("GPURT_CPU_REPACK=0 turns repacking off")
			}
			n := 1 // x rows: a GEMV
			if tc.typ == rt.F16 {
				n = gemmMinN(rt.F16) + 3 // F16's panels serve the GEMM
			}
			testRepackedFollowWrites(t, tc.typ, tc.k, tc.m, n, tc.ne2, tc.vec)
		})
	}
}

// repackedCopies is how many repacked copies wb holds.
func repackedCopies(wb *weightBuffer) int { return len(wb.rows) }

func testRepackedFollowWrites(t *testing.T, typ rt.DType, K, M, N, ne2 int, vec rt.DType) {
	ctx := rt.NewContext()
	w := ctx.NewTensor(typ, K, M, ne2)
	w2 := ctx.NewTensor(typ, K, M, ne2) // the source of TensorCopy
	x := ctx.NewTensor(rt.F32, K, N, ne2)
	out := ctx.MulMat(w, x)
	g, err := ctx.BuildGraph(out)
	if err != nil {
		t.Fatal(err)
	}
	free, err := allocTight(ctx) // leaves get weights buffers
	if err != nil {
		t.Fatal(err)
	}
	defer free()
	rng := rand.New(rand.NewPCG(7, 8))
	if err := rt.TensorSetF32(x, randF32(rng, K*N*ne2, -1, 1)); err != nil {
		t.Fatal(err)
	}
	be := newBackend(2, simdKernels)
	defer be.Close()
	check := func(step string) {
		t.Helper()
		if err := be.GraphCompute(g); err != nil {
			t.Fatal(err)
		}
		want := refMulMat(read(w), roundTrip(rt.QuantizeRow, vec, read(x)))
		tol := 1e-5
		if vec == rt.F32 {
			tol = 1e-4 // float32 sums of K float products: a stale copy is off by far more
		}
		if !checkClose(t, read(out), want, tol) {
			t.Fatalf("%s: MUL_MAT does not multiply the weight's current bytes", step)
		}
	}
	setRandom := func(t2 *rt.Tensor) {
		if err := rt.TensorSetF32(t2, randF32(rng, K*M*ne2, -1, 1)); err != nil {
			t.Fatal(err)
		}
	}
	setRandom(w)
	check("first use")
	if n := repackedCopies(w.Buffer.(*weightBuffer)); n != 1 {
		t.Fatalf("the weight has %d repacked copies after a GEMV, want 1", n)
	}
	setRandom(w)
	check("after TensorSet")
	setRandom(w2)
	if err := rt.TensorCopy(w2, w); err != nil {
		t.Fatal(err)
	}
	check("after TensorCopy")
	if err := rt.TensorMemset(w, 0x11, 0, w.Nbytes()); err != nil {
		t.Fatal(err)
	}
	check("after TensorMemset")
	if err := w.Buffer.Clear(0x22); err != nil {
		t.Fatal(err)
	}
	check("after Clear")

	w.Buffer.SetUsage(rt.UsageAny)
	w.Buffer.(*weightBuffer).dropAll()
	check("as a plain buffer")
	if repackedCopies(w.Buffer.(*weightBuffer)) != 0 {
		t.Fatal("a buffer not holding weights got a repacked copy")
	}
}

// BenchmarkQ4R8 compares the repacked GEMV kernel with the four-row one on
// the same weights (K = 4096, 8 rows, in cache).
func BenchmarkQ4R8(b *testing.B) {
	if simdKernels == nil || simdKernels.dotQ4R8 == nil {
		b.Skip("no repacked Q4_0 kernel on this CPU")
	}
	k := simdKernels
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 4096
	nb := n / rt.QK
	var q q8Rows
	q.resize(1, nb)
	y := q.row(0)
	k.quantizeQ8(randF32(rng, n, -1, 1), y, make([]byte, rt.Q8_0.RowSize(n)))
	stride := rt.Q4_0.RowSize(n)
	w := make([]byte, 8*stride)
	for r := 0; r < 8; r++ {
		if err := rt.QuantizeRow(rt.Q4_0, randF32(rng, n, -1, 1), w[r*stride:]); err != nil {
			b.Fatal(err)
		}
	}
	p := make([]byte, nb*r8Block)
	repackQ4R8(w, stride, nb, p)
	out := make([]float32, 8)
	cases := []struct {
		name string
		run  func()
	}{
		{"repacked", func() { k.dotQ4R8(p, y, out) }},
		{"four-row", func() {
			k.dotQ4x4(w, stride, y, (*[4]float32)(out))
			k.dotQ4x4(w[4*stride:], stride, y, (*[4]float32)(out[4:]))
		}},
	}
	for _, sk := range supersededKernels {
		if sk.dotQ4R8 != nil {
			cases = append(cases, struct {
				name string
				run  func()
			}{"repacked " + sk.name, func() { sk.dotQ4R8(p, y, out) }})
		}
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(8 * stride))
			for b.Loop() {
				tc.run()
			}
		})
	}
}
