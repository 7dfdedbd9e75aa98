package cpu

import (
	"encoding/binary"
	"math"

	rt "github.com/gpurt/gpurt/runtime"
)

// kernels are the inner loops the fast op paths are built on. goKernels is
// the portable set, correct on every machine; simdKernels replaces its
// members with assembly: AVX2/FMA/F16C on amd64 CPUs that have them
// (kernels_amd64.go), NEON on every arm64 CPU (kernels_arm64.go), both
// behind one set of Go wrappers (kernels_asm.go).
// Every kernel takes slices and checks nothing beyond what its doc says:
// callers pass matching lengths.
type kernels struct {
	name string

	// dotF32 is Σ a[i]·b[i] over len(a) elements (len(b) >= len(a)).
	dotF32 func(a, b []float32) float32
	// dotF16 is Σ half(w[2i:])·x[i] over len(x) elements.
	dotF16 func(w []byte, x []float32) float32
	// dotQ8 and dotQ4 multiply y.blocks() Q8_0 or Q4_0 weight blocks with
	// a row of Q8 activations in integers, scaling each block's integer sum
	// by both scales, as ggml does. The x4 forms do four weight rows, the
	// first at w[0] and the others stride bytes apart.
	dotQ8, dotQ4     func(w []byte, y q8Row) float32
	dotQ8x4, dotQ4x4 func(w []byte, stride int, y q8Row, out *[4]float32)
	// dotQ8x8x4 and dotQ4x8x4 are optional: 8 Q8_0 or Q4_0 weight rows
	// repacked by panelQ8 or panelQ4 times activation rows y.row(n0+c),
	// c < 4, into out[c*ldo:c*ldo+8].
	dotQ8x8x4, dotQ4x8x4 func(p []byte, y *q8Rows, n0 int, out []float32, ldo int)
	// dotQ8Rows is optional: dotQ8 for len(out) weight rows ldw bytes
	// apart in one call, as the K-quant Rows dots (Q8_0 GEMVs streamed from
	// DRAM, which run a row at a time).
	dotQ8Rows func(w []byte, ldw int, y q8Row, out []float32)
	// dotQ4R8 is optional: len(out)/8 groups of 8 Q4_0 weight rows, each
	// repacked by repackQ4R8 and one after another in p, times the
	// activation row y, into out[8g:8g+8] for group g (repack.go).
	dotQ4R8 func(p []byte, y q8Row, out []float32)
	// dotF16x4 is optional: 4 f16 weight rows, the first at w[0] and the
	// others ldw bytes apart, times the columns x0 and, unless they are
	// nil, x1 and x2 (x2 only with x1), each of len(x0) floats, into
	// out[c*ldo+r] for row r and column c; each weight element is
	// converted once for all the columns.
	dotF16x4 func(w []byte, ldw int, x0, x1, x2, out []float32, ldo int)
	// dotF16x16 is optional: rows (a multiple of 16) f16 weight rows of
	// len(x(0)) = 8 or 16 elements (short attention heads' keys), the
	// first at w[0] and the others ldw bytes apart, times the columns
	// x(c), c < n <= maxShortColumns, into out[c*ldo+r] for row r and
	// column c.
	dotF16x16 func(w []byte, ldw, rows int, x func(c int) []float32, n int, out []float32, ldo int)
	// dotF16x8x2 is optional: dotF16x4 for 8 rows and the two columns
	// x0 and x1, with the same sums.
	dotF16x8x2 func(w []byte, ldw int, x0, x1, out []float32, ldo int)
	// dotF32x4 is optional: dotF16x4 for float32 weight rows.
	dotF32x4 func(w []byte, ldw int, x0, x1, x2, out []float32, ldo int)
	// gemvF32 is optional: out[r] = Σ row r · x for len(out) float32
	// weight rows (a multiple of 4), the first at w[0] and the others ldw
	// bytes apart, of len(x) elements (a multiple of simdWidth): a GEMV in
	// one call, for the short rows of small models, where a call per
	// 4-row tile costs as much as its loads.
	gemvF32 func(w []byte, ldw int, x, out []float32)
	// thinF32c4 is optional: gemvF32 for m rows against the four columns
	// x[c], into out[c*ldo+r].
	thinF32c4 func(w []byte, ldw int, x [4][]float32, out []float32, ldo, m int)
	// thinF32c2 is optional: thinF32c4 for the two columns x[0] and x[1],
	// with the results of dotF32x4 against them.
	thinF32c2 func(w []byte, ldw int, x [4][]float32, out []float32, ldo, m int)
	// dotF32x4c4 is optional: dotF32x4 against four columns x0..x3 at
	// once, with the results dotF32x4 gives for two and two.
	dotF32x4c4 func(w []byte, ldw int, x0, x1, x2, x3, out []float32, ldo int)
	// repackQ8 and repackQ4 do what panelQ8 and panelQ4 do; present with
	// the panel kernels.
	repackQ8, repackQ4 func(w []byte, stride, nb int, p []byte)
	// The dots of the other quantized weight types (kquants.go) multiply
	// y.blocks() weight blocks with a row of activations of the type's
	// vec_dot_type in integers, as ggml does: Q8_K for the K-quants,
	// IQ4_XS and the ternary types, Q8_0 for Q5_0, IQ4_NL and MXFP4, Q8_1
	// (Q8_0 with the block sums -neg) for Q4_1 and Q5_1.
	dotQ2K, dotQ3K, dotQ4K, dotQ5K, dotQ6K, dotIQ4XS, dotTQ1, dotTQ2 func(w []byte, y q8KRow) float32
	dotQ4_1, dotQ5_0, dotQ5_1, dotIQ4NL, dotMXFP4                    func(w []byte, y q8Row) float32
	// The x4 K-quant, IQ4_XS and ternary dots are optional: one weight row
	// times the Q8_K activation rows y.row(r0+c), c < 4, into out[c],
	// unpacking each weight block once for the four.
	dotQ2Kx4, dotQ3Kx4, dotQ4Kx4, dotQ5Kx4, dotQ6Kx4, dotIQ4XSx4 func(w []byte, y *q8KRows, r0 int, out *[4]float32)
	dotTQ1x4, dotTQ2x4                                           func(w []byte, y *q8KRows, r0 int, out *[4]float32)
	// The K-quant Rows dots are optional: dotQ2K … dotQ6K for len(out)
	// weight rows ldw bytes apart in one call, so that a GEMV pays the
	// kernel's set-up once a block of rows rather than once a row (22 %
	// of a 1024-wide Q4_K row).
	dotQ2KRows, dotQ3KRows, dotQ4KRows, dotQ5KRows, dotQ6KRows func(w []byte, ldw int, y q8KRow, out []float32)
	// dotIQ4XSR is optional: an IQ4_XS row repacked by repackIQ4XS times
	// activations rearranged by iq4Act.set (repack_iq4.go).
	dotIQ4XSR func(p []byte, a *iq4Act) float32
	// dotMXFP4R is optional: an MXFP4 row repacked by repackMXFP4 times
	// activations rearranged by iq4Act.setBlocks (repack_iq4.go).
	dotMXFP4R func(p []byte, a *iq4Act) float32
	// dotIQ4NLR is optional: an IQ4_NL row repacked by repackIQ4NL times
	// activations rearranged by iq4Act.setBlocks (repack_iq4.go).
	dotIQ4NLR func(p []byte, a *iq4Act) float32
	// dotQ4_1R, dotQ5_0R and dotQ5_1R are optional: rows repacked by
	// repackQ4_1, repackQ5_0 or repackQ5_1 times activations rearranged
	// by setBlocks.
	dotQ4_1R, dotQ5_0R, dotQ5_1R func(p []byte, a *iq4Act) float32
	// dotQ4KRRows is optional: len(out) Q4_K rows repacked by repackQ4K,
	// ldp bytes apart, times activations rearranged by iq4Act.set
	// (repack_kquants.go).
	dotQ4KRRows func(p []byte, ldp int, a *iq4Act, out []float32)
	// dotQ5KRRows is dotQ4KRRows for Q5_K rows repacked by repackQ5K.
	dotQ5KRRows func(p []byte, ldp int, a *iq4Act, out []float32)
	// dotQ2KRRows and dotQ3KRRows are optional: Q2_K or Q3_K rows repacked
	// by repackQ2K or repackQ3K times activations rearranged by
	// iq4Act.setSub16.
	dotQ2KRRows, dotQ3KRRows func(p []byte, ldp int, a *iq4Act, out []float32)
	// dotTQRRows is optional: TQ1_0 or TQ2_0 rows repacked by repackTQ1
	// or repackTQ2, tqRowBytes apart, times activations rearranged by
	// iq4Act.setSub16.
	dotTQRRows func(p []byte, ldp int, a *iq4Act, out []float32)
	// quantizeQ8K quantizes y.blocks()·256 values of x to Q8_K as ggml's
	// quantize_row_q8_K_ref does.
	quantizeQ8K func(x []float32, y q8KRow)
	// f16ToF32 converts len(dst) halves; f32ToF16 converts len(src) floats,
	// rounding to nearest even.
	f16ToF32 func(src []byte, dst []float32)
	f32ToF16 func(src []float32, dst []byte)
	// dequantQ8 and dequantQ4 decode len(dst)/32 Q8_0 or Q4_0 blocks.
	dequantQ8, dequantQ4 func(src []byte, dst []float32)
	// quantQ8 encodes len(src)/32 blocks as Q8_0 into dst exactly as
	// runtime.QuantizeRow does, and, unless sums is nil, each block's sum of
	// quants into sums.
	quantQ8 func(src []float32, dst []byte, sums []int32)
	// transpose8 packs 8 rows of kc floats, stride floats apart from the
	// start of src, transposed into dst: dst[k*ldd+r] = src[r*stride+k].
	transpose8 func(dst []float32, ldd int, src []float32, stride, kc int)
	// transpose8F16 is optional: transpose8 for 8 rows of kc halves,
	// stride bytes apart, converted to float32 as they are packed.
	transpose8F16 func(dst []float32, ldd int, src []byte, stride, kc int)
	// packF16 is optional, with gemmF16: it packs gemmNR rows of kc
	// halves, stride bytes apart, into b as gemmF16 reads them, half k of
	// row r at b[2*(k*gemmNR+r)].
	packF16 func(b, src []byte, stride, kc int)
	// prefetchRows is optional: it starts fetching n bytes from address p
	// in each of rows rows, stride bytes apart, into the caches (p need not
	// be valid: a prefetch never faults).
	prefetchRows func(p uintptr, stride, rows, n int)
	// gemmF16 is optional: gemm on packF16's f16 weight panels, converted
	// as they are loaded, with x value (i, k) at x[i*rs+k*ks]: a packed
	// panel (rs 1, ks gemmMR) or x rows read in place (rs their stride, ks
	// 1). It gives gemm's bits on the panels converted to float32.
	gemmF16 func(k int, x []float32, rs, ks int, b []byte, c []float32, ldc int, add bool)
	// gemm computes a gemmMR×gemmNR tile of C (row stride ldc floats) from k
	// steps of packed panels: a[k*gemmMR+i] and b[k*gemmNR+j]. With add it
	// adds to C, else it overwrites C.
	gemm func(k int, a, b, c []float32, ldc int, add bool)
	// gemmRows, where a set has it, is gemm with the gemmMR rows of x read
	// in place, ldx floats apart (x[i*ldx+k]), with the same results: no
	// packed x panel.
	gemmRows func(k int, x []float32, ldx int, b, c []float32, ldc int, add bool)
	// gemmRows4 and gemmF16Rows4 are optional: gemmRows and gemmF16 (x
	// rows read in place) for 4 x rows, each row's results the 6-row
	// tile's, for the last rows of a product of 6a+4 or 6a+8 x rows (the
	// edge panel would compute 2 or 4 rows of zeros).
	gemmRows4    func(k int, x []float32, ldx int, b, c []float32, ldc int, add bool)
	gemmF16Rows4 func(k int, x []float32, ldx int, b []byte, c []float32, ldc int, add bool)
	// gemmRowsRun and gemmF16RowsRun are optional: gemmRows and gemmF16
	// (x rows read in place) over n consecutive 6-row panels against one
	// weight panel in one call, panel p's x rows from x[p*gemmMR*ldx] and
	// its C tile at c[p*gemmMR*ldc]: the same tiles, so the same bits,
	// without a call from Go for each (5 % of an F16 prompt went to them).
	gemmRowsRun    func(k int, x []float32, ldx, n int, b, c []float32, ldc int, add bool)
	gemmF16RowsRun func(k int, x []float32, ldx, n int, b []byte, c []float32, ldc int, add bool)

	// Elementwise, over len(dst) elements (sources at least as long).
	add, mul func(dst, a, b []float32)
	scale    func(dst, x []float32, s float32)         // dst = x·s
	scaleAdd func(dst, x, m []float32, s float32)      // dst = x·s + m
	sumSq    func(x []float32) float32                 // Σ x²
	maxOf    func(x []float32) float32                 // max, -Inf for none
	expSub   func(dst, x []float32, m float32) float32 // dst = exp(x-m); returns Σ dst
	silu     func(dst, x []float32)                    // dst = x/(1+exp(-x))
	// ropeNorm rotates adjacent pairs: dst = x·cs + swap(x)·sn, with cs
	// holding (cos, cos) and sn (-sin, sin) per pair.
	ropeNorm func(dst, x, cs, sn []float32)
	// ropeNeox rotates (x0[i], x1[i]) by (c[i], s[i]) into (d0[i], d1[i]).
	ropeNeox func(d0, d1, x0, x1, c, s []float32)
	// rowSoftMax, where a set has it, is a row's whole softmax in one
	// call: dst = exp(v - max v)/Σ for v = x·s + m (m nil: no mask),
	// returning Σ, or 0 for a row masked whole (dst then undefined).
	rowSoftMax func(dst, x, m []float32, s float32) float32
	// rowSoftMax2 is optional: rowSoftMax on two rows of one length at
	// once, with the same bits.
	rowSoftMax2 func(d0, x0, m0, d1, x1, m1 []float32, s float32) (float32, float32)
}

