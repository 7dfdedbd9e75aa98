//go:build amd64 && !purego

package cpu

import rt "github.com/gpurt/gpurt/runtime"

// simdWidth is the element granularity of the AVX2 kernels
// (kernels_amd64.s): 8 floats, one YMM register; transpose8 packs 8×8
// blocks.
const simdWidth = 8

//go:noescape
func cpuidex(leaf, sub uint32) (a, b, c, d uint32)

//go:noescape
func xgetbv0() (a, d uint32)

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
	k := asmKernels("avx2")
	k.dotQ8x4x3, k.dotQ4x4x3 = dotQ8x4x3Asm, dotQ4x4x3Asm
	k.dotQ4x8x4 = dotQ4x8x4Asm
	return k
}()

// Tile kernels: 4 weight rows by 3 activation rows nb blocks apart; out
// gets column c's four results at c·ldo bytes.
//
//go:noescape
func dotQ8x4x3SIMD(w *byte, stride int, qs *int8, qd *float32, nb int, out *float32, ldo int)

// neg holds the activations' negated block sums, laid out as qd.
//
//go:noescape
func dotQ4x4x3SIMD(w *byte, stride int, qs *int8, qd *float32, neg *int32, nb int, out *float32, ldo int)

func dotQ8x4x3Asm(w []byte, stride int, y *q8Rows, n0 int, out []float32, ldo int) {
	if tileBounds(34, w, stride, y, n0, out, ldo) {
		dotQ8x4x3SIMD(&w[0], stride, &y.qs[n0*y.nb*rt.QK], &y.d[n0*y.nb], y.nb, &out[0], 4*ldo)
	}
}

func dotQ4x4x3Asm(w []byte, stride int, y *q8Rows, n0 int, out []float32, ldo int) {
	if tileBounds(18, w, stride, y, n0, out, ldo) {
		dotQ4x4x3SIMD(&w[0], stride, &y.qs[n0*y.nb*rt.QK], &y.d[n0*y.nb], &y.neg[n0*y.nb], y.nb, &out[0], 4*ldo)
	}
}

// tileBounds checks the bounds a tile kernel reads and writes and reports
// whether it has blocks to run; with none it zeroes the results.
func tileBounds(blockSize int, w []byte, stride int, y *q8Rows, n0 int, out []float32, ldo int) bool {
	nb := y.nb
	_ = out[2*ldo+3]
	if nb == 0 {
		for c := 0; c < 3; c++ {
			clear(out[c*ldo : c*ldo+4])
		}
		return false
	}
	_ = w[3*stride+nb*blockSize-1]
	_, _, _ = y.qs[(n0+3)*nb*rt.QK-1], y.d[(n0+3)*nb-1], y.neg[(n0+3)*nb-1]
	return true
}

//go:noescape
func dotQ4x8x4SIMD(p *byte, qs *int8, qd *float32, neg *int32, nb int, out *float32, ldo int)

func dotQ4x8x4Asm(p []byte, y *q8Rows, n0 int, out []float32, ldo int) {
	nb := y.nb
	_ = out[3*ldo+7]
	if nb == 0 {
		for c := 0; c < 4; c++ {
			clear(out[c*ldo : c*ldo+8])
		}
		return
	}
	_ = p[nb*panelBlock-1]
	_, _, _ = y.qs[(n0+4)*nb*rt.QK-1], y.d[(n0+4)*nb-1], y.neg[(n0+4)*nb-1]
	dotQ4x8x4SIMD(&p[0], &y.qs[n0*nb*rt.QK], &y.d[n0*nb], &y.neg[n0*nb], nb, &out[0], 4*ldo)
}
