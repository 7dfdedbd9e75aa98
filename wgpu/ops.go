//go:build cgo

package wgpu

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	wg "github.com/oliverbestmann/webgpu/wgpu"

	"github.com/gpurt/gpurt/internal/opcodes"
	rt "github.com/gpurt/gpurt/runtime"
)

// Per-op encoders: each turns a graph node into kernel dispatches.

const (
	wgElementwise = 256 // invocations per workgroup for one-element-per-invocation kernels
	wgRowMax      = 256 // largest workgroup of the row kernels
)

func kern(file string, wgSize int, binds ...rt.DType) kernel {
	return kernel{file: file, binds: binds, consts: []kconst{{"WG", uint32(wgSize)}}}
}

func (k kernel) with(flags ...string) kernel {
	k.flags = append(append([]string(nil), k.flags...), flags...)
	return k
}

// writing marks slot as stored to (besides d), so that it stays read_write.
func (k kernel) writing(slot int) kernel {
	k.writes |= 1 << slot
	return k
}

func (k kernel) set(name string, v uint32) kernel {
	k.consts = append(append([]kconst(nil), k.consts...), kconst{name, v})
	return k
}

// rowWG picks a power-of-two workgroup size for kernels that reduce rows of
// n elements: no larger than the row, between 32 and wgRowMax.
func rowWG(n int) int {
	w := 32
	for w < wgRowMax && w < n {
		w *= 2
	}
	return w
}

// unaryOps are unary.wgsl's OP codes (internal/opcodes).
var unaryOps = map[rt.Op]uint32{
	rt.OpScale: opcodes.UnaryScale, rt.OpSqr: opcodes.UnarySqr, rt.OpSqrt: opcodes.UnarySqrt,
	rt.OpClamp: opcodes.UnaryClamp, rt.OpSilu: opcodes.UnarySilu, rt.OpGelu: opcodes.UnaryGelu,
	rt.OpGeluErf: opcodes.UnaryGeluErf, rt.OpRelu: opcodes.UnaryRelu, rt.OpTanh: opcodes.UnaryTanh,
	rt.OpSigmoid: opcodes.UnarySigmoid, rt.OpExp: opcodes.UnaryExp, rt.OpNeg: opcodes.UnaryNeg,
	rt.OpDiagMaskInf: opcodes.UnaryDiagMaskInf,
}

// binaryOps are binary.wgsl's OP codes of the elementwise ops, gluOps
// those of the GLU kinds (internal/opcodes).
var (
	binaryOps = map[rt.Op]uint32{
		rt.OpAdd: opcodes.BinaryAdd, rt.OpSub: opcodes.BinarySub, rt.OpMul: opcodes.BinaryMul, rt.OpDiv: opcodes.BinaryDiv,
	}
	gluOps = map[int32]uint32{rt.GLUSwiGLU: opcodes.BinarySwiglu, rt.GLUGeGLU: opcodes.BinaryGeglu}
)

