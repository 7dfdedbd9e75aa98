//go:build amd64 && !purego

package cpu

import (
	"encoding/binary"
	"fmt"
	"math"

	rt "github.com/gpurt/gpurt/runtime"
)

// simdWidth is the element granularity of the AVX2 kernels
// (kernels_amd64.s): 8 floats, one YMM register; transpose8 packs 8×8
// blocks.
const simdWidth = 8

//go:noescape
func cpuidex(leaf, sub uint32) (a, b, c, d uint32)

//go:noescape
func xgetbv0() (a, d uint32)

// hasAVX2 reports whether the CPU and the OS support AVX2, FMA and F16C:
// CPUID feature bits, and XCR0 saying the OS saves the YMM registers.
func hasAVX2() bool {
	maxLeaf, _, _, _ := cpuidex(0, 0)
	if maxLeaf < 7 {
		return false
	}
	_, _, c1, _ := cpuidex(1, 0)
	const fma, osxsave, avx, f16c = 1 << 12, 1 << 27, 1 << 28, 1 << 29
	if c1&(fma|osxsave|avx|f16c) != fma|osxsave|avx|f16c {
		return false
	}
	if xcr0, _ := xgetbv0(); xcr0&6 != 6 { // XMM and YMM state
		return false
	}
	_, b7, _, _ := cpuidex(7, 0)
	return b7&(1<<5) != 0
}

// avx2Kernels is the AVX2 set, or nil when the CPU lacks it; simdKernels
// (kernels512_amd64.go) picks it or the AVX-512 set.
var avx2Kernels = func() *kernels {
	if !hasAVX2() {
		return nil
	}
	k := asmKernels("avx2")
	k.dotQ8x8x4, k.dotQ4x8x4 = dotQ8x8x4Asm, dotQ4x8x4Asm
	k.repackQ8, k.repackQ4 = repackQ8Asm, repackQ4Asm
	k.dotF16x4 = dotF16x4Asm
	k.dotF16x16 = dotF16x16AVX2Go
	k.dotF16x8x2 = dotF16x8x2Asm
	k.dotF32x4 = dotF32x4Asm
	k.gemvF32 = gemvF32Asm
	k.dotQ4R8 = r8Dot(dotQ4R8SIMD)
	k.dotQ8Rows = dotQ8RowsAsm
	k.gemmRows = gemmRowsFor(gemm6x16StridedSIMD)
	k.gemmRows4, k.gemmF16Rows4 = gemmRows4Asm, gemmF16Rows4Asm
	k.gemmRowsRun, k.gemmF16RowsRun = gemmRowsRunAsm, gemmF16RowsRunAsm
	k.rowSoftMax, k.rowSoftMax2 = softMaxAVX2(k)
	k.thinF32c4 = thinF32c4AVX2
	k.thinF32c2 = thinF32c2AVX2
	k.dotF32x4c4 = dotF32x4c4AVX2
	k.transpose8F16 = transpose8F16Asm
	k.packF16, k.gemmF16 = packF16Asm, gemmF16Asm
	k.prefetchRows = prefetchRowsAsm
	return k
}()

//go:noescape
func packF16SIMD(dst, src *byte, stride, kc int)

// packF16Asm is kernels.packF16 on the AVX2 kernel, the last kc%8
// halves in Go.
func packF16Asm(b, src []byte, stride, kc int) {
	m := kc &^ (simdWidth - 1)
	if m > 0 {
		_ = src[(gemmNR-1)*stride+2*m-1]
		_ = b[2*gemmNR*m-1]
		packF16SIMD(&b[0], &src[0], stride, m)
	}
	packF16Go(b[2*gemmNR*m:], src[2*m:], stride, kc-m)
}

func prefetchRowsSIMD(p uintptr, stride, rows, n int)

// prefetchRowsAsm is kernels.prefetchRows.
func prefetchRowsAsm(p uintptr, stride, rows, n int) {
	if rows > 0 && n > 0 {
		prefetchRowsSIMD(p, stride, rows, n)
	}
}

// gemmF16Asm is kernels.gemmF16 on the AVX2 tile.
func gemmF16Asm(k int, x []float32, rs, ks int, b []byte, c []float32, ldc int, add bool) {
	if k == 0 {
		clearTile(c, ldc, add)
		return
	}
	_, _ = x[(gemmMR-1)*rs+(k-1)*ks], b[2*gemmNR*k-1]
	_ = c[(gemmMR-1)*ldc+gemmNR-1]
	gemm6x16F16StridedSIMD(k, &x[0], 4*rs, 4*ks, &b[0], &c[0], ldc, addFlag(add))
}

