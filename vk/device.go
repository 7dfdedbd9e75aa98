package vk

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	rt "github.com/gpurt/gpurt/runtime"
	vk "github.com/vulkan-go/vulkan"
)

// limits are the physical device limits the backend relies on.
type limits struct {
	maxStorageRange   uint64
	storageAlign      uint64
	maxPushConstants  uint32
	maxSharedMemory   uint32
	maxInvocations    uint32
	maxGroupSize      [3]uint32
	maxGroupCount     [3]uint32
	maxAllocationSize uint64 // 0 when unknown
	subgroupSize      uint32
}

// Device is one Vulkan physical device. Its logical device, queue, pipelines
// and memory pools are created on first use and live until runtime.Release,
// which destroys them with the objects of the device's buffers, backends and
// events still open. The Device and those objects then refuse use; the
// registry discovers new Devices.
type Device struct {
	index    int // position among gpurt's Vulkan devices ("Vulkan<index>")
	physIdx  int // index among the instance's physical devices
	inst     vk.Instance
	phys     vk.PhysicalDevice
	name     string
	desc     string
	devType  rt.DeviceType
	software bool
	api      uint32
	lim      limits
	family   uint32 // compute queue family
	// transferFamily is a transfer-only queue family (a discrete GPU's
	// copy engines), or -1. Reported, not used yet: every copy goes to
	// the compute queue (see the package comment).
	transferFamily int
	feat           features

	vendorID, deviceID uint32
	cacheUUID          [16]byte

	memTypes  []memType
	heapSizes []uint64
	localType int // memory type index for device-local buffers
	hostType  int // memory type index for host-visible buffers
	// barType is a device-local, host-visible type other than localType
	// (a discrete GPU's BAR), or -1; bar says which buffers go there.
	barType int
	bar     barPlacement

	// subgroupArith is true when compute shaders have subgroup arithmetic;
	// otherwise the _nosg shader variants reduce through shared memory.
	subgroupArith bool
	// subgroupShuffle is true when subgroups can shuffle and hold a multiple
	// of 8 invocations, as the tiled MUL_MAT needs.
	subgroupShuffle bool
	// tune is the device class's row of the tuning table (tune.go),
	// fitted to the device; tuneForced says GPURT_VK_TUNE chose the class.
	tune       tuning
	tuneForced bool
	// Workgroup sizes for row reductions and mat-vec products, the most
	// rows and src1 columns each mat-vec workgroup computes, and the tiled
	// MUL_MAT's tile: tune's values, which tests may override.
	wgRows, wgMatVec, nrMatVec, ncMatVec int
	mmTile                               mmTile

	// matVec forces a mat-vec kernel (matvec_hw.go); matVecAuto by default.
	matVec matVecKernel

	// mmq overrides GPURT_VK_MMQ for this device (tests; see useMMQ).
	mmq mmqMode

	// disabled lists ops SupportsOp refuses (tests use it to force a
	// split onto another backend).
	disabled map[rt.Op]bool

	localBT *BufferType
	hostBT  *BufferType

	// life guards opening, releasing and the live objects.
	life     sync.Mutex
	opened   bool
	initErr  error
	live     liveObjects
	released atomic.Bool

	dev     vk.Device
	queue   vk.Queue
	queueMu sync.Mutex // vkQueueSubmit needs external synchronization

	// The VkPipelineCache (pipecache.go), how many bytes it was seeded
	// with, and why it could not be saved at release.
	pipeCache        vk.PipelineCache
	pipeCacheLoaded  int
	pipeCacheSaveErr error

	dsLayout   vk.DescriptorSetLayout
	pipeLayout vk.PipelineLayout
	pipes      pipelineCache
	pools      map[int]*memPool // by memory type index
	poolsMu    sync.Mutex
	xferMu     sync.Mutex // serializes the device-level transfer stream
	xfer       *stream

	// Pooled staging buffers (staging.go).
	stagingMu        sync.Mutex
	stagingIdle      []*devBuffer
	stagingIdleBytes uint64
	stagingCreated   int

	// Counts of vkAllocateMemory and vkCreateBuffer calls, for
	// AllocationCounts: a model step should make none once warm.
	memBlocksMade, buffersMade atomic.Int64

	// Deferred frees: buffers freed while work submitted before the free
	// may still use them, destroyed once a fence of a later-or-equal
	// submission has signalled (a fence covers every earlier submission
	// on the queue). submitted and completed are submission serials.
	submitted uint64 // under queueMu
	graveMu   sync.Mutex
	completed uint64
	grave     []deferredFree
}