// encodeNode returns the dispatches computing node n. View ops and leaves
// compute nothing.
func (d *Device) encodeNode(n *rt.Tensor) ([]*dispatch, error) {
	if n.Op == rt.OpNone || n.Op.IsView() || n.IsEmpty() {
		return nil, nil
	}
	if !d.SupportsOp(n) {
		return nil, fmt.Errorf("not supported: %s: %w", describe(n), rt.ErrUnsupported)
	}
	a, b := n.Src[0], n.Src[1]
	one := func(x *dispatch, err error) ([]*dispatch, error) {
		if err != nil {
			return nil, err
		}
		return []*dispatch{x}, nil
	}
	switch {
	case n.Op == rt.OpDup || n.Op == rt.OpCont || n.Op == rt.OpCpy:
		return one(d.encCopy(a, n))
	case n.Op.IsBinary() || n.Op == rt.OpGLU:
		code, ok := binaryOps[n.Op]
		if n.Op == rt.OpGLU {
			code, ok = gluOps[n.ParamI(0)]
		}
		if !ok {
			return nil, fmt.Errorf("no binary.wgsl code for %s: %w", describe(n), rt.ErrUnsupported)
		}
		k := kern("binary.wgsl", wgElementwise, n.Type, a.Type, b.Type).set("OP", code)
		rep, ok := repeatPeriod(a, b)
		ok = ok && n.IsContiguous() && a.IsContiguous()
		count := n.Nelements()
		if ok {
			k = k.with("CONT")
			if v := d.vec4All(n, a, b); v != nil && count%4 == 0 && rep%4 == 0 {
				k, count = k.with("VEC").with(v...), count/4
			}
		}
		x, err := d.elementwise(k, count, n, a, b)
		if err == nil && ok {
			x.p.n[1] = uint32(rep)
		}
		return one(x, err)
	case n.Op.IsUnary() || n.Op == rt.OpScale || n.Op == rt.OpSqr || n.Op == rt.OpSqrt ||
		n.Op == rt.OpClamp || n.Op == rt.OpDiagMaskInf:
		code, ok := unaryOps[n.Op]
		if !ok {
			return nil, fmt.Errorf("no unary.wgsl code for %s: %w", describe(n), rt.ErrUnsupported)
		}
		k := kern("unary.wgsl", wgElementwise, n.Type, a.Type).set("OP", code)
		count := n.Nelements()
		if n.Op != rt.OpDiagMaskInf && n.IsContiguous() && a.IsContiguous() {
			k = k.with("CONT")
			if v := d.vec4All(n, a); v != nil && count%4 == 0 {
				k, count = k.with("VEC").with(v...), count/4
			}
		}
		x, err := d.elementwise(k, count, n, a)
		if err == nil {
			x.p.fp[0], x.p.fp[1] = n.ParamF(0), n.ParamF(1)
			x.p.ip[0] = n.ParamI(0)
		}
		return one(x, err)
	case n.Op == rt.OpSum || n.Op == rt.OpSumRows || n.Op == rt.OpMean:
		k := d.rowKernel("rows.wgsl", a.Ne[0], rowPasses(n.Op), n.Type, a.Type)
		rows := a.Nrows()
		switch n.Op {
		case rt.OpSum:
			k, rows = kern("rows.wgsl", wgRowMax, n.Type, a.Type).with("ALL"), 1
		case rt.OpMean:
			k = k.with("MEAN")
		}
		return one(d.rowwise(k, rows, a.Ne[0], n, a))
	case n.Op == rt.OpNorm || n.Op == rt.OpRmsNorm:
		k := d.rowKernel("norm.wgsl", a.Ne[0], rowPasses(n.Op), n.Type, a.Type)
		if n.Op == rt.OpRmsNorm {
			k = k.with("RMS")
		}
		x, err := d.rowwise(k, a.Nrows(), 3*a.Ne[0], n, a)
		if err == nil {
			x.p.fp[0] = n.ParamF(0)
		}
		return one(x, err)
	case n.Op == rt.OpArgmax:
		return one(d.rowwise(d.rowKernel("argmax.wgsl", a.Ne[0], rowPasses(n.Op), n.Type, a.Type), a.Ne[1], a.Ne[0], n, a))
	case n.Op == rt.OpSoftMax:
		k, ts := d.rowKernel("softmax.wgsl", a.Ne[0], rowPasses(n.Op), n.Type, a.Type), []*rt.Tensor{n, a}
		if b != nil {
			k, ts = d.rowKernel("softmax.wgsl", a.Ne[0], rowPasses(n.Op), n.Type, a.Type, b.Type).with("MASK"), append(ts, b)
		}
		x, err := d.rowwise(k, a.Nrows(), 3*a.Ne[0], ts...)
		if err == nil {
			x.p.fp[0], x.p.fp[1] = n.ParamF(0), n.ParamF(1)
		}
		return one(x, err)
	case n.Op == rt.OpGetRows:
		flag, err := d.errorFlagLocked()
		if err != nil {
			return nil, err
		}
		k := kern("getrows.wgsl", wgElementwise, n.Type, a.Type, b.Type, rt.I32).writing(3) // the error flag
		if a.Type == rt.I32 {
			k = k.with("INT")
		}
		return one(d.elementwise(k, n.Nelements(), n, a, b, flag))
	case n.Op == rt.OpSetRows:
		flag, err := d.errorFlagLocked()
		if err != nil {
			return nil, err
		}
		k := kern("setrows.wgsl", wgElementwise, n.Type, a.Type, b.Type, rt.I32).writing(3) // the error flag
		count := a.Nelements()
		if n.Type.IsQuantized() {
			k, count = k.with("QUANT").set("QK", uint32(n.Type.BlockSize())), count/n.Type.BlockSize()
		}
		return one(d.elementwise(k, count, n, a, b, flag))
	case n.Op == rt.OpConcat:
		k := kern("concat.wgsl", wgElementwise, n.Type, a.Type, b.Type)
		if n.Type == rt.I32 {
			k = k.with("INT")
		}
		x, err := d.elementwise(k, n.Nelements(), n, a, b)
		if err == nil {
			x.p.ip[0] = n.ParamI(0)
		}
		return one(x, err)
	case n.Op == rt.OpRope:
		return one(d.encRope(n, nil))
	case n.Op == rt.OpFlashAttnExt:
		return one(d.encFlashAttn(n))
	case n.Op == rt.OpMulMat:
		return d.encMulMat(n, a, b, nil)
	}
	return nil, fmt.Errorf("no kernel for %s", describe(n))
}

