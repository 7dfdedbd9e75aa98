//go:build (amd64 || arm64) && !purego

package cpu

import (
	"unsafe"

	rt "github.com/gpurt/gpurt/runtime"
)

// Assembly kernels, one set per architecture (kernels_amd64.s: AVX2/FMA/
// F16C; kernels_arm64.s: NEON) under the same names and signatures. Lengths
// count elements; the ones that need it take multiples of simdWidth (a
// per-architecture constant), and the wrappers below do the tails with the
// portable kernels.

//go:noescape
func dotF32SIMD(a, b *float32, n int) float32

//go:noescape
func dotF16SIMD(w *byte, x *float32, n int) float32

//go:noescape
func dotQ8SIMD(w *byte, qs *int8, qd *float32, nb int) float32

//go:noescape
func dotQ4SIMD(w *byte, qs *int8, qd *float32, nb int) float32

//go:noescape
func dotQ8x4SIMD(w *byte, stride int, qs *int8, qd *float32, nb int, out *float32)

// neg holds the negated sums of each activation block's quants, for kernels
// that multiply unsigned nibbles; the others ignore it.
//
//go:noescape
func dotQ4x4SIMD(w *byte, stride int, qs *int8, qd *float32, neg *int32, nb int, out *float32)

//go:noescape
func f16ToF32SIMD(src *byte, dst *float32, n int)

//go:noescape
func f32ToF16SIMD(src *float32, dst *byte, n int)

//go:noescape
func dequantQ8SIMD(src *byte, dst *float32, nb int)

//go:noescape
func dequantQ4SIMD(src *byte, dst *float32, nb int)

//go:noescape
func quantQ8SIMD(src *float32, dst *byte, sums *int32, nb int)

// stride and ldd are in floats.
//
//go:noescape
func transpose8SIMD(dst, src *float32, stride, kc, ldd int)

//go:noescape
func addSIMD(dst, a, b *float32, n int)

//go:noescape
func mulSIMD(dst, a, b *float32, n int)

//go:noescape
func scaleSIMD(dst, x *float32, n int, s float32)

//go:noescape
func scaleAddSIMD(dst, x, m *float32, n int, s float32)

//go:noescape
func sumSqSIMD(x *float32, n int) float32

//go:noescape
func maxSIMD(x *float32, n int) float32

//go:noescape
func expSubSIMD(dst, x *float32, n int, m float32) float32

//go:noescape
func siluSIMD(dst, x *float32, n int)

//go:noescape
func ropeNormSIMD(dst, x, cs, sn *float32, n int)

//go:noescape
func ropeNeoxSIMD(d0, d1, x0, x1, c, s *float32, n int)

// asmKernels is the assembly kernel set, named for the instruction set it
// uses.
func asmKernels(name string) *kernels {
	k := &kernels{
		name:    name,
		dotF32:  dotF32Asm,
		dotF16:  dotF16Asm,
		dotQ8:   blockDot(34, dotQ8SIMD),
		dotQ4:   blockDot(18, dotQ4SIMD),
		dotQ8x4: blockDot4(34, dotQ8x4WithNeg(dotQ8x4SIMD)),
		dotQ4x4: blockDot4(18, dotQ4x4SIMD),
		// The portable kernels where useKQuantAsm has no assembly.
		dotQ2K:      goKernels.dotQ2K,
		dotQ3K:      goKernels.dotQ3K,
		dotQ4K:      goKernels.dotQ4K,
		dotQ5K:      goKernels.dotQ5K,
		dotQ6K:      goKernels.dotQ6K,
		dotIQ4XS:    goKernels.dotIQ4XS,
		dotTQ1:      goKernels.dotTQ1,
		dotTQ2:      goKernels.dotTQ2,
		dotQ4_1:     goKernels.dotQ4_1,
		dotQ5_0:     goKernels.dotQ5_0,
		dotQ5_1:     goKernels.dotQ5_1,
		dotIQ4NL:    goKernels.dotIQ4NL,
		dotMXFP4:    goKernels.dotMXFP4,
		quantizeQ8K: goKernels.quantizeQ8K,
		f16ToF32:    f16ToF32Asm,
		f32ToF16:    f32ToF16Asm,
		dequantQ8:   dequantQ8Asm,
		dequantQ4:   dequantQ4Asm,
		quantQ8:     quantQ8Asm,
		transpose8:  transpose8Asm,
		gemm:        gemmAsm,
		add:         addAsm,
		mul:         mulAsm,
		scale:       scaleAsm,
		scaleAdd:    scaleAddAsm,
		sumSq:       sumSqAsm,
		maxOf:       maxAsm,
		expSub:      expSubAsm,
		silu:        siluAsm,
		ropeNorm:    ropeNormAsm,
		ropeNeox:    ropeNeoxAsm,
	}
	useKQuantAsm(k)
	return k
}