type deferredFree struct {
	b      *devBuffer
	serial uint64
}

type memType struct {
	flags vk.MemoryPropertyFlags
	heap  int
}

func (m memType) has(bits vk.MemoryPropertyFlagBits) bool {
	return m.flags&vk.MemoryPropertyFlags(bits) == vk.MemoryPropertyFlags(bits)
}

func newDevice(inst vk.Instance, pd vk.PhysicalDevice, physIdx, index int) (*Device, error) {
	var props vk.PhysicalDeviceProperties
	vk.GetPhysicalDeviceProperties(pd, &props)
	props.Deref()
	props.Limits.Deref()
	devName := vk.ToString(props.DeviceName[:])
	d := &Device{
		index:   index,
		physIdx: physIdx,
		inst:    inst,
		phys:    pd,
		name:    fmt.Sprintf("Vulkan%d", index),
		api:     props.ApiVersion,

		vendorID:  props.VendorID,
		deviceID:  props.DeviceID,
		cacheUUID: props.PipelineCacheUUID,
	}
	if props.ApiVersion < vk.MakeVersion(1, 1, 0) || instanceAPI < vk.MakeVersion(1, 1, 0) {
		return nil, fmt.Errorf("vulkan: device %d (%s) supports only Vulkan %s; gpurt needs 1.1", physIdx, devName, vk.Version(props.ApiVersion))
	}
	l := props.Limits
	d.lim = limits{
		maxStorageRange:  uint64(l.MaxStorageBufferRange),
		storageAlign:     uint64(l.MinStorageBufferOffsetAlignment),
		maxPushConstants: l.MaxPushConstantsSize,
		maxSharedMemory:  l.MaxComputeSharedMemorySize,
		maxInvocations:   l.MaxComputeWorkGroupInvocations,
		maxGroupSize:     l.MaxComputeWorkGroupSize,
		maxGroupCount:    l.MaxComputeWorkGroupCount,
	}
	api := props.ApiVersion
	if instanceAPI < api {
		api = instanceAPI
	}
	p2, _ := queryProps2(inst, pd, api)
	d.lim.maxAllocationSize = p2.maxAllocationSize
	d.lim.subgroupSize = p2.subgroupSize
	const basic, arith, computeStage = 1, 4, 0x20
	d.subgroupArith = p2.subgroupOps&(basic|arith) == basic|arith && p2.subgroupStages&computeStage != 0
	const shuffle = 0x10
	d.subgroupShuffle = p2.subgroupOps&(basic|shuffle) == basic|shuffle && p2.subgroupStages&computeStage != 0 &&
		p2.subgroupSize >= 8 && p2.subgroupSize%8 == 0
	class, forced, err := tuneEnv()
	if err != nil {
		return nil, fmt.Errorf("vulkan: device %d (%s): %w", physIdx, devName, err)
	}
	if !forced {
		class = classify(props.VendorID, props.DeviceType)
	}
	d.setTuning(tuningFor(class, d.tuneCaps()))
	d.tuneForced = forced
	if d.lim.maxPushConstants < pushConstantSize {
		return nil, fmt.Errorf("vulkan: device %d (%s) has %d bytes of push constants; gpurt needs %d", physIdx, devName, d.lim.maxPushConstants, pushConstantSize)
	}

	switch props.DeviceType {
	case vk.PhysicalDeviceTypeDiscreteGpu:
		d.devType = rt.DeviceGPU
	default:
		d.devType = rt.DeviceIGPU
	}
	d.software = props.DeviceType == vk.PhysicalDeviceTypeCpu
	driver := p2.driverName
	if p2.driverInfo != "" {
		driver += " " + p2.driverInfo
	}
	if driver == "" {
		driver = fmt.Sprintf("version %#x", props.DriverVersion)
	}
	d.desc = fmt.Sprintf("%s; driver %s; Vulkan %s", devName, driver, vk.Version(props.ApiVersion))

	// Queue family: a compute-only one when the device has it (on NVIDIA
	// and AMD the first compute family is the graphics queue, shared with
	// the display), else the first with compute.
	var nq uint32
	vk.GetPhysicalDeviceQueueFamilyProperties(pd, &nq, nil)
	qfs := make([]vk.QueueFamilyProperties, nq)
	vk.GetPhysicalDeviceQueueFamilyProperties(pd, &nq, qfs)
	flags := make([]vk.QueueFlags, nq)
	for i := range qfs[:nq] {
		qfs[i].Deref()
		if qfs[i].QueueCount > 0 {
			flags[i] = qfs[i].QueueFlags
		}
	}
	family, found := pickQueueFamily(flags)
	if !found {
		return nil, fmt.Errorf("vulkan: device %d (%s) has no compute queue", physIdx, devName)
	}
	d.family = family
	d.feat = queryFeatures(inst, pd, api)
	d.feat.computeOnlyQueue = flags[family]&vk.QueueFlags(vk.QueueGraphicsBit) == 0
	d.transferFamily = -1
	if tf, ok := pickTransferFamily(flags, family); ok {
		d.transferFamily = int(tf)
	}

	var mp vk.PhysicalDeviceMemoryProperties
	vk.GetPhysicalDeviceMemoryProperties(pd, &mp)
	mp.Deref()
	for i := 0; i < int(mp.MemoryHeapCount); i++ {
		mp.MemoryHeaps[i].Deref()
		d.heapSizes = append(d.heapSizes, uint64(mp.MemoryHeaps[i].Size))
	}
	for i := 0; i < int(mp.MemoryTypeCount); i++ {
		mp.MemoryTypes[i].Deref()
		d.memTypes = append(d.memTypes, memType{flags: mp.MemoryTypes[i].PropertyFlags, heap: int(mp.MemoryTypes[i].HeapIndex)})
	}
	d.localType, d.hostType = pickMemoryTypes(d.memTypes)
	if d.localType < 0 || d.hostType < 0 {
		return nil, fmt.Errorf("vulkan: device %d (%s) lacks a device-local or host-visible memory type", physIdx, devName)
	}
	d.barType, d.bar = pickBAR(d.memTypes, d.heapSizes, d.localType)
	staged, rebar := discreteMode()
	d.localBT = &BufferType{dev: d, memType: d.localType, host: false, staged: staged, stagedReads: rebar}
	d.hostBT = &BufferType{dev: d, memType: d.hostType, host: true}
	return d, nil
}