// encRope prepares rope.wgsl for ROPE node n; with set, a SET_ROWS of
// RESHAPE(n) (fuse.go), it writes the rotated rows into set's rows instead
// (the flag ROWS: the error flag at c, the indices at e).
func (d *Device) encRope(n, set *rt.Tensor) (*dispatch, error) {
	a, b := n.Src[0], n.Src[1]
	ts := []*rt.Tensor{n, a, b}
	k := kern("rope.wgsl", wgElementwise, n.Type, a.Type, b.Type)
	if ff := n.Src[2]; ff != nil {
		k = kern("rope.wgsl", wgElementwise, n.Type, a.Type, b.Type, ff.Type).with("FF")
		ts = append(ts, ff)
	}
	if set != nil {
		flag, err := d.errorFlagLocked()
		if err != nil {
			return nil, err
		}
		idx := set.Src[1]
		k = kern("rope.wgsl", wgElementwise, set.Type, a.Type, b.Type, rt.I32, idx.Type).with("ROWS").writing(3)
		ts = []*rt.Tensor{set, a, b, flag, idx}
	}
	if n.ParamI(1) == rt.RopeNeox {
		k = k.with("NEOX")
	}
	pairs := (a.Ne[0] + 1) / 2
	x, err := d.elementwise(k, a.Nrows()*pairs, ts...)
	if err != nil {
		return nil, err
	}
	p := rt.RopeParamsOf(n)
	x.p.ip[0] = n.ParamI(0)
	x.p.fp = [4]float32{p.FreqBase, p.FreqScale, p.ExtFactor, p.AttnFactor}
	if p.ExtFactor != 0 {
		lo, hi := rt.RopeYarnCorrDims(p)
		x.p.ip[1], x.p.ip[2] = int32(math.Float32bits(float32(lo))), int32(math.Float32bits(float32(hi)))
		x.p.fp[3] *= float32(1 + 0.1*math.Log(1/float64(p.FreqScale)))
	}
	x.p.n[1] = uint32(pairs)
	return x, nil
}

// elementwise prepares a kernel with one invocation per item (n.x = count).
func (d *Device) elementwise(k kernel, count int, ts ...*rt.Tensor) (*dispatch, error) {
	x, err := d.newDispatch(k, ts...)
	if err != nil {
		return nil, err
	}
	wgSize, _ := k.constVal("WG")
	if x.grid, err = d.grid1(count, int(wgSize)); err != nil {
		return nil, err
	}
	x.p.n[0] = uint32(count)
	x.work = float64(count)
	return x, nil
}

