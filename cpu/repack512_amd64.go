//go:build amd64 && !purego

package cpu

import rt "github.com/gpurt/gpurt/runtime"

//go:noescape
func dotQ4R8AVX512(p *byte, qs *int8, qd *float32, neg *int32, nb int, out *float32)

func dotQ4R8AVX512Asm(p []byte, y q8Row, out []float32) {
	nb := len(y.d)
	if nb == 0 {
		clear(out[:8])
		return
	}
	_, _, _, _ = p[nb*r8Block-1], y.qs[nb*rt.QK-1], y.neg[nb-1], out[7]
	dotQ4R8AVX512(&p[0], &y.qs[0], &y.d[0], &y.neg[0], nb, &out[0])
}

//go:noescape
func dotMXFP4AVX512(w *byte, qs *int8, qd *float32, neg *int32, nb int) float32