// pickQueueFamily returns the first compute family without graphics, else
// the first compute family (families without queues have flags 0).
func pickQueueFamily(flags []vk.QueueFlags) (uint32, bool) {
	compute, graphics := vk.QueueFlags(vk.QueueComputeBit), vk.QueueFlags(vk.QueueGraphicsBit)
	first := -1
	for i, f := range flags {
		if f&compute == 0 {
			continue
		}
		if f&graphics == 0 {
			return uint32(i), true
		}
		if first < 0 {
			first = i
		}
	}
	return uint32(max(first, 0)), first >= 0
}

// Queue capabilities that make a family more than a copy engine (Vulkan's
// video decode and encode bits, which vulkan-go predates).
const (
	queueVideoDecode = vk.QueueFlags(0x20)
	queueVideoEncode = vk.QueueFlags(0x40)
)

// pickTransferFamily returns the first family, other than compute, whose
// queues do transfers and nothing else (sparse binding aside): the copy
// engines a discrete GPU offers besides its compute queues.
func pickTransferFamily(flags []vk.QueueFlags, compute uint32) (uint32, bool) {
	other := vk.QueueFlags(vk.QueueGraphicsBit|vk.QueueComputeBit) | queueVideoDecode | queueVideoEncode
	for i, f := range flags {
		if uint32(i) != compute && f&vk.QueueFlags(vk.QueueTransferBit) != 0 && f&other == 0 {
			return uint32(i), true
		}
	}
	return 0, false
}

