package vk

import (
	"fmt"
	"os"
	"unsafe"

	"github.com/gpurt/gpurt/internal/opcodes"
	rt "github.com/gpurt/gpurt/runtime"
)

// MMQ: the integer-dot MUL_MAT path for Q8_0, Q4_0, Q4_K and Q6_K weights, as
// ggml-vulkan's mul_mmq and mul_mat_vecq. A first dispatch
// (quantize_q8_1.comp) quantizes the F32 src1 into the backend's scratch
// buffer as Q8_1-like blocks (32 int8 quants, their scale d and the sum
// s = d*Σq; layout in shaders/vk/mmq.glsl); the product dispatch
// (mmq_vec.comp for few columns, mmq.comp tiled) then sums each pair of
// blocks with packed int8 dot products (OpSDot) and applies both scales
// once per block. Q4_0's -8 offset and Q4_K's mins come out of the sum:
// Σ(d·q-m)·b = d·Σq·b - m·Σb; Q6_K's values minus 32 are int8 already,
// with a scale per half block. Fused ADD and batch broadcast work as in
// the float kernels.
//
// Selection: useMMQ. GPURT_VK_MMQ=1 forces it wherever the device has
// integer dot products (software devices too), GPURT_VK_MMQ=0 turns it
// off; tests set Device.mmq.

// mmqMode says whether MUL_MAT may take the integer-dot path.
type mmqMode uint8

const (
	mmqAuto mmqMode = iota // hardware devices with integer dot products
	mmqOn                  // any device with integer dot products
	mmqOff
)

// mmqEnv is GPURT_VK_MMQ's mode, read once.
var mmqEnv = func() mmqMode {
	switch os.Getenv("GPURT_VK_MMQ") {
	case "1":
		return mmqOn
	case "0":
		return mmqOff
	}
	return mmqAuto
}()

// mmqWeight reports whether the MMQ kernels take weights of dtype t.
func mmqWeight(t rt.DType) bool {
	switch t {
	case rt.Q8_0, rt.Q4_0, rt.Q4_K, rt.Q6_K:
		return true
	}
	return false
}

// useMMQ reports whether MUL_MAT with weights a and n src1 columns takes
// the integer-dot path: where the device has shaderIntegerDotProduct and
// its tuning row says so (the GPU rows; the software row, for correctness
// platforms such as lavapipe where MMQ's gain is mixed, keeps the float
// kernels), unless GPURT_VK_MMQ or Device.mmq say otherwise. Every n
// works; n is there for rows that would weigh it.
func (d *Device) useMMQ(a *rt.Tensor, n int) bool {
	if !d.feat.integerDot || !mmqWeight(a.Type) || n < 1 {
		return false
	}
	mode := d.mmq
	if mode == mmqAuto {
		mode = mmqEnv
	}
	switch mode {
	case mmqOn:
		return true
	case mmqOff:
		return false
	}
	return d.tune.mmq
}

// Bytes of one Q8_1-like scratch block: 32 int8 quants, then (elsewhere in
// the buffer) d and s as two floats.
const (
	mmqQuantBytes = 32
	mmqScaleBytes = 8
	mmqBlock      = 32 // values per block
)

// quantizeQ8_1PC is quantize_q8_1.comp's push-constant block.
type quantizeQ8_1PC struct {
	K, N, Ne12, Ne13       uint32
	Nb10, Nb11, Nb12, Nb13 uint32
	Off1                   uint32
	Ds                     uint32 // word index of the scales
	Nblocks                uint32
}

// mmqPC is mmq.comp's and mmq_vec.comp's push-constant block (mmq.glsl).
type mmqPC struct {
	K, M, N                uint32
	Ne02, Ne03, Ne12, Ne13 uint32
	Nb01, Nb02, Nb03       uint32
	Nb0, Nb1, Nb2, Nb3     uint32
	Off0, OffD             uint32
	Fuse, OffB             uint32
	Nbb1, Nbb2, Nbb3       uint32
	Ds                     uint32 // word index of the scratch's scales
}

var (
	_ [pushConstantSize - unsafe.Sizeof(quantizeQ8_1PC{})]byte
	_ [pushConstantSize - unsafe.Sizeof(mmqPC{})]byte
)