// Packed GEMM micro-tile: gemmMR rows of src1 (result rows n) by gemmNR
// rows of src0 (result columns m).
const (
	gemmMR = 6
	gemmNR = 16
)

var goKernels = &kernels{
	name:        "go",
	dotF32:      dot,
	dotF16:      dotF16Go,
	dotQ8:       dotQ8Go,
	dotQ4:       dotQ4Go,
	dotQ8x4:     func(w []byte, stride int, y q8Row, out *[4]float32) { dot4Go(dotQ8Go, w, stride, y, out) },
	dotQ4x4:     func(w []byte, stride int, y q8Row, out *[4]float32) { dot4Go(dotQ4Go, w, stride, y, out) },
	dotQ2K:      func(w []byte, y q8KRow) float32 { return dotKGo(rt.Q2_K, w, y) },
	dotQ3K:      func(w []byte, y q8KRow) float32 { return dotKGo(rt.Q3_K, w, y) },
	dotQ4K:      func(w []byte, y q8KRow) float32 { return dotKGo(rt.Q4_K, w, y) },
	dotQ5K:      func(w []byte, y q8KRow) float32 { return dotKGo(rt.Q5_K, w, y) },
	dotQ6K:      func(w []byte, y q8KRow) float32 { return dotKGo(rt.Q6_K, w, y) },
	dotIQ4XS:    func(w []byte, y q8KRow) float32 { return dotKGo(rt.IQ4_XS, w, y) },
	dotTQ1:      func(w []byte, y q8KRow) float32 { return dotKGo(rt.TQ1_0, w, y) },
	dotTQ2:      func(w []byte, y q8KRow) float32 { return dotKGo(rt.TQ2_0, w, y) },
	dotQ4_1:     func(w []byte, y q8Row) float32 { return dot32Go(rt.Q4_1, w, y) },
	dotQ5_0:     func(w []byte, y q8Row) float32 { return dot32Go(rt.Q5_0, w, y) },
	dotQ5_1:     func(w []byte, y q8Row) float32 { return dot32Go(rt.Q5_1, w, y) },
	dotIQ4NL:    func(w []byte, y q8Row) float32 { return dot32Go(rt.IQ4_NL, w, y) },
	dotMXFP4:    func(w []byte, y q8Row) float32 { return dot32Go(rt.MXFP4, w, y) },
	quantizeQ8K: quantizeQ8KGo,
	f16ToF32:    f16ToF32Go,
	f32ToF16:    f32ToF16Go,
	dequantQ8:   dequantQ8_0,
	dequantQ4:   dequantQ4_0,
	quantQ8:     quantQ8Go,
	transpose8:  transpose8Go,
	gemm:        gemmGo,
	add:         addGo,
	mul:         mulGo,
	scale:       scaleGo,
	scaleAdd:    scaleAddGo,
	sumSq:       sumSqGo,
	maxOf:       maxGo,
	expSub:      expSubGo,
	silu:        siluGo,
	ropeNorm:    ropeNormGo,
	ropeNeox:    ropeNeoxGo,
}

