//go:build amd64 && !purego

package cpu

import (
	"encoding/binary"
	"math"
	"os"
	"strings"
	"unsafe"
)

// hasAVX512 reports whether the CPU and the OS support the AVX-512 subsets
// the avx512 kernels use: F, BW, DQ and VL (CPUID leaf 7 EBX) and VNNI
// (ECX), with XCR0 saying the OS saves the opmask and all 32 ZMM
// registers as well as the XMM/YMM state.
func hasAVX512() bool {
	if !hasAVX2() {
		return false
	}
	_, b7, c7, _ := cpuidex(7, 0)
	const f, dq, bw, vl = 1 << 16, 1 << 17, 1 << 30, 1 << 31
	const vnni = 1 << 11
	if b7&(f|dq|bw|vl) != f|dq|bw|vl || c7&vnni == 0 {
		return false
	}
	const xmmYmm, opmaskZmm = 0x06, 0xe0
	xcr0, _ := xgetbv0()
	return xcr0&(xmmYmm|opmaskZmm) == xmmYmm|opmaskZmm
}

// avx512Kernels is the AVX-512 set, or nil when the CPU lacks it: the AVX2
// set with the kernels of kquants512_amd64.s in place of their AVX2 forms.
var avx512Kernels = func() *kernels {
	if avx2Kernels == nil || !hasAVX512() {
		return nil
	}
	k := *avx2Kernels
	k.name = "avx512"
	k.gemm, k.gemmRows = gemmAVX512, gemmRowsFor(gemm6x16StridedAVX512)
	k.dotF16x4, k.dotF32x4 = dotF16x4AVX512, dotF32x4AVX512
	k.dotF16x16 = dotF16x16Go
	k.dotF16x8x2 = dotF16x8x2Go
	k.dotF32x4c4 = dotF32x4c4AVX512
	k.thinF32c4 = thinF32c4AVX512
	k.thinF32c2 = nil // the AVX2 kernel's bits are not dotF32x4AVX512's
	// F16 weights take the ZMM tile on float32 panels: twice the AVX2 f16
	// tile's width, whose bits also differ.
	k.packF16, k.gemmF16 = nil, nil
	// Its ZMM tile serves the edge panels and the runs of panels as before.
	k.gemmRows4, k.gemmF16Rows4 = nil, nil
	k.gemmRowsRun, k.gemmF16RowsRun = nil, nil
	k.dotQ8x4 = blockDot4(34, dotQ8x4AVX512)
	k.dotQ4K = blockDotK(144, dotQ4KAVX512)
	k.dotQ4KRows = blockDotKRows(144, dotQ4KRowsAVX512)
	k.dotQ6KRows = blockDotKRows(210, dotQ6KRowsAVX512)
	k.dotQ5KRows = blockDotKRows(176, dotQ5KRowsAVX512)
	k.dotQ3KRows = blockDotKRows(110, dotQ3KRowsAVX512)
	k.dotQ2KRows = blockDotKRows(84, dotQ2KRowsAVX512)
	k.dotQ4Kx4 = blockDotK4(144, dotQ4Kx4AVX512)
	k.dotQ5K = blockDotK(176, dotQ5KAVX512)
	k.dotQ5Kx4 = blockDotK4(176, dotQ5Kx4AVX512)
	k.dotQ6K = blockDotK(210, dotQ6KAVX512)
	k.dotQ6Kx4 = blockDotK4(210, dotQ6Kx4AVX512)
	k.dotQ2K = blockDotK(84, dotQ2KAVX512)
	k.dotQ2Kx4 = blockDotK4(84, dotQ2Kx4AVX512)
	k.dotQ3K = blockDotK(110, dotQ3KAVX512)
	k.dotQ3Kx4 = blockDotK4(110, dotQ3Kx4AVX512)
	k.dotIQ4XS = blockDotK(136, dotIQ4XSAVX512)
	k.dotIQ4XSx4 = blockDotK4(136, dotIQ4XSx4AVX512)
	k.dotIQ4XSR = repackedDot(iq4PairBytes, 2, dotIQ4XSRAVX512)
	k.dotQ4KRRows = kRepackedRows(q4kPairBytes, 2, dotQ4KRRowsAVX512)
	k.dotQ5KRRows = kRepackedRows(q5kPairBytes, 2, dotQ5KRRowsAVX512)
	k.dotQ2KRRows = kRepackedRows(q2kBlockBytes, 1, dotQ2KRRowsAVX512)
	k.dotQ3KRRows = kRepackedRows(q3kBlockBytes, 1, dotQ3KRRowsAVX512)
	k.dotTQRRows = kRepackedRows(tqBlockBytes, 1, dotTQRRowsAVX512)
	k.dotQ4_1 = blockDotNeg(20, dotQ4_1AVX512)
	k.dotQ5_1 = blockDotNeg(24, dotQ5_1AVX512)
	k.dotQ5_0 = blockDotNeg(22, dotQ5_0AVX512)
	k.dotIQ4NL = blockDotNeg(18, dotIQ4NLAVX512)
	k.dotQ4R8 = r8Dot(dotQ4R8AVX512)
	k.dotMXFP4 = blockDotNeg(17, dotMXFP4AVX512)
	k.dotMXFP4R = repackedDot(mxGroupBytes, 16, dotMXFP4RAVX512)
	k.dotIQ4NLR = repackedDot(nlGroupBytes, 16, dotIQ4NLRAVX512)
	k.dotQ4_1R = repackedDot(q41GroupBytes, 16, dotQ4_1RAVX512)
	k.dotQ5_0R = repackedDot(q5GroupBytes, 16, dotQ5_0RAVX512)
	k.dotQ5_1R = repackedDot(q5GroupBytes, 16, dotQ5_1RAVX512)
	k.expSub, k.rowSoftMax = expSub512, softMaxRow512
	k.rowSoftMax2 = softMaxRowPair512
	useTernaryAVX512(&k)
	return &k
}()