// pickMemoryTypes chooses the device-local type (pure device memory when the
// device has it; pickBAR decides what goes to BAR memory) and the
// host-visible coherent type (cached when possible, and not device memory).
func pickMemoryTypes(types []memType) (local, host int) {
	local, host = -1, -1
	for i, t := range types {
		if t.has(vk.MemoryPropertyDeviceLocalBit) {
			if local < 0 || (types[local].has(vk.MemoryPropertyHostVisibleBit) && !t.has(vk.MemoryPropertyHostVisibleBit)) {
				local = i
			}
		}
	}
	if local < 0 && len(types) > 0 {
		local = 0
	}
	// Host buffers are read by the CPU: cached memory first, then system
	// memory over a device's BAR, which the host reads uncached.
	score := func(t memType) int {
		n := 0
		if t.has(vk.MemoryPropertyHostCachedBit) {
			n += 2
		}
		if !t.has(vk.MemoryPropertyDeviceLocalBit) {
			n++
		}
		return n
	}
	for i, t := range types {
		if !t.has(vk.MemoryPropertyHostVisibleBit | vk.MemoryPropertyHostCoherentBit) {
			continue
		}
		if host < 0 || score(t) > score(types[host]) {
			host = i
		}
	}
	return local, host
}

// barPlacement says which device-local buffers go to BAR memory: all of them
// with ReBAR (the whole of device memory is host-visible), or, through a small
// BAR window, buffers up to maxBuffer bytes while the window's heap has used
// less than budget bytes. The host then writes them directly instead of
// through staging and a submission, which suits small per-step inputs.
type barPlacement struct {
	all       bool
	maxBuffer uint64
	budget    uint64
}

const (
	// rebarMinHeap: a BAR type in the main device heap, larger than the
	// classic 256 MiB window, is ReBAR (Resizable BAR, Smart Access Memory).
	rebarMinHeap = 256 << 20
	// barWindowBuffer is the largest buffer placed in a small BAR window.
	barWindowBuffer = 4 << 20
)

// holds reports whether a buffer of size bytes goes to BAR memory whose
// heap has used bytes allocated.
func (p barPlacement) holds(size, used uint64) bool {
	return p.all || (size <= p.maxBuffer && used+size <= p.budget)
}

// pickBAR chooses the BAR memory type: device-local, host-visible and
// coherent, other than local, in local's heap when there is one (ReBAR), else
// in the largest heap, host-cached when otherwise equal (integrated GPUs
// offer both). There is none when local itself is host-visible (UMA
// and integrated GPUs, whose buffers are mapped anyway). A small window is
// used for small buffers, up to half of its heap, leaving the rest to the
// driver and other programs.
func pickBAR(types []memType, heaps []uint64, local int) (int, barPlacement) {
	if local < 0 || local >= len(types) || types[local].has(vk.MemoryPropertyHostVisibleBit) {
		return -1, barPlacement{}
	}
	heapSize := func(h int) uint64 {
		if h < 0 || h >= len(heaps) {
			return 0
		}
		return heaps[h]
	}
	bar := -1
	const want = vk.MemoryPropertyDeviceLocalBit | vk.MemoryPropertyHostVisibleBit | vk.MemoryPropertyHostCoherentBit
	for i, t := range types {
		if i == local || !t.has(want) {
			continue
		}
		if bar < 0 {
			bar = i
			continue
		}
		inMain, bestInMain := t.heap == types[local].heap, types[bar].heap == types[local].heap
		size, bestSize := heapSize(t.heap), heapSize(types[bar].heap)
		cached := t.has(vk.MemoryPropertyHostCachedBit) && !types[bar].has(vk.MemoryPropertyHostCachedBit)
		if (inMain && !bestInMain) || (inMain == bestInMain && (size > bestSize || (size == bestSize && cached))) {
			bar = i
		}
	}
	if bar < 0 {
		return -1, barPlacement{}
	}
	size := heapSize(types[bar].heap)
	if types[bar].heap == types[local].heap && size > rebarMinHeap {
		return bar, barPlacement{all: true}
	}
	return bar, barPlacement{maxBuffer: barWindowBuffer, budget: size / 2}
}

