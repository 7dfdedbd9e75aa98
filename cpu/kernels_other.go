//go:build !(amd64 || arm64) || purego

package cpu

// simdKernels is nil: this build has only the portable kernels.
var simdKernels *kernels
