//go:build amd64 && !purego

package cpu

// The AVX2 K-quant kernels (kquants_amd64.s) take nb >= 1 super-blocks.

//go:noescape
func dotQ4KSIMD(w *byte, qs *int8, qd *float32, bsums *int16, nb int) float32

//go:noescape
func dotQ5KSIMD(w *byte, qs *int8, qd *float32, bsums *int16, nb int) float32

//go:noescape
func dotQ6KSIMD(w *byte, qs *int8, qd *float32, bsums *int16, nb int) float32

//go:noescape
func dotQ6KRowsSIMD(w *byte, ldw int, qs *int8, qd *float32, bsums *int16, nb int, out *float32, rows int)

// useKQuantAsm puts the AVX2 kernels of the types kquants.go adds into k.
func useKQuantAsm(k *kernels) {
	k.dotQ4K = blockDotK(144, dotQ4KSIMD)
	k.dotQ5K = blockDotK(176, dotQ5KSIMD)
	k.dotQ6K = blockDotK(210, dotQ6KSIMD)
	k.dotQ6KRows = blockDotKRows(210, dotQ6KRowsSIMD)
	k.dotQ3K = blockDotK(110, dotQ3KSIMD)
	k.dotQ2K = blockDotK(84, dotQ2KSIMD)
	k.dotIQ4XS = blockDotK(136, dotIQ4XSSIMD)
	k.dotQ4_1 = blockDotNeg(20, dotQ4_1SIMD)
	k.dotQ5_1 = blockDotNeg(24, dotQ5_1SIMD)
	k.dotQ5_0 = blockDotNeg(22, dotQ5_0SIMD)
	k.dotIQ4NL = blockDotNeg(18, dotIQ4NLSIMD)
	k.quantizeQ8K = quantizeQ8KWith(quantizeQ8KSIMD)
	k.dotMXFP4 = blockDotNeg(17, dotMXFP4SIMD)
	k.dotTQ2 = blockDotK(66, dotTQ2SIMD)
	k.dotTQ1 = blockDotK(54, dotTQ1SIMD)
	k.dotQ4Kx4 = blockDotK4(144, dotQ4Kx4SIMD)
	k.dotQ5Kx4 = blockDotK4(176, dotQ5Kx4SIMD)
	k.dotQ6Kx4 = blockDotK4(210, dotQ6Kx4SIMD)
	k.dotQ2Kx4 = blockDotK4(84, dotQ2Kx4SIMD)
	k.dotQ3Kx4 = blockDotK4(110, dotQ3Kx4SIMD)
	k.dotIQ4XSx4 = blockDotK4(136, dotIQ4XSx4SIMD)
	k.dotQ4KRRows = dotQ4KRRowsAVX2Go
	k.dotQ5KRRows = dotQ5KRRowsAVX2Go
}

//go:noescape
func dotQ4KRRowsAVX2(p *byte, ldp int, qs *int8, sums *int32, d *float32, np int, out *float32, rows int)

// dotQ4KRRowsAVX2Go is kernels.dotQ4KRRows on dotQ4KRRowsAVX2.
func dotQ4KRRowsAVX2Go(p []byte, ldp int, a *iq4Act, out []float32) {
	kRepackedRowsRun(q4kPairBytes, 2, dotQ4KRRowsAVX2, p, ldp, a, out)
}

//go:noescape
func dotQ5KRRowsAVX2(p *byte, ldp int, qs *int8, sums *int32, d *float32, np int, out *float32, rows int)

// dotQ5KRRowsAVX2Go is kernels.dotQ5KRRows on dotQ5KRRowsAVX2.
func dotQ5KRRowsAVX2Go(p []byte, ldp int, a *iq4Act, out []float32) {
	kRepackedRowsRun(q5kPairBytes, 2, dotQ5KRRowsAVX2, p, ldp, a, out)
}

//go:noescape
func dotQ3KSIMD(w *byte, qs *int8, qd *float32, bsums *int16, nb int) float32

//go:noescape
func dotQ2KSIMD(w *byte, qs *int8, qd *float32, bsums *int16, nb int) float32

//go:noescape
func dotIQ4XSSIMD(w *byte, qs *int8, qd *float32, bsums *int16, nb int) float32

// The 32-value block kernels take the Q8 activations' negated block sums
// (neg) too, which carry the Q4_1/Q5_1 offsets and Q5_0's -16.

//go:noescape
func dotQ4_1SIMD(w *byte, qs *int8, qd *float32, neg *int32, nb int) float32

//go:noescape
func dotQ5_1SIMD(w *byte, qs *int8, qd *float32, neg *int32, nb int) float32

//go:noescape
func dotQ5_0SIMD(w *byte, qs *int8, qd *float32, neg *int32, nb int) float32

//go:noescape
func dotIQ4NLSIMD(w *byte, qs *int8, qd *float32, neg *int32, nb int) float32

//go:noescape
func quantizeQ8KSIMD(x *float32, qs *int8, d *float32, bsums *int16, nb int)

//go:noescape
func dotQ4Kx4SIMD(w *byte, qs *int8, qd *float32, bsums *int16, nb int, out *float32)

//go:noescape
func dotQ5Kx4SIMD(w *byte, qs *int8, qd *float32, bsums *int16, nb int, out *float32)

//go:noescape
func dotQ6Kx4SIMD(w *byte, qs *int8, qd *float32, bsums *int16, nb int, out *float32)

//go:noescape
func dotQ2Kx4SIMD(w *byte, qs *int8, qd *float32, bsums *int16, nb int, out *float32)

//go:noescape
func dotQ3Kx4SIMD(w *byte, qs *int8, qd *float32, bsums *int16, nb int, out *float32)

//go:noescape
func dotIQ4XSx4SIMD(w *byte, qs *int8, qd *float32, bsums *int16, nb int, out *float32)

//go:noescape
func dotMXFP4SIMD(w *byte, qs *int8, qd *float32, neg *int32, nb int) float32

//go:noescape
func dotTQ2SIMD(w *byte, qs *int8, qd *float32, bsums *int16, nb int) float32

//go:noescape
func dotTQ1SIMD(w *byte, qs *int8, qd *float32, bsums *int16, nb int) float32
