//go:build cgo

package wgpu

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	wg "github.com/oliverbestmann/webgpu/wgpu"

	rt "github.com/gpurt/gpurt/runtime"
)

// params is the Go side of the WGSL Params block (see shadergen.go): per
// binding slot the shape and byte strides, the tensor's byte offset inside
// its bound range, and op-specific values.
type params struct {
	ne, nb [maxSlots][4]uint32
	off    [maxSlots]uint32
	ip     [4]int32
	fp     [4]float32
	n      [4]uint32
}

const paramsSize = 15 * 16

func (p *params) put(b []byte) {
	le := binary.LittleEndian
	o := 0
	u := func(v uint32) { le.PutUint32(b[o:], v); o += 4 }
	shape := func(s int) {
		for _, v := range p.ne[s] {
			u(v)
		}
		for _, v := range p.nb[s] {
			u(v)
		}
	}
	for s := 0; s < 4; s++ {
		shape(s)
	}
	for _, v := range p.off[:4] {
		u(v)
	}
	for _, v := range p.ip {
		u(uint32(v))
	}
	for _, v := range p.fp {
		u(math.Float32bits(v))
	}
	for _, v := range p.n {
		u(v)
	}
	shape(4)
	u(p.off[4])
	u(0)
	u(0)
	u(0)
}

// dispatch is one kernel launch with its bindings resolved.
type dispatch struct {
	pipe   *pipeline
	bufs   []*buffer
	ranges []bindRange
	p      params
	grid   [3]uint32
	work   float64 // rough cost, to keep submissions short
}

// newDispatch prepares kernel k over tensors ts (slot order d, a, b, c),
// binding each one and filling its shape and strides into the params.
func (d *Device) newDispatch(k kernel, ts ...*rt.Tensor) (*dispatch, error) {
	if len(ts) != len(k.binds) {
		return nil, fmt.Errorf("kernel %s takes %d tensors, got %d", k.file, len(k.binds), len(ts))
	}
	x := &dispatch{}
	for i, t := range ts {
		b, r, off, err := d.bindTensor(t)
		if err != nil {
			return nil, err
		}
		x.bufs = append(x.bufs, b)
		x.ranges = append(x.ranges, r)
		x.p.off[i] = off
		for j := 0; j < 4; j++ {
			x.p.ne[i][j] = uint32(t.Ne[j])
			x.p.nb[i][j] = uint32(t.Nb[j])
		}
	}
	k.ro = readOnlySlots(k, x.bufs)
	pipe, err := d.pipelineLocked(k)
	if err != nil {
		return nil, err
	}
	x.pipe = pipe
	return x, nil
}

// readOnlySlots returns the slots k may bind read-only: those it does not
// write whose buffer no written slot uses (WebGPU tracks usage per buffer,
// not per range).
func readOnlySlots(k kernel, bufs []*buffer) uint8 {
	var ro uint8
	for i, b := range bufs {
		if k.written(i) {
			continue
		}
		shared := false
		for j, w := range bufs {
			shared = shared || (k.written(j) && w.id == b.id)
		}
		if !shared {
			ro |= 1 << i
		}
	}
	return ro
}

// bindTensor finds the range to bind for t: from t's offset rounded down to
// minStorageBufferOffsetAlignment to its end rounded up to a word. The
// kernel gets the rounding as a byte offset in the params.
func (d *Device) bindTensor(t *rt.Tensor) (*buffer, bindRange, uint32, error) {
	b, ok := t.Buffer.(*buffer)
	if !ok || b == nil {
		if t.Buffer == nil {
			return nil, bindRange{}, 0, fmt.Errorf("tensor %q is not allocated", t.Name)
		}
		return nil, bindRange{}, 0, fmt.Errorf("tensor %q is in a %s buffer, not a %s one", t.Name, t.Buffer.Type().Name(), d.name)
	}
	if b.bt.dev != d {
		return nil, bindRange{}, 0, fmt.Errorf("tensor %q is in a buffer of %s, not %s", t.Name, b.bt.dev.name, d.name)
	}
	if b.freed {
		return nil, bindRange{}, 0, fmt.Errorf("tensor %q: its buffer was freed", t.Name)
	}
	start, end := t.Offset, t.Offset+t.Nbytes()
	if start < 0 || end > b.size {
		return nil, bindRange{}, 0, fmt.Errorf("tensor %q at [%d,%d) lies outside its %d-byte buffer", t.Name, start, end, b.size)
	}
	a0 := alignDown(start, int(d.lim.storageAlign))
	a1 := alignUp(max(end, start+1), 4)
	if uint64(a1-a0) > d.lim.maxStorageBinding {
		return nil, bindRange{}, 0, fmt.Errorf("tensor %q spans %d bytes, more than one binding may (%d)", t.Name, a1-a0, d.lim.maxStorageBinding)
	}
	return b, bindRange{id: b.id, off: uint64(a0), size: uint64(a1 - a0)}, uint32(start - a0), nil
}

