package vk

import (
	"fmt"

	vk "github.com/vulkan-go/vulkan"
)

// A stream records commands into a ring of command buffers, each with its own
// fence. Recording never waits for the GPU unless every command buffer of the
// ring is still in flight. All streams of a device share its queue, and each
// command buffer begins with a full compute/transfer barrier, so work is
// ordered after everything submitted before it.

const streamDepth = 3

type slot struct {
	cmd     vk.CommandBuffer
	fence   vk.Fence
	pending bool
	gen     uint64 // incremented on each submission
	serial  uint64 // the device's submission serial of the last submission
	// After completion: host copies to run (async downloads) and staging
	// buffers to free.
	after   []func()
	staging []*devBuffer
	// Descriptor sets of the dispatches recorded in cmd.
	descs descriptors
}

type stream struct {
	d     *Device
	pool  vk.CommandPool
	slots []*slot
	next  int
	cur   *slot // being recorded, or nil
	// work counts commands recorded into cur.
	work int
	// order lists submitted slots, oldest first.
	order []*slot

	// transfers marks the device's transfer stream, whose batched
	// commands every other stream submits before its own (flush).
	transfers bool
	// The buffer ranges the transfer commands recorded since cur's last
	// barrier read and write (transferOrder), and the bytes the batch
	// carries (inline data plus staged copies).
	xreads, xwrites []memRange
	batched         uint64
}

func newStream(d *Device) (*stream, error) {
	info := &vk.CommandPoolCreateInfo{
		SType:            vk.StructureTypeCommandPoolCreateInfo,
		Flags:            vk.CommandPoolCreateFlags(vk.CommandPoolCreateResetCommandBufferBit),
		QueueFamilyIndex: d.family,
	}
	var pool vk.CommandPool
	res := vk.CreateCommandPool(d.dev, info, nil, &pool)
	info.Free()
	if err := d.check(res, "create command pool"); err != nil {
		return nil, err
	}
	s := &stream{d: d, pool: pool}
	cmds := make([]vk.CommandBuffer, streamDepth)
	ainfo := &vk.CommandBufferAllocateInfo{
		SType:              vk.StructureTypeCommandBufferAllocateInfo,
		CommandPool:        pool,
		Level:              vk.CommandBufferLevelPrimary,
		CommandBufferCount: streamDepth,
	}
	res = vk.AllocateCommandBuffers(d.dev, ainfo, cmds)
	ainfo.Free()
	if err := d.check(res, "allocate command buffers"); err != nil {
		vk.DestroyCommandPool(d.dev, pool, nil)
		return nil, err
	}
	for _, c := range cmds {
		finfo := &vk.FenceCreateInfo{SType: vk.StructureTypeFenceCreateInfo}
		var f vk.Fence
		res := vk.CreateFence(d.dev, finfo, nil, &f)
		finfo.Free()
		if err := d.check(res, "create fence"); err != nil {
			s.destroy()
			return nil, err
		}
		s.slots = append(s.slots, &slot{cmd: c, fence: f})
	}
	return s, nil
}

// record returns the command buffer being recorded, beginning one if needed.
func (s *stream) record() (vk.CommandBuffer, error) {
	if s.cur != nil {
		return s.cur.cmd, nil
	}
	sl := s.slots[s.next]
	if sl.pending {
		if err := s.wait(sl); err != nil {
			return nil, err
		}
	}
	d := s.d
	fences := []vk.Fence{sl.fence}
	if err := d.check(vk.ResetFences(d.dev, 1, fences), "reset fence"); err != nil {
		return nil, err
	}
	if err := sl.descs.reset(d); err != nil {
		return nil, err
	}
	begin := &vk.CommandBufferBeginInfo{
		SType: vk.StructureTypeCommandBufferBeginInfo,
		Flags: vk.CommandBufferUsageFlags(vk.CommandBufferUsageOneTimeSubmitBit),
	}
	res := vk.BeginCommandBuffer(sl.cmd, begin)
	begin.Free()
	if err := d.check(res, "begin command buffer"); err != nil {
		return nil, err
	}
	s.cur = sl
	s.work = 0
	s.xreads, s.xwrites, s.batched = s.xreads[:0], s.xwrites[:0], 0
	barrier(sl.cmd)
	return sl.cmd, nil
}