// Name is "Vulkan<N>".
func (d *Device) Name() string { return d.name }

// Props describes the device; memory figures come from the memory heaps.
func (d *Device) Props() rt.DeviceProps {
	heap := d.memTypes[d.localType].heap
	total := d.heapSizes[heap]
	used := d.heapUsed(heap)
	free := uint64(0)
	if used < total {
		free = total - used
	}
	// The driver's budget counts other processes' use too.
	if budget, usage, ok := d.memoryBudget(); ok && heap < len(budget) {
		free = 0
		if usage[heap] < budget[heap] {
			free = budget[heap] - usage[heap]
		}
	}
	return rt.DeviceProps{
		Name:        d.name,
		Description: d.desc,
		Type:        d.devType,
		MemoryFree:  free,
		MemoryTotal: total,
		Caps: rt.DeviceCaps{
			Async:      true,
			HostBuffer: true,
			Events:     true,
		},
		Software: d.software,
	}
}

func (d *Device) heapUsed(heap int) uint64 {
	d.poolsMu.Lock()
	defer d.poolsMu.Unlock()
	var n uint64
	for ti, p := range d.pools {
		if d.memTypes[ti].heap == heap {
			n += p.allocated()
		}
	}
	return n
}

// BufferType is the device-local buffer type.
func (d *Device) BufferType() rt.BufferType { return d.localBT }

// StagedBufferType is the device-local buffer type with every transfer
// staged, as on a discrete GPU whose device memory the host cannot map, so
// that benchmarks compare that path with the mapped one in one run (see
// bench.StagedTyper). It is nil when the default type stages already
// (GPURT_VK_DISCRETE) or its memory is not host-visible.
func (d *Device) StagedBufferType() rt.BufferType {
	if w, _ := d.localBT.hostAccess(d.localType); !w {
		return nil
	}
	return &BufferType{dev: d, memType: d.localType, staged: true}
}

// HostBufferType is the host-visible, persistently mapped buffer type.
func (d *Device) HostBufferType() rt.BufferType { return d.hostBT }

// BufferFromHost is not supported: Vulkan can only import suitably aligned
// host memory through an extension gpurt does not use.
func (d *Device) BufferFromHost(data []byte, maxTensorSize int) (rt.Buffer, error) {
	return nil, fmt.Errorf("vulkan %s: buffer from host memory is not supported", d.name)
}

// SupportsBufferType reports whether bt is one of this device's buffer types.
func (d *Device) SupportsBufferType(bt rt.BufferType) bool {
	b, ok := bt.(*BufferType)
	return ok && b.dev == d
}

// OffloadOp reports whether an op on host weights is worth running here: only
// on hardware GPUs and only for batches large enough to amortize the copy.
func (d *Device) OffloadOp(t *rt.Tensor) bool {
	if d.software || t.Op == rt.OpGetRows {
		return false
	}
	return t.Ne[1] >= 32 && d.SupportsOp(t)
}