//go:noescape
func transpose8F16SIMD(dst *float32, src *byte, stride, kc, ldd int)

// transpose8F16Asm is kernels.transpose8F16 on the AVX2 kernel, the last
// kc%8 halves in Go.
func transpose8F16Asm(dst []float32, ldd int, src []byte, stride, kc int) {
	m := kc &^ (simdWidth - 1)
	if m > 0 {
		_ = src[7*stride+2*kc-1]
		_ = dst[(kc-1)*ldd+7]
		transpose8F16SIMD(&dst[0], &src[0], stride, m, ldd)
	}
	for r := 0; r < 8; r++ {
		for k := m; k < kc; k++ {
			dst[k*ldd+r] = rt.F16ToF32(binary.LittleEndian.Uint16(src[r*stride+2*k:]))
		}
	}
}

//go:noescape
func thinF32x4c4AVX2(w *byte, ldw int, x0, x1, x2, x3 *float32, k int, out *float32, ldo int, groups int)

// thinF32c4Run is kernels.thinF32c4 on a 4-column assembly kernel of
// groups of 4 rows.
func thinF32c4Run(kernel func(w *byte, ldw int, x0, x1, x2, x3 *float32, k int, out *float32, ldo int, groups int), w []byte, ldw int, x [4][]float32, out []float32, ldo, m int) {
	if k, ok := thinOperands(w, ldw, x[:4], out, ldo, m); ok {
		kernel(&w[0], ldw, &x[0][0], &x[1][0], &x[2][0], &x[3][0], k, &out[0], ldo, m/4)
	}
}

// thinOperands checks a one-call thin product's operands, m rows of
// weights against the columns x into out, and returns their length; false
// when there are no rows.
func thinOperands(w []byte, ldw int, x [][]float32, out []float32, ldo, m int) (int, bool) {
	k := len(x[0])
	if m == 0 {
		return 0, false
	}
	if k%simdWidth != 0 || m%4 != 0 || k == 0 {
		panic(fmt.Sprintf("cpu: thin product of %d rows of %d", m, k))
	}
	_, _ = w[(m-1)*ldw+4*k-1], out[(len(x)-1)*ldo+m-1]
	for _, c := range x {
		_ = c[k-1]
	}
	return k, true
}

// thinF32c4AVX2 is kernels.thinF32c4 on thinF32x4c4AVX2.
func thinF32c4AVX2(w []byte, ldw int, x [4][]float32, out []float32, ldo, m int) {
	thinF32c4Run(thinF32x4c4AVX2, w, ldw, x, out, ldo, m)
}

//go:noescape
func thinF32x4c2AVX2(w *byte, ldw int, x0, x1 *float32, k int, out *float32, ldo int, groups int)

// thinF32c2AVX2 is kernels.thinF32c2 on thinF32x4c2AVX2.
func thinF32c2AVX2(w []byte, ldw int, x [4][]float32, out []float32, ldo, m int) {
	if k, ok := thinOperands(w, ldw, x[:2], out, ldo, m); ok {
		thinF32x4c2AVX2(&w[0], ldw, &x[0][0], &x[1][0], k, &out[0], ldo, m/4)
	}
}

// dotF32x4c4Run is kernels.dotF32x4c4 on a 4-column kernel (one group)
// whose bits are those of two calls of dotF32x4, the 2-column tile it
// falls back to for rows shorter than 8.
func dotF32x4c4Run(thin func(w *byte, ldw int, x0, x1, x2, x3 *float32, k int, out *float32, ldo int, groups int), dotF32x4 func(w []byte, ldw int, x0, x1, x2, out []float32, ldo int), w []byte, ldw int, x0, x1, x2, x3, out []float32, ldo int) {
	k := len(x0)
	m := k &^ (simdWidth - 1)
	if m == 0 {
		dotF32x4(w, ldw, x0, x1, nil, out, ldo)
		dotF32x4(w, ldw, x2, x3, nil, out[2*ldo:], ldo)
		return
	}
	_ = out[3*ldo+3]
	_, _, _, _, _ = w[3*ldw+4*m-1], x0[m-1], x1[m-1], x2[m-1], x3[m-1]
	thin(&w[0], ldw, &x0[0], &x1[0], &x2[0], &x3[0], m, &out[0], ldo, 1)
	cols := [4][]float32{x0, x1, x2, x3}
	for i := m; i < k; i++ { // the tail, element by element, as dotF32x4
		for r := 0; r < 4; r++ {
			v := math.Float32frombits(binary.LittleEndian.Uint32(w[r*ldw+4*i:]))
			for c := 0; c < 4; c++ {
				out[c*ldo+r] += v * cols[c][i]
			}
		}
	}
}

