package cpu

import (
	"os"
	"slices"
	"sync/atomic"

	rt "github.com/gpurt/gpurt/runtime"
)

// Fused attention for decode steps. A graph's attention without flash
// attention is three consecutive nodes,
//
//	kq  = MUL_MAT(keys, q)          [nKV, N, heads, streams]
//	w   = SOFT_MAX(kq, mask)        scaled, soft-capped, masked
//	kqv = MUL_MAT(valsᵀ, w)         [Dv, N, heads, streams]
//
// and when a step generates one token per sequence each product is tiny
// (an 8-to-32-wide head over a few dozen cells, N = the query heads of one
// kv head), so the three ops cost their dispatches, their per-block set-up
// and a pass over the scores each, for a few hundred multiply-adds per
// (kv head, stream). GraphCompute runs such a triple as one op instead
// (attention): one task per (kv head, stream) computes its scores, their
// softmax and the weighted values while they are in L1, workers claim the
// tasks from one counter (so 4 streams' attention splits over the workers
// where no single product was big enough to), and only the cells some
// row's mask leaves live are read: a causal mask's -Inf tail of the
// padded cache (kvPad cells in llama) is neither scored nor weighted.
//
// The results equal the three ops' bit for bit: the scores use the
// matmul's tile kernels on the same blocks of rows, the softmax is the op's
// row function, and the value products stop early only at a multiple of
// 32 cells past the last live one, where every weight left is zero (the
// kernels' lanes then add zeros). TestAttentionFusion checks this.
//
// The triple fuses only when nothing else reads kq or w: no other node of
// the graph (or view) takes them as a source and neither is a graph
// output. A backend sees one split of a scheduled graph, or with an eval
// callback a run of its nodes ending at each node the callback reads
// (sched's runSplit), so kq and w stay unfused when the callback wants
// them; llama's attention never sends kq or w to another split.

// fusionEnabled is false when GPURT_CPU_FUSE=0: every node runs as its
// own op (to compare).
var fusionEnabled = os.Getenv("GPURT_CPU_FUSE") != "0"

// maxFusedColumns is the most query rows per (kv head, stream) that fuse:
// a decode step's grouped query heads (prompts' products are large enough
// to run well as ops).
const maxFusedColumns = 8

// fusedCells is the step, in cells, at which the value products stop
// past the last live cell: a multiple of every tile kernel's widest step,
// so that the live cells meet the same lanes as in the full product.
const fusedCells = 32

// fusionPlan is which nodes of one graph start a fused attention.
type fusionPlan struct {
	nodes []*rt.Tensor // the graph's nodes when planned
	at    []bool       // at[i]: nodes i, i+1, i+2 fuse
}

// fusedAttentionAt is the plan for g: cached for the last two graphs (a
// model's decode and batch graphs alternate), made again when g's nodes
// changed.
func (b *Backend) fusedAttentionAt(g *rt.Graph) []bool {
	if b.kern == nil || b.noFusion {
		return nil
	}
	for i := range b.plans {
		if p := &b.plans[i]; slices.Equal(p.nodes, g.Nodes) {
			if i > 0 {
				b.plans[0], b.plans[1] = b.plans[1], b.plans[0]
			}
			return b.plans[0].at
		}
	}
	b.plans[1] = b.plans[0]
	b.plans[0] = fusionPlan{nodes: slices.Clone(g.Nodes), at: planAttention(g.Nodes)}
	return b.plans[0].at
}

// planAttention marks the attention triples of nodes whose scores and
// weights nothing else reads. It returns nil when there are none.
func planAttention(nodes []*rt.Tensor) []bool {
	var at []bool
	for i := 0; i+2 < len(nodes); i++ {
		kq, sm, kqv := nodes[i], nodes[i+1], nodes[i+2]
		if !attentionTriple(kq, sm, kqv) || uses(nodes, kq) != 1 || uses(nodes, sm) != 1 {
			continue
		}
		if at == nil {
			at = make([]bool, len(nodes))
		}
		at[i] = true
		i += 2
	}
	return at
}

// attentionTriple reports whether kq, sm and kqv are MUL_MAT, SOFT_MAX
// and MUL_MAT of a decode step's attention, each reading the one before,
// with kq and sm no graph outputs.
func attentionTriple(kq, sm, kqv *rt.Tensor) bool {
	return kq.Op == rt.OpMulMat && sm.Op == rt.OpSoftMax && kqv.Op == rt.OpMulMat &&
		sm.Src[0] == kq && sm.Src[1] != kq && kqv.Src[1] == sm && kqv.Src[0] != sm && kqv.Src[0] != kq &&
		kq.Ne[1] <= maxFusedColumns && (kq.Flags|sm.Flags)&rt.FlagOutput == 0
}

