//go:build amd64 && !purego

package cpu

import (
	"unsafe"

	rt "github.com/gpurt/gpurt/runtime"
)

// Assembly kernels (kernels_amd64.s). Lengths count elements; the ones
// that need it take multiples of 8, and the wrappers below do the tails.

//go:noescape
func cpuidex(leaf, sub uint32) (a, b, c, d uint32)

//go:noescape
func xgetbv0() (a, d uint32)

//go:noescape
func dotF32AVX(a, b *float32, n int) float32

//go:noescape
func dotF16AVX(w *byte, x *float32, n int) float32

//go:noescape
func dotQ8AVX(w *byte, qs *int8, qd *float32, nb int) float32

//go:noescape
func dotQ4AVX(w *byte, qs *int8, qd *float32, nb int) float32

//go:noescape
func dotQ8x4AVX(w *byte, stride int, qs *int8, qd *float32, nb int, out *float32)

//go:noescape
func dotQ4x4AVX(w *byte, stride int, qs *int8, qd *float32, neg *int32, nb int, out *float32)

//go:noescape
func f16ToF32AVX(src *byte, dst *float32, n int)

//go:noescape
func f32ToF16AVX(src *float32, dst *byte, n int)

//go:noescape
func packF32x8AVX(dst, src *float32, stride, kc, ldd int)

//go:noescape
func dequantQ8AVX(src *byte, dst *float32, nb int)

//go:noescape
func quantQ8AVX(src *float32, dst *byte, sums *int32, nb int)

//go:noescape
func dequantQ4AVX(src *byte, dst *float32, nb int)

//go:noescape
func gemm6x16AVX(k int, a, b, c *float32, ldc int, add int)

//go:noescape
func addAVX(dst, a, b *float32, n int)

//go:noescape
func mulAVX(dst, a, b *float32, n int)

//go:noescape
func scaleAVX(dst, x *float32, n int, s float32)

//go:noescape
func scaleAddAVX(dst, x, m *float32, n int, s float32)

//go:noescape
func sumSqAVX(x *float32, n int) float32

//go:noescape
func maxAVX(x *float32, n int) float32

//go:noescape
func expSubAVX(dst, x *float32, n int, m float32) float32

//go:noescape
func siluAVX(dst, x *float32, n int)

//go:noescape
func ropeNormAVX(dst, x, cs, sn *float32, n int)

//go:noescape
func ropeNeoxAVX(d0, d1, x0, x1, c, s *float32, n int)

// hasAVX2 reports whether the CPU and the OS support AVX2, FMA and F16C:
// CPUID feature bits, and XCR0 saying the OS saves the YMM registers.
func hasAVX2() bool {
	maxLeaf, _, _, _ := cpuidex(0, 0)
	if maxLeaf < 7 {
		return false
	}
	_, _, c1, _ := cpuidex(1, 0)
	const fma, osxsave, avx, f16c = 1 << 12, 1 << 27, 1 << 28, 1 << 29
	if c1&(fma|osxsave|avx|f16c) != fma|osxsave|avx|f16c {
		return false
	}
	if xcr0, _ := xgetbv0(); xcr0&6 != 6 { // XMM and YMM state
		return false
	}
	_, b7, _, _ := cpuidex(7, 0)
	return b7&(1<<5) != 0
}

// simdKernels is the AVX2 set, or nil when the CPU lacks it.
var simdKernels = func() *kernels {
	if !hasAVX2() {
		return nil
	}
	return &kernels{
		name:       "avx2",
		dotF32:     dotF32Asm,
		dotF16:     dotF16Asm,
		dotQ8:      dotQ8Asm,
		dotQ4:      dotQ4Asm,
		dotQ8x4:    dotQ8x4Asm,
		dotQ4x4:    dotQ4x4Asm,
		f16ToF32:   f16ToF32Asm,
		f32ToF16:   f32ToF16Asm,
		dequantQ8:  dequantQ8Asm,
		dequantQ4:  dequantQ4Asm,
		quantQ8:    quantQ8Asm,
		transpose8: transpose8Asm,
		gemm:       gemmAsm,
		add:        addAsm,
		mul:        mulAsm,
		scale:      scaleAsm,
		scaleAdd:   scaleAddAsm,
		sumSq:      sumSqAsm,
		maxOf:      maxAsm,
		expSub:     expSubAsm,
		silu:       siluAsm,
		ropeNorm:   ropeNormAsm,
		ropeNeox:   ropeNeoxAsm,
	}
}()

