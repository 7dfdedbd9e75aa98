//go:build arm64 && !purego

package cpu

// NEON kernels (kernels_arm64.s) for every arm64 CPU: Apple M1 and later,
// Neoverse N1/V1/V2 (Graviton, Ampere), Cortex-A53/A55/A72/A76 and later.
// They use only the ARMv8.0 Advanced SIMD baseline, which every arm64 CPU
// has, so there is no feature check: FMLA (vector and by element) for the
// float dots and the 6×16 GEMM tile, FCVTL/FCVTN for half precision,
// SMULL/SMULL2 with SADDLP/SADALP for the Q8_0/Q4_0 integer dots (no
// ARMv8.2 SDOT), FCVTAS (round half away from zero) for the Q8_0 quantizer.
// ARMv8.2 SDOT would cut the integer dots' instructions further but needs
// a feature check. Tested under qemu (cortex-a53 and max models), not yet
// benchmarked on hardware. The Go wrappers are in kernels_asm.go.

// simdWidth is the element granularity of the NEON kernels: 4 floats, one
// Q register; transpose8 packs 8×4 blocks.
const simdWidth = 4

// simdKernels is the NEON set.
var simdKernels = asmKernels("neon")
