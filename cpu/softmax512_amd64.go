//go:build amd64 && !purego

package cpu

// The AVX-512 row kernels of softmax512_amd64.s: masked tails, so no
// scalar remainder.

//go:noescape
func softMaxRowAVX512(out, x, mask *float32, n int, scale float32) float32

//go:noescape
func softMaxRows2AVX512(out0, x0, m0, out1, x1, m1 *float32, n int, scale float32) (sum0, sum1 float32)

//go:noescape
func expSubAVX512(dst, x *float32, n int, m float32) float32

// softMaxRow512 is kernels.rowSoftMax on softMaxRowAVX512.
func softMaxRow512(dst, x, m []float32, s float32) float32 {
	n := len(dst)
	if n == 0 {
		return 0
	}
	xp, mp := softMaxOperands(n, x, m)
	return softMaxRowAVX512(&dst[0], xp, mp, n, s)
}

// softMaxRowPair512 is kernels.rowSoftMax2 on softMaxRows2AVX512.
func softMaxRowPair512(d0, x0, m0, d1, x1, m1 []float32, s float32) (float32, float32) {
	n := len(d0)
	if n == 0 {
		return 0, 0
	}
	if len(d1) != n {
		panic("cpu: rowSoftMax2 of rows of different lengths")
	}
	xp0, mp0 := softMaxOperands(n, x0, m0)
	xp1, mp1 := softMaxOperands(n, x1, m1)
	return softMaxRows2AVX512(&d0[0], xp0, mp0, &d1[0], xp1, mp1, n, s)
}

// softMaxOperands checks that a row kernel's x and mask (nil: none) hold
// n > 0 elements and returns their pointers.
func softMaxOperands(n int, x, m []float32) (xp, mp *float32) {
	xp = &x[:n][0]
	if m != nil {
		mp = &m[:n][0]
	}
	return xp, mp
}

// expSub512 is kernels.expSub on expSubAVX512.
func expSub512(dst, x []float32, m float32) float32 {
	n := len(dst)
	if n == 0 {
		return 0
	}
	return expSubAVX512(&dst[0], &x[:n][0], n, m)
}
