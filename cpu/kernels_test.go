package cpu

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
)

// kernelSets are the kernel sets this machine runs: the portable one, the
// SIMD one where the CPU has it, and the sets it supersedes.
func kernelSets() []*kernels {
	sets := []*kernels{goKernels}
	if simdKernels != nil {
		sets = append(sets, simdKernels)
	}
	return append(sets, supersededKernels...)
}

// supersededKernels are sets the CPU runs that simdKernels replaces (on
// arm64 the baseline neon set where neon-dotprod is chosen), kept under test.
var supersededKernels []*kernels

func randF32(rng *rand.Rand, n int, lo, hi float32) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = lo + (hi-lo)*rng.Float32()
	}
	return v
}

// near compares with a relative tolerance scaled by a magnitude.
func near(got, want, scale, tol float64) bool {
	return math.Abs(got-want) <= tol*(scale+1e-30)
}

// kernelLens are lengths around the vector widths and unrolled loops.
var kernelLens = []int{0, 1, 7, 8, 9, 31, 32, 33, 63, 64, 100, 257, 1000}

func TestDotKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, k := range kernelSets() {
		for _, n := range kernelLens {
			a, b := randF32(rng, n, -1, 1), randF32(rng, n, -1, 1)
			h := make([]byte, 2*n)
			want, want16, mag := 0.0, 0.0, 0.0
			for i := range a {
				hv := rt.F32ToF16(a[i])
				binary.LittleEndian.PutUint16(h[2*i:], hv)
				want += float64(a[i]) * float64(b[i])
				want16 += float64(rt.F16ToF32(hv)) * float64(b[i])
				mag += math.Abs(float64(a[i]) * float64(b[i]))
			}
			if got := k.dotF32(a, b); !near(float64(got), want, mag, 1e-6) {
				t.Errorf("%s dotF32 n=%d: %v, want %v", k.name, n, got, want)
			}
			if got := k.dotF16(h, b); !near(float64(got), want16, mag, 1e-6) {
				t.Errorf("%s dotF16 n=%d: %v, want %v", k.name, n, got, want16)
			}
			if got := k.sumSq(a); !near(float64(got), sumSq64(a), sumSq64(a), 1e-6) {
				t.Errorf("%s sumSq n=%d: %v, want %v", k.name, n, got, sumSq64(a))
			}
			f := make([]float32, n)
			k.f16ToF32(h, f)
			for i := range f {
				if f[i] != rt.F16ToF32(binary.LittleEndian.Uint16(h[2*i:])) {
					t.Fatalf("%s f16ToF32 n=%d: [%d] = %v", k.name, n, i, f[i])
				}
			}
		}
	}
}

func sumSq64(x []float32) float64 {
	s := 0.0
	for _, v := range x {
		s += float64(v) * float64(v)
	}
	return s
}

// F16 specials convert exactly: zeros, subnormals, infinities.
func TestF16ConversionSpecials(t *testing.T) {
	halves := []uint16{0, 0x8000, 1, 0x03ff, 0x0400, 0x3c00, 0x7bff, 0x7c00, 0xfc00, 0xc000, 0x8001, 0x5555, 0x1234, 0xabcd, 0x7800, 0x0200}
	src := make([]byte, 2*len(halves))
	for i, h := range halves {
		binary.LittleEndian.PutUint16(src[2*i:], h)
	}
	for _, k := range kernelSets() {
		dst := make([]float32, len(halves))
		k.f16ToF32(src, dst)
		for i, h := range halves {
			if want := rt.F16ToF32(h); math.Float32bits(dst[i]) != math.Float32bits(want) {
				t.Errorf("%s: half %#04x -> %v, want %v", k.name, h, dst[i], want)
			}
		}
	}
}

// The integer block dots are exact sums of products: they must match a
// float64 sum of the dequantized weights times the activations within
// float32 rounding, for one row and for four rows at a stride.
func TestQuantDotKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, k := range kernelSets() {
		for _, nb := range []int{0, 1, 2, 3, 8, 33} {
			n := nb * rt.QK
			x := randF32(rng, n, -1, 1)
			var q q8Rows
			q.resize(1, nb)
			y := q.row(0)
			k.quantizeQ8(x, y, make([]byte, rt.Q8_0.RowSize(n)))
			xq := make([]float32, n)
			for i := range xq {
				xq[i] = float32(y.qs[i]) * y.d[i/rt.QK]
			}
			for _, typ := range []rt.DType{rt.Q8_0, rt.Q4_0} {
				// Four weight rows, 5 bytes of padding apart.
				stride := typ.RowSize(n) + 5
				wb := make([]byte, 4*stride)
				var want, mag [4]float64
				for r := 0; r < 4; r++ {
					w := randF32(rng, n, -2, 2)
					if nb > 0 && r == 0 {
						w[0] = 3 // a block whose largest magnitude is positive
					}
					if err := rt.QuantizeRow(typ, w, wb[r*stride:]); err != nil {
						t.Fatal(err)
					}
					wd := make([]float32, n)
					if err := rt.DequantizeRow(typ, wb[r*stride:], wd); err != nil {
						t.Fatal(err)
					}
					for i := range wd {
						want[r] += float64(wd[i]) * float64(xq[i])
						mag[r] += math.Abs(float64(wd[i]) * float64(xq[i]))
					}
				}
				dot, dot4 := k.dotQ8, k.dotQ8x4
				if typ == rt.Q4_0 {
					dot, dot4 = k.dotQ4, k.dotQ4x4
				}
				var got4 [4]float32
				got4[2] = 7 // must be overwritten, also for nb = 0
				dot4(wb, stride, y, &got4)
				for r := 0; r < 4; r++ {
					if got := dot(wb[r*stride:], y); !near(float64(got), want[r], mag[r], 1e-6) {
						t.Errorf("%s %v nb=%d row %d: %v, want %v", k.name, typ, nb, r, got, want[r])
					}
					if !near(float64(got4[r]), want[r], mag[r], 1e-6) {
						t.Errorf("%s %v x4 nb=%d row %d: %v, want %v", k.name, typ, nb, r, got4[r], want[r])
					}
				}
			}
		}
	}
}

