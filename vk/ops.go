package vk

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/gpurt/gpurt/internal/opcodes"
	rt "github.com/gpurt/gpurt/runtime"
)

// A dispatch is one recorded compute command: a pipeline, its buffer
// bindings (see srcBinding and dstBinding), push constants and a grid.
type dispatch struct {
	key    pipelineKey
	pc     pushConsts
	binds  [numBindings]binding // unused source slots repeat source 0
	groups [3]uint32
	// errFlag: binding 2 is the backend's error flag, which the shader
	// writes on invalid input (GET_ROWS and SET_ROWS indices).
	errFlag bool
	// pre is recorded just before this dispatch (MMQ's src1 quantization,
	// mmq.go). With scratchBytes, the backend binds its MMQ scratch of at
	// least that size at binding scratchAt.
	pre          *dispatch
	scratchBytes uint64
	scratchAt    int
}

// Workgroup sizes (specialization constant 0).
const (
	wgElementwise = 256
	maxGroups     = 65535
)

// unaryOpCode is unary.comp's op code for node t.
func unaryOpCode(t *rt.Tensor) (uint32, error) {
	switch t.Op {
	case rt.OpDup, rt.OpCont, rt.OpCpy:
		return opcodes.UnaryCopy, nil
	case rt.OpScale:
		return opcodes.UnaryScale, nil
	case rt.OpSqr:
		return opcodes.UnarySqr, nil
	case rt.OpSqrt:
		return opcodes.UnarySqrt, nil
	case rt.OpClamp:
		return opcodes.UnaryClamp, nil
	case rt.OpSilu:
		return opcodes.UnarySilu, nil
	case rt.OpGelu:
		return opcodes.UnaryGelu, nil
	case rt.OpGeluErf:
		return opcodes.UnaryGeluErf, nil
	case rt.OpRelu:
		return opcodes.UnaryRelu, nil
	case rt.OpTanh:
		return opcodes.UnaryTanh, nil
	case rt.OpSigmoid:
		return opcodes.UnarySigmoid, nil
	case rt.OpExp:
		return opcodes.UnaryExp, nil
	case rt.OpNeg:
		return opcodes.UnaryNeg, nil
	case rt.OpDiagMaskInf:
		return opcodes.UnaryDiagMaskInf, nil
	}
	return 0, unsupportedOp(t)
}

// binaryOpCode is binary.comp's op code for node t.
func binaryOpCode(t *rt.Tensor) (uint32, error) {
	switch t.Op {
	case rt.OpAdd:
		return opcodes.BinaryAdd, nil
	case rt.OpSub:
		return opcodes.BinarySub, nil
	case rt.OpMul:
		return opcodes.BinaryMul, nil
	case rt.OpDiv:
		return opcodes.BinaryDiv, nil
	case rt.OpConcat:
		return opcodes.BinaryConcat, nil
	case rt.OpGLU:
		switch t.Params[0] {
		case rt.GLUSwiGLU:
			return opcodes.BinarySwiglu, nil
		case rt.GLUGeGLU:
			return opcodes.BinaryGeglu, nil
		}
		return 0, fmt.Errorf("GLU %q: no shader for kind %d: %w", t.Name, t.Params[0], rt.ErrUnsupported)
	}
	return 0, unsupportedOp(t)
}

// reduceOpCode is reduce.comp's op code for node t.
func reduceOpCode(t *rt.Tensor) (uint32, error) {
	switch t.Op {
	case rt.OpSumRows:
		return opcodes.ReduceSumRows, nil
	case rt.OpMean:
		return opcodes.ReduceMean, nil
	case rt.OpNorm:
		return opcodes.ReduceNorm, nil
	case rt.OpRmsNorm:
		return opcodes.ReduceRmsNorm, nil
	case rt.OpSoftMax:
		return opcodes.ReduceSoftMax, nil
	case rt.OpArgmax:
		return opcodes.ReduceArgmax, nil
	case rt.OpSum:
		return opcodes.ReduceSum, nil
	}
	return 0, unsupportedOp(t)
}

// Push-constant blocks, field for field as the shaders declare them. Their
// Mode (op and dtypes) also goes to the pipeline as specialization constant
// 1, which is what the shaders read: specialized, a shader keeps only its
// own path, and CPU drivers execute every path a shader has.

type unaryPC struct {
	Ne0, Nb0, Ne, Nb [4]uint32
	Off0, OffD       uint32
	Mode             uint32
	Mp, Smp          [3]uint32
	Shifts           uint32
	P0, P1           float32
	N                uint32
}

type binaryPC struct {
	Ne, Nb0, Ne1, Nb1, Nb [4]uint32
	Off0, Off1, OffD      uint32
	Mode                  uint32
	Mp                    [3]uint32
	Shifts                uint32
	N                     uint32
	Cat                   uint32
}

