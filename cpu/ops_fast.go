package cpu

import (
	"math"

	rt "github.com/gpurt/gpurt/runtime"
)

// Fast paths for the row ops that dominate a transformer's non-matmul time:
// ADD, MUL, SILU, SwiGLU, RMS_NORM, SOFT_MAX and ROPE on float32 tensors whose rows
// are packed and 4-byte aligned (in place included), GET_ROWS from f16 and
// quantized tables, and CPY between f32 and f16 of one shape. Other dtypes
// and layouts take the reference loops.
//
// The fast ops pass their operands through b.args to task methods bound
// once in newBackend, so dispatching one allocates nothing; an op below the
// grain runs on the calling goroutine without touching the workers.

// opArgs are the operands of the fast op being run.
type opArgs struct {
	op        rt.Op
	a, c, dst hostTensor
	mask      hostTensor
	hasMask   bool
	f0, f1    float32 // eps, or the softmax scale and softcap
	node      *rt.Tensor
}

// tasks are the fast ops' task functions, bound to one backend.
type tasks struct {
	binary, silu, swiglu, rmsNorm, softMax, rope, getRows, convert, thin taskFunc
}

func (b *Backend) bindTasks() {
	b.tasks = tasks{
		binary:  b.binaryTask,
		silu:    b.siluTask,
		swiglu:  b.swigluTask,
		rmsNorm: b.rmsNormTask,
		softMax: b.softMaxTask,
		rope:    b.ropeTask,
		getRows: b.getRowsTask,
		convert: b.convertTask,
		thin:    b.thinTask,
	}
}

// fastF32 reports whether every tensor holds float32 rows the fast paths
// can view in place.
func fastF32(ts ...*hostTensor) bool {
	for _, t := range ts {
		if t.typ != rt.F32 || !aligned32(*t) {
			return false
		}
	}
	return true
}

// rowRange is worker ith's share of nr rows.
func rowRange(nr, ith, nth int) (int, int) { return nr * ith / nth, nr * (ith + 1) / nth }

// runRows runs fn over a's rows on as many workers as the op's size
// merits, then drops the operands so that they do not pin freed buffers.
func (b *Backend) runRows(a *hostTensor, fn taskFunc) error {
	nr := a.rows()
	err := b.pool.run(b.workers(nr, nr*a.ne[0]), fn)
	b.args = opArgs{}
	return err
}

// view is row (i1,i2,i3) of t as float32, ne0 long.
func (t *hostTensor) view(i1, i2, i3 int) []float32 {
	v, _ := f32View(t.mem, t.at(i1, i2, i3), t.ne[0])
	return v
}

