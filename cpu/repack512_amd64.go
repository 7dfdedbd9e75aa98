//go:build amd64 && !purego

package cpu

//go:noescape
func dotQ4R8AVX512(p *byte, qs *int8, qd *float32, neg *int32, nb int, out *float32)

//go:noescape
func dotMXFP4AVX512(w *byte, qs *int8, qd *float32, neg *int32, nb int) float32