type rowsPC struct {
	Ne, Nb0          [4]uint32
	Nb1              [3]uint32
	Ne11, Ne12       uint32
	Nb               [4]uint32
	Off0, Off1, OffD uint32
	Mode             uint32
	Mp               [3]uint32
	Shifts           uint32
	N                uint32
	Nrows            uint32
}

type reducePC struct {
	Ne0, Nb0            [4]uint32
	Nb1, Nb2, Nb3, Nb0d uint32
	Ne11, Ne12, Ne13    uint32
	Nb10, Nb11, Nb12    uint32
	Nb13                uint32
	Off0, Off1, OffD    uint32
	Mode                uint32
	P                   float32
	Mp1, Mp12, Shifts   uint32
	Nrows               uint32
	Mp0                 uint32
	Softcap             float32
	Fuse                uint32 // opcodes.FuseMul: times the weight row at Off1
}

type ropePC struct {
	Ne, Nb0, Nb         [4]uint32
	Nb10                uint32
	Off0, Off1, OffD    uint32
	Mode                uint32
	NDims               uint32
	FreqBase, FreqScale float32
	Mp                  [3]uint32
	Shifts              uint32
	N                   uint32
	Off2                uint32
	ExtFactor, MScale   float32
	CorrLo, CorrHi      float32
	// A fused SET_ROWS (fuse.go): the destination's row stride (0: not
	// fused) and the indices' offset at binding 4; Nb2 is then the
	// indices' stride and Nb3 the destination's row count.
	RowsStride, RowsOff uint32
}

type matmulPC struct {
	K, M, N                uint32
	Ne02, Ne03, Ne12, Ne13 uint32
	Nb01, Nb02, Nb03       uint32
	Nb10, Nb11, Nb12, Nb13 uint32
	Nb0, Nb1, Nb2, Nb3     uint32
	Off0, Off1, OffD       uint32
	Fuse, OffB             uint32 // opcodes.FuseAdd: plus the addend at OffB (binding 2)
	Nbb1, Nbb2, Nbb3       uint32 // the addend's strides, 0 where it broadcasts
}

type flashAttnPC struct {
	D, Dv, Nkv, Nq               uint32
	Rk, Rv, M2, M3               uint32
	Nbq1, Nbq2, Nbq3             uint32
	Nbk1, Nbk2, Nbk3             uint32
	Nbv1, Nbv2, Nbv3             uint32
	Nbm1, Nbm2, Nbm3             uint32
	Nbd1, Nbd2, Nbd3             uint32
	OffQ, OffK, OffV, OffM, OffD uint32
	Scale, Softcap               float32
	Ksz, Vsz                     uint32 // element (block) sizes in bytes
}

// FLASH_ATTN_EXT's workgroup (keys per tile) and the largest head sizes
// flash_attn.comp holds (MAX_D).
const (
	wgFlashAttn   = 64
	flashAttnMaxD = 512
)

// Each block must fit the 128 bytes of push constants (a negative array
// length does not compile).
var (
	_ [pushConstantSize - unsafe.Sizeof(unaryPC{})]byte
	_ [pushConstantSize - unsafe.Sizeof(binaryPC{})]byte
	_ [pushConstantSize - unsafe.Sizeof(rowsPC{})]byte
	_ [pushConstantSize - unsafe.Sizeof(reducePC{})]byte
	_ [pushConstantSize - unsafe.Sizeof(ropePC{})]byte
	_ [pushConstantSize - unsafe.Sizeof(matmulPC{})]byte
	_ [pushConstantSize - unsafe.Sizeof(flashAttnPC{})]byte
)

func setPC[T any](pc *pushConsts, v *T) {
	*(*T)(unsafe.Pointer(pc)) = *v
}

// fastdiv returns the multiplier and shift that divide by d (Granlund-Montgomery,
// as the shaders' fastdiv): n/d = (umulhi(n, mp) + n) >> l for n < 2^31.
func fastdiv(d int) (mp, l uint32) {
	if d <= 0 {
		return 0, 0
	}
	for uint64(1)<<l < uint64(d) {
		l++
	}
	mp = uint32((uint64(1)<<32)*((uint64(1)<<l)-uint64(d))/uint64(d) + 1)
	return mp, l
}

// shapeDiv fills the fastdiv parameters for ne0, ne0*ne1, ne0*ne1*ne2.
func shapeDiv(ne [4]int) (mp [3]uint32, shifts uint32) {
	prod := 1
	for i := 0; i < 3; i++ {
		prod *= ne[i]
		m, l := fastdiv(prod)
		mp[i] = m
		shifts |= l << (5 * i)
	}
	return mp, shifts
}

func u4(v [4]int) [4]uint32 {
	return [4]uint32{uint32(v[0]), uint32(v[1]), uint32(v[2]), uint32(v[3])}
}