// uses counts the sources (and view sources) among nodes that are t.
func uses(nodes []*rt.Tensor, t *rt.Tensor) int {
	n := 0
	for _, x := range nodes {
		if x.ViewSrc == t {
			n++
		}
		for _, s := range x.Src {
			if s == t {
				n++
			}
		}
	}
	return n
}

// attnOperands are a fused attention's resolved tensors and parameters.
type attnOperands struct {
	keys, q, kq, sm, vals, out hostTensor
	mask                       *hostTensor
	tileK, tileV               tileKernel
	scale, softcap             float32
	// live[n + N·(j2 + mask.ne[2]·j3)] is one past the last cell that
	// row n of mask matrix (j2, j3) leaves live: every kv head of a
	// stream shares its mask, so it is found once an op.
	live []int32
}

// attention runs nodes kq, sm and kqv (planned by planAttention) as one op
// and reports whether it did; it declines operands its kernels do not
// take (then the nodes run one by one).
func (b *Backend) attention(kqN, smN, kqvN *rt.Tensor) (bool, error) {
	if !attentionTriple(kqN, smN, kqvN) { // sources rewritten since the plan
		return false, nil
	}
	for _, n := range []*rt.Tensor{kqN, smN, kqvN} {
		if err := validate(n); err != nil {
			return false, nil // reported by computeNode
		}
	}
	var o attnOperands
	var err error
	for _, r := range []struct {
		h *hostTensor
		t *rt.Tensor
	}{{&o.keys, kqN.Src[0]}, {&o.q, kqN.Src[1]}, {&o.kq, kqN}, {&o.sm, smN}, {&o.vals, kqvN.Src[0]}, {&o.out, kqvN}} {
		if *r.h, err = resolve(r.t, "attention operand"); err != nil {
			return false, nil
		}
	}
	if smN.Src[1] != nil {
		m, err := resolve(smN.Src[1], "mask")
		if err != nil || m.typ != rt.F32 || !aligned32(m) {
			return false, nil
		}
		o.mask = &m
	}
	var okK, okV bool
	defer func() {
		// It writes the result (and may write the scores' memory) without
		// computeNode: drop prepared inputs that lived there.
		b.prepared.written(&o.kq)
		b.prepared.written(&o.sm)
		b.prepared.written(&o.out)
	}()
	o.tileK, okK = b.kern.rowKernels(o.keys)
	o.tileV, okV = b.kern.rowKernels(o.vals)
	if !okK || !okV || !fastF32(&o.q, &o.kq, &o.sm, &o.out) || o.q.ne[0] == 0 || o.kq.ne[0] == 0 {
		return false, nil
	}
	// The one-column products with heads broadcast over one kv head run
	// on mulMatF16Heads as ops; their fused form would compute otherwise.
	N := o.q.ne[1]
	if N == 1 && (o.q.ne[2] != o.keys.ne[2] || o.sm.ne[2] != o.vals.ne[2]) {
		return false, nil
	}
	if !contiguous(o.out) {
		return false, nil
	}
	o.scale, o.softcap = smN.ParamF(0), smN.ParamF(1)
	if err := b.runAttention(&o); err != nil {
		return true, err
	}
	// As computeNode: a graph writing into weights makes their repacked
	// copies stale.
	if wb, ok := kqvN.Buffer.(*weightBuffer); ok && wb.Usage() == rt.UsageWeights {
		wb.Written(kqvN)
	}
	b.fusedAttentions++
	return true, nil
}

// contiguous reports whether h's elements are packed in order.
func contiguous(h hostTensor) bool {
	nb := h.typ.TypeSize()
	for i := range h.nb {
		if h.ne[i] > 1 && h.nb[i] != nb {
			return false
		}
		nb *= h.ne[i]
	}
	return true
}