// repeatPeriod reports whether contiguous b repeats over a as a flat array
// (b's dims match a's up to some dim and are 1 after it) and its period in
// elements: 0 when b is as large as a.
func repeatPeriod(a, b *rt.Tensor) (int, bool) {
	if !b.IsContiguous() {
		return 0, false
	}
	if b.Nelements() == a.Nelements() {
		return 0, rt.SameShape(a, b)
	}
	j := 0
	for j < rt.MaxDims && b.Ne[j] == a.Ne[j] {
		j++
	}
	for i := j; i < rt.MaxDims; i++ {
		if b.Ne[i] != 1 {
			return 0, false
		}
	}
	return b.Nelements(), true
}

// rowKernel is a row-reducing kernel making the given passes over rows of
// ne0 elements: on software devices one invocation per row (ROWPER), since
// workgroup barriers and workgroup memory cost more there than they save,
// unless that loops more than the device allows; elsewhere one workgroup
// per row.
func (d *Device) rowKernel(file string, ne0, passes int, binds ...rt.DType) kernel {
	if d.software() && (d.loopBudget == 0 || passes*ne0 <= d.loopBudget) {
		return kern(file, rowPerWG, binds...).with("ROWPER")
	}
	return kern(file, rowWG(ne0), binds...)
}

// rowPasses is how many times the row kernel of op reads each row.
func rowPasses(op rt.Op) int {
	switch op {
	case rt.OpNorm, rt.OpSoftMax:
		return 3
	case rt.OpRmsNorm:
		return 2
	}
	return 1
}

// loopIterations estimates the most loop iterations one invocation of t's
// kernels runs, with the kernel choice encodeNode makes.
func (d *Device) loopIterations(t *rt.Tensor) int {
	a := t.Src[0]
	switch t.Op {
	case rt.OpSum:
		return (a.Nelements()+wgRowMax-1)/wgRowMax + 8
	case rt.OpSumRows, rt.OpMean, rt.OpArgmax, rt.OpNorm, rt.OpRmsNorm, rt.OpSoftMax:
		passes := rowPasses(t.Op)
		if d.software() && passes*a.Ne[0] <= d.loopBudget {
			return passes * a.Ne[0]
		}
		wg := rowWG(a.Ne[0])
		return passes*((a.Ne[0]+wg-1)/wg) + 2*8
	case rt.OpMulMat:
		// The fast kernels step 4 (32 for quantized weights) along K; the
		// general one steps 1. The tiled one runs, per tile of K, its load
		// loops and BK steps of loops over its register block (counted as
		// if none were unrolled).
		K := a.Ne[0]
		if K%4 != 0 {
			return K
		}
		if p := d.planMulMat(a.Ne[1], t.Ne[1], K); p.tiled {
			s := p.tile
			wg := s.invocations()
			loads := (s.bm*s.bk/4+wg-1)/wg + (s.bn*s.bk/4+wg-1)/wg
			return (K+s.bk-1)/s.bk*(loads+s.bk*(1+s.tm/4+s.tn/4*(1+4*(1+s.tm/4)))) + s.tn*(1+s.tm)
		}
		return K / 4
	case rt.OpCpy, rt.OpDup, rt.OpCont, rt.OpSetRows:
		return max(2*rt.QK, quantizerLoops(t))
	case rt.OpFlashAttnExt:
		return flashAttnLoops(t)
	}
	return 0
}

const rowPerWG = 16

// rowwise prepares a row kernel for the given rows (n.x = rows): one
// workgroup per row, or one invocation per row for ROWPER kernels.
func (d *Device) rowwise(k kernel, rows, perRow int, ts ...*rt.Tensor) (*dispatch, error) {
	x, err := d.newDispatch(k, ts...)
	if err != nil {
		return nil, err
	}
	if slices.Contains(k.flags, "ROWPER") {
		wg, _ := k.constVal("WG")
		x.grid, err = d.grid1(rows, int(wg))
	} else {
		x.grid, err = d.gridGroups(rows)
	}
	if err != nil {
		return nil, err
	}
	x.p.n[0] = uint32(rows)
	x.work = float64(rows) * float64(perRow)
	return x, nil
}