// open creates the logical device and the shared objects on first use.
func (d *Device) open() error {
	d.life.Lock()
	defer d.life.Unlock()
	if d.released.Load() {
		return fmt.Errorf("vulkan %s: %w", d.name, errReleased)
	}
	if !d.opened {
		d.opened = true
		d.initErr = d.create()
	}
	return d.initErr
}

// liveObjects are the buffers, backends and events created on the device
// and not yet freed or closed.
type liveObjects struct {
	buffers  map[*Buffer]bool
	backends map[*Backend]bool
	events   map[*Event]bool
}

// track updates the live objects.
func (d *Device) track(update func(l *liveObjects)) {
	d.life.Lock()
	defer d.life.Unlock()
	if d.live.buffers == nil {
		d.live = liveObjects{buffers: map[*Buffer]bool{}, backends: map[*Backend]bool{}, events: map[*Event]bool{}}
	}
	update(&d.live)
}

// String describes the live objects ("2 buffers, 1 backend"), or "".
func (l *liveObjects) String() string {
	var parts []string
	for _, c := range []struct {
		n    int
		what string
	}{{len(l.buffers), "buffer"}, {len(l.backends), "backend"}, {len(l.events), "event"}} {
		if c.n == 1 {
			parts = append(parts, "1 "+c.what)
		} else if c.n > 1 {
			parts = append(parts, fmt.Sprintf("%d %ss", c.n, c.what))
		}
	}
	return strings.Join(parts, ", ")
}

// release waits for the queue, then destroys everything created on the
// logical device, the objects of live buffers, backends and events included,
// and the device itself. The error names the objects that were still open.
func (d *Device) release() error {
	d.life.Lock()
	defer d.life.Unlock()
	if d.released.Swap(true) || !d.opened || d.dev == nil {
		return nil
	}
	var errs []error
	if open := d.live.String(); open != "" {
		errs = append(errs, fmt.Errorf("vulkan %s: %s still open; released with the device", d.name, open))
	}
	if err := d.waitIdle(); err != nil {
		errs = append(errs, err)
	}
	for b := range d.live.backends {
		b.releaseStream()
	}
	d.destroyXfer()
	d.destroyStaging()
	d.destroyGrave()
	for e := range d.live.events {
		e.destroy()
	}
	for b := range d.live.buffers {
		if b.db != nil {
			b.db.destroy()
		}
	}
	d.live = liveObjects{}
	d.poolsMu.Lock()
	for _, p := range d.pools {
		p.destroy()
	}
	d.pools = nil
	d.poolsMu.Unlock()
	d.pipes.destroy(d)
	d.destroyPipelineCache()
	if d.pipeLayout != nil {
		vk.DestroyPipelineLayout(d.dev, d.pipeLayout, nil)
	}
	if d.dsLayout != nil {
		vk.DestroyDescriptorSetLayout(d.dev, d.dsLayout, nil)
	}
	vk.DestroyDevice(d.dev, nil)
	return errors.Join(errs...)
}

func (d *Device) create() error {
	qinfo := vk.DeviceQueueCreateInfo{
		SType:            vk.StructureTypeDeviceQueueCreateInfo,
		QueueFamilyIndex: d.family,
		QueueCount:       1,
		PQueuePriorities: []float32{1},
	}
	exts := devicePortability(func(name string) bool { return hasExtension(d.inst, d.phys, name) })
	api := min(d.api, instanceAPI)
	chain := featureChain(api, d.feat)
	defer freeFeatureChain(chain)
	info := &vk.DeviceCreateInfo{
		SType:                   vk.StructureTypeDeviceCreateInfo,
		PNext:                   chain,
		QueueCreateInfoCount:    1,
		PQueueCreateInfos:       []vk.DeviceQueueCreateInfo{qinfo},
		EnabledExtensionCount:   uint32(len(exts)),
		PpEnabledExtensionNames: exts,
	}
	var dev vk.Device
	res := vk.CreateDevice(d.phys, info, nil, &dev)
	info.Free()
	if res != vk.Success {
		return fmt.Errorf("vulkan %s: create device: %w", d.name, vk.Error(res))
	}
	d.dev = dev
	var q vk.Queue
	vk.GetDeviceQueue(dev, d.family, 0, &q)
	d.queue = q
	d.pools = map[int]*memPool{}
	if err := d.createLayouts(); err != nil {
		return err
	}
	d.pipes.init()
	if err := d.createPipelineCache(); err != nil {
		return err
	}
	xfer, err := newStream(d)
	if err != nil {
		return err
	}
	xfer.transfers = true
	d.xfer = xfer
	return nil
}