// Q8 activations are exactly a Q8_0 round trip of x, and neg holds the
// negated sum of each block's quants.
func TestQuantizeQ8MatchesQ8_0(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	x := randF32(rng, 5*rt.QK, -3, 3)
	copy(x[2*rt.QK:3*rt.QK], make([]float32, rt.QK)) // an all-zero block
	blk := make([]byte, rt.Q8_0.RowSize(len(x)))
	if err := rt.QuantizeRow(rt.Q8_0, x, blk); err != nil {
		t.Fatal(err)
	}
	want := make([]float32, len(x))
	if err := rt.DequantizeRow(rt.Q8_0, blk, want); err != nil {
		t.Fatal(err)
	}
	for _, k := range kernelSets() {
		var q q8Rows
		q.resize(1, 5)
		y := q.row(0)
		k.quantizeQ8(x, y, make([]byte, len(blk)))
		for b := 0; b < 5; b++ {
			var sum int32
			for j := 0; j < rt.QK; j++ {
				i := b*rt.QK + j
				if got := float32(y.qs[i]) * y.d[b]; got != want[i] {
					t.Fatalf("%s: [%d] = %v, want %v", k.name, i, got, want[i])
				}
				sum += int32(y.qs[i])
			}
			if y.neg[b] != -sum {
				t.Errorf("%s: block %d: neg %d, want %d", k.name, b, y.neg[b], -sum)
			}
		}
	}
}

// quantQ8 encodes exactly the bytes runtime.QuantizeRow does, on blocks
// that probe the rounding: ties at ±n.5, an all-zero block, scales that are
// half-precision subnormals or overflow, a negative largest magnitude.
func TestQuantQ8Kernel(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	blocks := [][]float32{
		randF32(rng, rt.QK, -1, 1),
		randF32(rng, rt.QK, -1e-6, 1e-6), // scale below half's normal range
		randF32(rng, rt.QK, -1e-9, 1e-9), // scale rounds to zero
		randF32(rng, rt.QK, -1e7, 1e7),   // scale overflows half
		make([]float32, rt.QK),
	}
	ties := make([]float32, rt.QK)
	for j := range ties {
		ties[j] = float32(j-16) + 0.5 // amax 15.5: scaled values land on halves
	}
	ties[0] = -127 // d = 1 exactly, so x·id keeps the .5
	blocks = append(blocks, ties)
	neg := randF32(rng, rt.QK, -1, 1)
	neg[7] = -5
	blocks = append(blocks, neg)
	for i := 0; i < 40; i++ {
		blocks = append(blocks, randF32(rng, rt.QK, -float32(i+1), float32(i+1)))
	}
	var x []float32
	for _, b := range blocks {
		x = append(x, b...)
	}
	nb := len(blocks)
	want := make([]byte, nb*34)
	if err := rt.QuantizeRow(rt.Q8_0, x, want); err != nil {
		t.Fatal(err)
	}
	for _, k := range kernelSets() {
		for _, n := range []int{0, 1, 7, nb} {
			got := make([]byte, n*34+3)
			got[n*34] = 0xaa // past the end: must stay
			sums := make([]int32, n)
			k.quantQ8(x[:n*rt.QK], got, sums)
			if !bytes.Equal(got[:n*34], want[:n*34]) {
				for b := 0; b < n; b++ {
					if g, w := got[b*34:b*34+34], want[b*34:b*34+34]; !bytes.Equal(g, w) {
						t.Fatalf("%s n=%d block %d:\n got %v\nwant %v", k.name, n, b, g, w)
					}
				}
			}
			if got[n*34] != 0xaa {
				t.Errorf("%s n=%d: wrote past the last block", k.name, n)
			}
			for b := 0; b < n; b++ {
				var s int32
				for _, q := range want[b*34+2 : b*34+34] {
					s += int32(int8(q))
				}
				if sums[b] != s {
					t.Errorf("%s n=%d block %d: sum %d, want %d", k.name, n, b, sums[b], s)
				}
			}
			k.quantQ8(x[:n*rt.QK], got, nil) // no sums wanted
		}
	}
}

// Extreme quants: weights of -128 (possible in foreign Q8_0 files) and
// ±127 activations must not saturate.
func TestQ8DotExtremes(t *testing.T) {
	w := make([]byte, 34)
	binary.LittleEndian.PutUint16(w, rt.F32ToF16(1))
	var q q8Rows
	q.resize(1, 1)
	y := q.row(0)
	y.d[0] = 1
	want := 0.0
	for j := 0; j < 32; j++ {
		wq := int8(-128)
		if j%2 == 1 {
			wq = 127
		}
		w[2+j] = byte(wq)
		y.qs[j] = -127
		if j%4 == 0 {
			y.qs[j] = 127
		}
		want += float64(wq) * float64(y.qs[j])
	}
	for _, k := range kernelSets() {
		if got := k.dotQ8(w, y); float64(got) != want {
			t.Errorf("%s: %v, want %v", k.name, got, want)
		}
	}
}

func TestGemmKernel(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, k := range kernelSets() {
		for _, kk := range []int{0, 1, 5, 64} {
			for _, add := range []bool{false, true} {
				a := randF32(rng, kk*gemmMR, -1, 1)
				b := randF32(rng, kk*gemmNR, -1, 1)
				const ldc = gemmNR + 3
				c := randF32(rng, gemmMR*ldc, -1, 1)
				orig := append([]float32(nil), c...)
				k.gemm(kk, a, b, c, ldc, add)
				if k.gemmRows != nil {
					// The same tile from x rows in place, ldx floats apart.
					ldx := kk + 3
					x := make([]float32, gemmMR*ldx)
					for p := 0; p < kk; p++ {
						for i := 0; i < gemmMR; i++ {
							x[i*ldx+p] = a[p*gemmMR+i]
						}
					}
					rows := slices.Clone(orig)
					k.gemmRows(kk, x, ldx, b, rows, ldc, add)
					if !slices.Equal(rows, c) {
						t.Errorf("%s k=%d add=%v: gemmRows differs from gemm", k.name, kk, add)
					}
					if k.gemmRows4 != nil {
						rows = slices.Clone(orig)
						k.gemmRows4(kk, x, ldx, b, rows, ldc, add)
						checkRows4(t, k.name+" gemmRows4", rows, c, orig, ldc)
					}
				}
				if k.gemmF16 != nil {
					checkGemmF16(t, k, kk, a, b, orig, ldc, add)
				}
				for i := 0; i < gemmMR; i++ {
					for j := 0; j < ldc; j++ {
						want := float64(orig[i*ldc+j])
						if j >= gemmNR {
							if c[i*ldc+j] != orig[i*ldc+j] {
								t.Fatalf("%s: wrote outside the tile at [%d,%d]", k.name, i, j)
							}
							continue
						}
						s := 0.0
						for p := 0; p < kk; p++ {
							s += float64(a[p*gemmMR+i]) * float64(b[p*gemmNR+j])
						}
						if !add {
							want = 0
						}
						want += s
						if !near(float64(c[i*ldc+j]), want, float64(kk)+1, 1e-6) {
							t.Errorf("%s k=%d add=%v [%d,%d] = %v, want %v", k.name, kk, add, i, j, c[i*ldc+j], want)
						}
					}
				}
			}
		}
	}
}

