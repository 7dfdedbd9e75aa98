package vk

import (
	"fmt"
	"unsafe"

	"github.com/gpurt/gpurt/runtime"
	vk "github.com/vulkan-go/vulkan"
)

// BufferType allocates buffers in one Vulkan memory type: device-local (the
// device's default) or host-visible (mapped, usable by the CPU backend). On a
// discrete GPU with a BAR memory type (device-local and host-visible), the
// device-local type places buffers there as barPlacement says, so that the
// host writes them directly.
type BufferType struct {
	dev     *Device
	memType int
	host    bool
	// staged makes device-local buffers move data through staging buffers
	// even when their memory is host-visible (tests use it to cover the
	// discrete-GPU path on UMA devices).
	staged bool
	// stagedReads makes reads go through staging while writes stay mapped,
	// as for BAR memory, which the host reads uncached (tests use it to
	// cover the ReBAR path on UMA devices).
	stagedReads bool
}

func (bt *BufferType) Name() string {
	if bt.host {
		return bt.dev.name + "_Host"
	}
	return bt.dev.name
}

func (bt *BufferType) Device() runtime.Device { return bt.dev }

func (bt *BufferType) IsHost() bool { return bt.host }

// Alignment is the storage-buffer offset alignment, at least 16 bytes so
// that vec4 loads work on tensors the allocator places.
func (bt *BufferType) Alignment() int { return int(max(bt.dev.lim.storageAlign, 16)) }

// MaxSize honours maxStorageBufferRange (a buffer is bound whole),
// maxMemoryAllocationSize and the heap size.
func (bt *BufferType) MaxSize() int {
	d := bt.dev
	m := d.lim.maxStorageRange
	if a := d.lim.maxAllocationSize; a != 0 && a < m {
		m = a
	}
	if h := d.heapSizes[d.memTypes[bt.memType].heap]; h < m {
		m = h
	}
	// Keep the rounding Alloc adds inside the limit.
	return int(m &^ 15)
}

// AllocSize rounds up to whole 32-bit words: shaders access memory as u32.
func (bt *BufferType) AllocSize(t *runtime.Tensor) int { return int(alignUp(uint64(t.Nbytes()), 4)) }

// Alloc returns a buffer of size bytes.
func (bt *BufferType) Alloc(size int) (runtime.Buffer, error) {
	d := bt.dev
	if size < 0 {
		return nil, fmt.Errorf("vulkan %s: alloc buffer: negative size %d", bt.Name(), size)
	}
	if size > bt.MaxSize() {
		return nil, fmt.Errorf("vulkan %s: alloc buffer of %d bytes: larger than the device's maximum of %d bytes", bt.Name(), size, bt.MaxSize())
	}
	if err := d.open(); err != nil {
		return nil, err
	}
	b := &Buffer{bt: bt, size: size}
	if size > 0 {
		db, err := bt.newDevBuffer(uint64(size))
		if err != nil {
			return nil, fmt.Errorf("vulkan %s: alloc buffer of %d bytes: %w", bt.Name(), size, err)
		}
		b.db = db
		b.hostWrite, b.hostRead = bt.hostAccess(db.pool.typeIndex)
	}
	d.track(func(l *liveObjects) { l.buffers[b] = true })
	if bt.host {
		return &HostBuffer{b}, nil
	}
	return b, nil
}

// newDevBuffer allocates the memory of a buffer: in the device's BAR type when
// barPlacement puts it there and the BAR heap has room, else in bt's type.
func (bt *BufferType) newDevBuffer(size uint64) (*devBuffer, error) {
	d := bt.dev
	if !bt.host && !bt.staged && d.barType >= 0 && d.bar.holds(size, d.heapUsed(d.memTypes[d.barType].heap)) {
		if db, err := d.newDevBuffer(size, d.barType); err == nil {
			return db, nil
		}
		// The BAR heap is full after all: plain device memory.
	}
	return d.newDevBuffer(size, bt.memType)
}

// hostAccess says whether the host may write and read a buffer of bt in
// memory type ti directly. Reads of BAR memory on a discrete GPU go through
// staging: the host reads it uncached over the bus, far slower than a copy.
func (bt *BufferType) hostAccess(ti int) (write, read bool) {
	d := bt.dev
	mt := d.memTypes[ti]
	if bt.staged || !mt.has(vk.MemoryPropertyHostVisibleBit|vk.MemoryPropertyHostCoherentBit) {
		return false, false
	}
	if bt.host {
		return true, true
	}
	uncachedBAR := d.devType == runtime.DeviceGPU && mt.has(vk.MemoryPropertyDeviceLocalBit) && !mt.has(vk.MemoryPropertyHostCachedBit)
	return true, !bt.stagedReads && !uncachedBAR
}

// devBuffer is a VkBuffer bound to a span of pooled memory.
type devBuffer struct {
	buf   vk.Buffer
	size  uint64 // VkBuffer size, a multiple of 16
	mem   memAlloc
	pool  *memPool
	owner *Device
}

