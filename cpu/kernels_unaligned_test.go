package cpu

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
)

// The SIMD kernels load and store without alignment requirements and do
// tails in Go: every kernel set must match the portable kernels on slices
// that start off the vector alignment (floats 1-3 past it, bytes at odd
// addresses) and on lengths that leave tails.

// offF32 returns n random floats starting off floats into a fresh buffer.
func offF32(rng *rand.Rand, off, n int, lo, hi float32) []float32 {
	return append(make([]float32, off, off+n), randF32(rng, n, lo, hi)...)[off:]
}

// offBytes returns a copy of b starting off bytes into a fresh buffer.
func offBytes(b []byte, off int) []byte {
	return append(make([]byte, off, off+len(b)), b...)[off:]
}

func TestFloatKernelsUnaligned(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	for _, k := range kernelSets() {
		for _, off := range []int{1, 2, 3} {
			for _, n := range []int{1, 3, 5, 15, 17, 35, 67} {
				a := offF32(rng, off, n, -2, 2)
				b := offF32(rng, 4-off, n, -2, 2)
				c := offF32(rng, off, n, -2, 2)
				want, mag := 0.0, 0.0
				for i := range a {
					want += float64(a[i]) * float64(b[i])
					mag += math.Abs(float64(a[i]) * float64(b[i]))
				}
				if got := k.dotF32(a, b); !near(float64(got), want, mag, 1e-6) {
					t.Errorf("%s dotF32 off=%d n=%d: %v, want %v", k.name, off, n, got, want)
				}
				if got, want := k.sumSq(b), sumSq64(b); !near(float64(got), want, want, 1e-6) {
					t.Errorf("%s sumSq off=%d n=%d: %v, want %v", k.name, off, n, got, want)
				}
				if got, want := k.maxOf(a), maxGo(a); got != want {
					t.Errorf("%s maxOf off=%d n=%d: %v, want %v", k.name, off, n, got, want)
				}

				// Halves at odd byte addresses.
				h := make([]byte, 2*n)
				goKernels.f32ToF16(a, h)
				h = offBytes(h, 2*off-1)
				want16 := goKernels.dotF16(h, b)
				if got := k.dotF16(h, b); !near(float64(got), float64(want16), mag, 1e-6) {
					t.Errorf("%s dotF16 off=%d n=%d: %v, want %v", k.name, off, n, got, want16)
				}
				gotH := offBytes(make([]byte, 2*n+2), 2*off-1)
				k.f32ToF16(a, gotH[:2*n])
				wantH := make([]byte, 2*n)
				goKernels.f32ToF16(a, wantH)
				if !bytes.Equal(gotH[:2*n], wantH) || gotH[2*n] != 0 || gotH[2*n+1] != 0 {
					t.Errorf("%s f32ToF16 off=%d n=%d: %x, want %x", k.name, off, n, gotH, wantH)
				}
				gotF, wantF := make([]float32, n+off+1)[off:], make([]float32, n)
				k.f16ToF32(h, gotF[:n])
				goKernels.f16ToF32(h, wantF)
				checkExact(t, k.name+" f16ToF32", gotF[:n], wantF)
				if gotF[n] != 0 {
					t.Errorf("%s f16ToF32 off=%d n=%d: wrote past the end", k.name, off, n)
				}

				// Elementwise: exact where the portable kernel rounds the
				// same way (scaleAdd fuses exactly where Go fuses x*s+m).
				got, exp := make([]float32, n+off)[off:], make([]float32, n)
				type binary func(dst, a, b []float32)
				for _, op := range []struct {
					name      string
					simd, go_ binary
				}{
					{"add", k.add, goKernels.add},
					{"mul", k.mul, goKernels.mul},
					{"scale", func(d, a, _ []float32) { k.scale(d, a, 0.7) }, func(d, a, _ []float32) { goKernels.scale(d, a, 0.7) }},
					{"scaleAdd", func(d, a, b []float32) { k.scaleAdd(d, a, b, -1.3) }, func(d, a, b []float32) { goKernels.scaleAdd(d, a, b, -1.3) }},
				} {
					op.simd(got, a, b)
					op.go_(exp, a, b)
					checkExact(t, k.name+" "+op.name, got, exp)
				}

				sum := k.expSub(got, a, 0.5)
				wantSum := goKernels.expSub(exp, a, 0.5)
				checkNear(t, k.name+" expSub", got, exp, 5e-7)
				if !near(float64(sum), float64(wantSum), float64(wantSum), 1e-6) {
					t.Errorf("%s expSub sum off=%d n=%d: %v, want %v", k.name, off, n, sum, wantSum)
				}
				k.silu(got, a)
				goKernels.silu(exp, a)
				checkNear(t, k.name+" silu", got, exp, 3e-7)

				// Rope on an even length; results are at most 4 in
				// magnitude, the scale of their rounding errors.
				m := n &^ 1
				cs, sn := offF32(rng, 4-off, m, -1, 1), offF32(rng, off, m, -1, 1)
				k.ropeNorm(got[:m], a[:m], cs, sn)
				goKernels.ropeNorm(exp[:m], a[:m], cs, sn)
				checkNearScale(t, k.name+" ropeNorm", got[:m], exp[:m], 4, 1e-6)
				d1, e1 := make([]float32, n+1)[1:], make([]float32, n)
				s := offF32(rng, 3, n, -1, 1)
				k.ropeNeox(got, d1, a, b, c, s)
				goKernels.ropeNeox(exp, e1, a, b, c, s)
				checkNearScale(t, k.name+" ropeNeox d0", got, exp, 4, 1e-6)
				checkNearScale(t, k.name+" ropeNeox d1", d1, e1, 4, 1e-6)
			}
		}
	}
}

