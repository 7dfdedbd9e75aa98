//go:build amd64 && !purego

package cpu

// The AVX2 K-quant kernels (kquants_amd64.s) take nb >= 1 super-blocks.

//go:noescape
func dotQ4KSIMD(w *byte, qs *int8, qd *float32, bsums *int16, nb int) float32

//go:noescape
func dotQ5KSIMD(w *byte, qs *int8, qd *float32, bsums *int16, nb int) float32

//go:noescape
func dotQ6KSIMD(w *byte, qs *int8, qd *float32, bsums *int16, nb int) float32

// useKQuantAsm puts the AVX2 kernels of the types kquants.go adds into k.
func useKQuantAsm(k *kernels) {
	k.dotQ4K = blockDotK(144, dotQ4KSIMD)
	k.dotQ5K = blockDotK(176, dotQ5KSIMD)
	k.dotQ6K = blockDotK(210, dotQ6KSIMD)
}