func dotF32Asm(a, b []float32) float32 {
	n := len(a)
	b = b[:n]
	m := n &^ (simdWidth - 1)
	var s float32
	if m > 0 {
		s = dotF32SIMD(&a[0], &b[0], m)
	}
	for i := m; i < n; i++ {
		s += a[i] * b[i]
	}
	return s
}

func dotF16Asm(w []byte, x []float32) float32 {
	n := len(x)
	w = w[:2*n]
	m := n &^ (simdWidth - 1)
	var s float32
	if m > 0 {
		s = dotF16SIMD(&w[0], &x[0], m)
	}
	if m < n {
		s += dotF16Go(w[2*m:], x[m:])
	}
	return s
}

// The block-dot wrappers take the assembly kernel as an argument, so that
// every set of integer dot kernels (SIMD, and SDOT on arm64) shares the
// bounds checks the assembly relies on. blockBytes is 34 for Q8_0 and 18
// for Q4_0.

// blockDot wraps a one-row Q8_0 or Q4_0 dot kernel.
func blockDot(blockBytes int, kernel func(w *byte, qs *int8, qd *float32, nb int) float32) func([]byte, q8Row) float32 {
	return func(w []byte, y q8Row) float32 {
		nb := y.blocks()
		if nb == 0 {
			return 0
		}
		_, _ = w[nb*blockBytes-1], y.qs[nb*rt.QK-1]
		return kernel(&w[0], &y.qs[0], &y.d[0], nb)
	}
}

// blockDot4 wraps a four-row dot kernel; Q8_0 kernels ignore neg.
func blockDot4(blockBytes int, kernel func(w *byte, stride int, qs *int8, qd *float32, neg *int32, nb int, out *float32)) func([]byte, int, q8Row, *[4]float32) {
	return func(w []byte, stride int, y q8Row, out *[4]float32) {
		nb := y.blocks()
		if nb == 0 {
			*out = [4]float32{}
			return
		}
		_, _, _ = w[3*stride+nb*blockBytes-1], y.qs[nb*rt.QK-1], y.neg[nb-1]
		kernel(&w[0], stride, &y.qs[0], &y.d[0], &y.neg[0], nb, &out[0])
	}
}

// dotQ8x4WithNeg adapts a Q8_0 four-row kernel, which needs no neg, to
// blockDot4.
func dotQ8x4WithNeg(kernel func(w *byte, stride int, qs *int8, qd *float32, nb int, out *float32)) func(*byte, int, *int8, *float32, *int32, int, *float32) {
	return func(w *byte, stride int, qs *int8, qd *float32, _ *int32, nb int, out *float32) {
		kernel(w, stride, qs, qd, nb, out)
	}
}

func f16ToF32Asm(src []byte, dst []float32) {
	n := len(dst)
	src = src[:2*n]
	m := n &^ (simdWidth - 1)
	if m > 0 {
		f16ToF32SIMD(&src[0], &dst[0], m)
	}
	f16ToF32Go(src[2*m:], dst[m:])
}

func f32ToF16Asm(src []float32, dst []byte) {
	n := len(src)
	dst = dst[:2*n]
	m := n &^ (simdWidth - 1)
	if m > 0 {
		f32ToF16SIMD(&src[0], &dst[0], m)
	}
	f32ToF16Go(src[m:], dst[2*m:])
}

func dequantQ8Asm(src []byte, dst []float32) {
	nb := len(dst) / rt.QK
	if nb == 0 {
		return
	}
	_ = src[nb*34-1]
	dequantQ8SIMD(&src[0], &dst[0], nb)
}

func dequantQ4Asm(src []byte, dst []float32) {
	nb := len(dst) / rt.QK
	if nb == 0 {
		return
	}
	_ = src[nb*18-1]
	dequantQ4SIMD(&src[0], &dst[0], nb)
}

func quantQ8Asm(src []float32, dst []byte, sums []int32) {
	nb := len(src) / rt.QK
	if nb == 0 {
		return
	}
	_ = dst[nb*34-1]
	var ps *int32 // nil: the kernel skips the sums
	if sums != nil {
		_ = sums[nb-1]
		ps = &sums[0]
	}
	quantQ8SIMD(&src[0], &dst[0], ps, nb)
}