// transferOrder puts a barrier before a transfer command that reads src and
// writes dst when an earlier command since the last barrier wrote either
// range or read dst (read-after-write, write-after-write, write-after-read);
// commands on disjoint ranges need none.
func (s *stream) transferOrder(src *memRange, dst memRange) {
	if (src != nil && anyOverlap(s.xwrites, *src)) || anyOverlap(s.xwrites, dst) || anyOverlap(s.xreads, dst) {
		barrier(s.cur.cmd)
		s.xreads, s.xwrites = s.xreads[:0], s.xwrites[:0]
	}
	if src != nil {
		s.xreads = append(s.xreads, *src)
	}
	s.xwrites = append(s.xwrites, dst)
}

// barrier makes all earlier compute and transfer writes visible to later
// compute and transfer commands (and orders write-after-read).
func barrier(cmd vk.CommandBuffer) {
	cmdBarrier(cmd, computeTransfer, computeTransfer, gpuWrites, gpuAccess)
}

const (
	computeTransfer = vk.PipelineStageFlags(vk.PipelineStageComputeShaderBit | vk.PipelineStageTransferBit)
	gpuWrites       = vk.AccessFlags(vk.AccessShaderWriteBit | vk.AccessTransferWriteBit)
	gpuAccess       = vk.AccessFlags(vk.AccessShaderReadBit | vk.AccessShaderWriteBit | vk.AccessTransferReadBit | vk.AccessTransferWriteBit)
)

// flush ends and submits the command buffer being recorded, if any.
func (s *stream) flush() error {
	sl := s.cur
	if sl == nil {
		return nil
	}
	d := s.d
	if !s.transfers {
		// Transfers batched on the device's stream were issued before
		// this work, which may read what they write.
		if err := d.flushTransfers(); err != nil {
			return err
		}
	}
	s.cur = nil
	// Make the results visible to the host once the fence signals.
	cmdBarrier(sl.cmd, computeTransfer, vk.PipelineStageFlags(vk.PipelineStageHostBit), gpuWrites, vk.AccessFlags(vk.AccessHostReadBit))
	if err := d.check(vk.EndCommandBuffer(sl.cmd), "end command buffer"); err != nil {
		return err
	}
	serial, err := d.submit(sl.cmd, sl.fence)
	if err != nil {
		return err
	}
	sl.serial = serial
	sl.pending = true
	sl.gen++
	s.order = append(s.order, sl)
	s.next = (s.next + 1) % len(s.slots)
	return nil
}

// wait blocks until sl's submission and every earlier one have completed.
func (s *stream) wait(sl *slot) error {
	for len(s.order) > 0 {
		first := s.order[0]
		if err := s.waitOne(first); err != nil {
			return err
		}
		s.order = s.order[1:]
		if first == sl {
			break
		}
	}
	return nil
}

func (s *stream) waitOne(sl *slot) error {
	d := s.d
	res := waitFence(d.dev, sl.fence)
	if err := d.check(res, "wait for fence"); err != nil {
		return err
	}
	sl.pending = false
	d.completedThrough(sl.serial)
	for _, f := range sl.after {
		f()
	}
	sl.after = nil
	for _, b := range sl.staging {
		s.d.returnStaging(b)
	}
	sl.staging = nil
	return nil
}

// sync submits pending commands and waits for all of them.
func (s *stream) sync() error {
	if err := s.flush(); err != nil {
		return err
	}
	if len(s.order) == 0 {
		return nil
	}
	return s.wait(s.order[len(s.order)-1])
}