func checkExact(t *testing.T, what string, got, want []float32) {
	t.Helper()
	for i := range want {
		if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
			t.Fatalf("%s n=%d: [%d] = %v, want %v", what, len(want), i, got[i], want[i])
		}
	}
}

// checkNear compares with a tolerance relative to each wanted value.
func checkNear(t *testing.T, what string, got, want []float32, tol float64) {
	t.Helper()
	checkNearScale(t, what, got, want, -1, tol)
}

// checkNearScale compares with a tolerance relative to scale, or to each
// wanted value when scale is negative.
func checkNearScale(t *testing.T, what string, got, want []float32, scale, tol float64) {
	t.Helper()
	for i := range want {
		w := float64(want[i])
		sc := scale
		if sc < 0 {
			sc = math.Abs(w) + 1e-30
		}
		if !near(float64(got[i]), w, sc, tol) {
			t.Fatalf("%s n=%d: [%d] = %v, want %v", what, len(want), i, got[i], want[i])
		}
	}
}

// Quantized kernels on weights and activations off their alignment: block
// rows at odd byte addresses, four-row strides that are odd, activation
// slices one element into their buffers.
func TestQuantKernelsUnaligned(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 34))
	for _, k := range kernelSets() {
		for _, nb := range []int{1, 2, 3, 7} {
			n := nb * rt.QK
			x := offF32(rng, 1, n, -1, 1)
			y := q8Row{
				qs:  make([]int8, n+3)[3:],
				d:   make([]float32, nb+1)[1:],
				neg: make([]int32, nb+1)[1:],
			}
			k.quantizeQ8(x, y, offBytes(make([]byte, rt.Q8_0.RowSize(n)), 1))

			// quantQ8 matches runtime's encoder byte for byte.
			want := make([]byte, rt.Q8_0.RowSize(n))
			if err := rt.QuantizeRow(rt.Q8_0, x, want); err != nil {
				t.Fatal(err)
			}
			got := offBytes(make([]byte, len(want)), 3)
			sums := make([]int32, nb+1)[1:]
			k.quantQ8(x, got, sums)
			if !bytes.Equal(got, want) {
				t.Errorf("%s quantQ8 nb=%d: bytes differ", k.name, nb)
			}
			for b := range nb {
				if sums[b] != -y.neg[b] {
					t.Errorf("%s quantQ8 nb=%d block %d: sum %d, want %d", k.name, nb, b, sums[b], -y.neg[b])
				}
			}

			for _, typ := range []rt.DType{rt.Q8_0, rt.Q4_0} {
				rs := typ.RowSize(n)
				stride := rs + 3
				wb := make([]byte, 4*stride)
				for r := 0; r < 4; r++ {
					if err := rt.QuantizeRow(typ, randF32(rng, n, -2, 2), wb[r*stride:]); err != nil {
						t.Fatal(err)
					}
				}
				wb = offBytes(wb, 1)
				dot, dot4, dq := k.dotQ8, k.dotQ8x4, k.dequantQ8
				gdot, gdq := goKernels.dotQ8, goKernels.dequantQ8
				if typ == rt.Q4_0 {
					dot, dot4, dq = k.dotQ4, k.dotQ4x4, k.dequantQ4
					gdot, gdq = goKernels.dotQ4, goKernels.dequantQ4
				}
				var got4 [4]float32
				dot4(wb, stride, y, &got4)
				for r := 0; r < 4; r++ {
					row := wb[r*stride : r*stride+rs]
					wd := make([]float32, n)
					gdq(row, wd)
					mag := 0.0
					for i, w := range wd {
						mag += math.Abs(float64(w) * float64(y.qs[i]) * float64(y.d[i/rt.QK]))
					}
					want := gdot(row, y)
					if got := dot(row, y); !near(float64(got), float64(want), mag, 1e-6) {
						t.Errorf("%s %v nb=%d row %d: %v, want %v", k.name, typ, nb, r, got, want)
					}
					if !near(float64(got4[r]), float64(want), mag, 1e-6) {
						t.Errorf("%s %v x4 nb=%d row %d: %v, want %v", k.name, typ, nb, r, got4[r], want)
					}
					gotD := make([]float32, n+2)[1:]
					dq(row, gotD[:n])
					checkExact(t, k.name+" dequant "+typ.String(), gotD[:n], wd)
					if gotD[n] != 0 {
						t.Errorf("%s dequant %v nb=%d: wrote past the end", k.name, typ, nb)
					}
				}
			}
		}
	}
}