// The tiled MMQ kernel's tile: 64 invocations of 8x8 outputs, one block
// of K per stage.
var mmqTile = mmTile{bm: 64, bn: 64, bk: mmqBlock, tm: 8, tn: 8}

// wgQuantize is quantize_q8_1.comp's workgroup size (one block each).
const wgQuantize = 64

// planMMQ plans MUL_MAT node t (planFused has bound its operands into ds)
// as the integer-dot product, with the src1 quantization as ds.pre. It
// returns false, leaving ds alone, where the scratch would exceed the
// device's storage range or the grid its limits; the float kernels then
// run it.
func (d *Device) planMMQ(ds *dispatch, t *rt.Tensor, offs [rt.MaxSrc]uint32, offd uint32, fuse uint32) bool {
	a, b := t.Src[0], t.Src[1]
	if b.Type != rt.F32 || t.Type != rt.F32 || a.Ne[0]%mmqBlock != 0 {
		return false
	}
	batches := b.Ne[2] * b.Ne[3]
	blocks := uint64(a.Ne[0]/mmqBlock) * uint64(b.Ne[1]) * uint64(batches)
	scratch := blocks * (mmqQuantBytes + mmqScaleBytes)
	if blocks == 0 || scratch > d.lim.maxStorageRange || scratch >= 1<<32 {
		return false
	}
	n := b.Ne[1]
	nc := 1 // mat-vec columns per workgroup, as planMatMul
	for nc < n {
		nc *= 2
	}
	nc = min(nc, d.ncMatVec)
	matVec := n <= matVecMaxN && (n+nc-1)/nc*batches <= maxGroups
	if !matVec && ((a.Ne[1]+mmqTile.bm-1)/mmqTile.bm > maxGroups || (n+mmqTile.bn-1)/mmqTile.bn > maxGroups) {
		return false
	}
	ds32 := uint32(blocks * mmqQuantBytes / 4)

	// The quantization reads src1 (bound by planFused at source 1) and
	// writes the scratch, which the backend binds at record time.
	q := &dispatch{scratchBytes: scratch, scratchAt: dstBinding}
	for i := range q.binds {
		q.binds[i] = ds.binds[srcBinding(1)]
	}
	qp := quantizeQ8_1PC{
		K: uint32(a.Ne[0]), N: uint32(n), Ne12: uint32(b.Ne[2]), Ne13: uint32(b.Ne[3]),
		Nb10: uint32(b.Nb[0]), Nb11: uint32(b.Nb[1]), Nb12: uint32(b.Nb[2]), Nb13: uint32(b.Nb[3]),
		Off1: offs[1], Ds: ds32, Nblocks: uint32(blocks),
	}
	setPC(&q.pc, &qp)
	q.key = pipelineKey{variant: "quantize_q8_1", spec: [7]uint32{wgQuantize}}
	q.groups = grid1D(int(blocks), wgQuantize)

	p := mmqPC{
		K: uint32(a.Ne[0]), M: uint32(a.Ne[1]), N: uint32(n),
		Ne02: uint32(a.Ne[2]), Ne03: uint32(a.Ne[3]), Ne12: uint32(b.Ne[2]), Ne13: uint32(b.Ne[3]),
		Nb01: uint32(a.Nb[1]), Nb02: uint32(a.Nb[2]), Nb03: uint32(a.Nb[3]),
		Nb0: uint32(t.Nb[0]), Nb1: uint32(t.Nb[1]), Nb2: uint32(t.Nb[2]), Nb3: uint32(t.Nb[3]),
		Off0: offs[0], OffD: offd,
		Fuse: fuse, OffB: offs[2],
		Ds: ds32,
	}
	if e := t.Src[2]; fuse&opcodes.FuseAdd != 0 {
		p.Nbb1, p.Nbb2, p.Nbb3 = broadcastStride(e, 1), broadcastStride(e, 2), broadcastStride(e, 3)
	}
	setPC(&ds.pc, &p)
	ds.pre, ds.scratchBytes, ds.scratchAt = q, scratch, srcBinding(1)
	if matVec {
		nr := max(min(d.nrMatVec, 32/nc), 1) // NR x NC blocks unrolled, as the float kernel
		ds.key = pipelineKey{variant: d.variant("mmq_vec"), spec: [7]uint32{uint32(d.wgMatVec), uint32(nr), uint32(nc)}}
		g := grid1D(a.Ne[1], nr)
		g[2] = uint32((n+nc-1)/nc) * uint32(batches)
		ds.groups = g
	} else {
		ds.key = pipelineKey{variant: "mmq", spec: mmqTile.spec()}
		ds.groups = [3]uint32{uint32((a.Ne[1] + mmqTile.bm - 1) / mmqTile.bm), uint32((n + mmqTile.bn - 1) / mmqTile.bn), uint32(batches)}
	}
	ds.key.spec[qtSpec] = uint32(a.Type)
	return true
}