// idle reports whether nothing is recorded or in flight.
func (s *stream) idle() bool { return s.cur == nil && len(s.order) == 0 }

// stage returns a pooled host-visible buffer holding size bytes, returned to
// the pool once the command buffer being recorded completes.
func (s *stream) stage(size uint64) (*devBuffer, error) {
	if _, err := s.record(); err != nil {
		return nil, err
	}
	b, err := s.d.takeStaging(size)
	if err != nil {
		return nil, fmt.Errorf("staging buffer: %w", err)
	}
	s.cur.staging = append(s.cur.staging, b)
	return b, nil
}

// destroy waits for the submitted work and destroys the stream's objects;
// work recorded but not submitted is dropped.
func (s *stream) destroy() {
	d := s.d
	for _, sl := range s.slots {
		if sl.pending {
			s.waitOne(sl)
		}
		// Staging buffers of the unsubmitted command buffer (or of one
		// whose wait failed).
		for _, b := range sl.staging {
			d.returnStaging(b)
		}
		sl.staging, sl.after = nil, nil
		vk.DestroyFence(d.dev, sl.fence, nil)
		sl.descs.destroy(d)
	}
	s.slots, s.cur, s.order = nil, nil, nil
	vk.DestroyCommandPool(d.dev, s.pool, nil)
}

// copyCmd records a buffer-to-buffer copy.
func copyCmd(cmd vk.CommandBuffer, src *devBuffer, soff uint64, dst *devBuffer, doff uint64, n uint64) {
	cmdCopyBuffer(cmd, src.buf, dst.buf, soff, doff, n)
}

// Transfers on the device's own stream, for buffers whose memory the host
// cannot map (or, for BAR memory, cannot read quickly).
//
// Uploads, fills and device-to-device copies do not wait for the GPU: the
// caller's bytes are copied before the call returns (inline into the command
// buffer with vkCmdUpdateBuffer up to inlineMax, else into a staging buffer),
// and the commands are batched into the stream's current command buffer.
// The batch is submitted when it holds batchBytes, when a download needs
// the GPU anyway, and before any other stream of the device submits, frees a
// buffer or is synchronized, so everything that may read the written memory
// is ordered after it on the one queue. A download submits the batch with
// its own copy and waits once.

const (
	// inlineMax is vkCmdUpdateBuffer's limit.
	inlineMax = 64 << 10
	// batchBytes submits a batch once it carries this much data (inline
	// bytes and staging buffers), so that the device starts on it while
	// the host copies the rest and staging memory stays bounded;
	// batchCommands bounds the commands of one batch.
	batchBytes    = 1 << 20
	batchCommands = 256
)

// lockXfer locks the device's transfer stream, or says it was released.
func (d *Device) lockXfer() (*stream, error) {
	d.xferMu.Lock()
	if d.xfer == nil {
		d.xferMu.Unlock()
		return nil, fmt.Errorf("vulkan %s: %w", d.name, errReleased)
	}
	return d.xfer, nil
}

// destroyXfer destroys the device's transfer stream.
func (d *Device) destroyXfer() {
	d.xferMu.Lock()
	defer d.xferMu.Unlock()
	if d.xfer != nil {
		d.xfer.destroy()
		d.xfer = nil
	}
}

// flushTransfers submits the batched transfers, without waiting, so that
// work submitted after it is ordered after them.
func (d *Device) flushTransfers() error {
	d.xferMu.Lock()
	defer d.xferMu.Unlock()
	if d.xfer == nil || d.xfer.cur == nil {
		return nil
	}
	return d.xfer.flush()
}

// batchedBytes counts a command carrying n bytes into the batch and submits
// the batch once it is full.
func (s *stream) batchedBytes(n uint64) error {
	s.work++
	s.batched += n
	if s.batched >= batchBytes || s.work >= batchCommands {
		return s.flush()
	}
	return nil
}