// tryFast runs n on a fast path and reports whether it did.
func (b *Backend) tryFast(n *rt.Tensor, src *[rt.MaxSrc]hostTensor, dst *hostTensor) (bool, error) {
	args := &b.args
	switch n.Op {
	case rt.OpAdd, rt.OpMul:
		a, c := &src[0], &src[1]
		if !fastF32(a, c, dst) || c.ne[0] != a.ne[0] {
			return false, nil
		}
		*args = opArgs{op: n.Op, a: *a, c: *c, dst: *dst}
		return true, b.runRows(a, b.tasks.binary)
	case rt.OpGLU:
		a, c := &src[0], &src[1]
		if int(n.Params[0]) != rt.GLUSwiGLU || n.Src[1] == nil || c.ne != a.ne || !fastF32(a, c, dst) {
			return false, nil
		}
		*args = opArgs{a: *a, c: *c, dst: *dst}
		return true, b.runRows(a, b.tasks.swiglu)
	case rt.OpSilu:
		if !fastF32(&src[0], dst) {
			return false, nil
		}
		*args = opArgs{a: src[0], dst: *dst}
		return true, b.runRows(&src[0], b.tasks.silu)
	case rt.OpRmsNorm:
		if !fastF32(&src[0], dst) {
			return false, nil
		}
		*args = opArgs{a: src[0], dst: *dst, f0: n.ParamF(0)}
		return true, b.runRows(&src[0], b.tasks.rmsNorm)
	case rt.OpSoftMax:
		m, hasMask := &src[1], n.Src[1] != nil
		if !fastF32(&src[0], dst) || hasMask && m.nb[0] != m.typ.TypeSize() {
			return false, nil
		}
		*args = opArgs{a: src[0], dst: *dst, f0: n.ParamF(0), f1: n.ParamF(1), hasMask: hasMask}
		if hasMask {
			args.mask = *m // f16 or unaligned f32 rows are converted per row
		}
		return true, b.runRows(&src[0], b.tasks.softMax)
	case rt.OpGetRows:
		a, idx := &src[0], &src[1]
		if a.nb[0] != a.typ.TypeSize() || !fastF32(dst) ||
			(a.typ != rt.F16 && a.typ != rt.Q8_0 && a.typ != rt.Q4_0) {
			return false, nil
		}
		if err := checkIndices(*idx, a.ne[1]); err != nil {
			return true, err
		}
		*args = opArgs{a: *a, c: *idx, dst: *dst}
		return true, b.runRows(dst, b.tasks.getRows)
	case rt.OpCpy:
		a := &src[0]
		f32to16 := a.typ == rt.F32 && dst.typ == rt.F16 && fastF32(a) && dst.nb[0] == 2
		f16to32 := a.typ == rt.F16 && dst.typ == rt.F32 && a.nb[0] == 2 && fastF32(dst)
		f32toQ8 := a.typ == rt.F32 && dst.typ == rt.Q8_0 && fastF32(a) && dst.nb[0] == dst.typ.TypeSize()
		if a.ne != dst.ne || !(f32to16 || f16to32 || f32toQ8) {
			return false, nil
		}
		*args = opArgs{a: *a, dst: *dst}
		return true, b.runRows(a, b.tasks.convert)
	case rt.OpRope:
		if !fastF32(&src[0], dst) {
			return false, nil
		}
		*args = opArgs{a: src[0], c: src[1], dst: *dst, node: n}
		if err := b.ropeTab.prepare(n, &src[1]); err != nil {
			return true, err
		}
		return true, b.runRows(&src[0], b.tasks.rope)
	}
	return false, nil
}

// binaryTask computes ADD or MUL of rows of equal length; src1 rows repeat
// over dims 1-3.
func (b *Backend) binaryTask(ith, nth int, _ *workspace) error {
	args := &b.args
	a, c, dst := &args.a, &args.c, &args.dst
	f := b.kern.add
	if args.op == rt.OpMul {
		f = b.kern.mul
	}
	r0, r1 := rowRange(a.rows(), ith, nth)
	for r := r0; r < r1; r++ {
		i1, i2, i3 := a.coords(r)
		y := c.view(i1%c.ne[1], i2%c.ne[2], i3%c.ne[3])
		f(dst.view(i1, i2, i3), a.view(i1, i2, i3), y)
	}
	return nil
}

func (b *Backend) siluTask(ith, nth int, _ *workspace) error {
	a, dst := &b.args.a, &b.args.dst
	r0, r1 := rowRange(a.rows(), ith, nth)
	for r := r0; r < r1; r++ {
		i1, i2, i3 := a.coords(r)
		b.kern.silu(dst.view(i1, i2, i3), a.view(i1, i2, i3))
	}
	return nil
}

// swigluTask is GLU's SwiGLU of split gate and up rows: silu(a)·c.
func (b *Backend) swigluTask(ith, nth int, _ *workspace) error {
	a, c, dst := &b.args.a, &b.args.c, &b.args.dst
	r0, r1 := rowRange(a.rows(), ith, nth)
	for r := r0; r < r1; r++ {
		i1, i2, i3 := a.coords(r)
		out := dst.view(i1, i2, i3)
		b.kern.silu(out, a.view(i1, i2, i3))
		b.kern.mul(out, out, c.view(i1, i2, i3))
	}
	return nil
}