const bufferUsage = vk.BufferUsageFlags(vk.BufferUsageStorageBufferBit | vk.BufferUsageTransferSrcBit | vk.BufferUsageTransferDstBit)

func (d *Device) newDevBuffer(size uint64, typeIndex int) (*devBuffer, error) {
	vsize := alignUp(size, 16)
	info := &vk.BufferCreateInfo{
		SType:       vk.StructureTypeBufferCreateInfo,
		Size:        vk.DeviceSize(vsize),
		Usage:       bufferUsage,
		SharingMode: vk.SharingModeExclusive,
	}
	var buf vk.Buffer
	res := vk.CreateBuffer(d.dev, info, nil, &buf)
	info.Free()
	d.buffersMade.Add(1)
	if err := d.check(res, "create buffer of %d bytes", vsize); err != nil {
		return nil, err
	}
	var req vk.MemoryRequirements
	vk.GetBufferMemoryRequirements(d.dev, buf, &req)
	req.Deref()
	if req.MemoryTypeBits&(1<<uint(typeIndex)) == 0 {
		vk.DestroyBuffer(d.dev, buf, nil)
		return nil, fmt.Errorf("vulkan %s: memory type %d cannot back a storage buffer", d.name, typeIndex)
	}
	pool := d.pool(typeIndex)
	mem, err := pool.alloc(uint64(req.Size), uint64(req.Alignment))
	if err != nil {
		vk.DestroyBuffer(d.dev, buf, nil)
		return nil, err
	}
	if res := vk.BindBufferMemory(d.dev, buf, mem.block.mem, vk.DeviceSize(mem.off)); res != vk.Success {
		vk.DestroyBuffer(d.dev, buf, nil)
		pool.release(mem)
		return nil, d.check(res, "bind buffer memory")
	}
	return &devBuffer{buf: buf, size: vsize, mem: mem, pool: pool, owner: d}, nil
}

// bytes is the mapped memory of the buffer, or nil when it is not mappable.
func (b *devBuffer) bytes() []byte {
	p := b.mem.ptr()
	if p == nil {
		return nil
	}
	return unsafe.Slice((*byte)(p), b.size)
}

func (b *devBuffer) destroy() {
	d := b.owner
	vk.DestroyBuffer(d.dev, b.buf, nil)
	b.pool.release(b.mem)
}

// Buffer is a Vulkan buffer holding tensors. Buffers of the host buffer type
// implement runtime.HostBuffer.
type Buffer struct {
	bt    *BufferType
	size  int
	db    *devBuffer // nil for a zero-size buffer
	usage runtime.BufferUsage
	freed bool
	// Whether the host writes and reads the memory directly (hostAccess);
	// otherwise the device's transfer stream stages the data.
	hostWrite, hostRead bool
}

var (
	_ runtime.Buffer     = (*Buffer)(nil)
	_ runtime.HostBuffer = (*HostBuffer)(nil)
)

// HostBuffer is a buffer of the host-visible type: its memory is mapped for
// its whole life, so the CPU (and the CPU backend) use it directly.
type HostBuffer struct{ *Buffer }

// Bytes returns the mapped memory, or nil once the buffer is freed or its
// device released.
func (h *HostBuffer) Bytes() []byte {
	if h.unusable() != nil || h.db == nil || !h.hostRead {
		return nil
	}
	return h.db.bytes()[:h.size:h.size]
}

// vkBuffer unwraps a Vulkan buffer of either type.
func vkBuffer(b runtime.Buffer) (*Buffer, bool) {
	switch x := b.(type) {
	case *Buffer:
		return x, x != nil
	case *HostBuffer:
		return x.Buffer, x != nil && x.Buffer != nil
	}
	return nil, false
}

func (b *Buffer) Type() runtime.BufferType { return b.bt }
func (b *Buffer) Size() int                { return b.size }

func (b *Buffer) SetUsage(u runtime.BufferUsage) { b.usage = u }
func (b *Buffer) Usage() runtime.BufferUsage     { return b.usage }

// Reset drops per-tensor state; Vulkan buffers keep none.
func (b *Buffer) Reset() {}

func (b *Buffer) name() string { return b.bt.Name() }

// unusable says why the buffer cannot be used (freed, or released with its
// device), or nil.
func (b *Buffer) unusable() error {
	if b.bt.dev.released.Load() {
		return errReleased
	}
	if b.freed {
		return errBufferFreed
	}
	return nil
}

var errBufferFreed = fmt.Errorf("buffer is freed: %w", runtime.ErrClosed)

// writable is the buffer's memory when the host may write it directly.
func (b *Buffer) writable() []byte {
	if !b.hostWrite {
		return nil
	}
	return b.db.bytes()
}

// readable is the buffer's memory when the host may read it directly.
func (b *Buffer) readable() []byte {
	if !b.hostRead {
		return nil
	}
	return b.db.bytes()
}

