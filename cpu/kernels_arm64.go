//go:build arm64 && !purego

package cpu

import "golang.org/x/sys/cpu"

// NEON kernels (kernels_arm64.s) for every arm64 CPU: Apple M1 and later,
// Neoverse N1/V1/V2 (Graviton, Ampere), Cortex-A53/A55/A72/A76 and later.
// The neon set uses only the ARMv8.0 Advanced SIMD baseline, which every
// arm64 CPU has: FMLA (vector and by element) for the float dots and the
// 6×16 GEMM tile, FCVTL/FCVTN for half precision, SMULL/SMULL2 with
// SADDLP/SADALP for the Q8_0/Q4_0 integer dots, FCVTAS (round half away
// from zero) for the Q8_0 quantizer. CPUs with the ARMv8.2 dot product
// (FEAT_DotProd: Apple M1+, Graviton2+, Neoverse, Cortex-A55/A76+) get the
// neon-dotprod set instead, whose integer dots use SDOT. x/sys/cpu reads
// HWCAP on linux and the hw.optional.arm.FEAT_DotProd sysctl on darwin.
// Tested under qemu (cortex-a53 and max models), not yet benchmarked on
// hardware. The Go wrappers are in kernels_asm.go and below.

// simdWidth is the element granularity of the NEON kernels: 4 floats, one
// Q register; transpose8 packs 8×4 blocks.
const simdWidth = 4

// neonKernels is the ARMv8.0 set, which every arm64 CPU runs.
var neonKernels = asmKernels("neon")

// simdKernels is the best set this CPU runs.
var simdKernels = selectNEON(cpu.ARM64.HasASIMDDP)

func selectNEON(hasDotProd bool) *kernels {
	if !hasDotProd {
		return neonKernels
	}
	k := *neonKernels
	k.name = "neon-dotprod"
	k.dotQ8, k.dotQ4 = blockDot(34, dotQ8SDOT), blockDot(18, dotQ4SDOT)
	k.dotQ8x4, k.dotQ4x4 = blockDot4(34, dotQ8x4WithNeg(dotQ8x4SDOT)), blockDot4(18, dotQ4x4SDOT)
	useKQuantSDOT(&k)
	return &k
}

// The SDOT kernels take the arguments of their SIMD counterparts.

//go:noescape
func dotQ8SDOT(w *byte, qs *int8, qd *float32, nb int) float32

//go:noescape
func dotQ4SDOT(w *byte, qs *int8, qd *float32, nb int) float32

//go:noescape
func dotQ8x4SDOT(w *byte, stride int, qs *int8, qd *float32, nb int, out *float32)

//go:noescape
func dotQ4x4SDOT(w *byte, stride int, qs *int8, qd *float32, neg *int32, nb int, out *float32)

//go:noescape
func gemm6x16SIMD(k int, a, b, c *float32, ldc int, add int)

// gemmPanel runs the NEON 6×16 tile on packed panels (gemmAsm).
func gemmPanel(k int, a, b, c *float32, ldc, add int) { gemm6x16SIMD(k, a, b, c, ldc, add) }