func (d *Device) upload(dst *devBuffer, off uint64, data []byte) error {
	x, err := d.lockXfer()
	if err != nil {
		return err
	}
	defer d.xferMu.Unlock()
	n := uint64(len(data))
	if n <= inlineMax && n%4 == 0 && off%4 == 0 {
		cmd, err := x.record()
		if err != nil {
			return err
		}
		x.transferOrder(nil, memRange{dst.buf, off, off + n})
		cmdUpdateBuffer(cmd, dst.buf, off, data)
		return x.batchedBytes(n)
	}
	// Chunks go out as they are filled; the stream's ring keeps a few in
	// flight while the host copies the next.
	for len(data) > 0 {
		n := min(uint64(len(data)), stagingChunk)
		st, err := x.stage(n)
		if err != nil {
			return fmt.Errorf("vulkan %s: upload: %w", d.name, err)
		}
		copy(st.bytes(), data[:n])
		x.transferOrder(&memRange{st.buf, 0, n}, memRange{dst.buf, off, off + n})
		copyCmd(x.cur.cmd, st, 0, dst, off, n)
		if err := x.batchedBytes(st.size); err != nil {
			return err
		}
		data, off = data[n:], off+n
	}
	return nil
}

func (d *Device) download(src *devBuffer, off uint64, data []byte) error {
	x, err := d.lockXfer()
	if err != nil {
		return err
	}
	defer d.xferMu.Unlock()
	for len(data) > 0 {
		n := min(uint64(len(data)), stagingChunk)
		st, err := x.stage(n)
		if err != nil {
			return fmt.Errorf("vulkan %s: download: %w", d.name, err)
		}
		x.transferOrder(&memRange{src.buf, off, off + n}, memRange{st.buf, 0, n})
		copyCmd(x.cur.cmd, src, off, st, 0, n)
		part := data[:n]
		x.cur.after = append(x.cur.after, func() { copy(part, st.bytes()) })
		data, off = data[n:], off+n
		if len(data) > 0 {
			// Submit the chunk: its host copy runs while the device
			// copies the next ones.
			if err := x.flush(); err != nil {
				return err
			}
		}
	}
	return x.sync()
}

// fill sets size bytes at off of a buffer the host does not access.
func (d *Device) fill(dst *devBuffer, off, size uint64, value byte) error {
	x, err := d.lockXfer()
	if err != nil {
		return err
	}
	defer d.xferMu.Unlock()
	cmd, err := x.record()
	if err != nil {
		return err
	}
	if off%4 == 0 && size%4 == 0 {
		x.transferOrder(nil, memRange{dst.buf, off, off + size})
		v := uint32(value) * 0x01010101
		vk.CmdFillBuffer(cmd, dst.buf, vk.DeviceSize(off), vk.DeviceSize(size), v)
		return x.batchedBytes(0)
	}
	st, err := x.stage(size)
	if err != nil {
		return fmt.Errorf("vulkan %s: memset: %w", d.name, err)
	}
	m := st.bytes()[:size]
	for i := range m {
		m[i] = value
	}
	x.transferOrder(&memRange{st.buf, 0, size}, memRange{dst.buf, off, off + size})
	copyCmd(cmd, st, 0, dst, off, size)
	return x.batchedBytes(st.size)
}

// copyBuffer copies between device buffers. With hostAccess (the host maps
// either buffer) it waits for the copy, so that no host access can race it;
// otherwise the copy is batched.
func (d *Device) copyBuffer(src *devBuffer, soff uint64, dst *devBuffer, doff, n uint64, hostAccess bool) error {
	x, err := d.lockXfer()
	if err != nil {
		return err
	}
	defer d.xferMu.Unlock()
	cmd, err := x.record()
	if err != nil {
		return err
	}
	x.transferOrder(&memRange{src.buf, soff, soff + n}, memRange{dst.buf, doff, doff + n})
	copyCmd(cmd, src, soff, dst, doff, n)
	if hostAccess {
		return x.sync()
	}
	return x.batchedBytes(0)
}
