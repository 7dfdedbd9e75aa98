//go:build cgo

package wgpu

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	wg "github.com/oliverbestmann/webgpu/wgpu"

	rt "github.com/gpurt/gpurt/runtime"
)

// Device is one WebGPU adapter opened as a device, named "WebGPU<n>".
//
// Every wgpu call on the device and on objects made from it happens with
// mu held: wgpu-native runs buffer-map callbacks inside whichever Poll
// happens next, including another goroutine's, so unsynchronized use could
// run one caller's callback in the middle of another's work.
type Device struct {
	name  string
	index int
	info  wg.AdapterInfo
	props rt.DeviceProps
	lim   limits
	// f16 is true when WGSL's shader-f16 is enabled; otherwise F16 tensors
	// are read as packed u32 words with unpack2x16float.
	f16 bool
	// mappable: buffers may be storage and mappable at once (wgpu's native
	// MAPPABLE_PRIMARY_BUFFERS feature), which the host-visible type needs.
	mappable bool
	// subgroups: WGSL subgroup builtins are enabled (wgpu's native SUBGROUP
	// feature). sgSize is the subgroup size the kernels see, probed on
	// first use: 0 not yet known, -1 unusable (not uniform).
	subgroups bool
	sgSize    int
	// loopBudget, when not 0, is the most loop iterations one invocation
	// may run. llvmpipe (lavapipe) ends every loop of an invocation once
	// 65535 iterations have run in total, across all its loops.
	loopBudget int
	// tune is the adapter class's row of kernel shapes and submission
	// sizes (tune.go); tests may swap it with mu held.
	tune tune

	// buffersMade counts buffer creations (createBuffer), for
	// AllocationsMade: a warm model step should make none.
	buffersMade atomic.Int64

	adapter *wg.Adapter
	sinkID  uintptr
	sink    *errorSink

	mu       sync.Mutex
	dev      *wg.Device
	queue    *wg.Queue
	closed   bool
	devType  *bufferType
	hostType *bufferType

	pipes   map[string]*pipeline
	layouts map[layoutKey]*bindLayout
	binds   bindCache

	// errFlag is the I32 error flag GET_ROWS and SET_ROWS set on an index
	// out of range, made on first use; rowsRun says one ran since the flag
	// was last read (by Synchronize).
	errFlag *rt.Tensor
	rowsRun bool

	// unsubmittedWrites: queue writes wait for the next submission, and
	// so does the memory of buffers destroyed after them.
	unsubmittedWrites bool

	lastSubmit uint64 // index of the newest submission
	doneSubmit uint64 // every submission up to this index has completed

	staging     *wg.Buffer // MapRead|CopyDst buffer for downloads
	stagingSize uint64
	upload      *wg.Buffer // MapWrite|CopySrc buffer for large uploads
	uploadSize  uint64
	arena       *paramsArena

	nextBufID uint64
	// What callers hold open, released with the device at close and named
	// in its error.
	bufs     map[*buffer]struct{}
	backends map[*Backend]struct{}
	events   int
}

type openOptions struct {
	noF16       bool // test hook: use the packed-u32 path for F16
	noMappable  bool
	noSubgroups bool
	// class, when forced, replaces the adapter's own class (GPURT_WGPU_TUNE).
	class       adapterClass
	forcedClass bool
}

