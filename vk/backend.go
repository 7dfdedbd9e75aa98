package vk

import (
	"errors"
	"fmt"
	"sync"

	"github.com/gpurt/gpurt/internal/opcodes"
	rt "github.com/gpurt/gpurt/runtime"
	vk "github.com/vulkan-go/vulkan"
)

// Backend is an execution stream on a Vulkan device. GraphCompute records
// the graph's dispatches into command buffers and submits them in batches
// without waiting; Synchronize waits. Async transfers are queued on the same
// stream, so they are ordered with compute.
type Backend struct {
	d      *Device
	mu     sync.Mutex
	s      *stream
	closed bool

	// State of the command buffer being recorded.
	haz       hazards
	boundPipe vk.Pipeline
	boundSet  vk.DescriptorSet
	recorded  *slot // the slot the state above belongs to

	// errBuf is the error flag GET_ROWS and SET_ROWS write on an index
	// out of range (see shaders/vk/rows.comp), checked at Synchronize;
	// host-visible, made on first use.
	errBuf *devBuffer

	mmq mmqScratch // quantized src1 of the integer-dot MUL_MAT (mmq.go)

	noFusion bool // GPURT_VK_FUSION=0 or SetFusion(false): one dispatch per node (fuse.go)

	stats Stats
}

// errorFlag returns the binding of the backend's error flag.
func (b *Backend) errorFlag() (binding, error) {
	if b.errBuf == nil {
		eb, err := b.d.newDevBuffer(16, b.d.hostType)
		if err != nil {
			return binding{}, fmt.Errorf("error flag: %w", err)
		}
		m := eb.bytes()
		if m == nil {
			eb.destroy()
			return binding{}, fmt.Errorf("error flag: host memory is not mapped")
		}
		clear(m)
		b.errBuf = eb
	}
	return binding{buf: b.errBuf, base: 0, size: b.errBuf.size}, nil
}

// errorFlagErr reads and clears the error flag once the queue is idle.
func (b *Backend) errorFlagErr() error {
	if b.errBuf == nil {
		return nil
	}
	m := b.errBuf.bytes()
	code := uint32(m[0]) | uint32(m[1])<<8 | uint32(m[2])<<16 | uint32(m[3])<<24
	if code == 0 {
		return nil
	}
	clear(m[:4])
	// rows.comp writes 1 + its op code.
	var op rt.Op
	switch code - 1 {
	case opcodes.RowsGet:
		op = rt.OpGetRows
	case opcodes.RowsSet:
		op = rt.OpSetRows
	}
	return b.errorf("%v: an index lies outside the rows it addresses (the rows it named were left unread or unwritten): %w", op, rt.ErrOutOfRange)
}

func (b *Backend) destroyErrorFlag() {
	if b.errBuf != nil {
		b.errBuf.destroy()
		b.errBuf = nil
	}
}

// Stats counts what a backend recorded and submitted. Fused counts the
// nodes that ran inside another node's dispatch (fuse.go).
type Stats struct {
	Dispatches, Barriers, Submits int
	Fused                         int
	FusedKVWrites                 int // of Fused: SET_ROWS run inside ROPE's dispatch
}

// Stats returns the counts since the backend started.
func (b *Backend) Stats() Stats {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.stats
}

var (
	_ rt.Backend      = (*Backend)(nil)
	_ rt.AsyncBackend = (*Backend)(nil)
)

// submitEvery is the number of dispatches after which a command buffer is
// submitted, so the device starts while the rest of the graph is recorded
// (every row of the tuning table uses it today).
const submitEvery = 64

// NewBackend starts an execution stream on the device.
func (d *Device) NewBackend() (rt.Backend, error) {
	if err := d.open(); err != nil {
		return nil, err
	}
	s, err := newStream(d)
	if err != nil {
		return nil, err
	}
	b := &Backend{d: d, s: s, noFusion: !fusionDefault()}
	d.track(func(l *liveObjects) { l.backends[b] = true })
	return b, nil
}

func (b *Backend) Name() string      { return b.d.name }
func (b *Backend) Device() rt.Device { return b.d }

func (b *Backend) errorf(format string, args ...any) error {
	return fmt.Errorf("vulkan %s: "+format, append([]any{b.d.name}, args...)...)
}

// closedErr says why a closed backend refuses work: closed, or released
// with its device.
func (b *Backend) closedErr() error {
	if b.d.released.Load() {
		return errReleased
	}
	return errClosed
}

// cmd returns the command buffer being recorded, resetting the per-buffer
// state when a new one begins (it starts with a full barrier).
func (b *Backend) cmd() (vk.CommandBuffer, error) {
	c, err := b.s.record()
	if err != nil {
		return nil, err
	}
	if b.recorded != b.s.cur {
		b.recorded = b.s.cur
		b.haz.reset()
		b.boundPipe, b.boundSet = nil, nil
	}
	return c, nil
}

