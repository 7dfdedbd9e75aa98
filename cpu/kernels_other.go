//go:build !(amd64 || arm64) || purego

package cpu

// simdKernels is nil: this build has only the portable kernels.
var simdKernels *kernels

// simdWidth is the element granularity of the SIMD kernels; this build
// has none (their thin paths need gemvF32), so it only keeps the shared
// code compiling.
const simdWidth = 8