// dotF32x4c4AVX2 is kernels.dotF32x4c4 on thinF32x4c4AVX2.
func dotF32x4c4AVX2(w []byte, ldw int, x0, x1, x2, x3, out []float32, ldo int) {
	dotF32x4c4Run(thinF32x4c4AVX2, dotF32x4Asm, w, ldw, x0, x1, x2, x3, out, ldo)
}

//go:noescape
func softMaxRowAVX2(out, x, mask *float32, n int, scale float32) float32

//go:noescape
func softMaxRows2AVX2(out0, x0, m0, out1, x1, m1 *float32, n int, scale float32) (sum0, sum1 float32)

// softMaxAVX2 returns kernels.rowSoftMax and rowSoftMax2 on the AVX2 row
// kernels, which give the bits of k's scaleAdd (or scale), maxOf, expSub
// and scale; rows of a length off the vector width run on those.
func softMaxAVX2(k *kernels) (one func(dst, x, m []float32, s float32) float32, two func(d0, x0, m0, d1, x1, m1 []float32, s float32) (float32, float32)) {
	one = func(dst, x, m []float32, s float32) float32 {
		n := len(dst)
		if n == 0 || n%simdWidth != 0 {
			return k.softMaxSteps(dst, x, m, s)
		}
		xp, mp := softMaxOperands(n, x, m)
		return softMaxRowAVX2(&dst[0], xp, mp, n, s)
	}
	two = func(d0, x0, m0, d1, x1, m1 []float32, s float32) (float32, float32) {
		n := len(d0)
		if len(d1) != n {
			panic("cpu: rowSoftMax2 of rows of different lengths")
		}
		if n == 0 || n%simdWidth != 0 {
			return one(d0, x0, m0, s), one(d1, x1, m1, s)
		}
		xp0, mp0 := softMaxOperands(n, x0, m0)
		xp1, mp1 := softMaxOperands(n, x1, m1)
		return softMaxRows2AVX2(&d0[0], xp0, mp0, &d1[0], xp1, mp1, n, s)
	}
	return one, two
}

//go:noescape
func dotQ4x8x4SIMD(p *byte, qs *int8, qd *float32, neg *int32, nb int, out *float32, ldo int)

//go:noescape
func dotQ8x8x4SIMD(p *byte, qs *int8, qd *float32, nb int, out *float32, ldo int)

func dotQ8x8x4Asm(p []byte, y *q8Rows, n0 int, out []float32, ldo int) {
	if panelBounds(p, y, n0, out, ldo) {
		nb := y.nb
		dotQ8x8x4SIMD(&p[0], &y.qs[n0*nb*rt.QK], &y.d[n0*nb], nb, &out[0], 4*ldo)
	}
}

// panelBounds checks the bounds a panel kernel reads and writes and
// reports whether it has blocks to run; with none it zeroes the results.
func panelBounds(p []byte, y *q8Rows, n0 int, out []float32, ldo int) bool {
	nb := y.nb
	_ = out[3*ldo+7]
	if nb == 0 {
		for c := 0; c < 4; c++ {
			clear(out[c*ldo : c*ldo+8])
		}
		return false
	}
	_ = p[nb*panelBlock-1]
	_, _, _ = y.qs[(n0+4)*nb*rt.QK-1], y.d[(n0+4)*nb-1], y.neg[(n0+4)*nb-1]
	return true
}

func dotQ4x8x4Asm(p []byte, y *q8Rows, n0 int, out []float32, ldo int) {
	if !panelBounds(p, y, n0, out, ldo) {
		return
	}
	nb := y.nb
	dotQ4x8x4SIMD(&p[0], &y.qs[n0*nb*rt.QK], &y.d[n0*nb], &y.neg[n0*nb], nb, &out[0], 4*ldo)
}

//go:noescape
func panelQ8SIMD(w *byte, stride, nb int, p *byte)

//go:noescape
func panelQ4SIMD(w *byte, stride, nb int, p *byte)