// gemm and transpose8 with every operand one float off its alignment.
func TestPackedKernelsUnaligned(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 36))
	for _, k := range kernelSets() {
		for _, kk := range []int{1, 3, 17} {
			a := offF32(rng, 1, kk*gemmMR, -1, 1)
			b := offF32(rng, 3, kk*gemmNR, -1, 1)
			const ldc = gemmNR + 1
			c := offF32(rng, 1, gemmMR*ldc, -1, 1)
			exp := append([]float32(nil), c...)
			got := append(make([]float32, 2, 2+len(c)), c...)[2:]
			k.gemm(kk, a, b, got, ldc, true)
			goKernels.gemm(kk, a, b, exp, ldc, true)
			for i := range exp {
				if !near(float64(got[i]), float64(exp[i]), float64(kk)+1, 1e-6) {
					t.Fatalf("%s gemm k=%d [%d] = %v, want %v", k.name, kk, i, got[i], exp[i])
				}
			}
		}
		for _, kc := range []int{3, 5, 13} {
			const stride, ldd = 21, 9
			src := offF32(rng, 1, 7*stride+kc, -1, 1)
			got := offF32(rng, 3, kc*ldd, -1, 1)
			exp := append([]float32(nil), got...)
			k.transpose8(got, ldd, src, stride, kc)
			goKernels.transpose8(exp, ldd, src, stride, kc)
			checkExact(t, k.name+" transpose8", got, exp)
		}
	}
}
