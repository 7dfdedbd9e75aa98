package cpu

// NewPortableBackend starts a backend on the fast paths with the portable
// Go kernels, so the external tests can check them on any machine.
func NewPortableBackend(threads int) *Backend { return newBackend(threads, goKernels) }

// HasSIMD reports whether NewBackend runs SIMD kernels on this machine.
func HasSIMD() bool { return simdKernels != nil }