// rmsNormTask scales each row by 1/sqrt(mean(x²)+eps); the sum of squares
// is float32 in eight lanes, the scale float64.
func (b *Backend) rmsNormTask(ith, nth int, _ *workspace) error {
	a, dst, eps := &b.args.a, &b.args.dst, float64(b.args.f0)
	ne0 := a.ne[0]
	r0, r1 := rowRange(a.rows(), ith, nth)
	for r := r0; r < r1; r++ {
		i1, i2, i3 := a.coords(r)
		x := a.view(i1, i2, i3)
		ss := float64(b.kern.sumSq(x))
		b.kern.scale(dst.view(i1, i2, i3), x, float32(1/math.Sqrt(ss/float64(ne0)+eps)))
	}
	return nil
}

// softMaxVector is the multiple a masked row's live length is rounded up
// to: whole vectors of every kernel set (the AVX2 exponential takes 16
// floats a round).
const softMaxVector = 16

// softMaxWindow is how many cells of an ne0-cell row softMaxRow computes
// when live of them are unmasked: live rounded up to whole vectors.
func softMaxWindow(live, ne0 int) int {
	return min(ne0, (live+softMaxVector-1)&^(softMaxVector-1))
}

// liveLength is len(m) less m's tail of -inf, found four at a time.
func liveLength(m []float32) int {
	const negInf = 0xff800000
	n := len(m)
	for n >= 4 && (math.Float32bits(m[n-1])^negInf)|(math.Float32bits(m[n-2])^negInf)|
		(math.Float32bits(m[n-3])^negInf)|(math.Float32bits(m[n-4])^negInf) == 0 {
		n -= 4
	}
	for n > 0 && math.Float32bits(m[n-1]) == negInf {
		n--
	}
	return n
}

// softMaxTask computes softmax(x·scale + mask) per row, in the result row.
func (b *Backend) softMaxTask(ith, nth int, ws *workspace) error {
	args := &b.args
	a, dst := &args.a, &args.dst
	var mask *hostTensor
	if args.hasMask {
		mask = &args.mask
	}
	r0, r1 := rowRange(a.rows(), ith, nth)
	// The live length of each mask row, found once per worker: the heads
	// of a batch share the mask's rows. -1: not yet found.
	var liveLen []int32
	if args.hasMask {
		liveLen = ws.i32(mask.ne[1] * mask.ne[2] * mask.ne[3])
		for i := range liveLen {
			liveLen[i] = -1
		}
	}
	for r := r0; r < r1; r++ {
		i1, i2, i3 := a.coords(r)
		moff := 0
		if mask != nil {
			moff = mask.at(i1, i2%mask.ne[2], i3%mask.ne[3])
		}
		var live *int32
		if mask != nil {
			live = &liveLen[i1+mask.ne[1]*(i2%mask.ne[2]+mask.ne[2]*(i3%mask.ne[3]))]
		}
		b.kern.softMaxRow(a.view(i1, i2, i3), dst.view(i1, i2, i3), mask, moff, live, args.f0, args.f1, ws)
	}
	return nil
}

// softMaxRow sets out = softmax(x·scale + mask row) (x soft-capped first
// when softcap > 0), the mask's row at byte offset moff; mask nil is none.
// A causal mask ends most rows in -inf: those scores are 0, so the
// exponentials run on the rest only, rounded up to whole vectors (the -inf
// scores there give exactly 0) so that no kernel runs a scalar tail. live,
// if not nil, caches that length for the mask row (-1: not found yet). The
// fused attention (op_attnfuse.go) runs it too.
func (k *kernels) softMaxRow(x, out []float32, mask *hostTensor, moff int, live *int32, scale, softcap float32, ws *workspace) {
	ne0, s := len(out), scale
	if softcap > 0 {
		softcapRow(out, x, s, softcap) // then the mask, unscaled
		x, s = out, 1
	}
	m, n := maskWindow(mask, moff, ne0, live, ws, 0)
	clear(out[n:])
	row := out[:n]
	var sum float32
	if k.rowSoftMax != nil {
		sum = k.rowSoftMax(row, x, m, s)
	} else {
		sum = k.softMaxSteps(row, x, m, s)
	}
	if sum == 0 {
		clear(out) // a fully masked row
	}
}