// grid1D spreads n invocations over workgroups of wg, using the y dimension
// when x would exceed the device limit.
func grid1D(n, wg int) [3]uint32 {
	g := (n + wg - 1) / wg
	gx := min(g, maxGroups)
	gy := (g + gx - 1) / gx
	return [3]uint32{uint32(gx), uint32(gy), 1}
}

// operand binds a tensor for a shader: the descriptor range that holds it
// and the tensor's byte offset inside that range.
func operand(t *rt.Tensor, dev *Device) (binding, uint32, error) {
	b, ok := vkBuffer(t.Buffer)
	if !ok || b == nil {
		return binding{}, 0, fmt.Errorf("tensor %q is not in a Vulkan buffer (buffer %T)", t.Name, t.Buffer)
	}
	if b.bt.dev != dev {
		return binding{}, 0, fmt.Errorf("tensor %q is in a buffer of %s", t.Name, b.bt.dev.name)
	}
	if b.freed || b.db == nil {
		return binding{}, 0, fmt.Errorf("tensor %q: its buffer is freed or empty", t.Name)
	}
	if t.Offset < 0 || t.Offset+t.Nbytes() > b.size {
		return binding{}, 0, fmt.Errorf("tensor %q at [%d,%d) lies outside its %d-byte buffer", t.Name, t.Offset, t.Offset+t.Nbytes(), b.size)
	}
	if a := elemAlign(t.Type); t.Offset%a != 0 {
		return binding{}, 0, fmt.Errorf("tensor %q: offset %d is not a multiple of %d bytes (%v)", t.Name, t.Offset, a, t.Type)
	}
	r := tensorRange(t, b)
	return r, uint32(uint64(t.Offset) - r.base), nil
}

// tensorRange is the descriptor range of t in b: from its offset rounded
// down to the storage alignment (at least 4, so the offset left in the push
// constants keeps its word alignment) to its last whole 32-bit word, which
// shaders may read or update around 16-bit values.
func tensorRange(t *rt.Tensor, b *Buffer) binding {
	align := max(b.bt.dev.lim.storageAlign, 4)
	base := uint64(t.Offset) / align * align
	end := min(alignUp(uint64(t.Offset+t.Nbytes()), 4), b.db.size)
	end = min(max(end, base+4), b.db.size)
	return binding{buf: b.db, base: base, size: end - base}
}

// elemAlign is the byte alignment shaders need for a dtype's elements.
func elemAlign(t rt.DType) int {
	switch t {
	case rt.F32, rt.I32:
		return 4
	case rt.MXFP4:
		return 1 // 17-byte blocks
	}
	return 2
}

// plan turns node t into a dispatch. check(t) must have passed.
func (d *Device) plan(t *rt.Tensor) (*dispatch, error) { return d.planFused(t, 0) }

// planFused plans t with the fusion flags fuse (opcodes.Fuse*; see
// fuse.go, which builds t from the chain it fuses).
func (d *Device) planFused(t *rt.Tensor, fuse uint32) (*dispatch, error) {
	ds := &dispatch{}
	dst, offd, err := operand(t, d)
	if err != nil {
		return nil, err
	}
	ds.binds[dstBinding] = dst
	var offs [rt.MaxSrc]uint32
	for i := rt.MaxSrc - 1; i >= 0; i-- { // source 0 last: unused slots repeat it
		s := t.Src[i]
		if s == nil {
			continue
		}
		b, off, err := operand(s, d)
		if err != nil {
			return nil, err
		}
		ds.binds[srcBinding(i)], offs[i] = b, off
	}
	for i := 1; i < rt.MaxSrc; i++ {
		if t.Src[i] == nil {
			ds.binds[srcBinding(i)] = ds.binds[0]
		}
	}
	// Each op the shaders compute has its case here and in the op-code
	// switch of its planner (unaryOpCode, binaryOpCode, reduceOpCode, …).
	switch t.Op {
	case rt.OpMulMat:
		d.planMatMul(ds, t, offs, offd, fuse)
	case rt.OpAdd, rt.OpSub, rt.OpMul, rt.OpDiv, rt.OpConcat, rt.OpGLU:
		err = planBinary(ds, t, offs, offd)
	case rt.OpGetRows, rt.OpSetRows:
		err = d.planRows(ds, t, offs, offd)
	case rt.OpDup, rt.OpCont, rt.OpCpy:
		if t.Type.IsQuantized() && t.Type != t.Src[0].Type {
			err = d.planRows(ds, t, offs, offd) // quantizing, block by block
		} else {
			err = planUnary(ds, t, offs, offd)
		}
	case rt.OpScale, rt.OpSqr, rt.OpSqrt, rt.OpClamp, rt.OpSilu, rt.OpGelu, rt.OpGeluErf,
		rt.OpRelu, rt.OpTanh, rt.OpSigmoid, rt.OpExp, rt.OpNeg, rt.OpDiagMaskInf:
		err = planUnary(ds, t, offs, offd)
	case rt.OpRope:
		planRope(ds, t, offs, offd)
	case rt.OpFlashAttnExt:
		planFlashAttn(ds, t, offs, offd)
	case rt.OpSum, rt.OpSumRows, rt.OpMean, rt.OpArgmax, rt.OpNorm, rt.OpRmsNorm, rt.OpSoftMax:
		err = d.planReduce(ds, t, offs, offd, fuse)
	default:
		err = unsupportedOp(t)
	}
	if err != nil {
		return nil, err
	}
	return ds, nil
}

