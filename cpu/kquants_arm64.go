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

//go:noescape
func dotQ3KNEON(w *byte, qs *int8, qd *float32, bsums *int16, nb int) float32

//go:noescape
func dotQ2KNEON(w *byte, qs *int8, qd *float32, bsums *int16, nb int) float32

//go:noescape
func dotIQ4XSNEON(w *byte, qs *int8, qd *float32, bsums *int16, nb int) float32

// The 32-value block kernels take the Q8 activations' negated block sums
// (neg) too, which carry the Q4_1/Q5_1 offsets.

//go:noescape
func dotQ4_1NEON(w *byte, qs *int8, qd *float32, neg *int32, nb int) float32

//go:noescape
func dotQ5_1NEON(w *byte, qs *int8, qd *float32, neg *int32, nb int) float32

//go:noescape
func dotQ5_0NEON(w *byte, qs *int8, qd *float32, neg *int32, nb int) float32

//go:noescape
func dotIQ4NLNEON(w *byte, qs *int8, qd *float32, neg *int32, nb int) float32

//go:noescape
func dotMXFP4NEON(w *byte, qs *int8, qd *float32, neg *int32, nb int) float32

//go:noescape
func dotTQ2NEON(w *byte, qs *int8, qd *float32, bsums *int16, nb int) float32

//go:noescape
func dotTQ1NEON(w *byte, qs *int8, qd *float32, bsums *int16, nb int) float32

// The SDOT forms (ARMv8.2 dot product) of the Q4_K and Q6_K dots, for the
// neon-dotprod set.

//go:noescape
func dotQ4KSDOT(w *byte, qs *int8, qd *float32, bsums *int16, nb int) float32

//go:noescape
func dotQ6KSDOT(w *byte, qs *int8, qd *float32, bsums *int16, nb int) float32

// useKQuantSDOT puts the SDOT kernels into the neon-dotprod set k.
func useKQuantSDOT(k *kernels) {
	k.dotQ4K = blockDotK(144, dotQ4KSDOT)
	k.dotQ6K = blockDotK(210, dotQ6KSDOT)
}

// useKQuantAsm puts the NEON kernels of the types kquants.go adds into k.
func useKQuantAsm(k *kernels) {
	k.dotQ4K = blockDotK(144, dotQ4KNEON)
	k.dotQ5K = blockDotK(176, dotQ5KNEON)
	k.dotQ6K = blockDotK(210, dotQ6KNEON)
	k.dotQ3K = blockDotK(110, dotQ3KNEON)
	k.dotQ2K = blockDotK(84, dotQ2KNEON)
	k.dotIQ4XS = blockDotK(136, dotIQ4XSNEON)
	k.dotQ4_1 = blockDotNeg(20, dotQ4_1NEON)
	k.dotQ5_1 = blockDotNeg(24, dotQ5_1NEON)
	k.dotQ5_0 = blockDotNeg(22, dotQ5_0NEON)
	k.dotIQ4NL = blockDotNeg(18, dotIQ4NLNEON)
	k.quantizeQ8K = quantizeQ8KWith(quantizeQ8KNEON)
	k.dotMXFP4 = blockDotNeg(17, dotMXFP4NEON)
	k.dotTQ2 = blockDotK(66, dotTQ2NEON)
	k.dotTQ1 = blockDotK(54, dotTQ1NEON)
}

//go:noescape
func quantizeQ8KNEON(x *float32, qs *int8, d *float32, bsums *int16, nb int)
