package cpu

import (
	"math"
	"sync/atomic"
	"unsafe"

	rt "github.com/gpurt/gpurt/runtime"
)

// The fast MUL_MAT computes dst[m,n] = Σ_k w[k,m]·x[k,n] three ways:
//
//   - N < gemmMinN (GEMV and thin products): every result is one dot product
//     of a weight row with an x row, computed by a kernel that reads the
//     weights as stored: f32 in place, f16 converted in registers (where
//     the tile kernel exists and N >= 2, 4 rows by 2 or 3 x rows at a time,
//     converting each weight once per tile), and
//     Q8_0/Q4_0 against x quantized to Q8 once per op, in integers, as ggml
//     does. The other quantized types (kquants.go) run the same way on x
//     quantized to their vec_dot_type (Q8_K, Q8_0 or Q8_1), four x rows per
//     weight row where a four-row kernel exists, which they do at any N
//     (typedGemmMinN). Workers take blocks of mmRows weight rows, so a
//     block stays in cache while it meets every x row.
//   - Q8_0/Q4_0 weights with N >= panelMinN, where the kernels have panel
//     forms (AVX2): the same integer products, with each worker repacking 8
//     weight rows at a time so that one multiply serves 8 rows and 4 x
//     rows, as ggml's repacked Q4_0 GEMM does (mulMatPanel).
//   - N >= gemmMinN otherwise: x is packed once into panels of gemmMR rows,
//     and each worker packs (converting to f32) blocks of gemmNC weight rows
//     by gemmKC columns into panels of gemmNR, then runs the gemmMR×gemmNR
//     register tile over them, as BLIS does. F16 weights stay f16 in their
//     panels (gemmKCF16 columns) where the tile converts them as it loads
//     them, packed once per weight where it is a weights buffer's
//     (repack_f16.go); the next block's weights are prefetched during each
//     block.
//
// Each result element is computed by one worker in an order that does not
// depend on the thread count, so results are identical for any count.

const (
	gemmKC = 256 // k per packed block: a gemmNR×gemmKC weight panel (16 KiB) stays in L1
	// gemmNC is the weight rows of a packed block: gemmNC×gemmKC floats
	// (64 KiB; f16 panels the same bytes at twice the k) in L2, beside the
	// block of x panels and the next block's prefetched rows. 64 against
	// 128, alternated in one process (2-core Zen 3, 512 KiB L2 a core):
	// the 155M F16 prompt 686 → 717 tok/s (median of 16), F16
	// 2816×128×1024 122 → 134 GFLOPS, the other F16 and F32 shapes the
	// same or 1–2 % faster.
	gemmNC = 64
	gemmMC = 16 // x panels streamed past a weight panel: gemmMC·gemmMR·gemmKC floats (96 KiB) in L2
	// gemmKCF16 is gemmKC for f16 weight panels: at half the bytes, twice
	// the k fits the same L1, and half the tile calls (and their C tile
	// loads and stores) made the F16 GEMM 3–8 % faster (alternated, 2-core
	// Zen 3; 1024 gained nothing more).
	gemmKCF16 = 2 * gemmKC
)

// mulMatFast is MUL_MAT on the fast kernels. It needs a result with
// 4-byte aligned float32 rows, which allocated tensors have; anything else
// goes to the reference loops.
func (b *Backend) mulMatFast(w, x, dst hostTensor) error {
	if !aligned32(dst) || w.ne[0] == 0 {
		return b.mulMat(w, x, dst)
	}
	if b.kern.thinF32Fits(w, x, dst) {
		return b.thinF32(w, x, dst)
	}
	if b.kern.usePanel(w.typ, x.ne[1]) {
		return b.mulMatPanel(w, x, dst)
	}
	if td, ok := b.kern.typeDotFor(w.typ); ok {
		if x.ne[1] < typedGemmMinN(td) {
			return b.mulMatDot(w, x, dst)
		}
		return b.mulMatGemm(w, x, dst)
	}
	// Fewer float weight rows than the GEMM tile is wide (attention's
	// values against the scores, at a head size of 8) waste most of the
	// tile and make packing x the larger cost: the dot tiles read x in
	// place.
	fewFloatRows := w.ne[1] < gemmNR && (w.typ == rt.F32 || w.typ == rt.F16)
	if x.ne[1] >= gemmMinN(w.typ) && !fewFloatRows {
		return b.mulMatGemm(w, x, dst)
	}
	return b.mulMatDot(w, x, dst)
}

// thinF32Fits reports whether MUL_MAT is one to four x rows against one
// matrix of float32 weights that thinF32 takes: rows of at least
// simdWidth, all in place. The tiny models' decode steps are made of
// these, one x row a sequence.
func (k *kernels) thinF32Fits(w, x, dst hostTensor) bool {
	return k.gemvF32 != nil && k.dotF32x4 != nil &&
		w.typ == rt.F32 && x.typ == rt.F32 && x.ne[1] <= maxThinColumns &&
		w.ne[2]*w.ne[3] == 1 && x.ne[2]*x.ne[3] == 1 &&
		w.ne[0] >= simdWidth && w.ne[1] >= 4 &&
		aligned32(w) && aligned32(x) && aligned32(dst)
}

// maxThinColumns is the most x rows thinF32 takes: the widest tile kernel.
const maxThinColumns = 4

// thinF32 is MUL_MAT for thinF32Fits: each worker takes a share of the
// weight rows in 4-row groups and runs them through one kernel call (one
// x row, or four where the kernels have thinF32c4) or one tile call a
// group (two or three x rows), so that an op of a few hundred
// short rows costs its loads and one hand-off, not a task per 16-row
// block (1.5 µs of a 64×64 product's 1.6 before).
func (b *Backend) thinF32(w, x, dst hostTensor) error {
	K, M, N := w.ne[0], w.ne[1], x.ne[1]
	t := &b.thin
	*t = thinArgs{w: w, n: N, groups: M / 4, ldo: dst.nb[1] / 4}
	// The one-call kernels take whole vectors: the elements past the last
	// (the 4 of a 172-wide row) are added after them.
	t.k8 = K &^ (simdWidth - 1)
	for n := range N {
		t.cols[n], _ = f32View(x.mem, x.off+n*x.nb[1], K)
		t.vecs[n] = t.cols[n][:t.k8]
	}
	t.out, _ = f32View(dst.mem, dst.off, (N-1)*t.ldo+M)
	err := b.pool.run(b.workers(t.groups, gemvWorkScale*K*M*N), b.tasks.thin)
	*t = thinArgs{} // do not pin the operands' buffers
	return err
}

// thinArgs are the operands of the thin product being run, which
// thinTask, bound once, reads: a closure over them cost an allocation of
// some 450 bytes for every product of every decode step.
type thinArgs struct {
	w                  hostTensor
	cols, vecs         [maxThinColumns][]float32 // x rows, and their whole vectors
	out                []float32
	n, groups, ldo, k8 int
}

