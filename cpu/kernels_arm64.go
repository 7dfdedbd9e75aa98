//go:build arm64 && !purego

package cpu

import (
	"unsafe"

	rt "github.com/gpurt/gpurt/runtime"
)

// NEON kernels (kernels_arm64.s) for every arm64 CPU: Apple M1 and later,
// Neoverse N1/V1/V2 (Graviton, Ampere), Cortex-A53/A55/A72/A76 and later.
// They use only the ARMv8.0 Advanced SIMD baseline, which every arm64 CPU
// has, so there is no feature check: FMLA (vector and by element) for the
// float dots and the 6×16 GEMM tile, FCVTL/FCVTN for half precision,
// SMULL/SMULL2 with SADDLP/SADALP for the Q8_0/Q4_0 integer dots (no
// ARMv8.2 SDOT), FCVTAS (round half away from zero) for the Q8_0 quantizer.
// ARMv8.2 SDOT would cut the integer dots' instructions further but needs
// a feature check. Tested under qemu (cortex-a53 and max models), not yet
// benchmarked on hardware. Lengths count elements; the assembly takes
// multiples of 4 and the wrappers below do the tails with the portable
// kernels.

//go:noescape
func dotF32NEON(a, b *float32, n int) float32

//go:noescape
func dotF16NEON(w *byte, x *float32, n int) float32

//go:noescape
func dotQ8NEON(w *byte, qs *int8, qd *float32, nb int) float32

//go:noescape
func dotQ4NEON(w *byte, qs *int8, qd *float32, nb int) float32

//go:noescape
func dotQ8x4NEON(w *byte, stride int, qs *int8, qd *float32, nb int, out *float32)

//go:noescape
func dotQ4x4NEON(w *byte, stride int, qs *int8, qd *float32, nb int, out *float32)

//go:noescape
func f16ToF32NEON(src *byte, dst *float32, n int)

//go:noescape
func f32ToF16NEON(src *float32, dst *byte, n int)

//go:noescape
func dequantQ8NEON(src *byte, dst *float32, nb int)

//go:noescape
func dequantQ4NEON(src *byte, dst *float32, nb int)

//go:noescape
func quantQ8NEON(src *float32, dst *byte, sums *int32, nb int)

//go:noescape
func transpose8NEON(dst, src *float32, stride, kc, ldd int)

//go:noescape
func gemm6x16NEON(k int, a, b, c *float32, ldc int, add int)

//go:noescape
func addNEON(dst, a, b *float32, n int)

//go:noescape
func mulNEON(dst, a, b *float32, n int)

//go:noescape
func scaleNEON(dst, x *float32, n int, s float32)

//go:noescape
func scaleAddNEON(dst, x, m *float32, n int, s float32)

//go:noescape
func sumSqNEON(x *float32, n int) float32

//go:noescape
func maxNEON(x *float32, n int) float32

//go:noescape
func expSubNEON(dst, x *float32, n int, m float32) float32

//go:noescape
func siluNEON(dst, x *float32, n int)

//go:noescape
func ropeNormNEON(dst, x, cs, sn *float32, n int)

//go:noescape
func ropeNeoxNEON(d0, d1, x0, x1, c, s *float32, n int)

// simdKernels is the NEON set.
var simdKernels = &kernels{
	name:       "neon",
	dotF32:     dotF32Neon,
	dotF16:     dotF16Neon,
	dotQ8:      dotQ8Neon,
	dotQ4:      dotQ4Neon,
	dotQ8x4:    dotQ8x4Neon,
	dotQ4x4:    dotQ4x4Neon,
	f16ToF32:   f16ToF32Neon,
	f32ToF16:   f32ToF16Neon,
	dequantQ8:  dequantQ8Neon,
	dequantQ4:  dequantQ4Neon,
	quantQ8:    quantQ8Neon,
	transpose8: transpose8Neon,
	gemm:       gemmNeon,
	add:        addNeon,
	mul:        mulNeon,
	scale:      scaleNeon,
	scaleAdd:   scaleAddNeon,
	sumSq:      sumSqNeon,
	maxOf:      maxNeon,
	expSub:     expSubNeon,
	silu:       siluNeon,
	ropeNorm:   ropeNormNeon,
	ropeNeox:   ropeNeoxNeon,
}