// softMaxSteps is rowSoftMax on the elementwise kernels: dst = exp(v -
// max v)/Σ for v = x·s + m (m nil: no mask), returning Σ, or 0 for a
// row masked whole (dst then undefined).
func (k *kernels) softMaxSteps(dst, x, m []float32, s float32) float32 {
	if len(dst) == 0 {
		return 0
	}
	if m != nil {
		k.scaleAdd(dst, x, m, s)
	} else {
		k.scale(dst, x, s)
	}
	mx := k.maxOf(dst)
	if math.IsInf(float64(mx), -1) {
		return 0
	}
	sum := k.expSub(dst, dst, mx)
	k.scale(dst, dst, 1/sum)
	return sum
}

// maskWindow returns row moff of mask as float32 (in place, or loaded
// into scratch slot), cut to the row's softmax window, and that window:
// its live cells rounded up to whole vectors, from *live when it is known
// (>= 0), else found and, with live not nil, kept there. Without a mask
// it is nil and ne0.
func maskWindow(mask *hostTensor, moff, ne0 int, live *int32, ws *workspace, slot int) ([]float32, int) {
	if mask == nil {
		return nil, ne0
	}
	m, ok := f32View(mask.mem, moff, ne0)
	if !ok || mask.typ != rt.F32 {
		m = ws.f32(slot, ne0)
		mask.loadRow(moff, m)
	}
	if live != nil && *live >= 0 {
		return m[:*live], int(*live)
	}
	n := softMaxWindow(liveLength(m), ne0)
	if live != nil {
		*live = int32(n)
	}
	return m[:n], n
}

// softMaxRowPair is softMaxRow on rows x0 and x1 in place, both on
// rowSoftMax2 where the set has it and the rows share their window (the
// query heads of one kv head do): the same bits as two softMaxRow calls.
func (k *kernels) softMaxRowPair(x0, x1 []float32, mask *hostTensor, moff0, moff1 int, live0, live1 *int32, scale, softcap float32, ws *workspace) {
	if ne0 := len(x0); k.rowSoftMax2 != nil && softcap <= 0 && len(x1) == ne0 {
		m0, n := maskWindow(mask, moff0, ne0, live0, ws, 0)
		m1, n1 := maskWindow(mask, moff1, ne0, live1, ws, 1)
		if n1 == n {
			clear(x0[n:])
			clear(x1[n:])
			var s0, s1 float32
			if n > 0 {
				s0, s1 = k.rowSoftMax2(x0[:n], x0, m0, x1[:n], x1, m1, scale)
			}
			if s0 == 0 {
				clear(x0) // a fully masked row
			}
			if s1 == 0 {
				clear(x1)
			}
			return
		}
	}
	k.softMaxRow(x0, x0, mask, moff0, live0, scale, softcap, ws)
	k.softMaxRow(x1, x1, mask, moff1, live1, scale, softcap, ws)
}