// thinTask is worker ith's share of thinF32's 4-row groups.
func (b *Backend) thinTask(ith, nth int, _ *workspace) error {
	t, k := &b.thin, b.kern
	w, N, ldo, ldw := t.w, t.n, t.ldo, t.w.nb[1]
	g0, g1 := t.groups*ith/nth, t.groups*(ith+1)/nth
	switch {
	case g1 <= g0:
	case N == 1:
		k.gemvF32(w.mem[w.off+4*g0*ldw:], ldw, t.vecs[0], t.out[4*g0:4*g1])
		addRowTails(w, t.cols[:N], t.out, ldo, 4*g0, 4*g1, t.k8)
	case k.thinColumns(N) != nil:
		k.thinColumns(N)(w.mem[w.off+4*g0*ldw:], ldw, t.vecs, t.out[4*g0:], ldo, 4*(g1-g0))
		addRowTails(w, t.cols[:N], t.out, ldo, 4*g0, 4*g1, t.k8)
	default:
		cols := &t.cols
		for g := g0; g < g1; g++ {
			rows, o := w.mem[w.off+4*g*ldw:], t.out[4*g:]
			switch {
			case N == 4: // two and two, as thinF32c4 gives where it is
				k.dotF32x4(rows, ldw, cols[0], cols[1], nil, o, ldo)
				k.dotF32x4(rows, ldw, cols[2], cols[3], nil, o[2*ldo:], ldo)
			default:
				k.dotF32x4(rows, ldw, cols[0], cols[1], cols[2], o, ldo)
			}
		}
	}
	if ith == nth-1 {
		for m := 4 * t.groups; m < w.ne[1]; m++ { // the last rows, one by one
			row, _ := f32View(w.mem, w.off+m*ldw, w.ne[0])
			for n := range N {
				t.out[n*ldo+m] = k.dotF32(row, t.cols[n])
			}
		}
	}
	return nil
}

// thinColumns is the set's one-call thin product for n columns (2 or
// 4), or nil.
func (k *kernels) thinColumns(n int) func(w []byte, ldw int, x [4][]float32, out []float32, ldo, m int) {
	switch n {
	case 2:
		return k.thinF32c2
	case 4:
		return k.thinF32c4
	}
	return nil
}

// addRowTails adds to out[n*ldo+m], for weight rows [m0, m1), the
// products of their elements from k8 on with those of every column, one
// by one as the tile kernels add their tails, so that a thin product
// gives the tile path's bits.
func addRowTails(w hostTensor, cols [][]float32, out []float32, ldo, m0, m1, k8 int) {
	K := w.ne[0]
	if k8 == K {
		return
	}
	for m := m0; m < m1; m++ {
		row, _ := f32View(w.mem, w.off+m*w.nb[1]+4*k8, K-k8)
		for n, c := range cols {
			c = c[k8:K]
			c = c[:len(row)]
			sum := out[n*ldo+m] // in a register: the same roundings
			for i, v := range row {
				sum += v * c[i]
			}
			out[n*ldo+m] = sum
		}
	}
}

// gemvWorkScale converts a GEMV's multiply-adds to the pool's grain
// (elements of elementwise work): with 2, products of 16K multiply-adds
// and more split. On the default model that gave 6.6K tok/s against 6.0K
// splitting from 32K and 5.8K from 64K (medians of 6 alternated runs,
// ±10% between runs).
const gemvWorkScale = 2

// gemmMinN is the fewest x rows for which packing pays. Below it the 4-row
// tile kernels (f32 and f16) and the quantized dots are quicker: F32
// 4096×8×4096 took 2.6 ms on the tiles against 4.2 ms packed.
func gemmMinN(rt.DType) int { return 16 }

// typedGemmMinN is the fewest x rows from which weights of a type run by
// a typeDot go to the packed F32 GEMM rather than the integer dots. Types
// with a four-column kernel stay on it at any N: measured on a 2-core
// Zen 3, it beats converting the weights for the F32 GEMM. A variable so
// that benchmarks can compare the paths.
var typedGemmMinN = func(td typeDot) int {
	if td.dotK4 != nil {
		return math.MaxInt
	}
	return 16
}

// usePanel reports whether k's panel kernels, where present, take weights
// of type w with n x rows: from panelMinN rows, below which repacking the
// weights costs more than the dot kernels lose.
func (k *kernels) usePanel(w rt.DType, n int) bool {
	panel, _ := k.panelKernel(w)
	return panel != nil && n >= panelMinN(w)
}

// panelKernel returns the panel kernel and the repacking for Q8_0 and
// Q4_0 weights, or nil where there is none.
func (k *kernels) panelKernel(w rt.DType) (func([]byte, *q8Rows, int, []float32, int), func([]byte, int, int, []byte)) {
	switch w {
	case rt.Q8_0:
		return k.dotQ8x8x4, k.repackQ8
	case rt.Q4_0:
		return k.dotQ4x8x4, k.repackQ4
	}
	return nil, nil
}

// panelMinN is the fewest x rows for which the panel kernels pay, as
// measured on a 2-core Zen 3 (4096×4096 weights): for Q4_0 1.9× the dot
// kernels at N = 4, for Q8_0 1.7× at N = 8 and even at N = 4. A variable
// so that benchmarks can compare the paths.
var panelMinN = func(w rt.DType) int {
	if w == rt.Q4_0 {
		return 4
	}
	return 8
}

// mulMatPanel multiplies Q8_0 or Q4_0 weights with x quantized to Q8 once,
// each worker repacking its block of weight rows 8 at a time and
// running the 8-row by 4-column panel kernel over every group of 4 x rows;
// rows and columns past the last whole panel use the dot kernels.
func (b *Backend) mulMatPanel(w, x, dst hostTensor) error {
	K, M, N, ne12, _, r2, r3, batches, work := matmulDims(w, x)
	if err := b.quantizeColumns(x, work); err != nil {
		return err
	}
	k := b.kern
	panel, repack := k.panelKernel(w.typ)
	dot, dot4 := k.dotQ8, k.dotQ8x4
	if w.typ == rt.Q4_0 {
		dot, dot4 = k.dotQ4, k.dotQ4x4
	}
	stride := w.nb[1]
	ldo := dst.nb[1] / 4
	q := &b.q8
	nb := K / rt.QK
	size := nb * panelBlock // bytes per repacked panel
	return b.forWeightBlocks(M, ne12, batches, work, func(ws *workspace, i12, i13, m0, m1 int) error {
		wm := w.mem[w.at(m0, i12/r2, i13/r3):]
		x0 := N * (i12 + ne12*i13) // flat x row of column 0
		rows := m1 - m0
		full := rows &^ 7
		p := ws.bytes(full / 8 * size)
		for i := 0; i < full; i += 8 {
			repack(wm[i*stride:], stride, nb, p[i/8*size:])
		}
		n := 0
		for ; n+4 <= N; n += 4 {
			out, _ := f32View(dst.mem, dst.at(n, i12, i13), 3*ldo+M)
			out = out[m0:]
			for i := 0; i < full; i += 8 {
				panel(p[i/8*size:], q, x0+n, out[i:], ldo)
			}
			for i := full; i < rows; i++ {
				for c := 0; c < 4; c++ {
					out[c*ldo+i] = dot(wm[i*stride:], q.row(x0+n+c))
				}
			}
		}
		for ; n < N; n++ {
			out, _ := f32View(dst.mem, dst.at(n, i12, i13), M)
			out = out[m0:m1]
			y := q.row(x0 + n)
			i := 0
			for ; i+4 <= rows; i += 4 {
				dot4(wm[i*stride:], stride, y, (*[4]float32)(out[i:]))
			}
			for ; i < rows; i++ {
				out[i] = dot(wm[i*stride:], y)
			}
		}
		return nil
	})
}