// unsupportedOp is the error for an op no shader computes.
func unsupportedOp(t *rt.Tensor) error {
	return fmt.Errorf("no Vulkan shader for %v (node %q): %w", t.Op, t.Name, rt.ErrUnsupported)
}

// planBinary runs binary.comp: ADD, SUB, MUL, DIV with src1 broadcast,
// CONCAT and the GLUs.
func planBinary(ds *dispatch, t *rt.Tensor, offs [rt.MaxSrc]uint32, offd uint32) error {
	a, b := t.Src[0], t.Src[1]
	code, err := binaryOpCode(t)
	if err != nil {
		return err
	}
	p := binaryPC{
		Ne: u4(t.Ne), Nb0: u4(a.Nb), Ne1: u4(b.Ne), Nb1: u4(b.Nb), Nb: u4(t.Nb),
		Off0: offs[0], Off1: offs[1], OffD: offd,
		Mode: uint32(a.Type) | uint32(b.Type)<<8 | uint32(t.Type)<<16 | code<<24,
		N:    uint32(t.Nelements()),
	}
	if t.Op == rt.OpConcat {
		dim := int(t.Params[0])
		p.Cat = uint32(dim) | uint32(a.Ne[dim])<<2
	}
	var flags uint32
	if flat := flatF32(t, a, offd, offs[0]) && flatF32(b, b, offs[1], offs[1]); flat && t.Op != rt.OpConcat {
		if b.Ne == a.Ne {
			flags = opcodes.BinaryFast
			if t.Nelements()%4 == 0 && offd%16 == 0 && offs[0]%16 == 0 && offs[1]%16 == 0 {
				flags |= opcodes.BinaryFastVec4
			}
		} else if b.Ne[0] == a.Ne[0] && b.Nrows() == 1 {
			flags = opcodes.BinaryFast | opcodes.BinaryFastRow
		}
	}
	p.Mp, p.Shifts = shapeDiv(t.Ne)
	setPC(&ds.pc, &p)
	ds.key = pipelineKey{variant: "binary", spec: [7]uint32{wgElementwise, p.Mode, flags}}
	if flags&opcodes.BinaryFastVec4 != 0 {
		ds.groups = grid1D(t.Nelements()/4, wgElementwise)
	} else {
		ds.groups = grid1D(t.Nelements(), wgElementwise)
	}
	return nil
}

// planRope runs rope.comp over pairs of elements.
func planRope(ds *dispatch, t *rt.Tensor, offs [rt.MaxSrc]uint32, offd uint32) {
	p := ropeParams(t, t.Type, offs, offd)
	setRope(ds, t, &p)
}

// ropeParams is rope.comp's push-constant block for ROPE node t writing
// dtype dst.
func ropeParams(t *rt.Tensor, dst rt.DType, offs [rt.MaxSrc]uint32, offd uint32) ropePC {
	a, b := t.Src[0], t.Src[1]
	p := ropePC{
		Ne:  [4]uint32{uint32(t.Ne[0] / 2), uint32(t.Ne[1]), uint32(t.Ne[2]), uint32(t.Ne[3])},
		Nb0: u4(a.Nb), Nb: u4(t.Nb), Nb10: uint32(b.Nb[0]),
		Off0: offs[0], Off1: offs[1], OffD: offd,
		Mode:     uint32(a.Type) | uint32(dst)<<8 | uint32(t.Params[1])<<16,
		NDims:    uint32(t.Params[0]),
		FreqBase: t.ParamF(2), FreqScale: t.ParamF(3),
		N: uint32(t.Nelements() / 2),
	}
	rp := rt.RopeParamsOf(t)
	p.ExtFactor, p.MScale = rp.ExtFactor, rp.AttnFactor
	if rp.ExtFactor != 0 {
		lo, hi := rt.RopeYarnCorrDims(rp)
		p.CorrLo, p.CorrHi = float32(lo), float32(hi)
		p.MScale *= float32(1 + 0.1*math.Log(1/float64(rp.FreqScale)))
	}
	if t.Src[2] != nil {
		p.Mode |= opcodes.RopeFreqFactors
		p.Off2 = offs[2]
	}
	p.Mp, p.Shifts = shapeDiv([4]int{t.Ne[0] / 2, t.Ne[1], t.Ne[2], t.Ne[3]})
	return p
}