// ropeTask rotates pairs by angles computed in float64 once per position
// change, applied in float32. In normal mode with every row rotated whole
// and a position's heads contiguous (q and k as projected), one kernel
// call rotates all heads of a position against a table repeated per head.
func (b *Backend) ropeTask(ith, nth int, ws *workspace) error {
	args := &b.args
	a, dst, n := &args.a, &args.dst, args.node
	nDims, neox := int(n.Params[0]), n.Params[1] == rt.RopeNeox
	half, ne0 := nDims/2, a.ne[0]
	heads := 1 // rows one kernel call takes
	if !neox && nDims == ne0 && a.nb[1] == 4*ne0 && dst.nb[1] == 4*ne0 {
		heads = a.ne[1]
	}
	// Normal mode: cs = (c,c) and sn = (-s,s) per pair. Neox: cs[:half]
	// holds the cosines and sn[:half] the sines (b.ropeTab, prepared by
	// tryFast for this node's positions). A call over all heads takes
	// them repeated per head.
	width := nDims * heads
	var wide []float32
	if heads > 1 {
		wide = ws.f32(0, 2*width)
	}
	last := -1 // the token wide holds
	units := a.rows() / heads
	r0, r1 := rowRange(units, ith, nth)
	for u := r0; u < r1; u++ {
		i1, i2, i3 := a.coords(u * heads)
		cs, sn := b.ropeTab.token(i2, nDims)
		if heads > 1 {
			wcs, wsn := wide[:width], wide[width:]
			if i2 != last {
				for h := 0; h < heads; h++ {
					copy(wcs[h*nDims:(h+1)*nDims], cs)
					copy(wsn[h*nDims:(h+1)*nDims], sn)
				}
				last = i2
			}
			x, _ := f32View(a.mem, a.at(0, i2, i3), width)
			out, _ := f32View(dst.mem, dst.at(0, i2, i3), width)
			b.kern.ropeNorm(out, x, wcs, wsn)
			continue
		}
		x, out := a.view(i1, i2, i3), dst.view(i1, i2, i3)
		if neox {
			b.kern.ropeNeox(out[:half], out[half:nDims], x[:half], x[half:nDims], cs, sn)
		} else {
			b.kern.ropeNorm(out[:nDims], x[:nDims], cs, sn)
		}
		if nDims < ne0 {
			copy(out[nDims:], x[nDims:])
		}
	}
	return nil
}

// getRowsTask converts the picked rows of an f16 or quantized table to the
// f32 result.
func (b *Backend) getRowsTask(ith, nth int, _ *workspace) error {
	a, idx, dst := &b.args.a, &b.args.c, &b.args.dst
	rowBytes := a.typ.RowSize(a.ne[0])
	r0, r1 := rowRange(dst.rows(), ith, nth)
	for r := r0; r < r1; r++ {
		i, i2, i3 := dst.coords(r)
		k := int(idx.i32(idx.at(i2, i3, 0) + i*idx.nb[0]))
		off := a.at(k, i2, i3)
		src, out := a.mem[off:off+rowBytes], dst.view(i, i2, i3)
		switch a.typ {
		case rt.F16:
			b.kern.f16ToF32(src, out)
		case rt.Q8_0:
			b.kern.dequantQ8(src, out)
		case rt.Q4_0:
			b.kern.dequantQ4(src, out)
		}
	}
	return nil
}

// convertTask copies f32 rows to f16 or Q8_0, or f16 rows to f32, row for
// row.
func (b *Backend) convertTask(ith, nth int, _ *workspace) error {
	a, dst := &b.args.a, &b.args.dst
	ne0 := a.ne[0]
	r0, r1 := rowRange(a.rows(), ith, nth)
	for r := r0; r < r1; r++ {
		i1, i2, i3 := a.coords(r)
		switch {
		case dst.typ == rt.Q8_0:
			off := dst.at(i1, i2, i3)
			b.kern.quantQ8(a.view(i1, i2, i3), dst.mem[off:off+dst.typ.RowSize(ne0)], nil)
		case a.typ == rt.F32:
			off := dst.at(i1, i2, i3)
			b.kern.f32ToF16(a.view(i1, i2, i3), dst.mem[off:off+2*ne0])
		default:
			off := a.at(i1, i2, i3)
			b.kern.f16ToF32(a.mem[off:off+2*ne0], dst.view(i1, i2, i3))
		}
	}
	return nil
}