func (b *Backend) flush() error {
	b.recorded = nil
	if b.s.cur != nil {
		b.stats.Submits++
	}
	return b.s.flush()
}

// GraphCompute records every computing node of g and submits the work.
func (b *Backend) GraphCompute(g *rt.Graph) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return b.errorf("graph compute: %w", b.closedErr())
	}
	if g == nil {
		return b.errorf("graph compute: nil graph")
	}
	b.mmq.forget() // the host may have rewritten any src1 since
	var firstErr error
	var fusion *rt.Fusion
	if !b.noFusion {
		fusion = rt.NewFusion(g)
	}
	for i := 0; i < len(g.Nodes); i++ {
		n := g.Nodes[i]
		if n.Op == rt.OpNone || n.Op.IsView() || n.IsEmpty() {
			continue
		}
		ds, nodes, err := b.planNodes(fusion, g, i)
		if err == nil {
			err = b.record(ds)
		}
		if err != nil {
			firstErr = b.errorf("graph compute: %v %q: %w", n.Op, n.Name, err)
			break
		}
		b.stats.Fused += rt.FusedNodes(g.Nodes[i : i+nodes])
		if n.Op == rt.OpRope && nodes > 1 {
			b.stats.FusedKVWrites++
		}
		i += nodes - 1
		if b.s.work >= b.d.tune.submitEvery {
			if err := b.flush(); err != nil {
				return err
			}
		}
	}
	// Submit what was recorded, even after an error, to keep order simple.
	if err := b.flush(); err != nil && firstErr == nil {
		firstErr = err
	}
	return firstErr
}

// planNodes plans the dispatch for g.Nodes[i], or for the chain from it
// that fusion (nil: off) lets one dispatch compute, and returns how many
// nodes it computes.
func (b *Backend) planNodes(fusion *rt.Fusion, g *rt.Graph, i int) (*dispatch, int, error) {
	if fusion != nil {
		ds, nodes, err := b.d.planChain(fusion, g, i)
		if err != nil || nodes > 0 {
			if err != nil {
				err = fmt.Errorf("fused with the next node: %w", err)
			}
			return ds, nodes, err
		}
	}
	n := g.Nodes[i]
	if err := check(n); err != nil {
		if !errors.Is(err, rt.ErrShape) {
			err = fmt.Errorf("%w: %w", err, rt.ErrUnsupported) // well-formed, but not here
		}
		return nil, 0, err
	}
	ds, err := b.d.plan(n)
	return ds, 1, err
}

// record appends one dispatch, with a barrier first if it touches memory an
// earlier command of this command buffer wrote (or writes memory one read).
func (b *Backend) record(ds *dispatch) error {
	if err := b.recordPre(ds); err != nil { // MMQ's src1 quantization (mmq.go)
		return err
	}
	p, err := b.d.pipeline(ds.key)
	if err != nil {
		return err
	}
	cmd, err := b.cmd()
	if err != nil {
		return err
	}
	if ds.errFlag {
		if ds.binds[2], err = b.errorFlag(); err != nil {
			return err
		}
	}
	set, err := b.s.cur.descs.set(b.d, &ds.binds)
	if err != nil {
		return err
	}
	if b.haz.conflicts(&ds.binds, ds.errFlag) {
		barrier(cmd)
		b.haz.reset()
		b.stats.Barriers++
	}
	b.haz.add(&ds.binds, ds.errFlag)
	b.mmq.written(&ds.binds, ds.errFlag)
	if p.handle != b.boundPipe {
		vk.CmdBindPipeline(cmd, vk.PipelineBindPointCompute, p.handle)
		b.boundPipe = p.handle
	}
	if set != b.boundSet {
		vk.CmdBindDescriptorSets(cmd, vk.PipelineBindPointCompute, b.d.pipeLayout, 0, 1, []vk.DescriptorSet{set}, 0, nil)
		b.boundSet = set
	}
	pc := ds.pc
	vk.CmdPushConstants(cmd, b.d.pipeLayout, vk.ShaderStageFlags(vk.ShaderStageComputeBit), 0, pushConstantSize, unsafePointer(&pc))
	vk.CmdDispatch(cmd, ds.groups[0], ds.groups[1], ds.groups[2])
	b.s.work++
	b.stats.Dispatches++
	return nil
}

// Synchronize waits for all queued work and runs pending host copies.
func (b *Backend) Synchronize() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return b.errorf("synchronize: %w", b.closedErr())
	}
	if err := b.flush(); err != nil {
		return err
	}
	if err := b.s.sync(); err != nil {
		return err
	}
	return b.errorFlagErr()
}

// Close waits for the queued work and destroys the stream's objects. Closing
// a backend released with its device does nothing.
func (b *Backend) Close() error {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return nil
	}
	b.closed = true
	err := b.flush()
	if serr := b.s.sync(); err == nil {
		err = serr
	}
	b.s.destroy()
	b.destroyErrorFlag()
	b.destroyScratch()
	b.mu.Unlock()
	// After unlocking: releasing the device locks in the other order.
	b.d.track(func(l *liveObjects) { delete(l.backends, b) })
	return err
}