// check wraps a failed Vulkan result as an error naming the device and operation.
func (d *Device) check(res vk.Result, what string, args ...any) error {
	if res == vk.Success {
		return nil
	}
	return fmt.Errorf("vulkan %s: %s: %w", d.name, fmt.Sprintf(what, args...), vk.Error(res))
}

var (
	errClosed   = fmt.Errorf("use after close: %w", rt.ErrClosed)
	errReleased = fmt.Errorf("use after close: %w by runtime.Release", rt.ErrReleased)
)

// submit hands a command buffer to the device's queue and returns its
// submission serial.
func (d *Device) submit(cmd vk.CommandBuffer, fence vk.Fence) (uint64, error) {
	d.queueMu.Lock()
	res := queueSubmit(d.queue, cmd, fence)
	if res == vk.Success {
		d.submitted++
	}
	serial := d.submitted
	d.queueMu.Unlock()
	return serial, d.check(res, "queue submit")
}

// freeAfterQueued destroys b once every submission made so far has completed:
// at once when none is in flight, else at the next fence wait that covers
// them. No wait on the queue.
func (d *Device) freeAfterQueued(b *devBuffer) {
	d.queueMu.Lock()
	serial := d.submitted
	d.queueMu.Unlock()
	d.graveMu.Lock()
	if serial <= d.completed {
		d.graveMu.Unlock()
		b.destroy()
		return
	}
	d.grave = append(d.grave, deferredFree{b, serial})
	d.graveMu.Unlock()
}

// completedThrough records that submission serial (and so every earlier one)
// has completed, and destroys the buffers that waited for it.
func (d *Device) completedThrough(serial uint64) {
	d.graveMu.Lock()
	if serial > d.completed {
		d.completed = serial
	}
	var ready []*devBuffer
	keep := d.grave[:0]
	for _, g := range d.grave {
		if g.serial <= d.completed {
			ready = append(ready, g.b)
		} else {
			keep = append(keep, g)
		}
	}
	d.grave = keep
	d.graveMu.Unlock()
	for _, b := range ready {
		b.destroy()
	}
}

// destroyGrave destroys every deferred free (the queue is idle).
func (d *Device) destroyGrave() {
	d.graveMu.Lock()
	grave := d.grave
	d.grave = nil
	d.graveMu.Unlock()
	for _, g := range grave {
		g.b.destroy()
	}
}

// waitIdle waits until the device's queue has no work in flight.
func (d *Device) waitIdle() error {
	d.queueMu.Lock()
	res := vk.QueueWaitIdle(d.queue)
	d.queueMu.Unlock()
	return d.check(res, "wait for the queue")
}

// AllocationCounts are how many device memory blocks (vkAllocateMemory)
// and buffers (vkCreateBuffer) a device has made since it was opened, of
// every memory type, staging included.
type AllocationCounts struct {
	MemoryBlocks, Buffers int64
}

// AllocationCounts returns the device's allocation counts so far. The
// difference across a model step says how many host or device
// allocations the step made; warm steps should make none.
func (d *Device) AllocationCounts() AllocationCounts {
	return AllocationCounts{MemoryBlocks: d.memBlocksMade.Load(), Buffers: d.buffersMade.Load()}
}

// AllocationsMade is the sum of AllocationCounts, for gpurt bench.
func (d *Device) AllocationsMade() int64 {
	c := d.AllocationCounts()
	return c.MemoryBlocks + c.Buffers
}