func dotF32Neon(a, b []float32) float32 {
	n := len(a)
	b = b[:n]
	m := n &^ 3
	var s float32
	if m > 0 {
		s = dotF32NEON(&a[0], &b[0], m)
	}
	for i := m; i < n; i++ {
		s += a[i] * b[i]
	}
	return s
}

func dotF16Neon(w []byte, x []float32) float32 {
	n := len(x)
	w = w[:2*n]
	m := n &^ 3
	var s float32
	if m > 0 {
		s = dotF16NEON(&w[0], &x[0], m)
	}
	if m < n {
		s += dotF16Go(w[2*m:], x[m:])
	}
	return s
}

func dotQ8Neon(w []byte, y q8Row) float32 {
	nb := y.blocks()
	if nb == 0 {
		return 0
	}
	_, _ = w[nb*34-1], y.qs[nb*rt.QK-1]
	return dotQ8NEON(&w[0], &y.qs[0], &y.d[0], nb)
}

func dotQ4Neon(w []byte, y q8Row) float32 {
	nb := y.blocks()
	if nb == 0 {
		return 0
	}
	_, _ = w[nb*18-1], y.qs[nb*rt.QK-1]
	return dotQ4NEON(&w[0], &y.qs[0], &y.d[0], nb)
}

func dotQ8x4Neon(w []byte, stride int, y q8Row, out *[4]float32) {
	nb := y.blocks()
	if nb == 0 {
		*out = [4]float32{}
		return
	}
	_, _ = w[3*stride+nb*34-1], y.qs[nb*rt.QK-1]
	dotQ8x4NEON(&w[0], stride, &y.qs[0], &y.d[0], nb, &out[0])
}

func dotQ4x4Neon(w []byte, stride int, y q8Row, out *[4]float32) {
	nb := y.blocks()
	if nb == 0 {
		*out = [4]float32{}
		return
	}
	_, _ = w[3*stride+nb*18-1], y.qs[nb*rt.QK-1]
	dotQ4x4NEON(&w[0], stride, &y.qs[0], &y.d[0], nb, &out[0])
}

func f16ToF32Neon(src []byte, dst []float32) {
	n := len(dst)
	src = src[:2*n]
	m := n &^ 3
	if m > 0 {
		f16ToF32NEON(&src[0], &dst[0], m)
	}
	f16ToF32Go(src[2*m:], dst[m:])
}

func f32ToF16Neon(src []float32, dst []byte) {
	n := len(src)
	dst = dst[:2*n]
	m := n &^ 3
	if m > 0 {
		f32ToF16NEON(&src[0], &dst[0], m)
	}
	f32ToF16Go(src[m:], dst[2*m:])
}

func dequantQ8Neon(src []byte, dst []float32) {
	nb := len(dst) / rt.QK
	if nb == 0 {
		return
	}
	_ = src[nb*34-1]
	dequantQ8NEON(&src[0], &dst[0], nb)
}

func dequantQ4Neon(src []byte, dst []float32) {
	nb := len(dst) / rt.QK
	if nb == 0 {
		return
	}
	_ = src[nb*18-1]
	dequantQ4NEON(&src[0], &dst[0], nb)
}

func quantQ8Neon(src []float32, dst []byte, sums []int32) {
	nb := len(src) / rt.QK
	if nb == 0 {
		return
	}
	_ = dst[nb*34-1]
	var ps *int32
	if sums != nil {
		_ = sums[nb-1]
		ps = &sums[0]
	}
	quantQ8NEON(&src[0], &dst[0], ps, nb)
}