// releaseStream destroys the stream of a backend left open when its device
// is released (the queue is idle); the backend then refuses use.
func (b *Backend) releaseStream() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return
	}
	b.closed = true
	b.recorded = nil
	b.s.destroy()
	b.destroyErrorFlag()
	b.destroyScratch()
}

// vkTensor resolves t to its Vulkan buffer and byte range, or reports why not.
func (b *Backend) vkTensor(op string, t *rt.Tensor, offset, size int) (*Buffer, int, error) {
	vb, ok := vkBuffer(t.Buffer)
	if !ok {
		return nil, 0, b.errorf("%s %q: not in a Vulkan buffer", op, t.Name)
	}
	if err := vb.unusable(); err != nil {
		return nil, 0, b.errorf("%s %q: %w", op, t.Name, err)
	}
	if vb.bt.dev != b.d {
		return nil, 0, b.errorf("%s %q: tensor is on %s", op, t.Name, vb.bt.dev.name)
	}
	start, err := vb.span(op, t, offset, size)
	return vb, start, err
}

// SetTensorAsync queues a write of data into t, ordered after earlier work.
func (b *Backend) SetTensorAsync(t *rt.Tensor, data []byte, offset int) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return b.errorf("set tensor async: %w", b.closedErr())
	}
	vb, start, err := b.vkTensor("set tensor async", t, offset, len(data))
	if err != nil || len(data) == 0 {
		return err
	}
	if m := vb.writable(); m != nil && b.s.idle() {
		copy(m[start:], data) // nothing queued can be using the memory
		return nil
	}
	st, err := b.s.stage(uint64(len(data)))
	if err != nil {
		return b.errorf("set tensor async %q: %w", t.Name, err)
	}
	copy(st.bytes(), data)
	return b.recordCopy(st, 0, vb.db, uint64(start), uint64(len(data)))
}

// GetTensorAsync queues a read of t into data, valid after Synchronize.
func (b *Backend) GetTensorAsync(t *rt.Tensor, data []byte, offset int) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return b.errorf("get tensor async: %w", b.closedErr())
	}
	vb, start, err := b.vkTensor("get tensor async", t, offset, len(data))
	if err != nil || len(data) == 0 {
		return err
	}
	if m := vb.readable(); m != nil && b.s.idle() {
		copy(data, m[start:start+len(data)])
		return nil
	}
	// Snapshot the tensor into staging memory at this point of the stream
	// (later queued work may overwrite it); the host copy runs once the
	// stream is synchronized.
	st, err := b.s.stage(uint64(len(data)))
	if err != nil {
		return b.errorf("get tensor async %q: %w", t.Name, err)
	}
	if err := b.recordCopy(vb.db, uint64(start), st, 0, uint64(len(data))); err != nil {
		return err
	}
	b.s.cur.after = append(b.s.cur.after, func() { copy(data, st.bytes()) })
	return nil
}

// CopyTensorAsync copies src into dst on this stream when both live on this
// device; work queued on from is submitted first, so the copy follows it.
func (b *Backend) CopyTensorAsync(from rt.Backend, src, dst *rt.Tensor) (bool, error) {
	sb, ok1 := vkBuffer(src.Buffer)
	db, ok2 := vkBuffer(dst.Buffer)
	if !ok1 || !ok2 || sb.bt.dev != b.d || db.bt.dev != b.d {
		return false, nil
	}
	n := src.Nbytes()
	if n != dst.Nbytes() {
		return false, b.errorf("copy tensor async %q to %q: sizes differ (%d and %d bytes)", src.Name, dst.Name, n, dst.Nbytes())
	}
	if fb, ok := from.(*Backend); ok && fb != b {
		fb.mu.Lock()
		var err error
		if !fb.closed { // a closed backend has nothing queued
			err = fb.flush()
		}
		fb.mu.Unlock()
		if err != nil {
			return false, err
		}
	} else if !ok && from != nil {
		if err := from.Synchronize(); err != nil {
			return false, err
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return false, b.errorf("copy tensor async: %w", b.closedErr())
	}
	so, err := sb.span("copy tensor async", src, 0, n)
	if err != nil {
		return false, err
	}
	do, err := db.span("copy tensor async", dst, 0, n)
	if err != nil || n == 0 {
		return err == nil, err
	}
	return true, b.recordCopy(sb.db, uint64(so), db.db, uint64(do), uint64(n))
}

// recordCopy records a buffer copy with a barrier before and after it.
func (b *Backend) recordCopy(src *devBuffer, soff uint64, dst *devBuffer, doff, n uint64) error {
	cmd, err := b.cmd()
	if err != nil {
		return err
	}
	barrier(cmd)
	copyCmd(cmd, src, soff, dst, doff, n)
	barrier(cmd)
	b.haz.reset()
	b.s.work++
	return nil
}
