//go:build cgo

package wgpu

import (
	"fmt"

	wg "github.com/oliverbestmann/webgpu/wgpu"

	rt "github.com/gpurt/gpurt/runtime"
)

// Backend is an execution stream on a WebGPU device. WebGPU gives a device
// one in-order queue, which every Backend of the device shares; work is
// asynchronous until Synchronize.
type Backend struct {
	dev     *Device
	pending []pendingRead
	closed  bool

	noFusion bool // GPURT_WGPU_FUSION=0 or SetFusion(false): no fused kernels (fuse.go)
	fused    int  // nodes computed inside another node's dispatch
	fusedKV  int  // of fused: SET_ROWS run inside ROPE's dispatch
}

// pendingRead is a GetTensorAsync whose copy is queued; Synchronize maps
// its staging buffer and fills data.
type pendingRead struct {
	staging *wg.Buffer
	size    uint64
	skip    int // bytes of the staged range before the requested ones
	data    []byte
}

var _ rt.AsyncBackend = (*Backend)(nil)

func (b *Backend) Name() string      { return b.dev.name }
func (b *Backend) Device() rt.Device { return b.dev }

// GraphCompute encodes every node into compute dispatches and submits them,
// in several submissions for big graphs. It returns before the work ends.
func (b *Backend) GraphCompute(g *rt.Graph) error {
	d := b.dev
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := b.usableLocked(); err != nil {
		return err
	}
	var ds []*dispatch
	var fusion *rt.Fusion
	if !b.noFusion {
		fusion = rt.NewFusion(g)
	}
	for i := 0; i < len(g.Nodes); i++ {
		n := g.Nodes[i]
		if fusion != nil && n.Op != rt.OpNone && !n.IsEmpty() {
			xs, nodes, err := d.encodeChain(fusion, g, i)
			if err != nil {
				return fmt.Errorf("%s: %v %q fused: %w", d.name, n.Op, n.Name, err)
			}
			if nodes > 0 {
				ds = append(ds, xs...)
				b.fused += rt.FusedNodes(g.Nodes[i : i+nodes])
				if n.Op == rt.OpRope {
					b.fusedKV++
				}
				i += nodes - 1
				continue
			}
		}
		xs, err := d.encodeNode(n)
		if err != nil {
			return fmt.Errorf("%s: %v %q: %w", d.name, n.Op, n.Name, err)
		}
		ds = append(ds, xs...)
	}
	if _, err := d.runLocked(ds); err != nil {
		return fmt.Errorf("%s: graph compute: %w", d.name, err)
	}
	if err := d.sink.take(); err != nil {
		return fmt.Errorf("%s: graph compute: %w", d.name, err)
	}
	return nil
}

// FusedNodes is how many nodes ran inside another node's dispatch since
// the backend started.
func (b *Backend) FusedNodes() int {
	b.dev.mu.Lock()
	defer b.dev.mu.Unlock()
	return b.fused
}

// FusedKVWrites is how many of FusedNodes were SET_ROWS run inside ROPE's
// dispatch (the KV write) since the backend started.
func (b *Backend) FusedKVWrites() int {
	b.dev.mu.Lock()
	defer b.dev.mu.Unlock()
	return b.fusedKV
}

// Synchronize waits for all work queued on the device, then completes
// pending async reads.
func (b *Backend) Synchronize() error {
	d := b.dev
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.closedErrLocked(); err != nil {
		return err
	}
	if b.closed {
		return fmt.Errorf("%s: synchronize: backend: %w", d.name, rt.ErrClosed)
	}
	return b.syncLocked()
}

func (b *Backend) syncLocked() error {
	d := b.dev
	err := d.waitLocked(d.lastSubmit)
	for _, r := range b.pending {
		if err == nil {
			err = d.mapWaitLocked(r.staging, wg.MapModeRead, 0, r.size)
			if err == nil {
				copy(r.data, r.staging.GetMappedRange(0, uint(r.size))[r.skip:])
				err = r.staging.TryUnmap()
			}
		}
	}
	b.dropPendingLocked()
	if err == nil {
		err = d.errorFlagErrLocked()
	}
	if err != nil {
		return fmt.Errorf("%s: synchronize: %w", d.name, err)
	}
	return nil
}

// dropPendingLocked releases the staging buffers of pending reads, which
// stay unfilled.
func (b *Backend) dropPendingLocked() {
	for _, r := range b.pending {
		r.staging.Destroy()
		r.staging.Release()
	}
	b.pending = nil
}

// Close waits for queued work; the backend is unusable afterwards. After
// the device was released (which closed the backend with it) Close does
// nothing.
func (b *Backend) Close() error {
	d := b.dev
	d.mu.Lock()
	defer d.mu.Unlock()
	if b.closed || d.closed {
		b.closed = true
		return nil
	}
	err := b.syncLocked()
	b.closed = true
	delete(d.backends, b)
	return err
}

