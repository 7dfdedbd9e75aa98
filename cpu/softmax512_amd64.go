//go:build amd64 && !purego

package cpu

// The AVX-512 row kernels of softmax512_amd64.s: masked tails, so no
// scalar remainder.

//go:noescape
func softMaxRowAVX512(out, x, mask *float32, n int, scale float32) float32

//go:noescape
func expSubAVX512(dst, x *float32, n int, m float32) float32

// softMaxRow512 is kernels.rowSoftMax on softMaxRowAVX512.
func softMaxRow512(dst, x, m []float32, s float32) float32 {
	n := len(dst)
	if n == 0 {
		return 0
	}
	x = x[:n]
	var mp *float32
	if m != nil {
		mp = &m[:n][0]
	}
	return softMaxRowAVX512(&dst[0], &x[0], mp, n, s)
}

// expSub512 is kernels.expSub on expSubAVX512.
func expSub512(dst, x []float32, m float32) float32 {
	n := len(dst)
	if n == 0 {
		return 0
	}
	return expSubAVX512(&dst[0], &x[:n][0], n, m)
}
