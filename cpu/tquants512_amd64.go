//go:build amd64 && !purego

package cpu

// The AVX-512 ternary kernels (tquants512_amd64.s) take nb >= 1
// super-blocks.

//go:noescape
func dotTQ1AVX512(w *byte, qs *int8, qd *float32, bsums *int16, nb int) float32

//go:noescape
func dotTQ2AVX512(w *byte, qs *int8, qd *float32, bsums *int16, nb int) float32

//go:noescape
func dotTQ1x4AVX512(w *byte, qs *int8, qd *float32, bsums *int16, nb int, out *float32)

//go:noescape
func dotTQ2x4AVX512(w *byte, qs *int8, qd *float32, bsums *int16, nb int, out *float32)

// useTernaryAVX512 puts the AVX-512 TQ1_0 and TQ2_0 kernels into k.
func useTernaryAVX512(k *kernels) {
	k.dotTQ1 = blockDotK(54, dotTQ1AVX512)
	k.dotTQ2 = blockDotK(66, dotTQ2AVX512)
	k.dotTQ1x4 = blockDotK4(54, dotTQ1x4AVX512)
	k.dotTQ2x4 = blockDotK4(66, dotTQ2x4AVX512)
}