func (b *Backend) usableLocked() error {
	if err := b.dev.closedErrLocked(); err != nil {
		return err
	}
	if b.closed {
		return fmt.Errorf("%s: backend: %w", b.dev.name, rt.ErrClosed)
	}
	return b.dev.usableLocked()
}

// ownBuffer returns t's buffer if it belongs to this backend's device.
func (b *Backend) ownBuffer(t *rt.Tensor) (*buffer, error) {
	buf, ok := t.Buffer.(*buffer)
	if !ok || buf.bt.dev != b.dev {
		return nil, fmt.Errorf("%s: tensor %q is not in a buffer of this device", b.dev.name, t.Name)
	}
	return buf, nil
}

// SetTensorAsync queues the write: WriteBuffer copies data at once and is
// ordered with the device's queue.
func (b *Backend) SetTensorAsync(t *rt.Tensor, data []byte, offset int) error {
	buf, err := b.ownBuffer(t)
	if err != nil {
		return err
	}
	return buf.SetTensor(t, data, offset)
}

// GetTensorAsync queues a copy into a staging buffer; data is filled by
// Synchronize.
func (b *Backend) GetTensorAsync(t *rt.Tensor, data []byte, offset int) error {
	buf, err := b.ownBuffer(t)
	if err != nil {
		return err
	}
	d := b.dev
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := b.usableLocked(); err != nil {
		return err
	}
	start, err := buf.spanLocked("get tensor async", t, offset, len(data))
	if err != nil || len(data) == 0 {
		return err
	}
	if buf.bt.host {
		if err := d.readLocked(buf, start, data); err != nil {
			return fmt.Errorf("%s: get tensor async %q: %w", buf.bt.name, t.Name, err)
		}
		return nil
	}
	a0, a1 := alignDown(start, 4), alignUp(start+len(data), 4)
	size := uint64(a1 - a0)
	st, err := d.createBuffer(&wg.BufferDescriptor{Label: d.name + " async read", Size: size, Usage: wg.BufferUsageMapRead | wg.BufferUsageCopyDst})
	if err != nil {
		return fmt.Errorf("%s: get tensor async %q: %w", d.name, t.Name, err)
	}
	err = d.encodeLocked(func(enc *wg.CommandEncoder) error {
		return enc.TryCopyBufferToBuffer(buf.buf, uint64(a0), st, 0, size)
	})
	if err != nil {
		st.Destroy()
		st.Release()
		return fmt.Errorf("%s: get tensor async %q: %w", d.name, t.Name, err)
	}
	b.pending = append(b.pending, pendingRead{staging: st, size: size, skip: start - a0, data: data})
	return nil
}

// CopyTensorAsync copies on the device when src is in a buffer of the same
// device (whichever backend queued its producer: they share the queue).
func (b *Backend) CopyTensorAsync(from rt.Backend, src, dst *rt.Tensor) (bool, error) {
	if _, err := b.ownBuffer(dst); err != nil {
		return false, err
	}
	if sb, ok := src.Buffer.(*buffer); !ok || sb.bt.dev != b.dev {
		return false, nil
	}
	return dst.Buffer.CopyTensor(src, dst)
}

// Event marks a point in a device's queue by submission index.
type Event struct {
	dev   *Device
	idx   uint64
	freed bool
}

// Record marks the current end of b's queue, which is its device's queue.
func (e *Event) Record(b rt.Backend) error {
	wb, ok := b.(*Backend)
	if !ok || wb.dev != e.dev {
		return fmt.Errorf("%s: record event: backend %s is not on this device", e.dev.name, b.Name())
	}
	e.dev.mu.Lock()
	defer e.dev.mu.Unlock()
	if err := e.usableLocked(); err != nil {
		return err
	}
	e.idx = e.dev.lastSubmit
	return nil
}

func (e *Event) usableLocked() error {
	if err := e.dev.closedErrLocked(); err != nil {
		return err
	}
	if e.freed {
		return fmt.Errorf("%s: event used after free: %w", e.dev.name, rt.ErrClosed)
	}
	return nil
}

// Wait orders b's later work after the event. On the same device the single
// in-order queue already does; another device's backend waits here on the
// CPU until the event completes.
func (e *Event) Wait(b rt.Backend) error {
	if wb, ok := b.(*Backend); ok && wb.dev == e.dev {
		e.dev.mu.Lock()
		defer e.dev.mu.Unlock()
		return e.usableLocked()
	}
	return e.Synchronize()
}

// Synchronize blocks until the recorded submission has completed.
func (e *Event) Synchronize() error {
	e.dev.mu.Lock()
	defer e.dev.mu.Unlock()
	if err := e.usableLocked(); err != nil {
		return err
	}
	if e.idx == 0 {
		return nil
	}
	return e.dev.waitLocked(e.idx)
}

// Free forgets the event; after the device was released it does nothing.
func (e *Event) Free() {
	e.dev.mu.Lock()
	defer e.dev.mu.Unlock()
	if !e.freed && !e.dev.closed {
		e.dev.events--
	}
	e.freed = true
}