// simdKernels is the best set this CPU runs, capped by GPURT_CPU_LEVEL (any
// case).
var simdKernels = selectAMD64(strings.ToLower(os.Getenv(cpuLevelEnv)), avx2Kernels, avx512Kernels)

// selectAMD64 picks the set for level ("" or "avx512": the best there is;
// "avx2": at most AVX2; "go": none, so the portable kernels run) from
// the sets the CPU has (nil where it lacks one). An unknown level counts as
// "" (CheckLevelEnv reports it): the device description names the set that
// runs.
func selectAMD64(level string, avx2, avx512 *kernels) *kernels {
	switch level {
	case "go":
		return nil
	case "avx2":
		return avx2
	}
	if avx512 != nil {
		return avx512
	}
	return avx2
}

//go:noescape
func dotQ4KRowsAVX512(w *byte, ldw int, qs *int8, qd *float32, bsums *int16, nb int, out *float32, rows int)

// dotQ4KAVX512 is one row of dotQ4KRowsAVX512.
func dotQ4KAVX512(w *byte, qs *int8, qd *float32, bsums *int16, nb int) float32 {
	var r float32
	dotQ4KRowsAVX512(w, 0, qs, qd, bsums, nb, &r, 1)
	return r
}

//go:noescape
func dotQ5KRowsAVX512(w *byte, ldw int, qs *int8, qd *float32, bsums *int16, nb int, out *float32, rows int)

// dotQ5KAVX512 is one row of dotQ5KRowsAVX512.
func dotQ5KAVX512(w *byte, qs *int8, qd *float32, bsums *int16, nb int) float32 {
	var r float32
	dotQ5KRowsAVX512(w, 0, qs, qd, bsums, nb, &r, 1)
	return r
}

//go:noescape
func dotQ6KRowsAVX512(w *byte, ldw int, qs *int8, qd *float32, bsums *int16, nb int, out *float32, rows int)

// dotQ6KAVX512 is one row of dotQ6KRowsAVX512.
func dotQ6KAVX512(w *byte, qs *int8, qd *float32, bsums *int16, nb int) float32 {
	var r float32
	dotQ6KRowsAVX512(w, 0, qs, qd, bsums, nb, &r, 1)
	return r
}

//go:noescape
func dotQ2KRowsAVX512(w *byte, ldw int, qs *int8, qd *float32, bsums *int16, nb int, out *float32, rows int)

// dotQ2KAVX512 is one row of dotQ2KRowsAVX512.
func dotQ2KAVX512(w *byte, qs *int8, qd *float32, bsums *int16, nb int) float32 {
	var r float32
	dotQ2KRowsAVX512(w, 0, qs, qd, bsums, nb, &r, 1)
	return r
}

//go:noescape
func dotQ3KRowsAVX512(w *byte, ldw int, qs *int8, qd *float32, bsums *int16, nb int, out *float32, rows int)

// dotQ3KAVX512 is one row of dotQ3KRowsAVX512.
func dotQ3KAVX512(w *byte, qs *int8, qd *float32, bsums *int16, nb int) float32 {
	var r float32
	dotQ3KRowsAVX512(w, 0, qs, qd, bsums, nb, &r, 1)
	return r
}

