//go:build cgo

package wgpu

import (
	"fmt"

	wg "github.com/oliverbestmann/webgpu/wgpu"

	rt "github.com/gpurt/gpurt/runtime"
)

// bufferType is one of a device's two buffer types.
//
// The device-local type ("WebGPU<n>") makes Storage|CopySrc|CopyDst
// buffers. Uploads go through Queue.WriteBuffer, which is ordered with the
// device's queue, so they need no wait; downloads copy into a MapRead
// staging buffer, map it and wait.
//
// The host-visible type ("WebGPU<n>_Host") exists only where the adapter
// has wgpu's MAPPABLE_PRIMARY_BUFFERS feature (unified-memory devices such
// as lavapipe or Apple GPUs). Its buffers are storage buffers that are also
// MapRead|MapWrite: kernels use them like device-local buffers, and each
// SetTensor or GetTensor maps the touched range (waiting for queued work
// that uses the buffer), copies, and unmaps it again, so there is no
// staging copy. The mapping lasts only for that call: WebGPU forbids GPU
// use of a mapped buffer, so there is no memory the CPU may read or write at
// any time. That is why IsHost is false and the buffers do not implement
// runtime.HostBuffer; CPU backends cannot compute on them.
type bufferType struct {
	dev   *Device
	name  string
	host  bool
	usage wg.BufferUsage
}

func (bt *bufferType) Name() string      { return bt.name }
func (bt *bufferType) Device() rt.Device { return bt.dev }
func (bt *bufferType) IsHost() bool      { return false }

// Kind describes the memory for device listings: the host-visible type is
// not host memory the CPU may use, but device memory each transfer maps.
func (bt *bufferType) Kind() string {
	if bt.host {
		return "mappable device, mapped per transfer, not CPU-usable"
	}
	return "device"
}
func (bt *bufferType) AllocSize(t *rt.Tensor) int { return t.Nbytes() }

// Alignment is minStorageBufferOffsetAlignment, so that tensors the
// allocator places can be bound at their own offset.
func (bt *bufferType) Alignment() int { return int(bt.dev.lim.storageAlign) }

// MaxSize is the device's maxBufferSize. A single tensor must also fit one
// binding (maxStorageBufferBindingSize) for kernels to use it; SupportsOp
// checks that.
func (bt *bufferType) MaxSize() int {
	m := bt.dev.lim.maxBufferSize &^ 3
	if m > 1<<62 {
		m = 1 << 62
	}
	return int(m)
}