// openDevice requests a device on adapter a with the adapter's limits.
func openDevice(a *wg.Adapter, index int, opt openOptions) (*Device, error) {
	if !a.IsValid() {
		return nil, errors.New("adapter is released")
	}
	info := a.GetInfo()
	d := &Device{
		name:     fmt.Sprintf("WebGPU%d", index),
		index:    index,
		info:     info,
		adapter:  a,
		pipes:    map[string]*pipeline{},
		layouts:  map[layoutKey]*bindLayout{},
		bufs:     map[*buffer]struct{}{},
		backends: map[*Backend]struct{}{},
	}
	var feats []wg.FeatureName
	if !opt.noF16 && a.HasFeature(wg.FeatureNameShaderF16) {
		feats = append(feats, wg.FeatureNameShaderF16)
		d.f16 = true
	}
	if !opt.noSubgroups && a.HasFeature(wg.NativeFeatureSubgroup) {
		feats = append(feats, wg.NativeFeatureSubgroup)
		d.subgroups = true
	}
	if !opt.noMappable && a.HasFeature(wg.NativeFeatureMappablePrimaryBuffers) {
		feats = append(feats, wg.NativeFeatureMappablePrimaryBuffers)
		d.mappable = true
	}
	d.sinkID, d.sink = newSink()
	dev, lim, err := requestDevice(a, feats, d.sinkID)
	if err != nil {
		dropSink(d.sinkID)
		return nil, err
	}
	if lim.storageAlign < 4 || lim.storageAlign&(lim.storageAlign-1) != 0 || lim.uniformAlign == 0 {
		dev.Release()
		dropSink(d.sinkID)
		return nil, fmt.Errorf("unusable offset alignments (storage %d, uniform %d)", lim.storageAlign, lim.uniformAlign)
	}
	d.dev, d.lim = dev, lim
	class := classify(info.VendorId, info.AdapterType, info.BackendType)
	if opt.forcedClass {
		class = opt.class
	}
	d.tune = tuneFor(class, opt.forcedClass, lim)
	d.queue = dev.GetQueue()
	d.binds.init()
	d.devType = &bufferType{dev: d, name: d.name, usage: wg.BufferUsageStorage | wg.BufferUsageCopySrc | wg.BufferUsageCopyDst}
	if d.mappable {
		d.hostType = &bufferType{dev: d, name: d.name + "_Host", host: true,
			usage: wg.BufferUsageStorage | wg.BufferUsageCopySrc | wg.BufferUsageCopyDst | wg.BufferUsageMapRead | wg.BufferUsageMapWrite}
	}
	d.props = d.makeProps()
	if strings.Contains(strings.ToLower(info.Device+" "+info.Description), "llvmpipe") {
		d.loopBudget = 65535 - 64
	}
	return d, nil
}

func (d *Device) makeProps() rt.DeviceProps {
	p := rt.DeviceProps{
		Name: d.name,
		Caps: rt.DeviceCaps{Async: true, HostBuffer: d.hostType != nil, Events: true},
	}
	switch d.info.AdapterType {
	case wg.AdapterTypeDiscreteGPU:
		p.Type = rt.DeviceGPU
	case wg.AdapterTypeCPU:
		p.Type, p.Software = rt.DeviceIGPU, true
	default:
		p.Type = rt.DeviceIGPU
	}
	kind := map[wg.AdapterType]string{
		wg.AdapterTypeDiscreteGPU: "discrete GPU", wg.AdapterTypeIntegratedGPU: "integrated GPU",
		wg.AdapterTypeCPU: "CPU (software)",
	}[d.info.AdapterType]
	if kind == "" {
		kind = "unknown adapter type"
	}
	f16 := "no shader-f16"
	if d.f16 {
		f16 = "shader-f16"
	}
	p.Description = fmt.Sprintf("WebGPU on %s: %s, driver %q, %s, %s, %s", backendName(d.info.BackendType),
		d.info.Device, d.info.Description, kind, f16, d.tune)
	// WebGPU has no memory-size query; MemoryFree and MemoryTotal stay 0
	// (unknown) rather than a guess.
	return p
}

func (d *Device) Name() string              { return d.name }
func (d *Device) Props() rt.DeviceProps     { return d.props }
func (d *Device) BufferType() rt.BufferType { return d.devType }

// HostBufferType returns the host-visible buffer type, or nil when the
// adapter cannot make storage buffers mappable.
func (d *Device) HostBufferType() rt.BufferType {
	if d.hostType == nil {
		return nil
	}
	return d.hostType
}