// setRope finishes a rope.comp dispatch of ROPE node t with block p.
func setRope(ds *dispatch, t *rt.Tensor, p *ropePC) {
	setPC(&ds.pc, p)
	ds.key = pipelineKey{variant: "rope", spec: [7]uint32{wgElementwise, p.Mode}}
	ds.groups = grid1D(t.Nelements()/2, wgElementwise)
}

// flatF32 reports whether dst and src are contiguous F32 tensors at 4-byte
// aligned offsets.
func flatF32(dst, src *rt.Tensor, offd, offs uint32) bool {
	return dst.Type == rt.F32 && src.Type == rt.F32 && dst.IsContiguous() && src.IsContiguous() && offd%4 == 0 && offs%4 == 0
}

// planUnary runs unary.comp: copies and conversions (but quantizing) and
// the elementwise functions.
func planUnary(ds *dispatch, t *rt.Tensor, offs [rt.MaxSrc]uint32, offd uint32) error {
	a := t.Src[0]
	code, err := unaryOpCode(t)
	if err != nil {
		return err
	}
	sne, dne := a.Ne, t.Ne
	if a.Type == t.Type && a.Type.IsQuantized() {
		// Same-type block copies count blocks along dim 0.
		sne[0] /= a.Type.BlockSize()
		dne[0] /= a.Type.BlockSize()
	}
	n := dne[0] * dne[1] * dne[2] * dne[3]
	p := unaryPC{
		Ne0: u4(sne), Nb0: u4(a.Nb), Ne: u4(dne), Nb: u4(t.Nb),
		Off0: offs[0], OffD: offd,
		Mode: uint32(a.Type) | uint32(t.Type)<<8 | code<<16,
		N:    uint32(n),
	}
	if sne == dne {
		p.Mode |= opcodes.UnarySameShape
		if t.Op != rt.OpDiagMaskInf && a.Type == t.Type && flatF32(t, a, offd, offs[0]) {
			p.Mode |= opcodes.UnaryFast
		}
	}
	p.Mp, p.Shifts = shapeDiv(dne)
	smp, sshifts := shapeDiv(sne)
	p.Smp = smp
	p.Shifts |= sshifts << 15
	switch t.Op {
	case rt.OpScale, rt.OpClamp:
		p.P0, p.P1 = t.ParamF(0), t.ParamF(1)
	case rt.OpDiagMaskInf:
		p.P0 = math.Float32frombits(uint32(t.Params[0]))
	}
	setPC(&ds.pc, &p)
	ds.key = pipelineKey{variant: "unary", spec: [7]uint32{wgElementwise, p.Mode}}
	ds.groups = grid1D(n, wgElementwise)
	return nil
}

// planRows runs rows.comp: GET_ROWS, SET_ROWS and the copies that quantize.
func (d *Device) planRows(ds *dispatch, t *rt.Tensor, offs [rt.MaxSrc]uint32, offd uint32) error {
	a, idx := t.Src[0], t.Src[1]
	p := rowsPC{
		Nb0: u4(a.Nb), Nb: u4(t.Nb),
		Off0: offs[0], Off1: offs[1], OffD: offd,
		Mode: uint32(a.Type) | uint32(t.Type)<<8,
	}
	var space [4]int
	switch t.Op {
	case rt.OpGetRows:
		ds.errFlag = true
		space = t.Ne
		p.Nb1 = [3]uint32{uint32(idx.Nb[0]), uint32(idx.Nb[1]), uint32(idx.Nb[2])}
		p.Nrows = uint32(a.Ne[1])
		p.Mode |= opcodes.RowsGet << 16
	case rt.OpSetRows:
		ds.errFlag = true
		space = a.Ne
		p.Nb1 = [3]uint32{uint32(idx.Nb[0]), uint32(idx.Nb[1]), uint32(idx.Nb[2])}
		p.Ne11, p.Ne12 = uint32(idx.Ne[1]), uint32(idx.Ne[2])
		p.Nrows = uint32(t.Ne[1])
		p.Mode |= opcodes.RowsSet << 16
	case rt.OpDup, rt.OpCont, rt.OpCpy: // into a block-quantized tensor of the same shape
		space = a.Ne
		p.Mode |= opcodes.RowsQuantize << 16
	default:
		return unsupportedOp(t)
	}
	if t.Type.IsQuantized() && t.Op != rt.OpGetRows {
		space[0] /= t.Type.BlockSize()
	}
	n := space[0] * space[1] * space[2] * space[3]
	p.Ne, p.N = u4(space), uint32(n)
	p.Mp, p.Shifts = shapeDiv(space)
	setPC(&ds.pc, &p)
	ds.key = pipelineKey{variant: rowsVariant(t), spec: [7]uint32{wgElementwise, p.Mode}}
	ds.groups = grid1D(n, wgElementwise)
	return nil
}