// The run kernels give, for each of n consecutive 6-row panels of x read
// in place, the bits of one gemmRows (gemmF16) call on that panel, and
// touch nothing else of C.
func TestGemmRunKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for _, k := range kernelSets() {
		if k.gemmRowsRun == nil && k.gemmF16RowsRun == nil {
			continue
		}
		for _, kk := range []int{0, 1, 7, 300} {
			for _, n := range []int{1, 3} {
				for _, add := range []bool{false, true} {
					ldx, ldc := kk+3, gemmNR+5
					x := randF32(rng, n*gemmMR*ldx, -1, 1)
					b := randF32(rng, kk*gemmNR, -1, 1)
					bh := make([]byte, 2*len(b))
					goKernels.f32ToF16(b, bh)
					c := randF32(rng, n*gemmMR*ldc, -1, 1)
					for _, f16 := range []bool{false, true} {
						want, got := slices.Clone(c), slices.Clone(c)
						switch {
						case !f16 && k.gemmRowsRun != nil:
							for p := range n {
								k.gemmRows(kk, x[p*gemmMR*ldx:], ldx, b, want[p*gemmMR*ldc:], ldc, add)
							}
							k.gemmRowsRun(kk, x, ldx, n, b, got, ldc, add)
						case f16 && k.gemmF16RowsRun != nil:
							for p := range n {
								k.gemmF16(kk, x[p*gemmMR*ldx:], ldx, 1, bh, want[p*gemmMR*ldc:], ldc, add)
							}
							k.gemmF16RowsRun(kk, x, ldx, n, bh, got, ldc, add)
						default:
							continue
						}
						for i := range got {
							if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
								t.Fatalf("%s run f16=%v k=%d n=%d add=%v: c[%d] = %v, tile by tile %v", k.name, f16, kk, n, add, i, got[i], want[i])
							}
						}
					}
				}
			}
		}
	}
}

// checkRows4 requires a 4-row tile's result got to have the bits of the
// 6-row tile's want in rows 0-3 and to leave rows 4-5 as they were (orig).
func checkRows4(t *testing.T, name string, got, want, orig []float32, ldc int) {
	t.Helper()
	for i := range got {
		w := want[i]
		if i >= 4*ldc {
			w = orig[i]
		}
		if math.Float32bits(got[i]) != math.Float32bits(w) {
			t.Fatalf("%s: c[%d] = %v, want %v", name, i, got[i], w)
		}
	}
}

// checkGemmF16 requires k.gemmF16 on the f16 panel of weights b (rounded
// to f16), from a packed x panel a and from x rows in place, to give
// k.gemm's bits on the rounded weights.
func checkGemmF16(t *testing.T, k *kernels, kk int, a, b, c []float32, ldc int, add bool) {
	t.Helper()
	bh := make([]byte, 2*len(b))
	goKernels.f32ToF16(b, bh)
	bf := make([]float32, len(b))
	goKernels.f16ToF32(bh, bf)
	want := slices.Clone(c)
	k.gemm(kk, a, bf, want, ldc, add)
	ldx := kk + 3
	x := make([]float32, gemmMR*ldx)
	for p := 0; p < kk; p++ {
		for i := 0; i < gemmMR; i++ {
			x[i*ldx+p] = a[p*gemmMR+i]
		}
	}
	if k.gemmF16Rows4 != nil {
		got := slices.Clone(c)
		k.gemmF16Rows4(kk, x, ldx, bh, got, ldc, add)
		checkRows4(t, fmt.Sprintf("%s gemmF16Rows4 k=%d add=%v", k.name, kk, add), got, want, c, ldc)
	}
	for _, from := range []struct {
		name   string
		x      []float32
		rs, ks int
	}{{"panel", a, 1, gemmMR}, {"rows", x, ldx, 1}} {
		got := slices.Clone(c)
		k.gemmF16(kk, from.x, from.rs, from.ks, bh, got, ldc, add)
		for i := range got {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
				t.Fatalf("%s gemmF16 (%s) k=%d add=%v: c[%d] = %v, gemm on the converted panel gives %v", k.name, from.name, kk, add, i, got[i], want[i])
			}
		}
	}
}

func TestElementwiseKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, k := range kernelSets() {
		for _, n := range kernelLens {
			a, b := randF32(rng, n, -3, 3), randF32(rng, n, -3, 3)
			dst := make([]float32, n)
			check := func(op string, f func(i int) float64, tol float64) {
				t.Helper()
				for i := range dst {
					if w := f(i); !near(float64(dst[i]), w, math.Abs(w)+1e-30, tol) {
						t.Fatalf("%s %s n=%d [%d] = %v, want %v", k.name, op, n, i, dst[i], w)
					}
				}
			}
			k.add(dst, a, b)
			check("add", func(i int) float64 { return float64(a[i] + b[i]) }, 0)
			k.mul(dst, a, b)
			check("mul", func(i int) float64 { return float64(a[i] * b[i]) }, 0)
			k.scale(dst, a, 0.3)
			check("scale", func(i int) float64 { return float64(a[i] * 0.3) }, 0)
			k.scaleAdd(dst, a, b, 0.3)
			check("scaleAdd", func(i int) float64 { return float64(a[i]*0.3 + b[i]) }, 0)
			k.silu(dst, a)
			check("silu", func(i int) float64 { x := float64(a[i]); return x / (1 + math.Exp(-x)) }, 3e-7)
			mx := k.maxOf(a)
			if want := maxGo(a); mx != want {
				t.Fatalf("%s max n=%d: %v, want %v", k.name, n, mx, want)
			}
			if n == 0 {
				continue
			}
			sum := k.expSub(dst, a, mx)
			check("expSub", func(i int) float64 { return math.Exp(float64(a[i] - mx)) }, 5e-7)
			want := 0.0
			for _, v := range a {
				want += math.Exp(float64(v) - float64(mx))
			}
			if !near(float64(sum), want, want, 1e-6) {
				t.Fatalf("%s expSub sum n=%d: %v, want %v", k.name, n, sum, want)
			}
			if k.rowSoftMax == nil {
				continue
			}
			// rowSoftMax without a mask, with one that hides every third
			// element, and with one that hides all.
			hide := slices.Clone(b)
			for i := 0; i < n; i += 3 {
				hide[i] = float32(math.Inf(-1))
			}
			all := slices.Repeat([]float32{float32(math.Inf(-1))}, n)
			for _, m := range [][]float32{nil, hide, all} {
				v := make([]float64, n)
				mx := math.Inf(-1)
				for i := range v {
					v[i] = float64(a[i] * 0.7)
					if m != nil {
						v[i] += float64(m[i])
					}
					mx = max(mx, v[i])
				}
				sum := k.rowSoftMax(dst, a, m, 0.7)
				if math.IsInf(mx, -1) {
					if sum != 0 {
						t.Fatalf("%s rowSoftMax n=%d fully masked: sum %v, want 0", k.name, n, sum)
					}
					continue
				}
				z := 0.0
				for _, x := range v {
					z += math.Exp(x - mx)
				}
				check("rowSoftMax", func(i int) float64 { return math.Exp(v[i]-mx) / z }, 1e-6)
				if k.name == "avx2" { // its row kernels are its steps in one call
					steps := make([]float32, n)
					if s2 := k.softMaxSteps(steps, a, m, 0.7); math.Float32bits(s2) != math.Float32bits(sum) || !slices.Equal(steps, dst) {
						t.Fatalf("%s rowSoftMax n=%d: sum %v, the steps' %v (or their values differ)", k.name, n, sum, s2)
					}
				}
			}
			if k.rowSoftMax2 == nil {
				continue
			}
			// rowSoftMax2 gives rowSoftMax's bits on each of its rows,
			// whichever of them is masked whole.
			for _, ms := range [][2][]float32{{nil, nil}, {hide, nil}, {all, hide}, {hide, all}, {all, all}} {
				b2 := randF32(rng, n, -9, 9)
				want0, want1 := make([]float32, n), make([]float32, n)
				s0, s1 := k.rowSoftMax(want0, a, ms[0], 0.7), k.rowSoftMax(want1, b2, ms[1], 0.7)
				got0, got1 := make([]float32, n), slices.Clone(b2) // the second in place
				g0, g1 := k.rowSoftMax2(got0, a, ms[0], got1, got1, ms[1], 0.7)
				for r, c := range []struct {
					got, want    []float32
					sum, wantSum float32
				}{{got0, want0, g0, s0}, {got1, want1, g1, s1}} {
					if math.Float32bits(c.sum) != math.Float32bits(c.wantSum) {
						t.Fatalf("%s rowSoftMax2 n=%d row %d: sum %v, rowSoftMax's %v", k.name, n, r, c.sum, c.wantSum)
					}
					if c.sum == 0 {
						continue // out undefined
					}
					for i := range c.got {
						if math.Float32bits(c.got[i]) != math.Float32bits(c.want[i]) {
							t.Fatalf("%s rowSoftMax2 n=%d row %d [%d]: %v, rowSoftMax's %v", k.name, n, r, i, c.got[i], c.want[i])
						}
					}
				}
			}
		}
	}
}

// exp and silu over the whole useful range, including where exp under- and
// overflows, and at ±Inf.
func TestExpKernelRange(t *testing.T) {
	var xs []float32
	for x := float32(-110); x <= 110; x += 0.37 {
		xs = append(xs, x)
	}
	inf := float32(math.Inf(1))
	xs = append(xs, -inf, inf, 0, -87.3, -87.4, 88.3, -0.0, 1e-8, -1e-8)
	for len(xs)%8 != 0 {
		xs = append(xs, 0.5)
	}
	for _, k := range kernelSets() {
		dst := make([]float32, len(xs))
		k.expSub(dst, xs, 0)
		for i, x := range xs {
			want := math.Exp(float64(x))
			switch {
			case x > 88.3:
				// The kernels may overflow to +Inf a little early.
				if !(float64(dst[i]) >= want*(1-1e-6)) {
					t.Errorf("%s exp(%v) = %v, want %v or +Inf", k.name, x, dst[i], want)
				}
			case want < 1.2e-38:
				if dst[i] != 0 && math.Abs(float64(dst[i])-want) > 1e-38 {
					t.Errorf("%s exp(%v) = %v, want %v", k.name, x, dst[i], want)
				}
			case !near(float64(dst[i]), want, want, 3e-7):
				t.Errorf("%s exp(%v) = %v, want %v", k.name, x, dst[i], want)
			}
		}
		k.silu(dst, xs)
		for i, x := range xs {
			if math.IsInf(float64(x), 0) {
				continue // -Inf/Inf is NaN, as in the reference
			}
			want := float64(x) / (1 + math.Exp(-float64(x)))
			if !near(float64(dst[i]), want, math.Abs(want)+1e-30, 3e-7) || math.IsNaN(float64(dst[i])) {
				t.Errorf("%s silu(%v) = %v, want %v", k.name, x, dst[i], want)
			}
		}
	}
}

func TestTransposeKernel(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, k := range kernelSets() {
		for _, kc := range []int{0, 1, 7, 8, 9, 33, 256} {
			stride := kc + 5
			src := randF32(rng, 7*stride+kc, -1, 1)
			const ldd = 16
			dst := randF32(rng, max(kc, 1)*ldd, -1, 1)
			orig := append([]float32(nil), dst...)
			k.transpose8(dst, ldd, src, stride, kc)
			for kk := 0; kk < kc; kk++ {
				for r := 0; r < ldd; r++ {
					want := orig[kk*ldd+r]
					if r < 8 {
						want = src[r*stride+kk]
					}
					if dst[kk*ldd+r] != want {
						t.Fatalf("%s kc=%d: dst[%d][%d] = %v, want %v", k.name, kc, kk, r, dst[kk*ldd+r], want)
					}
				}
			}
		}
	}
}