//go:noescape
func dotIQ4XSAVX512(w *byte, qs *int8, qd *float32, bsums *int16, nb int) float32

// The 32-value block kernels take the Q8 activations' negated block sums
// (neg), as their AVX2 forms do.

//go:noescape
func dotQ4_1AVX512(w *byte, qs *int8, qd *float32, neg *int32, nb int) float32

//go:noescape
func dotQ5_1AVX512(w *byte, qs *int8, qd *float32, neg *int32, nb int) float32

//go:noescape
func dotQ5_0AVX512(w *byte, qs *int8, qd *float32, neg *int32, nb int) float32

//go:noescape
func dotIQ4NLAVX512(w *byte, qs *int8, qd *float32, neg *int32, nb int) float32

// gemmAVX512 is gemmAsm on the ZMM tile kernel.
func gemmAVX512(k int, a, b, c []float32, ldc int, add bool) {
	_, _ = a[:k*gemmMR], b[:k*gemmNR]
	_ = c[(gemmMR-1)*ldc+gemmNR-1]
	// SliceData: with k == 0 the panels may be empty.
	gemm6x16StridedAVX512(k, unsafe.SliceData(a), 4, 4*gemmMR, unsafe.SliceData(b), &c[0], ldc, addFlag(add))
}

// dotQ8x4AVX512 multiplies unsigned (offset) quants, so it takes the
// activations' negated block sums.
//
//go:noescape
func dotQ8x4AVX512(w *byte, stride int, qs *int8, qd *float32, neg *int32, nb int, out *float32)

//go:noescape
func dotQ4Kx4AVX512(w *byte, qs *int8, qd *float32, bsums *int16, nb int, out *float32)

//go:noescape
func dotQ6Kx4AVX512(w *byte, qs *int8, qd *float32, bsums *int16, nb int, out *float32)

//go:noescape
func dotQ5Kx4AVX512(w *byte, qs *int8, qd *float32, bsums *int16, nb int, out *float32)

//go:noescape
func dotQ2Kx4AVX512(w *byte, qs *int8, qd *float32, bsums *int16, nb int, out *float32)

//go:noescape
func dotQ3Kx4AVX512(w *byte, qs *int8, qd *float32, bsums *int16, nb int, out *float32)

//go:noescape
func dotIQ4XSx4AVX512(w *byte, qs *int8, qd *float32, bsums *int16, nb int, out *float32)

// The 4-row tile kernels for 2 and 3 columns take k > 0, a multiple of 8,
// as their AVX2 forms do.

//go:noescape
func dotF16x4x3AVX512(w *byte, ldw int, x0, x1, x2 *float32, k int, out *float32, ldo int)

//go:noescape
func dotF16x4x2AVX512(w *byte, ldw int, x0, x1, x2 *float32, k int, out *float32, ldo int)

//go:noescape
func dotF32x4x3AVX512(w *byte, ldw int, x0, x1, x2 *float32, k int, out *float32, ldo int)

//go:noescape
func dotF32x4x2AVX512(w *byte, ldw int, x0, x1, x2 *float32, k int, out *float32, ldo int)

//go:noescape
func dotF16x16AVX512(w *byte, ldw int, xs **float32, n, k int, out *float32, ldo int, idx *uint16, blocks int)

// f16x16Index is the word permutations dotF16x16AVX512 transposes 16
// rows of 8 f16 elements with, 32 words each. The rows come in four
// registers of 4 rows (word 8r+d is element d of row r):
//   - [0:32] and [32:64] take elements 0-3 and 4-7 of 8 rows from two
//     such registers (word 8d+r, r < 8);
//   - [64:96] and [96:128] take elements 0-1 and 2-3 of 16 rows from two
//     of those (word 16d+r): each 256-bit half then holds one element of
//     the 16 rows.
var f16x16Index = func() (idx [128]uint16) {
	// from is table t (0 or 1) of VPERMI2W, word i.
	from := func(t, i int) uint16 { return uint16(32*t + i) }
	for j := range 32 {
		d, r := j/8, j%8
		idx[j] = from(r/4, 8*(r%4)+d)
		idx[32+j] = from(r/4, 8*(r%4)+d+4)
		d, r = j/16, j%16
		idx[64+j] = from(r/8, 8*d+r%8)
		idx[96+j] = from(r/8, 8*(d+2)+r%8)
	}
	return idx
}()