// runAttention runs one task per (kv head, stream) matrix of q. The
// scores and weights stay in each worker's scratch (nothing reads kq and
// sm), and the results go to a scratch copy of out that is copied over
// it at the end: the graph allocator may have given out (or kq, sm) the
// memory of q, which the one op reads until its last task.
func (b *Backend) runAttention(o *attnOperands) error {
	D, M, N, ne12, ne13 := o.q.ne[0], o.kq.ne[0], o.q.ne[1], o.q.ne[2], o.q.ne[3]
	Dv := o.out.ne[0]
	batches := ne12 * ne13
	size := Dv * N * batches * 4
	b.attnOut = grow(b.attnOut, size)
	res := o.out
	res.mem, res.off = b.attnOut, 0
	if m := o.mask; m != nil {
		b.attnLive = grow(b.attnLive, N*m.ne[2]*m.ne[3])
		o.live = b.attnLive
		for j3 := range m.ne[3] {
			for j2 := range m.ne[2] {
				for n := range N {
					row, _ := f32View(m.mem, m.at(n, j2, j3), M)
					o.live[n+N*(j2+m.ne[2]*j3)] = int32(liveLength(row))
				}
			}
		}
	}
	work := batches * N * M * (D + Dv)
	nth := b.workers(batches, work/attnGrainFactor)
	for len(b.attnTasks) < nth {
		b.attnTasks = append(b.attnTasks, newAttnTask())
	}
	for _, t := range b.attnTasks[:nth] {
		t.o, t.res = o, &res
	}
	var next atomic.Int64
	err := b.pool.run(nth, func(ith, _ int, ws *workspace) error {
		t := b.attnTasks[ith]
		for i := int(next.Add(1)) - 1; i < batches; i = int(next.Add(1)) - 1 {
			t.attend(b.kern, i%ne12, i/ne12, ws)
		}
		return nil
	})
	for _, t := range b.attnTasks[:nth] {
		t.o, t.res = nil, nil // the operands' memory is the graph's
	}
	copy(o.out.mem[o.out.off:o.out.off+size], b.attnOut)
	return err
}

// attnGrainFactor is how many multiply-adds of a fused attention count as
// one element of the split grain: fewer than a matmul's
// (matmulGrainFactor), since a task also runs a softmax and the products'
// per-tile calls on a few dozen cells.
const attnGrainFactor = 1

// attnTask is one worker's state for the (kv head, stream) matrices it
// computes, kept by the backend with the column functions of their
// products, which are made once rather than once a matrix.
type attnTask struct {
	o        *attnOperands
	res      *hostTensor // out's layout, in the scratch result
	sc       hostTensor  // the matrix's scores, then its weights
	i12, i13 int
	cells    int // the weights' length the value product reads
	q, w     func(c int) []float32
}

func newAttnTask() *attnTask {
	t := &attnTask{}
	t.q = func(c int) []float32 {
		v, _ := f32View(t.o.q.mem, t.o.q.at(c, t.i12, t.i13), t.o.q.ne[0])
		return v
	}
	t.w = func(c int) []float32 { return t.sc.view(c, 0, 0)[:t.cells] }
	return t
}

// attend computes matrix (i12, i13) of the attention into t.res, its
// scores and weights in ws.
func (t *attnTask) attend(k *kernels, i12, i13 int, ws *workspace) {
	o := t.o
	t.i12, t.i13 = i12, i13
	M, N := o.kq.ne[0], o.q.ne[1]
	t.sc = hostTensor{typ: rt.F32, ne: [rt.MaxDims]int{M, N, 1, 1}, mem: ws.bytes(4 * M * N)}
	t.sc.nb = [rt.MaxDims]int{4, 4 * M, 4 * M * N, 4 * M * N}
	// live is one past the last cell any row's mask leaves; windows[n] is
	// row n's softmax window, its live cells rounded up as softMaxRow
	// rounds them, found here once rather than again by the softmax.
	live := M
	var windows [maxFusedColumns]int32
	if o.mask != nil {
		live = 0
		lives := o.live[N*(i12%o.mask.ne[2]+o.mask.ne[2]*(i13%o.mask.ne[3])):]
		for n := range N {
			l := int(lives[n])
			live = max(live, l)
			windows[n] = int32(softMaxWindow(l, M))
		}
	}
	// Scores: every key row up to the softmax's window past the last live
	// cell (softMaxVector cells: the softmax reads that far, and a cell
	// left unscored would hold the scratch's stale bits), in one call:
	// each row's dot is its own, so the matmul's blocks of mmRows rows
	// compute what one block of them all does.
	scored := softMaxWindow(live, M)
	r2, r3 := o.q.ne[2]/o.keys.ne[2], o.q.ne[3]/o.keys.ne[3]
	base := o.keys.at(0, i12/r2, i13/r3)
	tileRows(o.tileK, o.keys, base, scored, t.q, &t.sc, 0, 0)
	rowAt := func(n int) (row []float32, moff int, window *int32) {
		if o.mask != nil {
			moff, window = o.mask.at(n, i12%o.mask.ne[2], i13%o.mask.ne[3]), &windows[n]
		}
		return t.sc.view(n, 0, 0), moff, window
	}
	n := 0
	for ; n+2 <= N; n += 2 { // two rows a call: their latencies overlap
		r0, m0, w0 := rowAt(n)
		r1, m1, w1 := rowAt(n + 1)
		k.softMaxRowPair(r0, r1, o.mask, m0, m1, w0, w1, o.scale, o.softcap, ws)
	}
	if n < N {
		row, moff, window := rowAt(n)
		k.softMaxRow(row, row, o.mask, moff, window, o.scale, o.softcap, ws)
	}
	// Weighted values: every value row (channel), over the cells up to
	// a multiple of fusedCells past the last live one.
	t.cells = min(M, max(fusedCells, (live+fusedCells-1)/fusedCells*fusedCells))
	Dv := o.out.ne[0]
	r2, r3 = o.sm.ne[2]/o.vals.ne[2], o.sm.ne[3]/o.vals.ne[3]
	base = o.vals.at(0, i12/r2, i13/r3)
	tileRows(o.tileV, o.vals, base, Dv, t.w, t.res, i12, i13)
}

