//go:build amd64 && !purego

package cpu

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
	return asmKernels("avx2")
}()