// encCopy copies src into dst in logical element order, converting dtype.
func (d *Device) encCopy(src, dst *rt.Tensor) (*dispatch, error) {
	if dst.Type.IsQuantized() {
		k := kern("quant.wgsl", wgElementwise, dst.Type, src.Type)
		if src.Type == dst.Type {
			k = k.with("COPY").set("BLOCK", uint32(dst.Type.TypeSize()))
		}
		k = k.set("QK", uint32(dst.Type.BlockSize()))
		return d.elementwise(k, dst.Nelements()/dst.Type.BlockSize(), dst, src)
	}
	k := kern("copy.wgsl", wgElementwise, dst.Type, src.Type)
	if src.Type == rt.I32 && dst.Type == rt.I32 {
		k = k.with("INT")
	}
	count := dst.Nelements()
	if !src.Type.IsQuantized() && src.IsContiguous() && dst.IsContiguous() {
		k = k.with("CONT")
		if v := d.vec4All(dst, src); v != nil && count%4 == 0 {
			k, count = k.with("VEC").with(v...), count/4
		}
	}
	return d.elementwise(k, count, dst, src)
}

// mmPlan is how a matmul runs: with the split-K matrix-vector kernel
// (mv.wgsl; tm rows and tn columns per workgroup of wg invocations), the
// tiled one (mmtile.wgsl; tile) or the register-blocked one (mm.wgsl; tm
// rows and tn columns per invocation, wg invocations).
type mmPlan struct {
	mv, tiled  bool
	tm, tn, wg int
	tile       tileShape
}

// planMulMat picks the kernel for an M×N×K product from the device's
// tuning row (tune.go).
func (d *Device) planMulMat(m, n, k int) mmPlan {
	if tuning.plan != nil {
		return tuning.plan(n)
	}
	return d.tune.plan(n)
}

func (t tune) plan(n int) mmPlan {
	switch {
	case n <= t.mvMaxN:
		cols := 1
		for cols < n && cols < t.mvCols {
			cols *= 2
		}
		return mmPlan{mv: true, tm: t.mvRows, tn: cols, wg: t.mvWG}
	case t.matmul == matmulTiled && n <= t.narrow.bn:
		return mmPlan{tiled: true, tile: t.narrow}
	case t.matmul == matmulTiled:
		return mmPlan{tiled: true, tile: t.tile}
	}
	return registerPlan(n)
}

// registerPlan is mm.wgsl's shape for software devices. lavapipe runs
// every storage or workgroup-memory load as a per-lane scalar loop, so
// there the best kernels load least per multiply-add: register blocks, one
// SIMD chunk (8 invocations) per workgroup, and no workgroup reduction even
// for N = 1 (3-5x faster than split-K there). Blocks stop at 16×16: LLVM
// compiles a 16×16 variant in 3-4 s, a 32×32 one in ~35 s, for at most
// 1.5x more speed.
func registerPlan(n int) mmPlan {
	tn := 1
	for tn < n && tn < 16 {
		tn *= 2
	}
	switch {
	case n <= 4:
		return mmPlan{tm: 4, tn: tn, wg: 64}
	case n >= 16:
		return mmPlan{tm: 16, tn: 16, wg: 8}
	}
	return mmPlan{tm: 16, tn: 8, wg: 8}
}

// tuning lets tests and benchmarks choose kernels: plan overrides the
// matmul plan (GPURT_WGPU_MM, tune_test.go).
var tuning struct {
	plan func(n int) mmPlan
}