// dotF16x16Go is kernels.dotF16x16 on dotF16x16AVX512.
func dotF16x16Go(w []byte, ldw, rows int, x func(c int) []float32, n int, out []float32, ldo int) {
	k, ptrs := shortColumns(w, ldw, rows, x, n, out, ldo)
	dotF16x16AVX512(&w[0], ldw, &ptrs[0], n, k, &out[0], ldo, &f16x16Index[0], rows/16)
}

//go:noescape
func dotF16x8x2AVX512(w *byte, ldw int, x0, x1 *float32, k int, out *float32, ldo int)

// dotF16x8x2Go is kernels.dotF16x8x2 on dotF16x8x2AVX512, with
// dotF16x4AVX512's tail for rows of k%8 != 0 elements past the last 8.
func dotF16x8x2Go(w []byte, ldw int, x0, x1, out []float32, ldo int) {
	k := len(x0)
	m := k &^ (simdWidth - 1)
	if m == 0 {
		dotF16x4AVX512(w, ldw, x0, x1, nil, out, ldo)
		dotF16x4AVX512(w[4*ldw:], ldw, x0, x1, nil, out[4:], ldo)
		return
	}
	_, _, _, _ = out[ldo+7], w[7*ldw+2*m-1], x0[m-1], x1[m-1]
	dotF16x8x2AVX512(&w[0], ldw, &x0[0], &x1[0], m, &out[0], ldo)
	cols := [2][]float32{x0, x1}
	for c := 0; c < 2 && m < k; c++ {
		for r := 0; r < 8; r++ {
			out[c*ldo+r] += dotF16Go(w[r*ldw+2*m:], cols[c][m:k])
		}
	}
}

// dotF16x4AVX512 is dotF16x4Asm on the ZMM tile kernels; one column, and
// rows shorter than 8, stay on dotF16x4Asm.
func dotF16x4AVX512(w []byte, ldw int, x0, x1, x2, out []float32, ldo int) {
	k := len(x0)
	m := k &^ (simdWidth - 1)
	if x1 == nil || m == 0 {
		dotF16x4Asm(w, ldw, x0, x1, x2, out, ldo)
		return
	}
	cols := [3][]float32{x0, x1, x2}
	ncol := 2
	if x2 != nil {
		ncol = 3
	}
	_ = out[(ncol-1)*ldo+3]
	if ncol == 3 {
		_, _, _, _ = w[3*ldw+2*m-1], x0[m-1], x1[m-1], x2[m-1]
		dotF16x4x3AVX512(&w[0], ldw, &x0[0], &x1[0], &x2[0], m, &out[0], ldo)
	} else {
		_, _, _ = w[3*ldw+2*m-1], x0[m-1], x1[m-1]
		dotF16x4x2AVX512(&w[0], ldw, &x0[0], &x1[0], nil, m, &out[0], ldo)
	}
	for c := 0; c < ncol && m < k; c++ {
		for r := 0; r < 4; r++ {
			out[c*ldo+r] += dotF16Go(w[r*ldw+2*m:], cols[c][m:k])
		}
	}
}

// dotF32x4AVX512 is dotF32x4Asm on the ZMM tile kernels; one column
// stays on dotF32x4Asm.
func dotF32x4AVX512(w []byte, ldw int, x0, x1, x2, out []float32, ldo int) {
	k := len(x0)
	m := k &^ (simdWidth - 1)
	if x1 == nil || m == 0 {
		dotF32x4Asm(w, ldw, x0, x1, x2, out, ldo)
		return
	}
	cols := [3][]float32{x0, x1, x2}
	ncol := 2
	if x2 != nil {
		ncol = 3
	}
	_ = out[(ncol-1)*ldo+3]
	if ncol == 3 {
		_, _, _, _ = w[3*ldw+4*m-1], x0[m-1], x1[m-1], x2[m-1]
		dotF32x4x3AVX512(&w[0], ldw, &x0[0], &x1[0], &x2[0], m, &out[0], ldo)
	} else {
		_, _, _ = w[3*ldw+4*m-1], x0[m-1], x1[m-1]
		dotF32x4x2AVX512(&w[0], ldw, &x0[0], &x1[0], nil, m, &out[0], ldo)
	}
	for i := m; i < k; i++ { // the tail, element by element
		for r := 0; r < 4; r++ {
			v := math.Float32frombits(binary.LittleEndian.Uint32(w[r*ldw+4*i:]))
			for c := 0; c < ncol; c++ {
				out[c*ldo+r] += v * cols[c][i]
			}
		}
	}
}

//go:noescape
func dotQ4R8AVX512(p *byte, qs *int8, qd *float32, neg *int32, nb int, out *float32, groups int)

//go:noescape
func dotMXFP4AVX512(w *byte, qs *int8, qd *float32, neg *int32, nb int) float32