func dotF16Go(w []byte, x []float32) float32 {
	tab := f16Table()
	w = w[:2*len(x)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(x); i += 4 {
		s0 += tab[binary.LittleEndian.Uint16(w[2*i:])] * x[i]
		s1 += tab[binary.LittleEndian.Uint16(w[2*i+2:])] * x[i+1]
		s2 += tab[binary.LittleEndian.Uint16(w[2*i+4:])] * x[i+2]
		s3 += tab[binary.LittleEndian.Uint16(w[2*i+6:])] * x[i+3]
	}
	for ; i < len(x); i++ {
		s0 += tab[binary.LittleEndian.Uint16(w[2*i:])] * x[i]
	}
	return (s0 + s1) + (s2 + s3)
}

func dotQ8Go(w []byte, y q8Row) float32 {
	tab := f16Table()
	var sum float32
	for b, dy := range y.d {
		blk := w[b*34 : b*34+34]
		q := y.qs[b*rt.QK : b*rt.QK+rt.QK]
		var s int32
		for j, v := range q {
			s += int32(int8(blk[2+j])) * int32(v)
		}
		sum += tab[binary.LittleEndian.Uint16(blk)] * dy * float32(s)
	}
	return sum
}

func dotQ4Go(w []byte, y q8Row) float32 {
	tab := f16Table()
	var sum float32
	for b, dy := range y.d {
		blk := w[b*18 : b*18+18]
		q := y.qs[b*rt.QK : b*rt.QK+rt.QK]
		var s int32
		for j := 0; j < rt.QK/2; j++ {
			v := blk[2+j]
			s += (int32(v&15) - 8) * int32(q[j])
			s += (int32(v>>4) - 8) * int32(q[j+rt.QK/2])
		}
		sum += tab[binary.LittleEndian.Uint16(blk)] * dy * float32(s)
	}
	return sum
}

// dot4Go runs a one-row dot kernel on four rows.
func dot4Go(dot func([]byte, q8Row) float32, w []byte, stride int, y q8Row, out *[4]float32) {
	for r := range out {
		out[r] = dot(w[r*stride:], y)
	}
}

func f16ToF32Go(src []byte, dst []float32) {
	tab := f16Table()
	src = src[:2*len(dst)]
	for i := range dst {
		dst[i] = tab[binary.LittleEndian.Uint16(src[2*i:])]
	}
}

func f32ToF16Go(src []float32, dst []byte) {
	dst = dst[:2*len(src)]
	for i, v := range src {
		binary.LittleEndian.PutUint16(dst[2*i:], rt.F32ToF16(v))
	}
}

func transpose8Go(dst []float32, ldd int, src []float32, stride, kc int) {
	for r := 0; r < 8; r++ {
		row := src[r*stride : r*stride+kc]
		for k, v := range row {
			dst[k*ldd+r] = v
		}
	}
}

// packF16Go is kernels.packF16 in Go.
func packF16Go(b, src []byte, stride, kc int) {
	for k := 0; k < kc; k++ {
		for r := 0; r < gemmNR; r++ {
			copy(b[2*(k*gemmNR+r):][:2], src[r*stride+2*k:])
		}
	}
}

// clearTile zeroes a gemmMR×gemmNR tile of c (row stride ldc) unless add:
// a tile kernel's result for k = 0.
func clearTile(c []float32, ldc int, add bool) { clearRows(c, gemmMR, ldc, add) }

// clearRows is clearTile for a tile of rows rows.
func clearRows(c []float32, rows, ldc int, add bool) {
	if add {
		return
	}
	for i := 0; i < rows; i++ {
		clear(c[i*ldc : i*ldc+gemmNR])
	}
}

func gemmGo(k int, a, b, c []float32, ldc int, add bool) {
	var acc [gemmMR][gemmNR]float32
	a, b = a[:k*gemmMR], b[:k*gemmNR]
	for p := 0; p < k; p++ {
		bp := (*[gemmNR]float32)(b[p*gemmNR:])
		for i := 0; i < gemmMR; i++ {
			ai := a[p*gemmMR+i]
			row := &acc[i]
			for j, bv := range bp {
				row[j] += ai * bv
			}
		}
	}
	for i := range acc {
		out := c[i*ldc : i*ldc+gemmNR]
		if add {
			for j, v := range acc[i] {
				out[j] += v
			}
		} else {
			copy(out, acc[i][:])
		}
	}
}

func addGo(dst, a, b []float32) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		dst[i] = a[i] + b[i]
	}
}