// encMulMat runs the planned kernel when rows are unit-stride and K is a
// multiple of 4, else the general kernel. With an addend e (a fused ADD;
// see fuse.go), n is the ADD's destination and gets e added, broadcast
// where e's dims are 1.
func (d *Device) encMulMat(n, a, b, e *rt.Tensor) ([]*dispatch, error) {
	K, M, N := a.Ne[0], a.Ne[1], b.Ne[1]
	batches := [2]int{b.Ne[2], b.Ne[3]}
	fast := K%4 == 0 && (a.Type.IsQuantized() || a.Nb[0] == a.Type.TypeSize()) && b.Nb[0] == b.Type.TypeSize()
	maxg := int(d.lim.maxWorkgroupsPerDim)
	work := 2 * float64(n.Nelements()) * float64(K)
	plan := d.planMulMat(M, N, K)
	var k kernel
	var grid [3]int
	rowsPerGroup := 0 // rows of a per workgroup, for splitting (0: never split)
	colGroups := 0    // mv.wgsl's groups of columns
	switch {
	case fast && plan.mv:
		cols := max(plan.tn, 1)
		colGroups = (N + cols - 1) / cols
		k = kern("mv.wgsl", plan.wg, n.Type, a.Type, b.Type).set("R", uint32(plan.tm)).set("NC", uint32(cols))
		if d.subgroupSizeLocked() > 0 {
			k = k.with("SGR")
		}
		grid = [3]int{(M + plan.tm - 1) / plan.tm, colGroups * batches[0], batches[1]}
	case fast && plan.tiled:
		s := plan.tile
		k = kern("mmtile.wgsl", s.invocations(), n.Type, a.Type, b.Type).
			set("BM", uint32(s.bm)).set("BN", uint32(s.bn)).set("BK", uint32(s.bk)).
			set("TM", uint32(s.tm)).set("TN", uint32(s.tn)).set("PAD", uint32(s.pad))
		grid = [3]int{(M + s.bm - 1) / s.bm, (N + s.bn - 1) / s.bn, batches[0] * batches[1]}
		rowsPerGroup = s.bm
	case fast:
		halves := a.Type == rt.Q4_0 || ((a.Type == rt.F16 || a.Type == rt.BF16) && K%8 == 0)
		if halves && d.software() && d.subgroupSizeLocked() > 0 && plan.tn > 8 && tuning.plan == nil {
			// These loops hold two sets of column vectors; with 16 columns
			// shared by subgroup shuffles, LLVM's code for lavapipe runs
			// 20x slower (measured), with 8 it is the fastest.
			plan.tn = 8
		}
		k = kern("mm.wgsl", plan.wg, n.Type, a.Type, b.Type).set("TM", uint32(plan.tm)).set("TN", uint32(plan.tn))
		switch {
		case a.Type == rt.Q8_0:
			k = k.with("QUANT").set("BS", 34).set("QW", 8)
		case a.Type == rt.Q4_0:
			k = k.with("QUANT", "Q4").set("BS", 18).set("QW", 4)
		case (a.Type == rt.F16 || a.Type == rt.BF16) && K%8 == 0 && d.lim.storageAlign%16 == 0 && aligned(a, 16):
			// Eight 16-bit weights per load: half the loads of f16 vectors.
			k = k.with("H8", "W4_a")
		}
		grid = [3]int{(M + plan.tm*plan.wg - 1) / (plan.tm * plan.wg), (N + plan.tn - 1) / plan.tn, batches[0] * batches[1]}
		own := 1
		if sg := d.subgroupSizeLocked(); d.software() && sg > 1 && plan.tn%sg == 0 && plan.wg%sg == 0 {
			// The subgroup shares the column loads (see mm.wgsl).
			k, own = k.with("SG").set("SGS", uint32(sg)), plan.tn/sg
		}
		k = k.set("BOWN", uint32(own))
		rowsPerGroup = plan.tm * plan.wg
	}
	if !slices.Contains(k.flags, "H8") {
		k = k.with(d.vec4Flags(a, "a")...)
	}
	k = k.with(d.vec4Flags(b, "b")...)
	ts := []*rt.Tensor{n, a, b}
	if e != nil {
		k.binds = append(slices.Clip(k.binds), e.Type)
		k = k.with("ADDEND")
		ts = append(ts, e)
	}
	if grid[0] > maxg || grid[1] > maxg || grid[2] > maxg {
		fast = false
	}
	if !fast {
		k := kern("mulmat.wgsl", 64, n.Type, a.Type, b.Type)
		if e != nil {
			k = kern("mulmat.wgsl", 64, n.Type, a.Type, b.Type, e.Type).with("ADDEND")
		}
		x, err := d.elementwise(k, n.Nelements(), ts...)
		if err != nil {
			return nil, err
		}
		broadcastAddend(x, e)
		x.p.ip[0], x.p.ip[1] = int32(b.Ne[2]/a.Ne[2]), int32(b.Ne[3]/a.Ne[3])
		x.work = work
		return []*dispatch{x}, nil
	}
	x, err := d.newDispatch(k, ts...)
	if err != nil {
		return nil, err
	}
	broadcastAddend(x, e)
	x.grid = [3]uint32{uint32(grid[0]), uint32(grid[1]), uint32(grid[2])}
	x.p.ip[0], x.p.ip[1] = int32(b.Ne[2]/a.Ne[2]), int32(b.Ne[3]/a.Ne[3])
	x.p.n[2] = uint32(colGroups)
	x.work = work
	maxWork := d.tune.batchWork
	if rowsPerGroup == 0 || work <= maxWork {
		return []*dispatch{x}, nil
	}
	// Split a long product by rows of a, so that each part goes out in a
	// submission of its own and no single submission runs for minutes on a
	// slow device.
	groups := max(1, int(maxWork/(work/float64(M)))/rowsPerGroup)
	var ds []*dispatch
	for row := 0; row < M; row += groups * rowsPerGroup {
		part := *x
		rows := min(groups*rowsPerGroup, M-row)
		part.grid[0] = uint32((rows + rowsPerGroup - 1) / rowsPerGroup)
		part.p.n[1] = uint32(row)
		part.work = work * float64(rows) / float64(M)
		ds = append(ds, &part)
	}
	return ds, nil
}