// The f16 packing kernels against their definitions: transpose8F16 is
// transpose8 of the rows converted, packF16 puts half k of row r at
// 2·(16k+r).
func TestTransposeF16Kernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, k := range kernelSets() {
		if k.transpose8F16 == nil && k.packF16 == nil {
			continue
		}
		for _, kc := range []int{0, 1, 7, 8, 9, 33, 256, 300} {
			{
				stride := 2*kc + 10
				src := make([]byte, (gemmNR-1)*stride+2*kc)
				goKernels.f32ToF16(randF32(rng, len(src)/2, -4, 4), src[:len(src)&^1])
				half := func(r, kk int) uint16 { return binary.LittleEndian.Uint16(src[r*stride+2*kk:]) }
				if k.transpose8F16 != nil {
					const ldd = 16
					dst := randF32(rng, max(kc, 1)*ldd, -1, 1)
					orig := slices.Clone(dst)
					k.transpose8F16(dst, ldd, src, stride, kc)
					for kk := 0; kk < kc; kk++ {
						for r := 0; r < ldd; r++ {
							want := orig[kk*ldd+r]
							if r < 8 {
								want = rt.F16ToF32(half(r, kk))
							}
							if math.Float32bits(dst[kk*ldd+r]) != math.Float32bits(want) {
								t.Fatalf("%s transpose8F16 kc=%d: dst[%d][%d] = %v, want %v", k.name, kc, kk, r, dst[kk*ldd+r], want)
							}
						}
					}
				}
				if k.packF16 != nil {
					dst := make([]byte, 2*gemmNR*kc+2)
					dst[len(dst)-1], dst[len(dst)-2] = 0xa5, 0x5a
					k.packF16(dst, src, stride, kc)
					for kk := 0; kk < kc; kk++ {
						for r := 0; r < gemmNR; r++ {
							if got := binary.LittleEndian.Uint16(dst[2*(kk*gemmNR+r):]); got != half(r, kk) {
								t.Fatalf("%s packF16 kc=%d: half %d of row %d = %#x, want %#x", k.name, kc, kk, r, got, half(r, kk))
							}
						}
					}
					if dst[len(dst)-1] != 0xa5 || dst[len(dst)-2] != 0x5a {
						t.Fatalf("%s packF16 kc=%d: wrote past the panel", k.name, kc)
					}
				}
			}
		}
	}
}

func TestDequantKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, k := range kernelSets() {
		for _, nb := range []int{0, 1, 5} {
			x := randF32(rng, nb*rt.QK, -4, 4)
			for _, typ := range []rt.DType{rt.Q8_0, rt.Q4_0} {
				q := make([]byte, typ.RowSize(len(x)))
				if err := rt.QuantizeRow(typ, x, q); err != nil {
					t.Fatal(err)
				}
				want := make([]float32, len(x))
				if err := rt.DequantizeRow(typ, q, want); err != nil {
					t.Fatal(err)
				}
				got := make([]float32, len(x))
				dq := k.dequantQ8
				if typ == rt.Q4_0 {
					dq = k.dequantQ4
				}
				dq(q, got)
				for i := range got {
					if got[i] != want[i] {
						t.Fatalf("%s %v nb=%d: [%d] = %v, want %v", k.name, typ, nb, i, got[i], want[i])
					}
				}
			}
		}
	}
}

// Every kernel set fills every kernel but the optional ones.
func TestKernelSetsComplete(t *testing.T) {
	optional := map[string]bool{"dotQ8x8x4": true, "dotQ4x8x4": true, "dotQ4R8": true, "dotQ8Rows": true, "repackQ8": true, "repackQ4": true, "dotF16x4": true, "dotF16x16": true, "dotF16x8x2": true, "dotF32x4": true, "dotF32x4c4": true, "gemvF32": true, "thinF32c4": true, "thinF32c2": true, "dotQ2KRows": true, "dotQ3KRows": true, "dotQ4KRows": true, "dotQ5KRows": true, "dotQ6KRows": true, "dotQ2Kx4": true, "dotQ3Kx4": true, "dotQ4Kx4": true, "dotQ5Kx4": true, "dotQ6Kx4": true, "dotIQ4XSx4": true, "dotIQ4XSR": true, "dotQ4KRRows": true, "dotQ5KRRows": true, "dotQ2KRRows": true, "dotQ3KRRows": true, "dotTQRRows": true, "dotMXFP4R": true, "dotIQ4NLR": true, "dotQ4_1R": true, "dotQ5_0R": true, "dotQ5_1R": true, "dotTQ1x4": true, "dotTQ2x4": true, "rowSoftMax": true, "rowSoftMax2": true, "gemmRows": true, "transpose8F16": true, "packF16": true, "gemmF16": true, "gemmRows4": true, "gemmF16Rows4": true, "gemmRowsRun": true, "gemmF16RowsRun": true, "prefetchRows": true}
	for _, k := range kernelSets() {
		v := reflect.ValueOf(k).Elem()
		for i := 0; i < v.NumField(); i++ {
			if optional[v.Type().Field(i).Name] {
				continue
			}
			if f := v.Field(i); f.Kind() == reflect.Func && f.IsNil() {
				t.Errorf("%s: kernel %s is missing", k.name, v.Type().Field(i).Name)
			}
		}
	}
}

func TestRopeKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for _, k := range kernelSets() {
		for _, half := range []int{1, 4, 8, 9, 64} {
			n := 2 * half
			x := randF32(rng, n, -2, 2)
			ang := randF32(rng, half, -3, 3)
			cs, sn := make([]float32, n), make([]float32, n)
			c, s := make([]float32, half), make([]float32, half)
			for i, a := range ang {
				sv, cv := math.Sincos(float64(a))
				c[i], s[i] = float32(cv), float32(sv)
				cs[2*i], cs[2*i+1] = c[i], c[i]
				sn[2*i], sn[2*i+1] = -s[i], s[i]
			}
			dst := make([]float32, n)
			k.ropeNorm(dst, x, cs, sn)
			for i := 0; i < half; i++ {
				u, v := float64(x[2*i]), float64(x[2*i+1])
				w0 := u*float64(c[i]) - v*float64(s[i])
				w1 := u*float64(s[i]) + v*float64(c[i])
				if !near(float64(dst[2*i]), w0, 4, 1e-6) || !near(float64(dst[2*i+1]), w1, 4, 1e-6) {
					t.Fatalf("%s ropeNorm half=%d pair %d: (%v,%v), want (%v,%v)", k.name, half, i, dst[2*i], dst[2*i+1], w0, w1)
				}
			}
			k.ropeNeox(dst[:half], dst[half:], x[:half], x[half:], c, s)
			for i := 0; i < half; i++ {
				u, v := float64(x[i]), float64(x[half+i])
				w0 := u*float64(c[i]) - v*float64(s[i])
				w1 := u*float64(s[i]) + v*float64(c[i])
				if !near(float64(dst[i]), w0, 4, 1e-6) || !near(float64(dst[half+i]), w1, 4, 1e-6) {
					t.Fatalf("%s ropeNeox half=%d pair %d: (%v,%v), want (%v,%v)", k.name, half, i, dst[i], dst[half+i], w0, w1)
				}
			}
		}
	}
}