func dotF32Asm(a, b []float32) float32 {
	n := len(a)
	b = b[:n]
	m := n &^ 7
	var s float32
	if m > 0 {
		s = dotF32AVX(&a[0], &b[0], m)
	}
	for i := m; i < n; i++ {
		s += a[i] * b[i]
	}
	return s
}

func dotF16Asm(w []byte, x []float32) float32 {
	n := len(x)
	w = w[:2*n]
	m := n &^ 7
	var s float32
	if m > 0 {
		s = dotF16AVX(&w[0], &x[0], m)
	}
	if m < n {
		s += dotF16Go(w[2*m:], x[m:])
	}
	return s
}

func dotQ8Asm(w []byte, y q8Row) float32 {
	nb := y.blocks()
	if nb == 0 {
		return 0
	}
	_, _ = w[nb*34-1], y.qs[nb*rt.QK-1]
	return dotQ8AVX(&w[0], &y.qs[0], &y.d[0], nb)
}

func dotQ4Asm(w []byte, y q8Row) float32 {
	nb := y.blocks()
	if nb == 0 {
		return 0
	}
	_, _ = w[nb*18-1], y.qs[nb*rt.QK-1]
	return dotQ4AVX(&w[0], &y.qs[0], &y.d[0], nb)
}

func dotQ8x4Asm(w []byte, stride int, y q8Row, out *[4]float32) {
	nb := y.blocks()
	if nb == 0 {
		*out = [4]float32{}
		return
	}
	_, _ = w[3*stride+nb*34-1], y.qs[nb*rt.QK-1]
	dotQ8x4AVX(&w[0], stride, &y.qs[0], &y.d[0], nb, &out[0])
}

func dotQ4x4Asm(w []byte, stride int, y q8Row, out *[4]float32) {
	nb := y.blocks()
	if nb == 0 {
		*out = [4]float32{}
		return
	}
	_, _, _ = w[3*stride+nb*18-1], y.qs[nb*rt.QK-1], y.neg[nb-1]
	dotQ4x4AVX(&w[0], stride, &y.qs[0], &y.d[0], &y.neg[0], nb, &out[0])
}

func f16ToF32Asm(src []byte, dst []float32) {
	n := len(dst)
	src = src[:2*n]
	m := n &^ 7
	if m > 0 {
		f16ToF32AVX(&src[0], &dst[0], m)
	}
	if m < n {
		f16ToF32Go(src[2*m:], dst[m:])
	}
}

func f32ToF16Asm(src []float32, dst []byte) {
	n := len(src)
	dst = dst[:2*n]
	m := n &^ 7
	if m > 0 {
		f32ToF16AVX(&src[0], &dst[0], m)
	}
	f32ToF16Go(src[m:], dst[2*m:])
}

func dequantQ8Asm(src []byte, dst []float32) {
	nb := len(dst) / rt.QK
	if nb == 0 {
		return
	}
	_ = src[nb*34-1]
	dequantQ8AVX(&src[0], &dst[0], nb)
}

func quantQ8Asm(src []float32, dst []byte, sums []int32) {
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
	quantQ8AVX(&src[0], &dst[0], ps, nb)
}

func dequantQ4Asm(src []byte, dst []float32) {
	nb := len(dst) / rt.QK
	if nb == 0 {
		return
	}
	_ = src[nb*18-1]
	dequantQ4AVX(&src[0], &dst[0], nb)
}