func (bt *bufferType) Alloc(size int) (rt.Buffer, error) {
	d := bt.dev
	if size < 0 {
		return nil, fmt.Errorf("%s: allocate %d bytes: negative size", bt.name, size)
	}
	if size > bt.MaxSize() {
		return nil, fmt.Errorf("%s: allocate %d bytes: larger than the device's maximum buffer size %d", bt.name, size, bt.MaxSize())
	}
	// Bindings and copies work in 4-byte words: round the real size up so
	// that a tensor ending on a partial word can still be bound.
	gsize := uint64(max(4, (size+3)&^3))
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.usableLocked(); err != nil {
		return nil, err
	}
	buf, err := d.createBuffer(&wg.BufferDescriptor{Label: bt.name, Size: gsize, Usage: bt.usage})
	if err == nil {
		// Out-of-memory is not a validation error: it arrives through the
		// uncaptured-error handler.
		if serr := d.sink.take(); serr != nil {
			buf.Destroy()
			buf.Release()
			err = serr
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%s: allocate %d bytes: %w", bt.name, size, err)
	}
	d.nextBufID++
	b := &buffer{bt: bt, buf: buf, id: d.nextBufID, size: size, gsize: gsize}
	d.bufs[b] = struct{}{}
	return b, nil
}

// buffer is a wgpu buffer holding tensors.
type buffer struct {
	bt    *bufferType
	buf   *wg.Buffer
	id    uint64
	size  int
	gsize uint64
	usage rt.BufferUsage
	freed bool
}

func (b *buffer) Type() rt.BufferType       { return b.bt }
func (b *buffer) Size() int                 { return b.size }
func (b *buffer) SetUsage(u rt.BufferUsage) { b.usage = u }
func (b *buffer) Usage() rt.BufferUsage     { return b.usage }
func (b *buffer) Reset()                    {}

// spanLocked checks that the buffer is live and that [t.Offset+offset,
// +size) lies in it, and returns the range's absolute start. The device
// mutex must be held.
func (b *buffer) spanLocked(what string, t *rt.Tensor, offset, size int) (int, error) {
	if b.bt.dev.closed {
		return 0, fmt.Errorf("%s: %s %q: used after runtime.Release: %w", b.bt.name, what, t.Name, rt.ErrReleased)
	}
	if b.freed {
		return 0, fmt.Errorf("%s: %s %q: buffer used after free: %w", b.bt.name, what, t.Name, rt.ErrClosed)
	}
	if !rt.InRange(t.Offset, 0, b.size) || !rt.InRange(offset, size, b.size-t.Offset) {
		return 0, fmt.Errorf("%s: %s %q: %d bytes at offset %d+%d are outside the %d-byte buffer: %w", b.bt.name, what, t.Name, size, t.Offset, offset, b.size, rt.ErrOutOfRange)
	}
	return t.Offset + offset, nil
}

func (b *buffer) InitTensor(t *rt.Tensor) error {
	d := b.bt.dev
	d.mu.Lock()
	defer d.mu.Unlock()
	_, err := b.spanLocked("init tensor", t, 0, t.Nbytes())
	return err
}

func (b *buffer) SetTensor(t *rt.Tensor, data []byte, offset int) error {
	return b.onDevice("set tensor", t, offset, len(data), func(d *Device, start int) error {
		return d.writeLocked(b, start, data)
	})
}

func (b *buffer) GetTensor(t *rt.Tensor, data []byte, offset int) error {
	return b.onDevice("get tensor", t, offset, len(data), func(d *Device, start int) error {
		return d.readLocked(b, start, data)
	})
}

func (b *buffer) MemsetTensor(t *rt.Tensor, value byte, offset, size int) error {
	return b.onDevice("memset tensor", t, offset, size, func(d *Device, start int) error {
		return d.fillLocked(b, start, size, value)
	})
}

// onDevice checks size bytes of t at offset against the buffer and runs fn
// on them, with the buffer's start byte, under the device mutex.
func (b *buffer) onDevice(what string, t *rt.Tensor, offset, size int, fn func(d *Device, start int) error) error {
	d := b.bt.dev
	d.mu.Lock()
	defer d.mu.Unlock()
	start, err := b.spanLocked(what, t, offset, size)
	if err != nil || size == 0 {
		return err
	}
	if err := d.usableLocked(); err != nil {
		return err
	}
	if err := fn(d, start); err != nil {
		return fmt.Errorf("%s: %s %q: %w", b.bt.name, what, t.Name, err)
	}
	return nil
}

// CopyTensor copies on the device when src lives in another buffer of the
// same device and both ranges are 4-byte aligned (WebGPU's copy
// granularity; WebGPU cannot copy within one buffer).
func (b *buffer) CopyTensor(src, dst *rt.Tensor) (bool, error) {
	sb, ok := src.Buffer.(*buffer)
	if !ok || sb.bt.dev != b.bt.dev {
		return false, nil
	}
	d := b.bt.dev
	d.mu.Lock()
	defer d.mu.Unlock()
	n := src.Nbytes()
	s, err := sb.spanLocked("copy from", src, 0, n)
	if err != nil {
		return false, err
	}
	t, err := b.spanLocked("copy to", dst, 0, n)
	if err != nil {
		return false, err
	}
	if n == 0 {
		return true, nil
	}
	if s%4 != 0 || t%4 != 0 || n%4 != 0 || sb == b {
		return false, nil
	}
	if err := d.usableLocked(); err != nil {
		return false, err
	}
	if err := d.copyLocked(sb, s, b, t, n); err != nil {
		return false, fmt.Errorf("%s: copy %q to %q: %w", b.bt.name, src.Name, dst.Name, err)
	}
	return true, nil
}

func (b *buffer) Clear(value byte) error {
	d := b.bt.dev
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return fmt.Errorf("%s: clear: used after runtime.Release: %w", b.bt.name, rt.ErrReleased)
	}
	if b.freed {
		return fmt.Errorf("%s: clear: buffer used after free: %w", b.bt.name, rt.ErrClosed)
	}
	if err := d.usableLocked(); err != nil {
		return err
	}
	if b.size == 0 {
		return nil
	}
	if err := d.fillLocked(b, 0, b.size, value); err != nil {
		return fmt.Errorf("%s: clear: %w", b.bt.name, err)
	}
	return nil
}

// Free destroys the wgpu buffer. Work already submitted that uses it still
// completes (wgpu defers the destruction); cached bind groups that name it
// are dropped first, so no later submission can reference it. A second Free
// is a no-op, and so is Free after the device was released (which released
// the buffer with it).
func (b *buffer) Free() error {
	d := b.bt.dev
	d.mu.Lock()
	defer d.mu.Unlock()
	if b.freed || d.closed {
		b.freed = true
		return nil
	}
	b.freed = true
	d.binds.dropBuffer(b.id)
	b.buf.Destroy()
	b.buf.Release()
	delete(d.bufs, b)
	// wgpu-native reclaims a destroyed buffer only once the submissions
	// that use it (queue writes wait for the next one) are done and the
	// device is polled; without this, memory freed between computes piles
	// up until runtime.Release. An empty submission flushes the writes; the
	// non-blocking poll frees what no submission still uses.
	if d.unsubmittedWrites {
		if idx := uint64(d.queue.Submit()); idx > d.lastSubmit {
			d.lastSubmit = idx
		}
		d.unsubmittedWrites = false
	}
	d.dev.Poll(false, nil)
	return nil
}