// f32 to f16 rounds like runtime.F32ToF16 everywhere but in NaN payloads:
// halfway cases, subnormals, overflow to Inf.
func TestF32ToF16Kernel(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	vals := []float32{0, -0.0, 1, -1, 65504, 65519.99, 65520, 1e6, -1e6, 5.96e-8, 2.98e-8, 2.99e-8, 1e-10,
		6.1e-5, 6.09e-5, 1.00048828125, 1.0009765625 + 0.00048828125, float32(math.Inf(1)), float32(math.Inf(-1))}
	for i := 0; i < 1000; i++ {
		vals = append(vals, float32(math.Ldexp(rng.Float64()*2-1, rng.IntN(40)-25)))
	}
	for _, k := range kernelSets() {
		dst := make([]byte, 2*len(vals))
		k.f32ToF16(vals, dst)
		for i, v := range vals {
			if got, want := binary.LittleEndian.Uint16(dst[2*i:]), rt.F32ToF16(v); got != want {
				t.Errorf("%s: %v -> %#04x, want %#04x", k.name, v, got, want)
			}
		}
	}
}

// The panel kernels match the one-row kernels on repacked rows: the same
// integer block sums, so within float32 rounding; and they write only
// their 8×4 results.
func TestQuantPanelKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, k := range kernelSets() {
		for _, typ := range []rt.DType{rt.Q8_0, rt.Q4_0} {
			panel, repack, dot := k.dotQ8x8x4, k.repackQ8, k.dotQ8
			if typ == rt.Q4_0 {
				panel, repack, dot = k.dotQ4x8x4, k.repackQ4, k.dotQ4
			}
			if panel == nil {
				continue
			}
			testPanelKernel(t, rng, k, typ, panel, repack, dot)
		}
	}
}

func testPanelKernel(t *testing.T, rng *rand.Rand, k *kernels, typ rt.DType,
	panel func([]byte, *q8Rows, int, []float32, int), repack func([]byte, int, int, []byte),
	dot func([]byte, q8Row) float32) {
	t.Helper()
	for _, nb := range []int{0, 1, 2, 3, 33, 128} {
		n := nb * rt.QK
		var q q8Rows
		q.resize(6, nb)
		for r := 0; r < 6; r++ {
			k.quantizeQ8(randF32(rng, n, -1, 1), q.row(r), make([]byte, rt.Q8_0.RowSize(n)))
			if nb > 0 && r == 2 {
				for i := range q.row(r).qs[:rt.QK] {
					q.row(r).qs[i] = 127 // the largest 16-bit sums
				}
				q.row(r).neg[0] = -127 * rt.QK
			}
		}
		stride := typ.RowSize(n) + 5
		blockSize := typ.RowSize(rt.QK)
		wb := make([]byte, 8*stride)
		for r := 0; r < 8; r++ {
			if err := rt.QuantizeRow(typ, randF32(rng, n, -2, 2), wb[r*stride:]); err != nil {
				t.Fatal(err)
			}
			if nb > 0 && r == 3 {
				for i := 2; i < blockSize; i++ {
					wb[r*stride+i] = 0xff // nibbles of 15, or Q8_0 quants of -1
				}
				if typ == rt.Q8_0 {
					wb[r*stride+2] = 0x80 // -128
				}
			}
		}
		p := make([]byte, nb*panelBlock)
		repack(wb, stride, nb, p)
		ref := make([]byte, nb*panelBlock)
		if typ == rt.Q8_0 {
			panelQ8(wb, stride, nb, ref)
		} else {
			panelQ4(wb, stride, nb, ref)
		}
		if !bytes.Equal(p, ref) {
			t.Errorf("%s %v nb=%d: repacked blocks differ from the portable repacking", k.name, typ, nb)
		}
		const ldo, sentinel = 11, -42
		out := make([]float32, 4*ldo)
		for i := range out {
			out[i] = sentinel
		}
		panel(p, &q, 1, out, ldo)
		for c := 0; c < 4; c++ {
			for r := 0; r < 8; r++ {
				y := q.row(1 + c)
				want := float64(dot(wb[r*stride:], y))
				// Σ|w·x|: float32 rounding is relative to it.
				wd := make([]float32, n)
				if err := rt.DequantizeRow(typ, wb[r*stride:], wd); err != nil {
					t.Fatal(err)
				}
				var mag float64
				for i, v := range wd {
					mag += math.Abs(float64(v) * float64(y.qs[i]) * float64(y.d[i/rt.QK]))
				}
				if got := float64(out[c*ldo+r]); !near(got, want, mag, 1e-6) {
					t.Errorf("%s %v nb=%d column %d row %d: %v, want %v", k.name, typ, nb, c, r, got, want)
				}
			}
			for i := 8; i < ldo && c*ldo+i < len(out); i++ {
				if out[c*ldo+i] != sentinel {
					t.Errorf("%s %v nb=%d: out[%d] written", k.name, typ, nb, c*ldo+i)
				}
			}
		}
	}
}

// panelQ8 is the portable form of the panel kernels' repacking: it
// repacks nb Q8_0 blocks of 8 rows, stride bytes apart from w[0],
// into p (nb*panelBlock bytes).
func panelQ8(w []byte, stride, nb int, p []byte) {
	tab := f16Table()
	p = p[:nb*panelBlock]
	for r := 0; r < 8; r++ {
		row := w[r*stride : r*stride+nb*34]
		for b := 0; b < nb; b++ {
			blk := row[b*34 : b*34+34]
			dst := p[b*panelBlock:]
			binary.LittleEndian.PutUint32(dst[4*r:], math.Float32bits(tab[binary.LittleEndian.Uint16(blk)]))
			for g := 0; g < 8; g++ {
				binary.LittleEndian.PutUint32(dst[32+32*g+4*r:], binary.LittleEndian.Uint32(blk[2+4*g:]))
			}
		}
	}
}