// activationType is the type MUL_MAT on k quantizes n x rows to before
// multiplying them with weights of type w in integers (the dot and panel
// kernels): Q8_0 (which also serves as Q8_1) or Q8_K; F32 where it
// multiplies x as it is.
func (k *kernels) activationType(w rt.DType, n int) rt.DType {
	if td, ok := k.typeDotFor(w); ok {
		if n < typedGemmMinN(td) {
			return td.vec
		}
		return rt.F32
	}
	if (w == rt.Q8_0 || w == rt.Q4_0) && (n < gemmMinN(w) || k.usePanel(w, n)) {
		return rt.Q8_0
	}
	return rt.F32
}

// rowKind says how a dot-product worker reads a weight row.
type rowKind int

const (
	rowF32     rowKind = iota // packed f32 in place
	rowF16                    // packed f16 bytes, converted by the kernel
	rowQ8                     // Q8_0 blocks against Q8 activations
	rowQ4                     // Q4_0 blocks against Q8 activations
	rowTyped                  // another quantized type, on its typeDot
	rowConvert                // anything else: converted to f32 first
)

func (k *kernels) weightKind(w hostTensor) rowKind {
	if _, ok := k.typeDotFor(w.typ); ok {
		return rowTyped
	}
	switch {
	case w.typ == rt.Q8_0:
		return rowQ8
	case w.typ == rt.Q4_0:
		return rowQ4
	case f16Rows(w):
		return rowF16
	case w.typ == rt.F32 && aligned32(w):
		return rowF32
	}
	return rowConvert
}

// mulMatDot computes every result as one dot product.
func (b *Backend) mulMatDot(w, x, dst hostTensor) error {
	K, M, N, ne12, _, r2, r3, batches, work := matmulDims(w, x)
	k := b.kern
	kind := k.weightKind(w)
	td, _ := k.typeDotFor(w.typ)

	var col func(n, i12, i13 int) []float32
	var err error
	switch {
	case kind == rowTyped && td.vec == rt.Q8_K:
		err = b.quantizeColumnsK(x, work)
	case kind == rowQ8 || kind == rowQ4 || kind == rowTyped:
		err = b.quantizeColumns(x, work)
	default:
		col, err = b.columns(x, work)
	}
	if err != nil {
		return err
	}
	var q4r8 *repackedRows // Q4_0 weights' 8-row groups, interleaved (repack.go)
	if kind == rowQ4 && k.dotQ4R8 != nil {
		q4r8 = repackedQ4For(w)
	}
	// IQ4_XS, the K-quants but Q6_K and the ternary types (GEMVs of fewer
	// than 4 x rows, which their four-row kernels do not serve), MXFP4,
	// IQ4_NL, Q4_1, Q5_0 and Q5_1 weights run on their rows repacked
	// (repack_iq4.go, repack_kquants.go), against x rows rearranged to
	// match.
	var repacked *repackedRows
	var rowDot func([]byte, *iq4Act) float32
	var rowsDot func([]byte, int, *iq4Act, []float32)
	switch {
	case kind != rowTyped:
	case w.typ == rt.IQ4_XS && k.dotIQ4XSR != nil && N < 4:
		rowDot = k.dotIQ4XSR
	case td.dotRepacked != nil && N < 4:
		rowsDot = td.dotRepacked
	case td.dotBlocksRepacked != nil:
		rowDot = td.dotBlocksRepacked
	}
	if rowDot != nil || rowsDot != nil {
		if repacked = repackedRowsFor(w); repacked != nil {
			nr := N * batches
			if cap(b.iq4) < nr {
				b.iq4 = make([]iq4Act, nr)
			}
			b.iq4 = b.iq4[:nr]
			for r := range b.iq4 {
				switch w.typ {
				case rt.MXFP4, rt.IQ4_NL, rt.Q4_1, rt.Q5_0, rt.Q5_1: // Q8_0 and Q8_1 activations
					b.iq4[r].setBlocks(b.q8.row(r))
				case rt.Q2_K, rt.Q3_K, rt.TQ1_0, rt.TQ2_0:
					b.iq4[r].setSub16(b.q8k.row(r))
				default:
					b.iq4[r].set(b.q8k.row(r))
				}
			}
		}
	}
	oneRowQ8 := kind == rowQ8 && N == 1 && weightsStreamed()
	switch {
	case N != 1:
	case oneRowQ8 && k.dotQ8Rows != nil:
		return b.forWeightSpans(M, ne12, batches, work, func(_ *workspace, i12, i13, m0, m1 int) error {
			out := gemvOut(dst, i12, i13, m0, m1)
			k.dotQ8Rows(w.mem[w.at(m0, i12/r2, i13/r3):], w.nb[1], b.q8.row(i12+ne12*i13), out)
			return nil
		})
	case q4r8 != nil:
		// Whole 8-row groups on the repacked kernel, the rows past the
		// last on the four-row and one-row dots, as below.
		return b.forWeightSpans(M, ne12, batches, work, func(_ *workspace, i12, i13, m0, m1 int) error {
			out := gemvOut(dst, i12, i13, m0, m1)
			y := b.q8.row(i12 + ne12*i13)
			g0 := m0 / 8 // m0 is a multiple of mmRows
			ng := max(0, min(len(out)/8, q4r8.rows-g0))
			if ng > 0 {
				k.dotQ4R8(q4r8.span(w.ne[2], g0, g0+ng, i12/r2, i13/r3), y, out[:8*ng])
			}
			i := 8 * ng
			for ; i+4 <= len(out); i += 4 {
				k.dotQ4x4(w.mem[w.at(m0+i, i12/r2, i13/r3):], w.nb[1], y, (*[4]float32)(out[i:]))
			}
			for ; i < len(out); i++ {
				out[i] = k.dotQ4(w.mem[w.at(m0+i, i12/r2, i13/r3):], y)
			}
			return nil
		})
	case repacked != nil && rowsDot != nil:
		return b.forWeightSpans(M, ne12, batches, work, func(_ *workspace, i12, i13, m0, m1 int) error {
			out := gemvOut(dst, i12, i13, m0, m1)
			rowsDot(repacked.span(w.ne[2], m0, m1, i12/r2, i13/r3), repacked.rowBytes, &b.iq4[i12+ne12*i13], out)
			return nil
		})
	case kind == rowTyped && repacked == nil && td.dotKRows != nil:
		return b.forWeightSpans(M, ne12, batches, work, func(_ *workspace, i12, i13, m0, m1 int) error {
			out := gemvOut(dst, i12, i13, m0, m1)
			td.dotKRows(w.mem[w.at(m0, i12/r2, i13/r3):], w.nb[1], b.q8k.row(i12+ne12*i13), out)
			return nil
		})
	}
	tile := k.tileKernel(kind) // once per op: it may build a closure
	if kind == rowF16 && tile.x4 != nil && N == 1 && r2 >= 2 && r2 <= maxTileColumns {
		return b.mulMatF16Heads(w, dst, tile, col, r2, r3, work)
	}
	return b.forWeightBlocks(M, ne12, batches, work, func(ws *workspace, i12, i13, m0, m1 int) error {
		var rows [mmRows][]float32
		var raw [mmRows][]byte
		off0 := w.at(m0, i12/r2, i13/r3) // once a block: the divisions are not hoisted
		for m := m0; m < m1; m++ {
			off := off0 + (m-m0)*w.nb[1]
			switch kind {
			case rowF32, rowF16, rowQ8, rowQ4, rowTyped:
				raw[m-m0] = w.mem[off:] // the x4 kernels read on into the next rows
			default:
				row := ws.f32(0, mmRows*K)[(m-m0)*K : (m-m0+1)*K]
				w.loadRow(off, row)
				rows[m-m0] = row
			}
		}
		if tile.x4 != nil && N >= 2 {
			mulTiles(tile, raw[0], m1-m0, w.nb[1], tileColumns{
				n:    N,
				x:    func(c int) []float32 { return col(c, i12, i13) },
				out0: dst.at(0, i12, i13),
				ldo:  dst.nb[1] / 4,
			}, dst, M, m0)
			return nil
		}
		for n := 0; n < N; n++ {
			out, _ := f32View(dst.mem, dst.at(n, i12, i13), M)
			out = out[m0:m1]
			switch kind {
			case rowQ8, rowQ4:
				y := b.q8.row(n + N*(i12+ne12*i13))
				dot, dot4 := k.dotQ8, k.dotQ8x4
				if kind == rowQ4 {
					dot, dot4 = k.dotQ4, k.dotQ4x4
				}
				i := 0
				for ; q4r8 != nil && i+8 <= len(out) && (m0+i)/8 < q4r8.rows; i += 8 {
					k.dotQ4R8(q4r8.row(w.ne[2], (m0+i)/8, i12/r2, i13/r3), y, out[i:i+8])
				}
				// Four rows at a time share the activation loads, but
				// read four short streams: Q8_0 GEMVs whose weights come
				// from DRAM stream faster a row at a time (80 MiB of
				// 1024×32000 weights: 11–20 GB/s on four rows, 19–25 on
				// one; in cache one row is 35 % slower).
				for ; !oneRowQ8 && i+4 <= len(out); i += 4 {
					dot4(raw[i], w.nb[1], y, (*[4]float32)(out[i:]))
				}
				for ; i < len(out); i++ {
					out[i] = dot(raw[i], y)
				}
			case rowTyped:
				r := n + N*(i12+ne12*i13)
				if td.dotK4 != nil && n+4 <= N {
					// Four x rows at a time share each weight block's unpacking.
					ldo := dst.nb[1] / 4
					wide, _ := f32View(dst.mem, dst.at(n, i12, i13), 3*ldo+M)
					wide = wide[m0:]
					var four [4]float32
					for i := range out {
						td.dotK4(raw[i], &b.q8k, r, &four)
						for c, v := range four {
							wide[c*ldo+i] = v
						}
					}
					n += 3
					break
				}
				if repacked != nil && rowsDot != nil {
					rowsDot(repacked.span(w.ne[2], m0, m1, i12/r2, i13/r3), repacked.rowBytes, &b.iq4[r], out)
					break
				}
				if repacked != nil {
					a := &b.iq4[r]
					for i := range out {
						out[i] = rowDot(repacked.row(w.ne[2], m0+i, i12/r2, i13/r3), a)
					}
					break
				}
				if td.dotKRows != nil {
					td.dotKRows(raw[0], w.nb[1], b.q8k.row(r), out)
					break
				}
				if td.dotK != nil {
					y := b.q8k.row(r)
					for i := range out {
						out[i] = td.dotK(raw[i], y)
					}
					break
				}
				y := b.q8.row(r)
				for i := range out {
					out[i] = td.dot(raw[i], y)
				}
			default: // f32 and f16 rows, one column (N >= 2 took the tiles above)
				c := col(n, i12, i13)
				i := 0
				if tile.x4 != nil && K <= shortTileRow {
					for ; i+4 <= len(out); i += 4 {
						tile.x4(raw[i], w.nb[1], c, nil, nil, out[i:], 0)
					}
				}
				for ; i < len(out); i++ {
					switch {
					case tile.one != nil:
						out[i] = tile.one(raw[i], c)
					case kind == rowF32:
						row, _ := f32View(raw[i], 0, K)
						out[i] = k.dotF32(row, c)
					default: // converted to f32 above
						out[i] = k.dotF32(rows[i], c)
					}
				}
			}
		}
		return nil
	})
}