func transpose8Asm(dst []float32, ldd int, src []float32, stride, kc int) {
	m := kc &^ (simdWidth - 1)
	if m > 0 {
		_ = src[7*stride+kc-1]
		_ = dst[(kc-1)*ldd+7]
		transpose8SIMD(&dst[0], &src[0], stride, m, ldd)
	}
	if m < kc {
		transpose8Go(dst[m*ldd:], ldd, src[m:], stride, kc-m)
	}
}

// addFlag is a tile kernel's add argument: 1 to add to C, 0 to overwrite.
func addFlag(add bool) int {
	if add {
		return 1
	}
	return 0
}

func gemmAsm(k int, a, b, c []float32, ldc int, add bool) {
	_, _ = a[:k*gemmMR], b[:k*gemmNR]
	_ = c[(gemmMR-1)*ldc+gemmNR-1]
	// SliceData: with k == 0 the panels may be empty.
	gemmPanel(k, unsafe.SliceData(a), unsafe.SliceData(b), &c[0], ldc, addFlag(add))
}

// The elementwise wrappers run the assembly on the whole multiples of
// simdWidth and the portable kernel on the rest.
func addAsm(dst, a, b []float32) {
	n := len(dst)
	a, b = a[:n], b[:n]
	m := n &^ (simdWidth - 1)
	if m > 0 {
		addSIMD(&dst[0], &a[0], &b[0], m)
	}
	addGo(dst[m:], a[m:], b[m:])
}

func mulAsm(dst, a, b []float32) {
	n := len(dst)
	a, b = a[:n], b[:n]
	m := n &^ (simdWidth - 1)
	if m > 0 {
		mulSIMD(&dst[0], &a[0], &b[0], m)
	}
	mulGo(dst[m:], a[m:], b[m:])
}

func scaleAsm(dst, x []float32, s float32) {
	n := len(dst)
	x = x[:n]
	m := n &^ (simdWidth - 1)
	if m > 0 {
		scaleSIMD(&dst[0], &x[0], m, s)
	}
	scaleGo(dst[m:], x[m:], s)
}

func scaleAddAsm(dst, x, mk []float32, s float32) {
	n := len(dst)
	x, mk = x[:n], mk[:n]
	m := n &^ (simdWidth - 1)
	if m > 0 {
		scaleAddSIMD(&dst[0], &x[0], &mk[0], m, s)
	}
	scaleAddGo(dst[m:], x[m:], mk[m:], s)
}

func sumSqAsm(x []float32) float32 {
	n := len(x)
	m := n &^ (simdWidth - 1)
	var s float32
	if m > 0 {
		s = sumSqSIMD(&x[0], m)
	}
	return s + sumSqGo(x[m:])
}

func maxAsm(x []float32) float32 {
	n := len(x)
	m := n &^ (simdWidth - 1)
	if m == 0 {
		return maxGo(x)
	}
	return max(maxSIMD(&x[0], m), maxGo(x[m:]))
}

func expSubAsm(dst, x []float32, mx float32) float32 {
	n := len(dst)
	x = x[:n]
	m := n &^ (simdWidth - 1)
	var s float32
	if m > 0 {
		s = expSubSIMD(&dst[0], &x[0], m, mx)
	}
	return s + expSubGo(dst[m:], x[m:], mx)
}

func siluAsm(dst, x []float32) {
	n := len(dst)
	x = x[:n]
	m := n &^ (simdWidth - 1)
	if m > 0 {
		siluSIMD(&dst[0], &x[0], m)
	}
	siluGo(dst[m:], x[m:])
}

func ropeNormAsm(dst, x, cs, sn []float32) {
	n := len(dst)
	x, cs, sn = x[:n], cs[:n], sn[:n]
	m := n &^ (simdWidth - 1)
	if m > 0 {
		ropeNormSIMD(&dst[0], &x[0], &cs[0], &sn[0], m)
	}
	ropeNormGo(dst[m:], x[m:], cs[m:], sn[m:])
}

func ropeNeoxAsm(d0, d1, x0, x1, c, s []float32) {
	n := len(d0)
	d1, x0, x1, c, s = d1[:n], x0[:n], x1[:n], c[:n], s[:n]
	m := n &^ (simdWidth - 1)
	if m > 0 {
		ropeNeoxSIMD(&d0[0], &d1[0], &x0[0], &x1[0], &c[0], &s[0], m)
	}
	ropeNeoxGo(d0[m:], d1[m:], x0[m:], x1[m:], c[m:], s[m:])
}