// panelQ4 repacks nb Q4_0 blocks of 8 rows, stride bytes apart from w[0],
// into p (nb*panelBlock bytes), the quants as unsigned nibbles 0..15.
func panelQ4(w []byte, stride, nb int, p []byte) {
	tab := f16Table()
	p = p[:nb*panelBlock]
	for r := 0; r < 8; r++ {
		row := w[r*stride : r*stride+nb*18]
		for b := 0; b < nb; b++ {
			blk := row[b*18 : b*18+18]
			dst := p[b*panelBlock:]
			binary.LittleEndian.PutUint32(dst[4*r:], math.Float32bits(tab[binary.LittleEndian.Uint16(blk)]))
			for g := 0; g < 4; g++ {
				v := binary.LittleEndian.Uint32(blk[2+4*g:])
				binary.LittleEndian.PutUint32(dst[32+32*g+4*r:], v&0x0f0f0f0f)
				binary.LittleEndian.PutUint32(dst[32+32*(g+4)+4*r:], v>>4&0x0f0f0f0f)
			}
		}
	}
}

// The f16 and f32 tile kernels match a float64 reference and their
// one-row dot on each of their rows and columns, at lengths off the vector
// width and with rows and columns at odd offsets; they write only their
// 4×len(x) results.
func TestTileKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for _, k := range kernelSets() {
		for _, el := range []struct {
			name  string
			size  int
			tile  tileKernel
			put   func(b []byte, v float32)
			value func(b []byte) float64
		}{
			{"f16", 2, k.tileKernel(rowF16),
				func(b []byte, v float32) { binary.LittleEndian.PutUint16(b, rt.F32ToF16(v)) },
				func(b []byte) float64 { return float64(rt.F16ToF32(binary.LittleEndian.Uint16(b))) }},
			{"f32", 4, k.tileKernel(rowF32),
				func(b []byte, v float32) { binary.LittleEndian.PutUint32(b, math.Float32bits(v)) },
				func(b []byte) float64 { return float64(math.Float32frombits(binary.LittleEndian.Uint32(b))) }},
		} {
			if el.tile.x4 == nil {
				continue
			}
			for _, n := range []int{1, 7, 8, 9, 16, 24, 63, 4096} {
				for _, cols := range []int{1, 2, 3} {
					if cols == 1 && el.size == 4 {
						continue // the f32 kernel takes two or three columns
					}
					ldw := el.size*n + 12 // bytes; +1 below puts rows at odd addresses
					wb := make([]byte, 1+4*ldw)
					w := wb[1:]
					for r := 0; r < 4; r++ {
						for i, v := range randF32(rng, n, -2, 2) {
							el.put(w[r*ldw+el.size*i:], v)
						}
					}
					xb := randF32(rng, 1+cols*(n+3), -1, 1)
					x := make([][]float32, cols)
					for c := range x {
						x[c] = xb[1+c*(n+3) : 1+c*(n+3)+n] // not 32-byte aligned
					}
					const ldo, sentinel = 7, -42
					outb := make([]float32, 1+cols*ldo)
					for i := range outb {
						outb[i] = sentinel
					}
					out := outb[1:]
					var x1, x2 []float32
					if cols >= 2 {
						x1 = x[1]
					}
					if cols == 3 {
						x2 = x[2]
					}
					el.tile.x4(w, ldw, x[0], x1, x2, out, ldo)
					for c := 0; c < cols; c++ {
						for r := 0; r < 4; r++ {
							want, mag := 0.0, 0.0
							for i, v := range x[c] {
								p := el.value(w[r*ldw+el.size*i:]) * float64(v)
								want += p
								mag += math.Abs(p)
							}
							if got := float64(out[c*ldo+r]); !near(got, want, mag, 1e-6) {
								t.Errorf("%s %s n=%d cols=%d column %d row %d: %v, want %v", k.name, el.name, n, cols, c, r, got, want)
							}
							if el.size == 4 {
								continue // the f32 one-row dot wants aligned rows
							}
							if got, dot := out[c*ldo+r], el.tile.one(w[r*ldw:], x[c]); !near(float64(got), float64(dot), mag, 1e-6) {
								t.Errorf("%s %s n=%d cols=%d column %d row %d: %v, one-row dot %v", k.name, el.name, n, cols, c, r, got, dot)
							}
						}
					}
					for i, v := range outb {
						if c, r := (i-1)/ldo, (i-1)%ldo; (i == 0 || r >= 4 || c >= cols) && v != sentinel {
							t.Errorf("%s %s n=%d cols=%d: outb[%d] written", k.name, el.name, n, cols, i)
						}
					}
				}
			}
		}
	}
}

// The 8-row, 2-column f16 kernel gives the 4-row tile kernel's bits on
// each of its rows (so a product's sums do not depend on which serves
// it), at lengths off the vector widths and at odd offsets, and writes
// only its 8×2 results.
func TestF16x8x2Kernel(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for _, k := range kernelSets() {
		if k.dotF16x8x2 == nil {
			continue
		}
		for _, n := range []int{4, 8, 16, 24, 40, 63, 64, 136, 4096} {
			ldw := 2*n + 6
			wb := make([]byte, 1+8*ldw)
			w := wb[1:]
			for r := range 8 {
				for i, v := range randF32(rng, n, -2, 2) {
					binary.LittleEndian.PutUint16(w[r*ldw+2*i:], rt.F32ToF16(v))
				}
			}
			xb := randF32(rng, 1+2*(n+3), -1, 1)
			x0, x1 := xb[1:1+n], xb[1+n+3:1+2*n+3]
			const ldo, sentinel = 11, -42
			outb := make([]float32, 1+2*ldo)
			for i := range outb {
				outb[i] = sentinel
			}
			out := outb[1:]
			k.dotF16x8x2(w, ldw, x0, x1, out, ldo)
			want := make([]float32, 2*ldo)
			k.dotF16x4(w, ldw, x0, x1, nil, want, ldo)
			k.dotF16x4(w[4*ldw:], ldw, x0, x1, nil, want[4:], ldo)
			for c := range 2 {
				for r := range 8 {
					if got, w := out[c*ldo+r], want[c*ldo+r]; math.Float32bits(got) != math.Float32bits(w) {
						t.Errorf("%s n=%d column %d row %d: %v, the 4-row kernel's %v", k.name, n, c, r, got, w)
					}
				}
			}
			for i, v := range outb {
				if c, r := (i-1)/ldo, (i-1)%ldo; (i == 0 || r >= 8 || c >= 2) && v != sentinel {
					t.Errorf("%s n=%d: outb[%d] written", k.name, n, i)
				}
			}
		}
	}
}