// gemvOut is rows [m0,m1) of matrix (i12, i13) of a GEMV's result.
func gemvOut(dst hostTensor, i12, i13, m0, m1 int) []float32 {
	out, _ := f32View(dst.mem, dst.at(0, i12, i13), m1)
	return out[m0:m1]
}

// mulMatF16Heads is MUL_MAT of f16 weights broadcast over r2 >= 2
// batches of one x row each: attention over a grouped-query KV cache while
// generating, where each kv head serves r2 query heads. The batches that
// share a weight matrix are the columns of the 4-row tile kernel, so each
// weight (key or value) row is converted once for all of its query heads
// rather than once per head.
func (b *Backend) mulMatF16Heads(w, dst hostTensor, tile tileKernel, col func(n, i12, i13 int) []float32, r2, r3, work int) error {
	M, ne02 := w.ne[1], w.ne[2]
	ne13 := w.ne[3] * r3
	return b.forWeightBlocks(M, ne02, ne02*ne13, work, func(ws *workspace, i02, i13, m0, m1 int) error {
		h0 := i02 * r2
		mulTiles(tile, w.mem[w.at(m0, i02, i13/r3):], m1-m0, w.nb[1], tileColumns{
			n:    r2,
			x:    func(c int) []float32 { return col(0, h0+c, i13) },
			out0: dst.at(0, h0, i13),
			ldo:  dst.nb[2] / 4,
		}, dst, M, m0)
		return nil
	})
}

// shortTileRow is the longest f16 or f32 row that a one-column GEMV runs
// four rows at a time: on short rows (small models, attention) a call per
// row costs more than its products, while long weight rows stream from
// memory faster one at a time (f16: 0.9× on 1024-wide rows of the 155M
// model).
const shortTileRow = 256

// maxTileColumns is the most columns mulTiles takes: more than
// gemmMinN(F16) and than the query heads per kv head of real models.
const maxTileColumns = 32

// tileColumns are the x columns mulTiles multiplies: n of them, column
// c's values, and the byte offset in dst of column 0's result row, the
// others ldo floats apart.
type tileColumns struct {
	n    int
	x    func(c int) []float32
	out0 int
	ldo  int
}

// out is the byte offset in dst of column c's result row.
func (t tileColumns) out(c int) int { return t.out0 + 4*t.ldo*c }

// tileKernel is the 4-row tile kernel for weight rows of a kind, with the
// one-row dot for the rows past the last whole tile; x4 is nil where there
// is none.
func (k *kernels) tileKernel(kind rowKind) tileKernel {
	switch kind {
	case rowF16:
		return tileKernel{x4: k.dotF16x4, x8x2: k.dotF16x8x2, x16: k.dotF16x16, one: k.dotF16}
	case rowF32:
		if k.dotF32x4 == nil {
			return tileKernel{}
		}
		return tileKernel{x4: k.dotF32x4, x4c4: k.dotF32x4c4, one: func(w []byte, x []float32) float32 {
			row, _ := f32View(w, 0, len(x))
			return k.dotF32(row, x)
		}}
	}
	return tileKernel{}
}