func transpose8Neon(dst []float32, ldd int, src []float32, stride, kc int) {
	m := kc &^ 3
	if m > 0 {
		_ = src[7*stride+kc-1]
		_ = dst[(kc-1)*ldd+7]
		transpose8NEON(&dst[0], &src[0], stride, m, ldd)
	}
	if m < kc {
		transpose8Go(dst[m*ldd:], ldd, src[m:], stride, kc-m)
	}
}

func gemmNeon(k int, a, b, c []float32, ldc int, add bool) {
	_, _ = a[:k*gemmMR], b[:k*gemmNR]
	_ = c[(gemmMR-1)*ldc+gemmNR-1]
	flag := 0
	if add {
		flag = 1
	}
	gemm6x16NEON(k, unsafe.SliceData(a), unsafe.SliceData(b), &c[0], ldc, flag)
}

// The elementwise wrappers run the assembly on the whole multiples of 4
// and the portable kernel on the rest.
func addNeon(dst, a, b []float32) {
	n := len(dst)
	a, b = a[:n], b[:n]
	m := n &^ 3
	if m > 0 {
		addNEON(&dst[0], &a[0], &b[0], m)
	}
	addGo(dst[m:], a[m:], b[m:])
}

func mulNeon(dst, a, b []float32) {
	n := len(dst)
	a, b = a[:n], b[:n]
	m := n &^ 3
	if m > 0 {
		mulNEON(&dst[0], &a[0], &b[0], m)
	}
	mulGo(dst[m:], a[m:], b[m:])
}

func scaleNeon(dst, x []float32, s float32) {
	n := len(dst)
	x = x[:n]
	m := n &^ 3
	if m > 0 {
		scaleNEON(&dst[0], &x[0], m, s)
	}
	scaleGo(dst[m:], x[m:], s)
}

func scaleAddNeon(dst, x, mk []float32, s float32) {
	n := len(dst)
	x, mk = x[:n], mk[:n]
	m := n &^ 3
	if m > 0 {
		scaleAddNEON(&dst[0], &x[0], &mk[0], m, s)
	}
	scaleAddGo(dst[m:], x[m:], mk[m:], s)
}

func sumSqNeon(x []float32) float32 {
	n := len(x)
	m := n &^ 3
	var s float32
	if m > 0 {
		s = sumSqNEON(&x[0], m)
	}
	return s + sumSqGo(x[m:])
}

func maxNeon(x []float32) float32 {
	n := len(x)
	m := n &^ 3
	if m == 0 {
		return maxGo(x)
	}
	return max(maxNEON(&x[0], m), maxGo(x[m:]))
}

func expSubNeon(dst, x []float32, mx float32) float32 {
	n := len(dst)
	x = x[:n]
	m := n &^ 3
	var s float32
	if m > 0 {
		s = expSubNEON(&dst[0], &x[0], m, mx)
	}
	return s + expSubGo(dst[m:], x[m:], mx)
}

func siluNeon(dst, x []float32) {
	n := len(dst)
	x = x[:n]
	m := n &^ 3
	if m > 0 {
		siluNEON(&dst[0], &x[0], m)
	}
	siluGo(dst[m:], x[m:])
}

func ropeNormNeon(dst, x, cs, sn []float32) {
	n := len(dst)
	x, cs, sn = x[:n], cs[:n], sn[:n]
	m := n &^ 3
	if m > 0 {
		ropeNormNEON(&dst[0], &x[0], &cs[0], &sn[0], m)
	}
	ropeNormGo(dst[m:], x[m:], cs[m:], sn[m:])
}

func ropeNeoxNeon(d0, d1, x0, x1, c, s []float32) {
	n := len(d0)
	d1, x0, x1, c, s = d1[:n], x0[:n], x1[:n], c[:n], s[:n]
	m := n &^ 3
	if m > 0 {
		ropeNeoxNEON(&d0[0], &d1[0], &x0[0], &x1[0], &c[0], &s[0], m)
	}
	ropeNeoxGo(d0[m:], d1[m:], x0[m:], x1[m:], c[m:], s[m:])
}