// The short-row f16 kernel (blocks of 16 rows of 8 or 16 elements)
// matches a float64 reference on every row and column, with rows and
// columns at odd offsets, and writes only its results.
func TestShortF16Kernel(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 20))
	for _, k := range kernelSets() {
		if k.dotF16x16 == nil {
			continue
		}
		for _, c := range []struct{ k, ldw, rows, cols int }{
			{8, 16, 16, 1}, {8, 16, 48, 2}, {8, 64, 32, 3}, {8, 22, 16, 8}, {16, 32, 16, 2}, {16, 70, 64, 5}, {16, 32, 32, 8},
		} {
			wb := make([]byte, 1+c.rows*c.ldw)
			w := wb[1:]
			for r := range c.rows {
				for i, v := range randF32(rng, c.k, -2, 2) {
					binary.LittleEndian.PutUint16(w[r*c.ldw+2*i:], rt.F32ToF16(v))
				}
			}
			xb := randF32(rng, 1+c.cols*(c.k+3), -1, 1)
			xs := make([][]float32, c.cols)
			for j := range xs {
				xs[j] = xb[1+j*(c.k+3) : 1+j*(c.k+3)+c.k]
			}
			ldo, sentinel := c.rows+3, float32(-42)
			outb := make([]float32, 1+c.cols*ldo)
			for i := range outb {
				outb[i] = sentinel
			}
			out := outb[1:]
			k.dotF16x16(w, c.ldw, c.rows, func(j int) []float32 { return xs[j] }, c.cols, out, ldo)
			for j, x := range xs {
				for r := range c.rows {
					want, mag := 0.0, 0.0
					for i, v := range x {
						p := float64(rt.F16ToF32(binary.LittleEndian.Uint16(w[r*c.ldw+2*i:]))) * float64(v)
						want += p
						mag += math.Abs(p)
					}
					if got := float64(out[j*ldo+r]); !near(got, want, mag, 1e-6) {
						t.Errorf("%s k=%d ldw=%d cols=%d: column %d row %d = %v, want %v", k.name, c.k, c.ldw, c.cols, j, r, got, want)
					}
				}
			}
			for i, v := range outb {
				if j, r := (i-1)/ldo, (i-1)%ldo; (i == 0 || r >= c.rows || j >= c.cols) && v != sentinel {
					t.Errorf("%s k=%d cols=%d: outb[%d] written", k.name, c.k, c.cols, i)
				}
			}
		}
	}
}

// TestGemvF32Kernel checks the one-call F32 GEMV and its two- and
// four-column forms on rows at odd addresses, at lengths of one vector
// step, of whole unrolled steps and of both: against float64 sums, bit for bit against
// the tile kernels a group at a time, and for no output past their rows.
func TestGemvF32Kernel(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for _, k := range kernelSets() {
		for _, cols := range []int{1, 2, 4} {
			if cols == 1 && k.gemvF32 == nil || cols > 1 && k.thinColumns(cols) == nil {
				continue
			}
			for _, n := range []int{simdWidth, 2 * simdWidth, 3 * simdWidth, 64, 136} {
				for _, m := range []int{4, 8, 20} {
					ldw, ldo := 4*n+4, m+3
					wb := make([]byte, 1+m*ldw)
					w := wb[1:]
					for r := 0; r < m; r++ {
						for i, v := range randF32(rng, n, -2, 2) {
							binary.LittleEndian.PutUint32(w[r*ldw+4*i:], math.Float32bits(v))
						}
					}
					var x [4][]float32
					for c := range cols {
						x[c] = randF32(rng, n+1, -1, 1)[1:]
					}
					const sentinel = -42
					outb := make([]float32, (cols-1)*ldo+m+1)
					for i := range outb {
						outb[i] = sentinel
					}
					if cols == 1 {
						k.gemvF32(w, ldw, x[0], outb[:m])
					} else {
						k.thinColumns(cols)(w, ldw, x, outb, ldo, m)
					}
					// Each group gives the bits of the tile kernel's call.
					for g := 0; g < m; g += 4 {
						tile := make([]float32, 3*ldo+4)
						switch cols {
						case 1:
							k.dotF32x4(w[g*ldw:], ldw, x[0], nil, nil, tile, ldo)
						case 2:
							k.dotF32x4(w[g*ldw:], ldw, x[0], x[1], nil, tile, ldo)
						default:
							k.dotF32x4c4(w[g*ldw:], ldw, x[0], x[1], x[2], x[3], tile, ldo)
						}
						for c := range cols {
							for r := range 4 {
								if got, want := outb[c*ldo+g+r], tile[c*ldo+r]; math.Float32bits(got) != math.Float32bits(want) {
									t.Errorf("%s cols=%d n=%d m=%d column %d row %d: %v, the tile kernel's %v", k.name, cols, n, m, c, g+r, got, want)
								}
							}
						}
					}
					for i, got := range outb {
						c, r := i/ldo, i%ldo
						if r >= m || c >= cols {
							if got != sentinel {
								t.Errorf("%s cols=%d n=%d m=%d: wrote out[%d], past the rows", k.name, cols, n, m, i)
							}
							continue
						}
						want, mag := 0.0, 0.0
						for i, v := range x[c] {
							p := float64(math.Float32frombits(binary.LittleEndian.Uint32(w[r*ldw+4*i:]))) * float64(v)
							want += p
							mag += math.Abs(p)
						}
						if !near(float64(got), want, mag, 1e-6) {
							t.Errorf("%s cols=%d n=%d m=%d column %d row %d: %v, want %v", k.name, cols, n, m, c, r, got, want)
						}
					}
				}
			}
		}
	}
}

// F16 MUL_MAT at every thin N runs the tile path's column groups of 3 and
// 2, whole 4-row tiles and leftover rows (M = 23: a 16-row block and a
// 7-row one), k tails off the vector width, and broadcast weights.
func TestMulMatF16Tiles(t *testing.T) {
	var cases []opCase
	for n := 2; n < 16; n++ {
		for _, k := range []int{37, 64} {
			for _, wl := range []string{"leaf", "permuted"} {
				cases = append(cases, opCase{
					name: fmt.Sprintf("n=%d k=%d w %s", n, k, wl),
					tol:  3e-6 * float64(k),
					build: func(b *tb) (*rt.Tensor, func() arr) {
						w := weight(b, wl, rt.F16, k, 23, 1, 1)
						x := source(b, "view", rt.F32, k, n, 2, 1)
						out := b.ctx.MulMat(w, x)
						return out, func() arr { return refMulMat(read(w), read(x)) }
					},
				})
			}
		}
	}
	runOpCases(t, cases)
}