// tileKernel is a 4-row tile kernel (dotF16x4's contract) and its one-row
// dot.
type tileKernel struct {
	x4   func(w []byte, ldw int, x0, x1, x2, out []float32, ldo int)
	x4c4 func(w []byte, ldw int, x0, x1, x2, x3, out []float32, ldo int) // optional: 4 columns
	// x8x2 is optional: x4's sums for 8 rows and 2 columns in one call.
	x8x2 func(w []byte, ldw int, x0, x1, out []float32, ldo int)
	// x16 is optional: dotF16x16, for rows of 8 or 16 elements.
	x16 func(w []byte, ldw, rows int, x func(c int) []float32, n int, out []float32, ldo int)
	one func(w []byte, x []float32) float32
}

// shortRow reports whether rows of k elements take the x16 kernel.
func shortRow(k int) bool { return k == 8 || k == 16 }

// maxShortColumns is the most columns a dotF16x16 call takes.
const maxShortColumns = 8

// mulShortRows is mulTiles for rows of 8 or 16 elements on the x16
// kernel, 16 rows at a time: it returns how many rows it computed (the
// whole blocks of 16), for mulTiles to finish. Blocks start at row 0 of w,
// so a row meets the same kernel in a product of all the rows and in one
// of their first rows (the fused attention's scores, TestAttentionFusion).
func mulShortRows(k tileKernel, w []byte, rows, stride int, cols tileColumns, dst hostTensor, M, m0 int) int {
	blocks := rows &^ 15
	for c0 := 0; c0 < cols.n; c0 += maxShortColumns {
		n := min(maxShortColumns, cols.n-c0)
		out, _ := f32View(dst.mem, cols.out(c0), (n-1)*cols.ldo+M)
		x := cols.x
		if c0 > 0 {
			x = func(c int) []float32 { return cols.x(c0 + c) }
		}
		k.x16(w, stride, blocks, x, n, out[m0:], cols.ldo)
	}
	return blocks
}

// mulTiles multiplies the weight rows w[i*stride:], i < rows (rows m0+i
// of the result), with cols.n >= 2 columns of x on a 4-row tile kernel, in
// groups of 3 columns and last groups of 2 (two, where 3 would leave 1), so
// that each weight element is loaded (converted) once per group; rows past
// the last whole tile use the one-row dot.
func mulTiles(k tileKernel, w []byte, rows, stride int, cols tileColumns, dst hostTensor, M, m0 int) {
	if k.x16 != nil && rows >= 16 && shortRow(len(cols.x(0))) {
		done := mulShortRows(k, w, rows, stride, cols, dst, M, m0)
		if done == rows {
			return
		}
		w, rows, m0 = w[done*stride:], rows-done, m0+done
	}
	// The group table is zeroed at every call (one per weight block): a
	// small one for the few columns of decode steps and attention.
	if cols.n <= 6 {
		var groups [2]tileGroup
		mulTileGroups(groups[:], k, w, rows, stride, cols, dst, M, m0)
		return
	}
	// Wider products (few weight rows against many x rows) go
	// maxTileColumns columns at a time.
	var groups [maxTileColumns/2 + 1]tileGroup
	for c0 := 0; c0 < cols.n; {
		part := cols
		part.n = min(maxTileColumns, cols.n-c0)
		if cols.n-c0-part.n == 1 {
			part.n -= 2 // groups take two or three columns: leave three
		}
		if base := c0; base > 0 {
			part.x = func(c int) []float32 { return cols.x(base + c) }
			part.out0 = cols.out(base)
		}
		mulTileGroups(groups[:], k, w, rows, stride, part, dst, M, m0)
		c0 += part.n
	}
}

// tileGroup is two or three columns of x that mulTiles multiplies with
// each tile of weight rows in one kernel call.
type tileGroup struct {
	x    [4][]float32 // x[2] nil for 2 columns; x[3] for 4 (x4c4)
	out  []float32
	cols int
}

// mulTileGroups is mulTiles with a group table long enough for cols.
func mulTileGroups(groups []tileGroup, k tileKernel, w []byte, rows, stride int, cols tileColumns, dst hostTensor, M, m0 int) {
	ng := 0
	tiled := rows &^ 3
	ldo := cols.ldo
	// Long rows take 3 columns a group where they can: the 4-column
	// kernel's two passes of 2 ran F32 4096×8×4096 at 70–73 GFLOPS in
	// cache, 3+3+2 at 86–96. Short rows (attention) take 4, in fewer calls.
	long := len(cols.x(0)) > shortTileRow
	for n0 := 0; n0 < cols.n; ng++ {
		g := &groups[ng]
		g.x, g.cols = [4][]float32{}, 3 // groups are reused over column chunks
		switch rest := cols.n - n0; {
		case k.x4c4 != nil && rest == 4:
			g.cols = 4
		case k.x4c4 != nil && !long && rest > 5:
			g.cols = 4 // 5 go as 3 and 2
		case rest == 2 || rest == 4:
			g.cols = 2
		}
		g.out, _ = f32View(dst.mem, cols.out(n0), (g.cols-1)*ldo+M)
		g.out = g.out[m0:]
		for c := 0; c < g.cols; c++ {
			g.x[c] = cols.x(n0 + c)
			for i := tiled; i < rows; i++ {
				g.out[c*ldo+i] = k.one(w[i*stride:], g.x[c])
			}
		}
		n0 += g.cols
	}
	i := 0
	if k.x8x2 != nil && pairsOnly(groups[:ng]) { // 8 rows a call
		for ; i+8 <= tiled; i += 8 {
			for j := range groups[:ng] {
				g := &groups[j]
				k.x8x2(w[i*stride:], stride, g.x[0], g.x[1], g.out[i:], ldo)
			}
		}
	}
	// A tile of weight rows stays in cache while it meets every group.
	for ; i < tiled; i += 4 {
		tile := w[i*stride:]
		for j := range groups[:ng] {
			g := &groups[j]
			if g.cols == 4 {
				k.x4c4(tile, stride, g.x[0], g.x[1], g.x[2], g.x[3], g.out[i:], ldo)
				continue
			}
			k.x4(tile, stride, g.x[0], g.x[1], g.x[2], g.out[i:], ldo)
		}
	}
}

// pairsOnly reports whether every group has two columns.
func pairsOnly(groups []tileGroup) bool {
	for i := range groups {
		if groups[i].cols != 2 {
			return false
		}
	}
	return true
}

// quantizeColumns quantizes every row of x to Q8 activations, in parallel,
// into b.q8 (row r is flat row r of x).
func (b *Backend) quantizeColumns(x hostTensor, work int) error {
	return b.prepared.reuse(&b.prepared.q8, &x, func() error {
		K := x.ne[0]
		b.q8.resize(x.rows(), K/rt.QK)
		return b.forRowsF32(x, work, func(r int, row []float32, ws *workspace) {
			b.kern.quantizeQ8(row, b.q8.row(r), ws.bytes(rt.Q8_0.RowSize(K)))
		})
	})
}

// quantizeColumnsK quantizes every row of x to Q8_K activations, in
// parallel, into b.q8k (row r is flat row r of x).
func (b *Backend) quantizeColumnsK(x hostTensor, work int) error {
	return b.prepared.reuse(&b.prepared.q8k, &x, func() error {
		b.q8k.resize(x.rows(), x.ne[0]/rt.QKK)
		return b.forRowsF32(x, work, func(r int, row []float32, _ *workspace) {
			b.kern.quantizeQ8K(row, b.q8k.row(r))
		})
	})
}