// planReduce runs reduce.comp over rows: the sums, means, norms, SOFT_MAX
// and ARGMAX.
func (d *Device) planReduce(ds *dispatch, t *rt.Tensor, offs [rt.MaxSrc]uint32, offd uint32, fuse uint32) error {
	a, mask := t.Src[0], t.Src[1]
	code, err := reduceOpCode(t)
	if err != nil {
		return err
	}
	p := reducePC{
		Ne0: u4(a.Ne), Nb0: u4(a.Nb),
		Nb1: uint32(t.Nb[1]), Nb2: uint32(t.Nb[2]), Nb3: uint32(t.Nb[3]), Nb0d: uint32(t.Nb[0]),
		Off0: offs[0], Off1: offs[1], OffD: offd,
		Mode:  opcodes.MaskNone<<16 | code<<24,
		Nrows: uint32(a.Nrows()),
		Fuse:  fuse,
	}
	switch t.Op {
	case rt.OpNorm, rt.OpRmsNorm:
		p.P = t.ParamF(0)
	case rt.OpSoftMax:
		p.P, p.Softcap = t.ParamF(0), t.ParamF(1)
	case rt.OpArgmax:
		p.Nb1 = uint32(t.Nb[0]) // result element r is row r's index
	}
	if t.Op == rt.OpSoftMax && mask != nil {
		p.Mode = p.Mode&^(0xff<<16) | uint32(mask.Type)<<16
		p.Ne11, p.Ne12, p.Ne13 = uint32(mask.Ne[1]), uint32(mask.Ne[2]), uint32(mask.Ne[3])
		p.Nb10, p.Nb11, p.Nb12, p.Nb13 = uint32(mask.Nb[0]), uint32(mask.Nb[1]), uint32(mask.Nb[2]), uint32(mask.Nb[3])
	} else {
		p.Ne11, p.Ne12, p.Ne13 = 1, 1, 1
	}
	m0, l0 := fastdiv(a.Ne[0])
	m1, l1 := fastdiv(a.Ne[1])
	m12, l12 := fastdiv(a.Ne[1] * a.Ne[2])
	p.Mp0, p.Mp1, p.Mp12, p.Shifts = m0, m1, m12, l1|l12<<5|l0<<10
	wg := d.wgRows
	switch {
	case t.Op == rt.OpSum:
		wg = wgSum
		ds.groups = [3]uint32{1, 1, 1}
	case a.Ne[0] <= threadRowsMax:
		p.Mode |= opcodes.ReduceThreadRows
		ds.groups = grid1D(a.Nrows(), wg)
	default:
		ds.groups = grid1D(a.Nrows(), 1)
		if t.Op == rt.OpRmsNorm && a.Ne[0]%4 == 0 && a.Nb[0] == 4 && t.Nb[0] == 4 &&
			allMultiples(16, int(offs[0]), int(offd), a.Nb[1], a.Nb[2], a.Nb[3], t.Nb[1], t.Nb[2], t.Nb[3]) &&
			(fuse&opcodes.FuseMul == 0 || offs[1]%16 == 0) {
			p.Mode |= opcodes.ReduceRowVec4
		}
	}
	setPC(&ds.pc, &p)
	ds.key = pipelineKey{variant: d.variant("reduce"), spec: [7]uint32{uint32(wg), p.Mode}}
	return nil
}

// Reductions over rows of at most threadRowsMax elements give each row to a
// single invocation; SUM runs as one workgroup of wgSum invocations.
const (
	threadRowsMax = 64
	wgSum         = 256
)

// variant picks the subgroup or shared-memory build of a reduction shader.
func (d *Device) variant(name string) string {
	if d.subgroupArith {
		return name
	}
	return name + "_nosg"
}

// weightSuffix names the MUL_MAT variants of a weight dtype. The types
// without their own share the "q" (A_ANY) variants, specialized per dtype
// (constant qtSpec): one SPIR-V module for all of them, and the driver
// keeps only the dtype's dequantizer. (A dtype read at run time costs
// lavapipe, which runs every branch it cannot prove unused, 10-80x.)
var weightSuffix = map[rt.DType]string{rt.F32: "f32", rt.F16: "f16", rt.BF16: "bf16", rt.Q8_0: "q8_0", rt.Q4_0: "q4_0"}

func weightVariant(t rt.DType) string {
	if w, ok := weightSuffix[t]; ok {
		return w
	}
	return "q"
}