// BufferFromHost is not possible: WebGPU cannot wrap caller memory.
func (d *Device) BufferFromHost(data []byte, maxTensorSize int) (rt.Buffer, error) {
	return nil, fmt.Errorf("%s: wrapping host memory as a buffer is not supported by WebGPU", d.name)
}

func (d *Device) SupportsBufferType(bt rt.BufferType) bool {
	b, ok := bt.(*bufferType)
	return ok && b.dev == d
}

// OffloadOp: moving weights from host memory to a software device never
// pays; on a real GPU, large-batch matmuls do (as ggml's Vulkan backend).
func (d *Device) OffloadOp(t *rt.Tensor) bool {
	if d.props.Software || t == nil {
		return false
	}
	return t.Op == rt.OpMulMat && t.Ne[1] >= 32
}

func (d *Device) NewBackend() (rt.Backend, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.usableLocked(); err != nil {
		return nil, err
	}
	b := &Backend{dev: d, noFusion: !fusionDefault()}
	d.backends[b] = struct{}{}
	return b, nil
}

func (d *Device) NewEvent() (rt.Event, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.usableLocked(); err != nil {
		return nil, err
	}
	d.events++
	return &Event{dev: d}, nil
}

// usableLocked reports a closed or lost device and device errors that
// arrived through the uncaptured-error handler.
func (d *Device) usableLocked() error {
	if err := d.closedErrLocked(); err != nil {
		return err
	}
	if err := d.sink.take(); err != nil {
		return fmt.Errorf("%s: %w", d.name, err)
	}
	return nil
}

// closedErrLocked is the error of every use of a closed device and of what
// was made from it: after runtime.Release the registry has new devices.
func (d *Device) closedErrLocked() error {
	if d.closed {
		return fmt.Errorf("%s: used after runtime.Release: %w", d.name, rt.ErrReleased)
	}
	return nil
}

// submitLocked submits a finished command buffer and returns its index.
// encodeLocked records commands with record into a new encoder and submits
// them; on failure it releases what it made and submits nothing.
func (d *Device) encodeLocked(record func(enc *wg.CommandEncoder) error) error {
	enc, err := d.dev.TryCreateCommandEncoder(nil)
	if err != nil {
		return err
	}
	err = record(enc)
	cb, ferr := enc.TryFinish(nil)
	enc.Release()
	if err = errors.Join(err, ferr); err != nil {
		if cb != nil {
			cb.Release()
		}
		return err
	}
	d.submitLocked(cb)
	return nil
}

func (d *Device) submitLocked(cb *wg.CommandBuffer) uint64 {
	idx := uint64(d.queue.Submit(cb))
	cb.Release()
	d.unsubmittedWrites = false
	if idx > d.lastSubmit {
		d.lastSubmit = idx
	}
	return idx
}

// waitLocked blocks until submission idx has completed. wgpu-native's
// Poll(wait, &idx) returns once that submission is done.
func (d *Device) waitLocked(idx uint64) error {
	if idx > d.doneSubmit {
		i := idx
		d.dev.Poll(true, &i)
		d.doneSubmit = idx
	}
	if err := d.sink.take(); err != nil {
		return fmt.Errorf("%s: %w", d.name, err)
	}
	return nil
}

