//go:build amd64 && !purego

package cpu

import (
	"os"
	"unsafe"
)

// hasAVX512 reports whether the CPU and the OS support the AVX-512 subsets
// the avx512 kernels use: F, BW, DQ and VL (CPUID leaf 7 EBX) and VNNI
// (ECX), with XCR0 saying the OS saves the opmask and all 32 ZMM
// registers as well as the XMM/YMM state.
func hasAVX512() bool {
	if !hasAVX2() {
		return false
	}
	_, b7, c7, _ := cpuidex(7, 0)
	const f, dq, bw, vl = 1 << 16, 1 << 17, 1 << 30, 1 << 31
	const vnni = 1 << 11
	if b7&(f|dq|bw|vl) != f|dq|bw|vl || c7&vnni == 0 {
		return false
	}
	const xmmYmm, opmaskZmm = 0x06, 0xe0
	xcr0, _ := xgetbv0()
	return xcr0&(xmmYmm|opmaskZmm) == xmmYmm|opmaskZmm
}

// cpuLevelEnv names the environment variable that caps the kernel set the
// CPU backend picks: "avx2" or "go" (see doc.go).
const cpuLevelEnv = "GPURT_CPU_LEVEL"

// avx512Kernels is the AVX-512 set, or nil when the CPU lacks it: the AVX2
// set with the kernels of kquants512_amd64.s in place of their AVX2 forms.
var avx512Kernels = func() *kernels {
	if avx2Kernels == nil || !hasAVX512() {
		return nil
	}
	k := *avx2Kernels
	k.name = "avx512"
	k.gemm = gemmAVX512
	k.dotQ8x4 = blockDot4(34, dotQ8x4AVX512)
	k.dotQ4K = blockDotK(144, dotQ4KAVX512)
	k.dotQ5K = blockDotK(176, dotQ5KAVX512)
	k.dotQ6K = blockDotK(210, dotQ6KAVX512)
	k.dotQ2K = blockDotK(84, dotQ2KAVX512)
	k.dotQ3K = blockDotK(110, dotQ3KAVX512)
	k.dotIQ4XS = blockDotK(136, dotIQ4XSAVX512)
	k.dotQ4_1 = blockDotNeg(20, dotQ4_1AVX512)
	k.dotQ5_1 = blockDotNeg(24, dotQ5_1AVX512)
	k.dotQ5_0 = blockDotNeg(22, dotQ5_0AVX512)
	k.dotIQ4NL = blockDotNeg(18, dotIQ4NLAVX512)
	k.dotQ4R8 = dotQ4R8AVX512Asm
	return &k
}()

// simdKernels is the best set this CPU runs, capped by GPURT_CPU_LEVEL.
var simdKernels = selectAMD64(os.Getenv(cpuLevelEnv), avx2Kernels, avx512Kernels)

// selectAMD64 picks the set for level ("" or "avx512": the best there is;
// "avx2": at most AVX2; "go": none, so the portable kernels run) from
// the sets the CPU has (nil where it lacks one). An unknown level counts as
// "": the device description names the set that runs.
func selectAMD64(level string, avx2, avx512 *kernels) *kernels {
	switch level {
	case "go":
		return nil
	case "avx2":
		return avx2
	}
	if avx512 != nil {
		return avx512
	}
	return avx2
}

//go:noescape
func dotQ4KAVX512(w *byte, qs *int8, qd *float32, bsums *int16, nb int) float32

//go:noescape
func dotQ5KAVX512(w *byte, qs *int8, qd *float32, bsums *int16, nb int) float32

//go:noescape
func dotQ6KAVX512(w *byte, qs *int8, qd *float32, bsums *int16, nb int) float32

//go:noescape
func dotQ2KAVX512(w *byte, qs *int8, qd *float32, bsums *int16, nb int) float32

//go:noescape
func dotQ3KAVX512(w *byte, qs *int8, qd *float32, bsums *int16, nb int) float32

//go:noescape
func dotIQ4XSAVX512(w *byte, qs *int8, qd *float32, bsums *int16, nb int) float32

// The 32-value block kernels take the Q8 activations' negated block sums
// (neg), as their AVX2 forms do.

//go:noescape
func dotQ4_1AVX512(w *byte, qs *int8, qd *float32, neg *int32, nb int) float32

//go:noescape
func dotQ5_1AVX512(w *byte, qs *int8, qd *float32, neg *int32, nb int) float32

//go:noescape
func dotQ5_0AVX512(w *byte, qs *int8, qd *float32, neg *int32, nb int) float32

//go:noescape
func dotIQ4NLAVX512(w *byte, qs *int8, qd *float32, neg *int32, nb int) float32

//go:noescape
func gemm6x16AVX512(k int, a, b, c *float32, ldc int, add int)

// gemmAVX512 is gemmAsm on the ZMM tile kernel.
func gemmAVX512(k int, a, b, c []float32, ldc int, add bool) {
	_, _ = a[:k*gemmMR], b[:k*gemmNR]
	_ = c[(gemmMR-1)*ldc+gemmNR-1]
	flag := 0
	if add {
		flag = 1
	}
	// SliceData: with k == 0 the panels may be empty.
	gemm6x16AVX512(k, unsafe.SliceData(a), unsafe.SliceData(b), &c[0], ldc, flag)
}

// dotQ8x4AVX512 multiplies unsigned (offset) quants, so it takes the
// activations' negated block sums.
//
//go:noescape
func dotQ8x4AVX512(w *byte, stride int, qs *int8, qd *float32, neg *int32, nb int, out *float32)