//go:noescape
func thinF32x4c4AVX512(w *byte, ldw int, x0, x1, x2, x3 *float32, k int, out *float32, ldo int, groups int)

// thinF32c4AVX512 is kernels.thinF32c4 on thinF32x4c4AVX512.
func thinF32c4AVX512(w []byte, ldw int, x [4][]float32, out []float32, ldo, m int) {
	thinF32c4Run(thinF32x4c4AVX512, w, ldw, x, out, ldo, m)
}

// dotF32x4c4AVX512 is the 4×4 f32 tile: dotF32x4AVX512 for columns 0-1
// and 2-3 in one pass over the weights.
func dotF32x4c4AVX512(w []byte, ldw int, x0, x1, x2, x3, out []float32, ldo int) {
	dotF32x4c4Run(thinF32x4c4AVX512, dotF32x4AVX512, w, ldw, x0, x1, x2, x3, out, ldo)
}

//go:noescape
func dotIQ4XSRAVX512(p *byte, qs *int8, sums *int32, d *float32, np int) float32

// repackedDot wraps a repacked row's dot kernel whose groups of 512
// weights (unitBytes each) take perUnit of the activations' scales,
// checking the bounds it relies on.
func repackedDot(unitBytes, perUnit int, kernel func(p *byte, qs *int8, sums *int32, d *float32, n int) float32) func(p []byte, a *iq4Act) float32 {
	return func(p []byte, a *iq4Act) float32 {
		n := len(a.d) / perUnit
		if n == 0 {
			return 0
		}
		_, _, _ = p[n*unitBytes-1], a.qs[n*512-1], a.sums[n*16-1]
		return kernel(&p[0], &a.qs[0], &a.sums[0], &a.d[0], n)
	}
}

//go:noescape
func dotQ4KRRowsAVX512(p *byte, ldp int, qs *int8, sums *int32, d *float32, np int, out *float32, rows int)

//go:noescape
func dotQ5KRRowsAVX512(p *byte, ldp int, qs *int8, sums *int32, d *float32, np int, out *float32, rows int)

//go:noescape
func dotQ2KRRowsAVX512(p *byte, ldp int, qs *int8, sums *int32, d *float32, nb int, out *float32, rows int)

//go:noescape
func dotQ3KRRowsAVX512(p *byte, ldp int, qs *int8, sums *int32, d *float32, nb int, out *float32, rows int)

//go:noescape
func dotTQRRowsAVX512(p *byte, ldp int, qs *int8, sums *int32, d *float32, nb int, out *float32, rows int)

// kRepackedRows wraps a repacked K-quant rows kernel whose units (pairs of
// super-blocks, or super-blocks) of unitBytes each take perUnit of the
// activations' scales, checking the bounds it relies on.
func kRepackedRows(unitBytes, perUnit int, kernel func(p *byte, ldp int, qs *int8, sums *int32, d *float32, np int, out *float32, rows int)) func(p []byte, ldp int, a *iq4Act, out []float32) {
	return func(p []byte, ldp int, a *iq4Act, out []float32) {
		kRepackedRowsRun(unitBytes, perUnit, kernel, p, ldp, a, out)
	}
}

// kRepackedRowsRun is a call of the function kRepackedRows returns.
func kRepackedRowsRun(unitBytes, perUnit int, kernel func(p *byte, ldp int, qs *int8, sums *int32, d *float32, np int, out *float32, rows int), p []byte, ldp int, a *iq4Act, out []float32) {
	np := len(a.d) / perUnit
	if np == 0 {
		clear(out)
		return
	}
	if len(out) == 0 {
		return
	}
	_, _, _ = p[(len(out)-1)*ldp+np*unitBytes-1], a.qs[np*perUnit*256-1], a.sums[np*16-1]
	kernel(&p[0], ldp, &a.qs[0], &a.sums[0], &a.d[0], np, &out[0], len(out))
}

//go:noescape
func dotMXFP4RAVX512(p *byte, qs *int8, sums *int32, d *float32, ng int) float32

//go:noescape
func dotIQ4NLRAVX512(p *byte, qs *int8, sums *int32, d *float32, ng int) float32

//go:noescape
func dotQ4_1RAVX512(p *byte, qs *int8, sums *int32, d *float32, ng int) float32

//go:noescape
func dotQ5_0RAVX512(p *byte, qs *int8, sums *int32, d *float32, ng int) float32

//go:noescape
func dotQ5_1RAVX512(p *byte, qs *int8, sums *int32, d *float32, ng int) float32