// forRowsF32 runs fn on every flat row r of x as float32, in parallel: in
// place where x holds aligned f32 rows, else converted into scratch slot 0.
func (b *Backend) forRowsF32(x hostTensor, work int, fn func(r int, row []float32, ws *workspace)) error {
	K := x.ne[0]
	direct := aligned32(x)
	return b.forRows(x.rows(), work, func(r0, r1 int, ws *workspace) error {
		for r := r0; r < r1; r++ {
			var row []float32
			if direct {
				row, _ = f32View(x.mem, x.rowAt(r), K)
			} else {
				row = ws.f32(0, K)
				x.loadRow(x.rowAt(r), row)
			}
			fn(r, row, ws)
		}
		return nil
	})
}

// mulMatGemm runs the packed GEMM.
func (b *Backend) mulMatGemm(w, x, dst hostTensor) error {
	K, M, N, ne12, _, r2, r3, batches, work := matmulDims(w, x)
	npan := (N + gemmMR - 1) / gemmMR
	panel := K * gemmMR // floats per packed x panel
	k := b.kern
	// Where the kernels can, whole panels of x are read in place: packing
	// them cost as much as the multiplies at the widths of small models
	// (the rows had just been written on the other core). Only a last,
	// partial panel is packed, by each task for itself.
	inPlace := k.gemmRows != nil && aligned32(x)
	if !inPlace {
		if err := b.packColumns(x, npan, work); err != nil {
			return err
		}
	}
	xp := b.xpack
	ldx := x.nb[1] / 4
	ldc := dst.nb[1] / 4
	nc := gemmRowsPerTask(M, batches, b.workers(batches*((M+gemmNR-1)/gemmNR), work))
	nchunk := (M + nc - 1) / nc
	ntask := batches * nchunk
	// F16 weights are packed as f16 where the kernels' tile converts them
	// (half the bytes, and no conversion pass); else as float32.
	halves := f16Rows(w) && k.gemmF16 != nil && k.packF16 != nil
	kStep := gemmKC
	if halves {
		kStep = gemmKCF16
	}
	// Where N leaves 4 or 2 rows past its 6-row panels (a 128-token
	// prompt: 2), the last 4 or 8 x rows go as 4-row panels read in place
	// rather than an edge panel of 6 whose zero rows are computed too.
	npan6, rows4 := npan, 0
	if inPlace && (halves && k.gemmF16Rows4 != nil || !halves && k.gemmRows4 != nil) {
		switch {
		case N%gemmMR == 4:
			rows4 = 1
		case N%gemmMR == 2 && N >= 8:
			rows4 = 2
		}
		if rows4 > 0 {
			npan6 = (N - 4*rows4) / gemmMR
			npan = npan6 + rows4
		}
	}
	// Whole 6-row panels of x read in place go to the run kernels, a run
	// of them a call, where the set has them.
	runs := inPlace && (halves && k.gemmF16RowsRun != nil || !halves && k.gemmRowsRun != nil)
	whole6 := N / gemmMR
	if rows4 > 0 {
		whole6 = npan6
	}
	// F16 weights in a weights buffer are packed once, in whole panels
	// (repack_f16.go), and their blocks read in place.
	var panels *repackedRows
	if halves {
		panels = repackedF16For(k, w)
	}
	prefetch := k.prefetchRows != nil && weightsStreamed()
	// blockAt is the byte offset of task t's first weight row, or of its
	// first panel in panels.
	blockAt := func(t int) int {
		batch := t / nchunk
		if panels != nil {
			return panels.at(w.ne[2], t%nchunk*nc/gemmNR, batch%ne12/r2, batch/ne12/r3)
		}
		return w.at(t%nchunk*nc, batch%ne12/r2, batch/ne12/r3)
	}
	var next atomic.Int64
	return b.pool.run(b.workers(ntask, work), func(_, _ int, ws *workspace) error {
		tile := ws.f32(1, gemmMR*gemmNR)
		var bp []float32
		var bh, rowsScratch []byte
		switch {
		case panels != nil:
		case halves:
			bh = ws.bytes(2*gemmNC*kStep + 2*gemmNR*kStep)
			bh, rowsScratch = bh[:2*gemmNC*kStep], bh[2*gemmNC*kStep:]
		default:
			bp = ws.f32(2, gemmNC*gemmKC)
		}
		for t := int(next.Add(1) - 1); t < ntask; {
			batch, chunk := t/nchunk, t%nchunk
			i12, i13 := batch%ne12, batch/ne12
			mc0 := chunk * nc
			mc1 := min(M, mc0+nc)
			nj := (mc1 - mc0 + gemmNR - 1) / gemmNR
			tn := -1 // the next task, once claimed
			for pc := 0; pc < K; pc += kStep {
				kc := min(kStep, K-pc)
				switch {
				case panels != nil:
				case halves:
					packWeightsF16(k, w, i12/r2, i13/r3, mc0, mc1, pc, kc, bh, rowsScratch)
				default:
					b.packWeights(w, i12/r2, i13/r3, mc0, mc1, pc, kc, bp, ws)
				}
				// While this block is multiplied, the weights of the next
				// come from memory: the next k block of these rows, or,
				// from the last, the next task's first, claimed now for
				// that. Weights that stay in the caches skip it: for a
				// small model's prompt it was 2 % of the time, and claiming
				// early can leave the other worker without a task.
				var ahead rowPrefetch
				if prefetch {
					nextBlock, kNext := -1, pc+kStep
					if kNext >= K {
						kNext = 0
						if tn = int(next.Add(1) - 1); tn < ntask {
							nextBlock = blockAt(tn)
						}
					} else {
						nextBlock = blockAt(t)
					}
					switch {
					case nextBlock < 0:
					case panels != nil:
						ahead = newRowPrefetch(k, panels.data, nextBlock+2*gemmNR*kNext, panels.rowBytes, nj, 2*gemmNR*kStep, nj*npan)
					default:
						ahead = newRowPrefetch(k, w.mem, nextBlock+w.typ.RowSize(kNext), w.nb[1], mc1-mc0, w.typ.RowSize(kStep), nj*npan)
					}
				}
				var edge []float32 // the partial panel of x, packed
				if inPlace && N%gemmMR != 0 && rows4 == 0 {
					edge = packEdgePanel(x, i12, i13, pc, kc, ws.f32(4, kc*gemmMR))
				}
				// As in BLIS: a gemmNR-wide weight panel stays in L1 while
				// gemmMC x panels stream through it from L2.
				for p0 := 0; p0 < npan; p0 += gemmMC {
					for j := 0; j < nj; j++ {
						m0 := mc0 + j*gemmNR
						mr := min(gemmNR, mc1-m0)
						var bj []float32
						var bjh []byte
						switch {
						case panels != nil:
							p := panels.row(w.ne[2], mc0/gemmNR+j, i12/r2, i13/r3)
							bjh = p[2*gemmNR*pc : 2*gemmNR*(pc+kc)]
						case halves:
							bjh = bh[2*j*kc*gemmNR : 2*(j+1)*kc*gemmNR]
						default:
							bj = bp[j*kc*gemmNR : (j+1)*kc*gemmNR]
						}
						pEnd, p := min(npan, p0+gemmMC), p0
						if run := min(pEnd, whole6) - p; runs && run > 0 && mr == gemmNR {
							ahead.steps(run)
							a, _ := f32View(x.mem, x.at(p*gemmMR, i12, i13)+4*pc, (run*gemmMR-1)*ldx+kc)
							c, _ := f32View(dst.mem, dst.at(p*gemmMR, i12, i13)+4*m0, (run*gemmMR-1)*ldc+gemmNR)
							if halves {
								k.gemmF16RowsRun(kc, a, ldx, run, bjh, c, ldc, pc > 0)
							} else {
								k.gemmRowsRun(kc, a, ldx, run, bj, c, ldc, pc > 0)
							}
							p += run
						}
						for ; p < pEnd; p++ {
							n0 := p * gemmMR
							nr := min(gemmMR, N-n0)
							four := p >= npan6 // a 4-row panel (rows4 > 0)
							if four {
								n0, nr = gemmMR*npan6+4*(p-npan6), 4
							}
							cbase := dst.at(n0, i12, i13) + 4*m0
							// Panel p's x rows: in place, the packed edge
							// panel, or the packed panels. (A closure over
							// these, made a tile, was 8 % of a small model's
							// prompt.)
							var a []float32
							whole := nr == gemmMR || four // no zero rows
							rows := inPlace && whole
							switch {
							case rows:
								a, _ = f32View(x.mem, x.at(n0, i12, i13)+4*pc, (nr-1)*ldx+kc)
							case inPlace:
								a = edge
							default:
								a = xp[(batch*npan+p)*panel+pc*gemmMR : (batch*npan+p)*panel+(pc+kc)*gemmMR]
							}
							ahead.steps(1)
							c, cl, add := tile, gemmNR, false
							full := whole && mr == gemmNR
							if full {
								c, _ = f32View(dst.mem, cbase, (nr-1)*ldc+gemmNR)
								cl, add = ldc, pc > 0
							}
							switch {
							case four && halves:
								k.gemmF16Rows4(kc, a, ldx, bjh, c, cl, add)
							case four:
								k.gemmRows4(kc, a, ldx, bj, c, cl, add)
							case halves && rows:
								k.gemmF16(kc, a, ldx, 1, bjh, c, cl, add)
							case halves:
								k.gemmF16(kc, a, 1, gemmMR, bjh, c, cl, add)
							case rows:
								k.gemmRows(kc, a, ldx, bj, c, cl, add)
							default:
								k.gemm(kc, a, bj, c, cl, add)
							}
							if full {
								continue
							}
							// An edge tile: computed aside, its valid part kept.
							for i := 0; i < nr; i++ {
								c, _ := f32View(dst.mem, cbase+i*dst.nb[1], mr)
								src := tile[i*gemmNR : i*gemmNR+mr]
								if pc > 0 {
									for jj, v := range src {
										c[jj] += v
									}
								} else {
									copy(c, src)
								}
							}
						}
					}
				}
			}
			if tn < 0 {
				tn = int(next.Add(1) - 1)
			}
			t = tn
		}
		return nil
	})
}