// anyQuantMaxNR caps the rows per workgroup of the A_ANY mat-vec kernel,
// which unrolls a dequantization per row.
const anyQuantMaxNR = 4

// qtSpec is the index of the A_ANY kernels' weight-dtype specialization
// constant.
const qtSpec = 6

// Products with at most matVecMaxN src1 columns use the mat-vec kernel:
// a 64-wide tile would be mostly padding.
const matVecMaxN = 8

// mmTile is the shape of the shared-memory MUL_MAT kernels' tiles (see
// mul_mat.comp and mul_mat_hw.comp): BM x BN per workgroup, BK deep, TM x TN
// per invocation.
type mmTile struct{ bm, bn, bk, tm, tn int }

var (
	// gpuTile: 64 invocations of 8x8 outputs.
	gpuTile = mmTile{64, 64, 16, 8, 8}
	// cpuTile: on CPU drivers every load costs nanoseconds while registers
	// spill cheaply, so each invocation keeps 32x8 outputs and shares its
	// weights by shuffle (about twice the speed of 16x8 on lavapipe, but
	// Mesa takes some 6 s to compile each such variant on first use).
	cpuTile = mmTile{256, 64, 16, 32, 8}
)

func (t mmTile) spec() [7]uint32 {
	wg := (t.bm / t.tm) * (t.bn / t.tn)
	return [7]uint32{uint32(wg), uint32(t.bm), uint32(t.bn), uint32(t.bk), uint32(t.tm), uint32(t.tn)}
}

func (d *Device) planMatMul(ds *dispatch, t *rt.Tensor, offs [rt.MaxSrc]uint32, offd uint32, fuse uint32) {
	a, b := t.Src[0], t.Src[1]
	if d.useMMQ(a, b.Ne[1]) && d.planMMQ(ds, t, offs, offd, fuse) {
		return
	}
	p := matmulPC{
		K: uint32(a.Ne[0]), M: uint32(a.Ne[1]), N: uint32(b.Ne[1]),
		Ne02: uint32(a.Ne[2]), Ne03: uint32(a.Ne[3]), Ne12: uint32(b.Ne[2]), Ne13: uint32(b.Ne[3]),
		Nb01: uint32(a.Nb[1]), Nb02: uint32(a.Nb[2]), Nb03: uint32(a.Nb[3]),
		Nb10: uint32(b.Nb[0]), Nb11: uint32(b.Nb[1]), Nb12: uint32(b.Nb[2]), Nb13: uint32(b.Nb[3]),
		Nb0: uint32(t.Nb[0]), Nb1: uint32(t.Nb[1]), Nb2: uint32(t.Nb[2]), Nb3: uint32(t.Nb[3]),
		Off0: offs[0], Off1: offs[1], OffD: offd,
		Fuse: fuse, OffB: offs[2],
	}
	if e := t.Src[2]; fuse&opcodes.FuseAdd != 0 {
		p.Nbb1, p.Nbb2, p.Nbb3 = broadcastStride(e, 1), broadcastStride(e, 2), broadcastStride(e, 3)
	}
	setPC(&ds.pc, &p)
	batches := uint32(b.Ne[2] * b.Ne[3])
	w := weightVariant(a.Type)
	nc := 1 // mat-vec columns per workgroup: a power of two covering n
	for nc < b.Ne[1] {
		nc *= 2
	}
	nc = min(nc, d.ncMatVec)
	if n := b.Ne[1]; n <= matVecMaxN && (n+nc-1)/nc*b.Ne[2]*b.Ne[3] <= maxGroups {
		if d.hwMatVec() && d.planMatVecHW(ds, a, b, offs) {
			return
		}
		// Quantized blocks unroll NR x NC x 32 products: keep NR x NC at
		// 32 so that the shader (and its compile time) stays small.
		nr := d.nrMatVec
		if a.Type.IsQuantized() {
			nr = max(min(nr, 32/nc), 1)
		}
		if w == "q" {
			nr = min(nr, anyQuantMaxNR)
		}
		var vec4 uint32
		perLoad := map[rt.DType]int{rt.F32: 4, rt.F16: 8, rt.BF16: 8}[a.Type] // elements per 16-byte load
		if perLoad > 0 && a.Ne[0]%perLoad == 0 && b.Nb[0] == 4 && allMultiples(16, int(offs[0]), int(offs[1]),
			a.Nb[1], a.Nb[2], a.Nb[3], b.Nb[1], b.Nb[2], b.Nb[3]) {
			vec4 = 1
		}
		ds.key = pipelineKey{variant: d.variant("mul_mat_vec_" + w), spec: [7]uint32{uint32(d.wgMatVec), uint32(nr), uint32(nc), vec4}}
		if w == "q" {
			ds.key.spec[qtSpec] = uint32(a.Type)
		}
		g := grid1D(a.Ne[1], nr)
		g[2] = uint32((n+nc-1)/nc) * batches
		ds.groups = g
		return
	}
	v, tile := "mul_mat_"+w, d.mmTile
	spec := tile.spec()
	switch {
	case d.tune.mmKernel == mmHardware:
		v = "mul_mat_hw_" + w
		spec[3] |= hwLoads(a, b, offs)
	case !d.subgroupShuffle:
		v, tile = v+"_nosg", gpuTile
		spec = tile.spec()
	}
	ds.key = pipelineKey{variant: v, spec: spec}
	if w == "q" {
		ds.key.spec[qtSpec] = uint32(a.Type)
	}
	ds.groups = [3]uint32{uint32((a.Ne[1] + tile.bm - 1) / tile.bm), uint32((b.Ne[1] + tile.bn - 1) / tile.bn), batches}
}

