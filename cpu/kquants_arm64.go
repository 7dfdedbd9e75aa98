//go:build arm64 && !purego

package cpu

// The NEON K-quant kernels (kquants_arm64.s) take nb >= 1 super-blocks and
// use only the ARMv8.0 baseline.

//go:noescape
func dotQ4KNEON(w *byte, qs *int8, qd *float32, bsums *int16, nb int) float32

//go:noescape
func dotQ5KNEON(w *byte, qs *int8, qd *float32, bsums *int16, nb int) float32

//go:noescape
func dotQ6KNEON(w *byte, qs *int8, qd *float32, bsums *int16, nb int) float32

// useKQuantAsm puts the NEON kernels of the types kquants.go adds into k.
func useKQuantAsm(k *kernels) {
	k.dotQ4K = blockDotK(144, dotQ4KNEON)
	k.dotQ5K = blockDotK(176, dotQ5KNEON)
	k.dotQ6K = blockDotK(210, dotQ6KNEON)
}