// rowKernels are the kernels mulMatDot multiplies f32 or f16 weight rows
// w with: the tile kernel where the set has one, and the one-row dot;
// false for other weights.
func (k *kernels) rowKernels(w hostTensor) (tileKernel, bool) {
	kind := k.weightKind(w)
	tile := k.tileKernel(kind)
	switch {
	case kind != rowF16 && kind != rowF32:
		return tile, false
	case tile.one == nil: // f32 rows without the tile kernel
		tile.one = func(w []byte, x []float32) float32 {
			row, _ := f32View(w, 0, len(x))
			return k.dotF32(row, x)
		}
	}
	return tile, true
}

// tileRows computes rows [0, rows) of matrix (i12, i13) of dst against
// every column x(c) of it, rows of w from byte offset off, as mulMatDot
// computes its blocks of f32 or f16 weight rows: on the tile kernels for
// two or more columns, else four rows at a time for short rows and the
// one-row dot for the rest. The full product's K decides the one-column
// kernel, so that a shortened x computes what the op would.
func tileRows(tile tileKernel, w hostTensor, off, rows int, x func(c int) []float32, dst *hostTensor, i12, i13 int) {
	base, stride := w.mem[off:], w.nb[1]
	M, N := dst.ne[0], dst.ne[1]
	if tile.x4 == nil { // every result a one-row dot
		for c := range N {
			out, _ := f32View(dst.mem, dst.at(c, i12, i13), M)
			xc := x(c)
			for i := range rows {
				out[i] = tile.one(base[i*stride:], xc)
			}
		}
		return
	}
	if N >= 2 {
		cols := tileColumns{n: N, x: x, out0: dst.at(0, i12, i13), ldo: dst.nb[1] / 4}
		out, _ := f32View(dst.mem, cols.out0, (N-1)*cols.ldo+M)
		switch {
		// mulTiles' kernel calls for these shapes, made here without its
		// layers (a fifth of a tiny model's attention): the same calls on
		// the same rows, so the same bits.
		case tile.x16 != nil && rows >= 16 && N <= maxShortColumns && shortRow(len(x(0))):
			blocks := rows &^ 15
			tile.x16(base, stride, blocks, x, N, out, cols.ldo)
			if blocks < rows {
				mulTiles(tile, base[blocks*stride:], rows-blocks, stride, cols, *dst, M, blocks)
			}
		case tile.x8x2 != nil && N == 2 && rows%8 == 0:
			x0, x1 := x(0), x(1)
			for i := 0; i < rows; i += 8 {
				tile.x8x2(base[i*stride:], stride, x0, x1, out[i:], cols.ldo)
			}
		default:
			mulTiles(tile, base, rows, stride, cols, *dst, M, 0)
		}
		return
	}
	out, _ := f32View(dst.mem, dst.at(0, i12, i13), rows)
	c := x(0)
	i := 0
	if w.ne[0] <= shortTileRow {
		for ; i+4 <= len(out); i += 4 {
			tile.x4(base[i*stride:], stride, c, nil, nil, out[i:], 0)
		}
	}
	for ; i < len(out); i++ {
		out[i] = tile.one(base[i*stride:], c)
	}
}