func repackQ8Asm(w []byte, stride, nb int, p []byte) {
	if nb > 0 {
		_, _ = w[7*stride+nb*34-1], p[nb*panelBlock-1]
		panelQ8SIMD(&w[0], stride, nb, &p[0])
	}
}

func repackQ4Asm(w []byte, stride, nb int, p []byte) {
	if nb > 0 {
		_, _ = w[7*stride+nb*18-1], p[nb*panelBlock-1]
		panelQ4SIMD(&w[0], stride, nb, &p[0])
	}
}

//go:noescape
func dotF16x4x3SIMD(w *byte, ldw int, x0, x1, x2 *float32, k int, out *float32, ldo int)

//go:noescape
func dotF32x4x3SIMD(w *byte, ldw int, x0, x1, x2 *float32, k int, out *float32, ldo int)

//go:noescape
func gemvF32x4SIMD(w *byte, ldw int, x *float32, k int, out *float32, groups int)

//go:noescape
func dotF32x4x2SIMD(w *byte, ldw int, x0, x1, x2 *float32, k int, out *float32, ldo int)

//go:noescape
func dotF16x4x1SIMD(w *byte, ldw int, x0, x1, x2 *float32, k int, out *float32, ldo int)

//go:noescape
func dotF16x4x2SIMD(w *byte, ldw int, x0, x1, x2 *float32, k int, out *float32, ldo int)

//go:noescape
func dotF16x16AVX2(w *byte, ldw int, xs **float32, n, k int, out *float32, ldo int, groups int)

// shortColumns checks a dotF16x16 call's operands, panicking on shapes it
// does not take, and returns the rows' length and the columns' pointers
// for the assembly.
func shortColumns(w []byte, ldw, rows int, x func(c int) []float32, n int, out []float32, ldo int) (int, [maxShortColumns]*float32) {
	k := len(x(0))
	if n < 1 || n > maxShortColumns || k != 8 && k != 16 || rows < 16 || rows%16 != 0 {
		panic(fmt.Sprintf("cpu: dotF16x16 of %d rows, %d columns of %d elements", rows, n, k))
	}
	_, _ = w[(rows-1)*ldw+2*k-1], out[(n-1)*ldo+rows-1]
	var ptrs [maxShortColumns]*float32
	for c := range n {
		xc := x(c)
		_ = xc[k-1]
		ptrs[c] = &xc[0]
	}
	return k, ptrs
}

// dotF16x16AVX2Go is kernels.dotF16x16 on dotF16x16AVX2, 8 rows a group.
func dotF16x16AVX2Go(w []byte, ldw, rows int, x func(c int) []float32, n int, out []float32, ldo int) {
	k, ptrs := shortColumns(w, ldw, rows, x, n, out, ldo)
	dotF16x16AVX2(&w[0], ldw, &ptrs[0], n, k, &out[0], ldo, rows/8)
}

// dotF16x8x2Asm is kernels.dotF16x8x2 as two calls of the 4-row kernel:
// its sums, in one call for the callers' 8 rows.
func dotF16x8x2Asm(w []byte, ldw int, x0, x1, out []float32, ldo int) {
	dotF16x4Asm(w, ldw, x0, x1, nil, out, ldo)
	dotF16x4Asm(w[4*ldw:], ldw, x0, x1, nil, out[4:], ldo)
}

func dotF16x4Asm(w []byte, ldw int, x0, x1, x2, out []float32, ldo int) {
	k := len(x0)
	ncol := 1
	switch {
	case x2 != nil:
		ncol = 3
	case x1 != nil:
		ncol = 2
	}
	_ = out[(ncol-1)*ldo+3]
	m := k &^ (simdWidth - 1)
	switch {
	case m == 0:
		for c := range ncol {
			clear(out[c*ldo : c*ldo+4])
		}
	case ncol == 3:
		_, _, _, _ = w[3*ldw+2*m-1], x0[m-1], x1[m-1], x2[m-1]
		dotF16x4x3SIMD(&w[0], ldw, &x0[0], &x1[0], &x2[0], m, &out[0], ldo)
	case ncol == 2:
		_, _, _ = w[3*ldw+2*m-1], x0[m-1], x1[m-1]
		dotF16x4x2SIMD(&w[0], ldw, &x0[0], &x1[0], nil, m, &out[0], ldo)
	default:
		_, _ = w[3*ldw+2*m-1], x0[m-1]
		dotF16x4x1SIMD(&w[0], ldw, &x0[0], nil, nil, m, &out[0], ldo)
	}
	if m < k {
		for c := range ncol {
			col := x0
			switch c {
			case 1:
				col = x1
			case 2:
				col = x2
			}
			for r := 0; r < 4; r++ {
				out[c*ldo+r] += dotF16Go(w[r*ldw+2*m:], col[m:k])
			}
		}
	}
}