// broadcastAddend zeroes the strides of addend e (slot c) along the dims
// it broadcasts over, as the kernels' addend() expects.
func broadcastAddend(x *dispatch, e *rt.Tensor) {
	if e == nil {
		return
	}
	for i := 1; i < rt.MaxDims; i++ {
		if e.Ne[i] == 1 {
			x.p.nb[3][i] = 0
		}
	}
}

// subgroupSizeLocked returns the subgroup size kernels run with, or 0 when
// subgroup operations are unavailable or the size is not the same for
// every invocation. It is measured once, with a one-workgroup dispatch.
func (d *Device) subgroupSizeLocked() int {
	if !d.subgroups {
		return 0
	}
	if d.sgSize == 0 {
		d.sgSize = -1
		if n, err := d.probeSubgroupLocked(); err == nil {
			d.sgSize = n
		}
	}
	return max(d.sgSize, 0)
}

func (d *Device) probeSubgroupLocked() (int, error) {
	const n = 64
	raw, err := d.createBuffer(&wg.BufferDescriptor{Label: d.name + " subgroup probe", Size: 4 * n, Usage: wg.BufferUsageStorage | wg.BufferUsageCopySrc})
	if err != nil {
		return 0, err
	}
	d.nextBufID++
	buf := &buffer{bt: d.devType, buf: raw, id: d.nextBufID, size: 4 * n, gsize: 4 * n}
	defer func() {
		d.binds.dropBuffer(buf.id)
		raw.Destroy()
		raw.Release()
	}()
	t := &rt.Tensor{Type: rt.I32, Ne: [rt.MaxDims]int{n, 1, 1, 1}, Nb: [rt.MaxDims]int{4, 4 * n, 4 * n, 4 * n}, Buffer: buf, Name: "subgroup probe"}
	x, err := d.newDispatch(kern("sgsize.wgsl", n, rt.I32), t)
	if err != nil {
		return 0, err
	}
	x.grid = [3]uint32{1, 1, 1}
	if _, err := d.runLocked([]*dispatch{x}); err != nil {
		return 0, err
	}
	out := make([]byte, 4*n)
	if err := d.readLocked(buf, 0, out); err != nil {
		return 0, err
	}
	size := int(binary.LittleEndian.Uint32(out))
	for i := 0; i < n; i++ {
		if int(binary.LittleEndian.Uint32(out[4*i:])) != size {
			return -1, nil
		}
	}
	return size, nil
}