func transpose8Asm(dst []float32, ldd int, src []float32, stride, kc int) {
	m := kc &^ 7
	if m > 0 {
		_ = src[7*stride+kc-1]
		_ = dst[(kc-1)*ldd+7]
		packF32x8AVX(&dst[0], &src[0], 4*stride, m, ldd)
	}
	if m < kc {
		transpose8Go(dst[m*ldd:], ldd, src[m:], stride, kc-m)
	}
}

func gemmAsm(k int, a, b, c []float32, ldc int, add bool) {
	_, _ = a[:k*gemmMR], b[:k*gemmNR]
	_ = c[(gemmMR-1)*ldc+gemmNR-1]
	flag := 0
	if add {
		flag = 1
	}
	gemm6x16AVX(k, unsafe.SliceData(a), unsafe.SliceData(b), &c[0], ldc, flag)
}

// The elementwise wrappers run the assembly on the whole multiples of 8
// and the portable kernel on the rest.
func addAsm(dst, a, b []float32) {
	n := len(dst)
	a, b = a[:n], b[:n]
	m := n &^ 7
	if m > 0 {
		addAVX(&dst[0], &a[0], &b[0], m)
	}
	addGo(dst[m:], a[m:], b[m:])
}

func mulAsm(dst, a, b []float32) {
	n := len(dst)
	a, b = a[:n], b[:n]
	m := n &^ 7
	if m > 0 {
		mulAVX(&dst[0], &a[0], &b[0], m)
	}
	mulGo(dst[m:], a[m:], b[m:])
}

func scaleAsm(dst, x []float32, s float32) {
	n := len(dst)
	x = x[:n]
	m := n &^ 7
	if m > 0 {
		scaleAVX(&dst[0], &x[0], m, s)
	}
	scaleGo(dst[m:], x[m:], s)
}

func scaleAddAsm(dst, x, mk []float32, s float32) {
	n := len(dst)
	x, mk = x[:n], mk[:n]
	m := n &^ 7
	if m > 0 {
		scaleAddAVX(&dst[0], &x[0], &mk[0], m, s)
	}
	scaleAddGo(dst[m:], x[m:], mk[m:], s)
}

func sumSqAsm(x []float32) float32 {
	n := len(x)
	m := n &^ 7
	var s float32
	if m > 0 {
		s = sumSqAVX(&x[0], m)
	}
	return s + sumSqGo(x[m:])
}

func maxAsm(x []float32) float32 {
	n := len(x)
	m := n &^ 7
	if m == 0 {
		return maxGo(x)
	}
	return max(maxAVX(&x[0], m), maxGo(x[m:]))
}

func expSubAsm(dst, x []float32, mx float32) float32 {
	n := len(dst)
	x = x[:n]
	m := n &^ 7
	var s float32
	if m > 0 {
		s = expSubAVX(&dst[0], &x[0], m, mx)
	}
	return s + expSubGo(dst[m:], x[m:], mx)
}

func siluAsm(dst, x []float32) {
	n := len(dst)
	x = x[:n]
	m := n &^ 7
	if m > 0 {
		siluAVX(&dst[0], &x[0], m)
	}
	siluGo(dst[m:], x[m:])
}

func ropeNormAsm(dst, x, cs, sn []float32) {
	n := len(dst)
	x, cs, sn = x[:n], cs[:n], sn[:n]
	m := n &^ 7
	if m > 0 {
		ropeNormAVX(&dst[0], &x[0], &cs[0], &sn[0], m)
	}
	ropeNormGo(dst[m:], x[m:], cs[m:], sn[m:])
}

func ropeNeoxAsm(d0, d1, x0, x1, c, s []float32) {
	n := len(d0)
	d1, x0, x1, c, s = d1[:n], x0[:n], x1[:n], c[:n], s[:n]
	m := n &^ 7
	if m > 0 {
		ropeNeoxAVX(&d0[0], &d1[0], &x0[0], &x1[0], &c[0], &s[0], m)
	}
	ropeNeoxGo(d0[m:], d1[m:], x0[m:], x1[m:], c[m:], s[m:])
}