// gemvF32Asm is kernels.gemvF32 on gemvF32x4SIMD.
func gemvF32Asm(w []byte, ldw int, x, out []float32) {
	k, m := len(x), len(out)
	if m == 0 {
		return
	}
	if k%simdWidth != 0 || m%4 != 0 || k == 0 {
		panic(fmt.Sprintf("cpu: gemvF32 of %d rows of %d", m, k))
	}
	_ = w[(m-1)*ldw+4*k-1]
	gemvF32x4SIMD(&w[0], ldw, &x[0], k, &out[0], m/4)
}

// dotF32x4Asm is dotF16x4Asm for float32 weight rows.
func dotF32x4Asm(w []byte, ldw int, x0, x1, x2, out []float32, ldo int) {
	k := len(x0)
	ncol := 1
	switch {
	case x2 != nil:
		ncol = 3
	case x1 != nil:
		ncol = 2
	}
	_ = out[(ncol-1)*ldo+3]
	m := k &^ (simdWidth - 1)
	switch {
	case m == 0:
		for c := range ncol {
			clear(out[c*ldo : c*ldo+4])
		}
	case x1 == nil:
		_, _ = w[3*ldw+4*m-1], x0[m-1]
		gemvF32x4SIMD(&w[0], ldw, &x0[0], m, &out[0], 1)
	case x2 != nil:
		_, _, _, _ = w[3*ldw+4*m-1], x0[m-1], x1[m-1], x2[m-1]
		dotF32x4x3SIMD(&w[0], ldw, &x0[0], &x1[0], &x2[0], m, &out[0], ldo)
	default:
		_, _, _ = w[3*ldw+4*m-1], x0[m-1], x1[m-1]
		dotF32x4x2SIMD(&w[0], ldw, &x0[0], &x1[0], nil, m, &out[0], ldo)
	}
	for c := m; c < k; c++ { // the tail, element by element
		for r := 0; r < 4; r++ {
			v := math.Float32frombits(binary.LittleEndian.Uint32(w[r*ldw+4*c:]))
			out[r] += v * x0[c]
			if x1 != nil {
				out[ldo+r] += v * x1[c]
			}
			if x2 != nil {
				out[2*ldo+r] += v * x2[c]
			}
		}
	}
}

//go:noescape
func dotQ8RowsSIMD(w *byte, ldw int, qs *int8, qd *float32, nb int, out *float32, rows int)

// dotQ8RowsAsm is kernels.dotQ8Rows on dotQ8RowsSIMD.
func dotQ8RowsAsm(w []byte, ldw int, y q8Row, out []float32) {
	nb, rows := y.blocks(), len(out)
	if rows == 0 {
		return
	}
	if nb == 0 {
		clear(out)
		return
	}
	_, _, _ = w[(rows-1)*ldw+nb*34-1], y.qs[nb*rt.QK-1], y.d[nb-1]
	dotQ8RowsSIMD(&w[0], ldw, &y.qs[0], &y.d[0], nb, &out[0], rows)
}

//go:noescape
func dotQ4R8SIMD(p *byte, qs *int8, qd *float32, neg *int32, nb int, out *float32, groups int)

// r8Dot wraps an assembly form of dotQ4R8Go: it checks the bounds the
// kernel reads and writes, and gives zeros for no blocks.
func r8Dot(kernel func(p *byte, qs *int8, qd *float32, neg *int32, nb int, out *float32, groups int)) func([]byte, q8Row, []float32) {
	return func(p []byte, y q8Row, out []float32) {
		nb, groups := len(y.d), len(out)/8
		if groups == 0 {
			return
		}
		if nb == 0 {
			clear(out[:8*groups])
			return
		}
		_, _, _, _ = p[groups*nb*r8Block-1], y.qs[nb*rt.QK-1], y.neg[nb-1], out[8*groups-1]
		kernel(&p[0], &y.qs[0], &y.d[0], &y.neg[0], nb, &out[0], groups)
	}
}