// vec4All returns the V4 flags of slots d, a, b, c for ts, or nil unless
// every one of them can be bound as 4-vectors.
func (d *Device) vec4All(ts ...*rt.Tensor) []string {
	var flags []string
	for i, t := range ts {
		f := d.vec4Flags(t, slotNames[i])
		if f == nil {
			return nil
		}
		flags = append(flags, f...)
	}
	return flags
}

// vec4Flags returns the flag that binds t (slot name) as 4-vectors, when
// its rows start at multiples of the vector size wherever the allocator or
// a view put it.
func (d *Device) vec4Flags(t *rt.Tensor, name string) []string {
	var vs int
	switch {
	case t.Type == rt.F32:
		vs = 16
	case t.Type == rt.F16 && d.f16:
		vs = 8
	default:
		return nil
	}
	if t.Ne[0]%4 != 0 || int(d.lim.storageAlign)%vs != 0 || !aligned(t, vs) {
		return nil
	}
	return []string{"V4_" + name}
}

// aligned reports whether every row of t starts at a multiple of n bytes
// (n divides the storage alignment the bindings start at).
func aligned(t *rt.Tensor, n int) bool {
	if t.ViewOffs%n != 0 || (t.Buffer != nil && t.Offset%n != 0) {
		return false
	}
	for i := 1; i < rt.MaxDims; i++ {
		if t.Nb[i]%n != 0 && t.Ne[i] > 1 {
			return false
		}
	}
	return true
}

func describe(t *rt.Tensor) string {
	s := fmt.Sprintf("%v %s%s", t.Op, t.Type, rt.ShapeString(t.Ne))
	for i, src := range t.Src {
		if src != nil {
			s += fmt.Sprintf(" src%d=%s%s", i, src.Type, rt.ShapeString(src.Ne))
		}
	}
	return s
}

// FLASH_ATTN_EXT runs flash.wgsl with workgroups of wgFlashAttn (the keys
// per tile) over (query, head, sequence); head sizes up to flashAttnMaxD.
const (
	wgFlashAttn   = 64
	flashAttnMaxD = 512
)

func (d *Device) encFlashAttn(n *rt.Tensor) (*dispatch, error) {
	q, k, v, m := n.Src[0], n.Src[1], n.Src[2], n.Src[3]
	ts := []*rt.Tensor{n, q, k, v}
	k2 := kern("flash.wgsl", wgFlashAttn, n.Type, q.Type, k.Type, v.Type)
	if m != nil {
		k2 = kern("flash.wgsl", wgFlashAttn, n.Type, q.Type, k.Type, v.Type, m.Type).with("MASK")
		ts = append(ts, m)
	}
	x, err := d.newDispatch(k2, ts...)
	if err != nil {
		return nil, err
	}
	x.grid = [3]uint32{uint32(q.Ne[1]), uint32(q.Ne[2]), uint32(q.Ne[3])}
	x.p.ip[0], x.p.ip[1] = int32(q.Ne[2]/k.Ne[2]), int32(q.Ne[2]/v.Ne[2])
	x.p.fp[0], x.p.fp[1] = n.ParamF(0), n.ParamF(2)
	x.work = float64(n.Nelements()) * float64(k.Ne[1]) * float64(q.Ne[0]+v.Ne[0]) / float64(v.Ne[0])
	return x, nil
}

// flashAttnLoops estimates the loop iterations of one flash.wgsl
// invocation: loading q, then per tile of keys the dot over D, each owned
// output dim over the tile, and two workgroup reductions.
func flashAttnLoops(t *rt.Tensor) int {
	q, k, v := t.Src[0], t.Src[1], t.Src[2]
	tiles := (k.Ne[1] + wgFlashAttn - 1) / wgFlashAttn
	owned := (v.Ne[0] + wgFlashAttn - 1) / wgFlashAttn
	return q.Ne[0] + tiles*(q.Ne[0]+flashAttnMaxD/wgFlashAttn+owned*min(wgFlashAttn, k.Ne[1])+2*7)
}