// recordPre binds the backend's scratch into ds and its pre dispatch
// where they use it, and records pre unless the scratch holds its result
// already.
func (b *Backend) recordPre(ds *dispatch) error {
	if ds.scratchBytes > 0 {
		// Bound before recording pre, which writes it: growing the
		// scratch may submit the command buffer.
		sb, err := b.scratch(ds.scratchBytes)
		if err != nil {
			return err
		}
		ds.binds[ds.scratchAt] = sb
		if ds.pre != nil {
			ds.pre.binds[ds.pre.scratchAt] = sb
		}
	}
	if ds.pre == nil || b.mmq.holds(ds.pre) {
		return nil
	}
	pre := *ds.pre
	pre.scratchBytes = 0 // bound above
	if err := b.record(&pre); err != nil {
		return err
	}
	b.mmq.hold(ds.pre)
	return nil
}

// mmqScratch is a backend's device-local buffer for quantized src1.
type mmqScratch struct {
	buf *devBuffer
	// held is the quantize dispatch whose result the scratch holds (its
	// src1 range and push constants), recorded in this GraphCompute, so
	// that products sharing src1 (Q, K and V; gate and up) quantize it
	// once; valid until a recorded command writes that range.
	held    heldQuantization
	holding bool
}

type heldQuantization struct {
	src binding
	pc  pushConsts
}

// holds reports whether the scratch holds what quantize q writes.
func (s *mmqScratch) holds(q *dispatch) bool {
	return s.holding && s.held == heldQuantization{q.binds[0], q.pc}
}

// hold records that quantize q was recorded.
func (s *mmqScratch) hold(q *dispatch) {
	s.held, s.holding = heldQuantization{q.binds[0], q.pc}, true
}

// written forgets the held quantization when a dispatch with these
// bindings writes its src1.
func (s *mmqScratch) written(binds *[numBindings]binding, errFlag bool) {
	if !s.holding {
		return
	}
	src := s.held.src.memRange()
	for i, b := range binds {
		if written(i, errFlag) && b.memRange().overlaps(src) {
			s.holding = false
		}
	}
}

// forget drops the held quantization: its src1 may have changed.
func (s *mmqScratch) forget() { s.holding = false }

// mmqScratchMin is the smallest scratch made, so that small products do
// not grow it step by step.
const mmqScratchMin = 1 << 20

// scratch returns the binding of a scratch of at least size bytes. A
// scratch too small is replaced: the command buffer being recorded (which
// may use it) is submitted first, and the old buffer is destroyed once the
// queue has finished it.
func (b *Backend) scratch(size uint64) (binding, error) {
	s := &b.mmq
	if s.buf == nil || s.buf.size < size {
		if s.buf != nil {
			if err := b.flush(); err != nil {
				return binding{}, err
			}
			b.d.freeAfterQueued(s.buf)
			s.buf = nil
			s.forget()
		}
		nb, err := b.d.newDevBuffer(max(alignUp(size, 1<<16), mmqScratchMin), b.d.localType)
		if err != nil {
			return binding{}, fmt.Errorf("MUL_MAT scratch of %d bytes: %w", size, err)
		}
		s.buf = nb
	}
	return binding{buf: s.buf, base: 0, size: min(s.buf.size, b.d.lim.maxStorageRange)}, nil
}

// destroyScratch destroys the scratch; the backend's queued work must have
// completed.
func (b *Backend) destroyScratch() {
	if b.mmq.buf != nil {
		b.mmq.buf.destroy()
		b.mmq.buf = nil
	}
	b.mmq.forget()
}
