//go:build arm64 && !purego

package cpu

// useKQuantAsm puts the NEON kernels of the types kquants.go adds into k.
func useKQuantAsm(k *kernels) {
}