// close waits for queued work and releases every wgpu object of the device
// except its adapter: the caches, and whatever buffers, backends (with
// their pending reads) and events are still open, which the error names.
// Every method of the device and of objects made from it fails (or, for
// Free and Close, does nothing) afterwards, without calling into wgpu.
func (d *Device) close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return nil
	}
	var errs []error
	open := countList([]count{{uint64(len(d.bufs)), "buffer"}, {uint64(len(d.backends)), "backend"}, {uint64(d.events), "event"}})
	if open != "" {
		errs = append(errs, fmt.Errorf("%s: %s still open", d.name, open))
	}
	if d.lastSubmit > 0 {
		if err := d.waitLocked(d.lastSubmit); err != nil {
			errs = append(errs, fmt.Errorf("wait for queued work: %w", err))
		}
	}
	for b := range d.backends {
		b.dropPendingLocked()
		b.closed = true
	}
	for b := range d.bufs {
		b.buf.Destroy()
		b.buf.Release()
	}
	d.bufs, d.backends, d.events = nil, nil, 0
	d.binds.releaseAll()
	for _, p := range d.pipes {
		p.release()
	}
	d.pipes = map[string]*pipeline{}
	for _, l := range d.layouts {
		l.release()
	}
	clear(d.layouts)
	if d.errFlag != nil {
		fb := d.errFlag.Buffer.(*buffer)
		fb.buf.Destroy()
		fb.buf.Release()
		d.errFlag = nil
	}
	if d.arena != nil {
		d.arena.buf.Destroy()
		d.arena.buf.Release()
		d.arena = nil
	}
	if d.staging != nil {
		d.staging.Destroy()
		d.staging.Release()
		d.staging, d.stagingSize = nil, 0
	}
	if d.upload != nil {
		d.upload.Destroy()
		d.upload.Release()
		d.upload, d.uploadSize = nil, 0
	}
	d.queue.Release()
	d.dev.Release()
	d.closed = true
	dropSink(d.sinkID)
	return errors.Join(errs...)
}

// errorFlagLocked returns the device's error flag tensor, creating it (not
// counted among the user's buffers) on first use, and notes that a kernel
// writing it is about to run.
func (d *Device) errorFlagLocked() (*rt.Tensor, error) {
	d.rowsRun = true
	if d.errFlag != nil {
		return d.errFlag, nil
	}
	bt := d.devType
	wb, err := d.createBuffer(&wg.BufferDescriptor{Label: d.name + " error flag", Size: 16, Usage: bt.usage})
	if err != nil {
		return nil, fmt.Errorf("error flag: %w", err)
	}
	d.nextBufID++
	b := &buffer{bt: bt, buf: wb, id: d.nextBufID, size: 16, gsize: 16}
	t := &rt.Tensor{Type: rt.I32, Ne: [rt.MaxDims]int{4, 1, 1, 1}, Nb: [rt.MaxDims]int{4, 16, 16, 16}, Name: "error flag", Buffer: b}
	d.errFlag = t
	return t, nil
}

// errorFlagErrLocked reads and clears the error flag after queued work has
// completed, when a kernel that writes it ran since the last read.
func (d *Device) errorFlagErrLocked() error {
	if !d.rowsRun || d.errFlag == nil {
		return nil
	}
	d.rowsRun = false
	fb := d.errFlag.Buffer.(*buffer)
	var word [4]byte
	if err := d.readLocked(fb, 0, word[:]); err != nil {
		return fmt.Errorf("read the error flag: %w", err)
	}
	code := uint32(word[0]) | uint32(word[1])<<8 | uint32(word[2])<<16 | uint32(word[3])<<24
	if code == 0 {
		return nil
	}
	if err := d.queue.TryWriteBuffer(fb.buf, 0, make([]byte, 4)); err != nil {
		return fmt.Errorf("clear the error flag: %w", err)
	}
	d.unsubmittedWrites = true
	op := map[uint32]rt.Op{1: rt.OpGetRows, 2: rt.OpSetRows}[code]
	return fmt.Errorf("%v: an index lies outside the rows it addresses (the rows it named were left unread or unwritten): %w", op, rt.ErrOutOfRange)
}

// createBuffer makes a buffer and counts it.
func (d *Device) createBuffer(desc *wg.BufferDescriptor) (*wg.Buffer, error) {
	d.buffersMade.Add(1)
	return d.dev.TryCreateBuffer(desc)
}

// AllocationsMade returns how many buffers the device has made since it
// was opened (staging and scratch included): the difference across a
// model step says how many allocations the step made.
func (d *Device) AllocationsMade() int64 { return d.buffersMade.Load() }