// A rowPrefetch fetches a block of weight rows into the caches a few
// rows at a time, spread over the tile calls that multiply the block
// before it (a run kernel's call takes its tiles' share at once). Issued
// at once, a block's 1,024 lines overflowed the core's miss buffers, and
// the GEMM's strided reads (a few hundred bytes of each row) went on at
// DRAM latency: 4–6 GB/s.
type rowPrefetch struct {
	fetch         func(p uintptr, stride, rows, n int)
	p             uintptr // not a pointer: it may point past mem
	stride, n     int
	rows, perStep int
}

// newRowPrefetch prefetches, over steps calls of step, n bytes at each of
// rows rows of mem from byte off, stride bytes apart.
func newRowPrefetch(k *kernels, mem []byte, off, stride, rows, n, steps int) rowPrefetch {
	return rowPrefetch{
		fetch:  k.prefetchRows,
		p:      uintptr(unsafe.Pointer(unsafe.SliceData(mem))) + uintptr(off),
		stride: stride, n: n,
		rows: rows, perStep: (rows + steps - 1) / max(steps, 1),
	}
}

// steps issues the next n steps' prefetches, if any are left.
func (f *rowPrefetch) steps(n int) {
	if f.rows <= 0 {
		return
	}
	r := min(n*f.perStep, f.rows)
	f.fetch(f.p, f.stride, r, f.n)
	f.p += uintptr(r * f.stride)
	f.rows -= r
}

// gemmRowsPerTask is how many weight rows one GEMM task packs and
// multiplies: gemmNC, or fewer, down to one register tile's gemmNR, when
// that leaves fewer than 4 tasks per worker (a 128-row product was one
// task, which left the second worker idle). A multiple of gemmNR, so the
// tiles, and so the results, are the same for any thread count.
func gemmRowsPerTask(M, batches, nth int) int {
	if nth <= 1 || batches*((M+gemmNC-1)/gemmNC) >= 4*nth {
		return gemmNC
	}
	perBatch := (4*nth + batches - 1) / batches
	return max(gemmNR, min(gemmNC, M/perBatch/gemmNR*gemmNR))
}

// packColumns packs every matrix of x into b.xpack as npan panels of
// gemmMR rows: panel p holds x[k, p*gemmMR+i] at k*gemmMR+i, zero past N.
func (b *Backend) packColumns(x hostTensor, npan, work int) error {
	return b.prepared.reuse(&b.prepared.packed, &x, func() error {
		K, N, ne12 := x.ne[0], x.ne[1], x.ne[2]
		batches := ne12 * x.ne[3]
		panel := K * gemmMR
		b.xpack = grow(b.xpack, batches*npan*panel)
		xp := b.xpack
		direct := aligned32(x)
		return b.forRows(batches*npan, work, func(t0, t1 int, ws *workspace) error {
			for t := t0; t < t1; t++ {
				batch, p := t/npan, t%npan
				i12, i13 := batch%ne12, batch/ne12
				var rows [gemmMR][]float32
				for i := range rows {
					n := p*gemmMR + i
					switch {
					case n >= N:
						rows[i] = ws.f32(i, K) // zeros: rows past N
						clear(rows[i])
					case direct:
						rows[i], _ = f32View(x.mem, x.at(n, i12, i13), K)
					default:
						rows[i] = ws.f32(i, K)
						x.loadRow(x.at(n, i12, i13), rows[i])
					}
				}
				// Interleave the rows, writing the panel in order.
				dstp := xp[t*panel : (t+1)*panel]
				r0, r1, r2, r3, r4, r5 := rows[0][:K], rows[1][:K], rows[2][:K], rows[3][:K], rows[4][:K], rows[5][:K]
				for kk := range r0 {
					d := dstp[kk*gemmMR : kk*gemmMR+gemmMR : kk*gemmMR+gemmMR]
					d[0], d[1], d[2], d[3], d[4], d[5] = r0[kk], r1[kk], r2[kk], r3[kk], r4[kk], r5[kk]
				}
			}
			return nil
		})
	})
}