// grid1 covers n invocations in workgroups of wgSize, wrapping into y and
// z past maxComputeWorkgroupsPerDimension (kernels use gidx/group).
func (d *Device) grid1(n, wgSize int) ([3]uint32, error) {
	return d.gridGroups((n + wgSize - 1) / wgSize)
}

func (d *Device) gridGroups(groups int) ([3]uint32, error) {
	m := int(d.lim.maxWorkgroupsPerDim)
	if groups <= 0 {
		return [3]uint32{}, nil
	}
	x := min(groups, m)
	y := (groups + x - 1) / x
	z := 1
	if y > m {
		z = (y + m - 1) / m
		y = m
	}
	if z > m {
		return [3]uint32{}, fmt.Errorf("%d workgroups exceed the device's grid", groups)
	}
	return [3]uint32{uint32(x), uint32(y), uint32(z)}, nil
}

// runLocked submits the dispatches in batches of the sizes the tuning row
// allows (tune.go) and returns the index of the last submission (0 if
// nothing was submitted). lavapipe runs a submission to completion before
// accepting the next, and a blocking poll on a very long one is fragile
// there, so there large graphs go out in many short submissions; GPUs take
// far more per submission.
func (d *Device) runLocked(ds []*dispatch) (uint64, error) {
	var last uint64
	for len(ds) > 0 {
		n := d.batchLen(ds)
		idx, err := d.submitBatchLocked(ds[:n])
		if err != nil {
			return last, err
		}
		last = idx
		ds = ds[n:]
	}
	return last, nil
}

// batchLen is how many of ds (at least one) go into the next submission.
func (d *Device) batchLen(ds []*dispatch) int {
	maxDispatches := min(d.tune.batchDispatches, maxBatchDispatches)
	n, work := 0, 0.0
	for n < len(ds) && n < maxDispatches && (n == 0 || work+ds[n].work <= d.tune.batchWork) {
		work += ds[n].work
		n++
	}
	return n
}

// paramsArena holds the params of one batch, each at an offset aligned to
// minUniformBufferOffsetAlignment, with room for the largest batch of any
// tuning row. Queue.WriteBuffer is ordered with
// submissions, so every batch can reuse it.
type paramsArena struct {
	buf    *wg.Buffer
	id     uint64
	stride int
	host   []byte
}

func (d *Device) arenaLocked() (*paramsArena, error) {
	if d.arena != nil {
		return d.arena, nil
	}
	stride := alignUp(paramsSize, int(d.lim.uniformAlign))
	size := stride * maxBatchDispatches
	buf, err := d.createBuffer(&wg.BufferDescriptor{Label: d.name + " params", Size: uint64(size), Usage: wg.BufferUsageUniform | wg.BufferUsageCopyDst})
	if err != nil {
		return nil, err
	}
	d.nextBufID++
	d.arena = &paramsArena{buf: buf, id: d.nextBufID, stride: stride, host: make([]byte, size)}
	return d.arena, nil
}

func (d *Device) submitBatchLocked(ds []*dispatch) (uint64, error) {
	a, err := d.arenaLocked()
	if err != nil {
		return 0, err
	}
	enc, err := d.dev.TryCreateCommandEncoder(nil)
	if err != nil {
		return 0, err
	}
	defer enc.Release()
	pass := enc.BeginComputePass(nil)
	var encErr error
	for i, x := range ds {
		x.p.put(a.host[i*a.stride:])
		g, err := d.bindGroupLocked(x.pipe.layout, a.buf, a.id, x.bufs, x.ranges)
		if err != nil {
			encErr = err
			break
		}
		if x.grid[0] == 0 || x.grid[1] == 0 || x.grid[2] == 0 {
			continue
		}
		pass.SetPipeline(x.pipe.cp)
		pass.SetBindGroup(0, g, []uint32{uint32(i * a.stride)})
		pass.DispatchWorkgroups(x.grid[0], x.grid[1], x.grid[2])
	}
	endErr := pass.TryEnd()
	pass.Release()
	if err := errors.Join(encErr, endErr); err != nil {
		return 0, err
	}
	cb, err := enc.TryFinish(nil)
	if err != nil {
		return 0, err
	}
	if err := d.queue.TryWriteBuffer(a.buf, 0, a.host[:len(ds)*a.stride]); err != nil {
		cb.Release()
		return 0, err
	}
	return d.submitLocked(cb), nil
}