// mul_mat_hw.comp's load flags, in the upper bits of its constant 3 (BK):
// src1 and the F32, F16 or BF16 weights read 16 bytes at a time.
const (
	hwLoadVecB = 1 << 8
	hwLoadVecA = 1 << 9
)

// hwLoads returns the load flags for weights a and src1 b: 16-byte loads
// where K is a multiple of the elements per load and every row and column
// starts 16-byte aligned.
func hwLoads(a, b *rt.Tensor, offs [rt.MaxSrc]uint32) uint32 {
	var f uint32
	if b.Nb[0] == 4 && a.Ne[0]%4 == 0 && allMultiples(16, int(offs[1]), b.Nb[1], b.Nb[2], b.Nb[3]) {
		f |= hwLoadVecB
	}
	perLoad := map[rt.DType]int{rt.F32: 4, rt.F16: 8, rt.BF16: 8}[a.Type]
	if perLoad > 0 && a.Ne[0]%perLoad == 0 && allMultiples(16, int(offs[0]), a.Nb[1], a.Nb[2], a.Nb[3]) {
		f |= hwLoadVecA
	}
	return f
}

// broadcastStride is t's stride along dim i, or 0 where t broadcasts.
func broadcastStride(t *rt.Tensor, i int) uint32 {
	if t.Ne[i] == 1 {
		return 0
	}
	return uint32(t.Nb[i])
}

// allMultiples reports whether every value is a multiple of m.
func allMultiples(m int, vs ...int) bool {
	for _, v := range vs {
		if v%m != 0 {
			return false
		}
	}
	return true
}

// planFlashAttn runs flash_attn.comp with one workgroup per (query row,
// head, sequence).
func planFlashAttn(ds *dispatch, t *rt.Tensor, offs [rt.MaxSrc]uint32, offd uint32) {
	q, k, v, m := t.Src[0], t.Src[1], t.Src[2], t.Src[3]
	p := flashAttnPC{
		D: uint32(q.Ne[0]), Dv: uint32(v.Ne[0]), Nkv: uint32(k.Ne[1]), Nq: uint32(q.Ne[1]),
		Rk: uint32(q.Ne[2] / k.Ne[2]), Rv: uint32(q.Ne[2] / v.Ne[2]), M2: 1, M3: 1,
		Nbq1: uint32(q.Nb[1]), Nbq2: uint32(q.Nb[2]), Nbq3: uint32(q.Nb[3]),
		Nbk1: uint32(k.Nb[1]), Nbk2: uint32(k.Nb[2]), Nbk3: uint32(k.Nb[3]),
		Nbv1: uint32(v.Nb[1]), Nbv2: uint32(v.Nb[2]), Nbv3: uint32(v.Nb[3]),
		Nbd1: uint32(t.Nb[1]), Nbd2: uint32(t.Nb[2]), Nbd3: uint32(t.Nb[3]),
		OffQ: offs[0], OffK: offs[1], OffV: offs[2], OffD: offd,
		Scale: t.ParamF(0), Softcap: t.ParamF(2),
		Ksz: uint32(k.Type.TypeSize()), Vsz: uint32(v.Type.TypeSize()),
	}
	mode := uint32(k.Type) | uint32(v.Type)<<8 | opcodes.MaskNone<<16
	if m != nil {
		mode = mode&^(0xff<<16) | uint32(m.Type)<<16
		p.M2, p.M3 = uint32(m.Ne[2]), uint32(m.Ne[3])
		p.Nbm1, p.Nbm2, p.Nbm3 = uint32(m.Nb[1]), uint32(m.Nb[2]), uint32(m.Nb[3])
		p.OffM = offs[3]
	}
	setPC(&ds.pc, &p)
	ds.key = pipelineKey{variant: "flash_attn", spec: [7]uint32{wgFlashAttn, mode}}
	ds.groups = [3]uint32{uint32(q.Ne[1]), uint32(q.Ne[2]), uint32(q.Ne[3])}
}