// packWeights packs weight rows [m0,m1) of matrix (i2,i3), columns
// [k0,k0+kc), as float32 into bp: panel j holds row m0+j*gemmNR+jj at
// k*gemmNR+jj, zero past m1. Aligned f32 rows are transposed in place,
// f16 rows converted as they are transposed, where the kernels can;
// other rows are converted to f32 scratch first.
func (b *Backend) packWeights(w hostTensor, i2, i3, m0, m1, k0, kc int, bp []float32, ws *workspace) {
	k := b.kern
	direct := aligned32(w)
	stride := w.nb[1] / 4
	halves := f16Rows(w) && k.transpose8F16 != nil
	nj := (m1 - m0 + gemmNR - 1) / gemmNR
	for j := 0; j < nj; j++ {
		pj := bp[j*kc*gemmNR : (j+1)*kc*gemmNR]
		mj := m0 + j*gemmNR
		rows := min(gemmNR, m1-mj)
		if halves {
			src := copyF16Rows(w, i2, i3, mj, m1, k0, kc, ws.bytes(2*gemmNR*kc))
			k.transpose8F16(pj, gemmNR, src, 2*kc, kc)
			k.transpose8F16(pj[8:], gemmNR, src[16*kc:], 2*kc, kc)
			continue
		}
		src, ss := []float32(nil), kc
		if direct && rows == gemmNR {
			src, _ = f32View(w.mem, w.at(mj, i2, i3)+4*k0, (gemmNR-1)*stride+kc)
			ss = stride
		} else {
			src = ws.f32(3, gemmNR*kc)
			for jj := 0; jj < gemmNR; jj++ {
				row := src[jj*kc : (jj+1)*kc]
				if jj < rows {
					b.weightRange(w, w.at(mj+jj, i2, i3), k0, row)
				} else {
					clear(row)
				}
			}
		}
		k.transpose8(pj, gemmNR, src, ss, kc)
		k.transpose8(pj[8:], gemmNR, src[8*ss:], ss, kc)
	}
}

// f16Rows reports whether w's rows are contiguous f16 values, as the f16
// packing kernels read them.
func f16Rows(w hostTensor) bool { return w.typ == rt.F16 && w.nb[0] == 2 }

// packWeightsF16 is packWeights for f16 weights into f16 panels (the
// kernels' packF16 layout) for gemmF16: rows past m1 are zeros. rows is
// scratch for copyF16Rows.
func packWeightsF16(k *kernels, w hostTensor, i2, i3, m0, m1, k0, kc int, bp, rows []byte) {
	nj := (m1 - m0 + gemmNR - 1) / gemmNR
	for j := 0; j < nj; j++ {
		src := copyF16Rows(w, i2, i3, m0+j*gemmNR, m1, k0, kc, rows)
		k.packF16(bp[2*j*kc*gemmNR:2*(j+1)*kc*gemmNR], src, 2*kc, kc)
	}
}

// copyF16Rows copies halves [k0,k0+kc) of the gemmNR f16 weight rows
// from mj (zeros past m1) into rows, 2*kc bytes a row, for the packing
// kernels. Read in place, 16 rows a power of two apart (2 or 4 KiB for K
// = 1024 or 2048) fall into one or two L1 sets, and packing them missed
// L1 at every load.
func copyF16Rows(w hostTensor, i2, i3, mj, m1, k0, kc int, rows []byte) []byte {
	rows = rows[:2*gemmNR*kc]
	for r := 0; r < gemmNR; r++ {
		dst := rows[2*r*kc : 2*(r+1)*kc]
		if mj+r >= m1 {
			clear(dst)
			continue
		}
		off := w.at(mj+r, i2, i3) + 2*k0
		copy(dst, w.mem[off:off+2*kc])
	}
	return rows
}

// weightRange converts elements [k0,k0+len(out)) of the weight row at byte
// off to float32.
func (b *Backend) weightRange(w hostTensor, off, k0 int, out []float32) {
	kc := len(out)
	switch {
	case f16Rows(w):
		b.kern.f16ToF32(w.mem[off+2*k0:off+2*(k0+kc)], out)
	case w.typ == rt.Q8_0:
		s := off + k0/rt.QK*34
		b.kern.dequantQ8(w.mem[s:s+kc/rt.QK*34], out)
	case w.typ == rt.Q4_0:
		s := off + k0/rt.QK*18
		b.kern.dequantQ4(w.mem[s:s+kc/rt.QK*18], out)
	case w.typ.IsQuantized() && w.typ.BlockSize() <= gemmKC:
		// gemmKC is a multiple of the block, so k0 starts one.
		s := off + w.typ.RowSize(k0)
		dequantRowGo(w.typ, w.mem[s:s+w.typ.RowSize(kc)], out)
	default:
		w.loadRow(off+k0*w.nb[0], out)
	}
}

// panelBlock is the size of one repacked block of 8 weight rows: their 8
// scales as float32, then 8 chunks of 32 bytes, chunk g holding quants
// 4g..4g+3 of row r at bytes 4r..4r+3.
const panelBlock = 32 + 8*32

// An inputKey names the activations a MUL_MAT prepared from x (packed for
// the GEMM, or quantized to Q8 or Q8_K rows): x's memory and layout. The
// MUL_MATs that share an input (q, k and v; gate and up) then prepare it
// once. The zero key names nothing.
type inputKey struct {
	mem       *byte
	off, span int
	typ       rt.DType
	ne, nb    [rt.MaxDims]int
}

func inputKeyOf(x *hostTensor) inputKey {
	if len(x.mem) == 0 || x.span <= 0 {
		return inputKey{}
	}
	return inputKey{mem: unsafe.SliceData(x.mem), off: x.off, span: x.span, typ: x.typ, ne: x.ne, nb: x.nb}
}

// preparedInputs records what b.xpack, b.q8 and b.q8k hold. Each graph
// compute starts with none, and a node writing over a recorded input
// drops its record (written), so a reuse never sees stale values.
type preparedInputs struct{ packed, q8, q8k inputKey }

// reuse runs fill unless rec says its scratch holds x's activations
// already, and records x once fill succeeds.
func (p *preparedInputs) reuse(rec *inputKey, x *hostTensor, fill func() error) error {
	key := inputKeyOf(x)
	if key.mem != nil && *rec == key {
		return nil
	}
	*rec = inputKey{}
	if err := fill(); err != nil {
		return err
	}
	*rec = key
	return nil
}

// written drops the records of inputs that dst's memory overlaps.
func (p *preparedInputs) written(dst *hostTensor) {
	if len(dst.mem) == 0 {
		return
	}
	mem := unsafe.SliceData(dst.mem)
	for _, rec := range [...]*inputKey{&p.packed, &p.q8, &p.q8k} {
		if rec.mem == mem && dst.off < rec.off+rec.span && rec.off < dst.off+dst.span {
			*rec = inputKey{}
		}
	}
}

// packEdgePanel packs x's last, partial panel of matrix (i12,i13), columns
// [pc,pc+kc), as packColumns does (zero rows past N), into ap. x holds
// aligned float32 rows.
func packEdgePanel(x hostTensor, i12, i13, pc, kc int, ap []float32) []float32 {
	N := x.ne[1]
	n0 := N / gemmMR * gemmMR
	clear(ap)
	for i := 0; n0+i < N; i++ {
		row, _ := f32View(x.mem, x.at(n0+i, i12, i13)+4*pc, kc)
		for kk, v := range row {
			ap[kk*gemmMR+i] = v
		}
	}
	return ap
}