// span checks that [t.Offset+offset, +size) lies in the buffer and returns its start.
func (b *Buffer) span(op string, t *runtime.Tensor, offset, size int) (int, error) {
	if err := b.unusable(); err != nil {
		return 0, fmt.Errorf("vulkan %s: %s %q: %w", b.name(), op, t.Name, err)
	}
	if tb, _ := vkBuffer(t.Buffer); tb != b {
		return 0, fmt.Errorf("vulkan %s: %s %q: tensor is not in this buffer", b.name(), op, t.Name)
	}
	if !runtime.InRange(t.Offset, 0, b.size) || !runtime.InRange(offset, size, b.size-t.Offset) {
		return 0, fmt.Errorf("vulkan %s: %s %q: %d bytes at offset %d+%d are outside the %d-byte buffer: %w", b.name(), op, t.Name, size, t.Offset, offset, b.size, runtime.ErrOutOfRange)
	}
	return t.Offset + offset, nil
}

func (b *Buffer) InitTensor(t *runtime.Tensor) error {
	if err := b.unusable(); err != nil {
		return fmt.Errorf("vulkan %s: init tensor %q: %w", b.name(), t.Name, err)
	}
	if !runtime.InRange(t.Offset, t.Nbytes(), b.size) {
		return fmt.Errorf("vulkan %s: init tensor %q: %d bytes at offset %d are outside the %d-byte buffer: %w", b.name(), t.Name, t.Nbytes(), t.Offset, b.size, runtime.ErrOutOfRange)
	}
	return nil
}

func (b *Buffer) SetTensor(t *runtime.Tensor, data []byte, offset int) error {
	start, err := b.span("set tensor", t, offset, len(data))
	if err != nil || len(data) == 0 {
		return err
	}
	if m := b.writable(); m != nil {
		copy(m[start:], data)
		return nil
	}
	return b.bt.dev.upload(b.db, uint64(start), data)
}

func (b *Buffer) GetTensor(t *runtime.Tensor, data []byte, offset int) error {
	start, err := b.span("get tensor", t, offset, len(data))
	if err != nil || len(data) == 0 {
		return err
	}
	if m := b.readable(); m != nil {
		copy(data, m[start:start+len(data)])
		return nil
	}
	return b.bt.dev.download(b.db, uint64(start), data)
}

func (b *Buffer) MemsetTensor(t *runtime.Tensor, value byte, offset, size int) error {
	start, err := b.span("memset tensor", t, offset, size)
	if err != nil || size == 0 {
		return err
	}
	return b.fill(start, size, value)
}

func (b *Buffer) fill(start, size int, value byte) error {
	if m := b.writable(); m != nil {
		s := m[start : start+size]
		for i := range s {
			s[i] = value
		}
		return nil
	}
	return b.bt.dev.fill(b.db, uint64(start), uint64(size), value)
}

// CopyTensor copies between tensors in buffers of the same device.
func (b *Buffer) CopyTensor(src, dst *runtime.Tensor) (bool, error) {
	sb, ok := vkBuffer(src.Buffer)
	if !ok || sb.bt.dev != b.bt.dev {
		return false, nil
	}
	n := src.Nbytes()
	if n != dst.Nbytes() {
		return false, fmt.Errorf("vulkan %s: copy %q to %q: sizes differ (%d and %d bytes)", b.name(), src.Name, dst.Name, n, dst.Nbytes())
	}
	so, err := sb.span("copy tensor", src, 0, n)
	if err != nil {
		return false, err
	}
	do, err := b.span("copy tensor", dst, 0, n)
	if err != nil || n == 0 {
		return err == nil, err
	}
	if sm, dm := sb.readable(), b.writable(); sm != nil && dm != nil {
		copy(dm[do:do+n], sm[so:so+n])
		return true, nil
	}
	// The host must not touch either buffer before a GPU copy completes.
	hostAccess := sb.hostWrite || b.hostWrite
	return true, b.bt.dev.copyBuffer(sb.db, uint64(so), b.db, uint64(do), uint64(n), hostAccess)
}

func (b *Buffer) Clear(value byte) error {
	if err := b.unusable(); err != nil {
		return fmt.Errorf("vulkan %s: clear: %w", b.name(), err)
	}
	if b.size == 0 {
		return nil
	}
	return b.fill(0, b.size, value)
}

// Free destroys the VkBuffer and returns its memory to the pool, once the
// work submitted before the free (which may use the buffer), batched
// transfers included, has completed; it never waits for the queue. Freeing a
// buffer released with its device does nothing.
func (b *Buffer) Free() error {
	d := b.bt.dev
	if d.released.Load() {
		return nil
	}
	if b.freed {
		return nil // a second Free is a no-op, as on every backend
	}
	b.freed = true
	var err error
	if b.db != nil {
		// Submit batched transfers, which may write the buffer, so that
		// the deferred free waits for them too.
		err = d.flushTransfers()
		d.freeAfterQueued(b.db)
		b.db = nil
	}
	d.track(func(l *liveObjects) { delete(l.buffers, b) })
	return err
}