func mulGo(dst, a, b []float32) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		dst[i] = a[i] * b[i]
	}
}

func scaleGo(dst, x []float32, s float32) {
	x = x[:len(dst)]
	for i := range dst {
		dst[i] = x[i] * s
	}
}

func scaleAddGo(dst, x, m []float32, s float32) {
	x, m = x[:len(dst)], m[:len(dst)]
	for i := range dst {
		dst[i] = x[i]*s + m[i]
	}
}

func sumSqGo(x []float32) float32 {
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(x); i += 4 {
		s0 += x[i] * x[i]
		s1 += x[i+1] * x[i+1]
		s2 += x[i+2] * x[i+2]
		s3 += x[i+3] * x[i+3]
	}
	for ; i < len(x); i++ {
		s0 += x[i] * x[i]
	}
	return (s0 + s1) + (s2 + s3)
}

func maxGo(x []float32) float32 {
	m := float32(math.Inf(-1))
	for _, v := range x {
		m = max(m, v)
	}
	return m
}

func expSubGo(dst, x []float32, m float32) float32 {
	x = x[:len(dst)]
	var sum float32
	for i, v := range x {
		e := expf(v - m)
		dst[i] = e
		sum += e
	}
	return sum
}

func siluGo(dst, x []float32) {
	x = x[:len(dst)]
	for i, v := range x {
		dst[i] = v / (1 + expf(-v))
	}
}

// expf is exp in float32 for the portable kernels.
func expf(x float32) float32 { return float32(math.Exp(float64(x))) }

func ropeNormGo(dst, x, cs, sn []float32) {
	x, cs, sn = x[:len(dst)], cs[:len(dst)], sn[:len(dst)]
	for i := 0; i+1 < len(dst); i += 2 {
		u, v := x[i], x[i+1]
		dst[i] = u*cs[i] + v*sn[i]
		dst[i+1] = v*cs[i+1] + u*sn[i+1]
	}
}

func ropeNeoxGo(d0, d1, x0, x1, c, s []float32) {
	n := len(d0)
	d1, x0, x1, c, s = d1[:n], x0[:n], x1[:n], c[:n], s[:n]
	for i := range d0 {
		u, v := x0[i], x1[i]
		d0[i] = u*c[i] - v*s[i]
		d1[i] = v*c[i] + u*s[i]
	}
}
