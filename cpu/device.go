package cpu

import (
	"fmt"
	"runtime"

	rt "github.com/gpurt/gpurt/runtime"
)

func init() { rt.Register(reg{}, 0) }

type reg struct{}

func (reg) Name() string                  { return "cpu" }
func (reg) Devices() ([]rt.Device, error) { return []rt.Device{theDevice}, nil }

// device is the single CPU device.
type device struct{}

var theDevice = &device{}

// Device returns the CPU device.
func Device() rt.Device { return theDevice }

func (*device) Name() string { return "CPU" }

func (*device) Props() rt.DeviceProps {
	total := totalMemory()
	return rt.DeviceProps{
		Name:        "CPU",
		Description: fmt.Sprintf("%s/%s, %d threads, %s kernels", runtime.GOOS, runtime.GOARCH, runtime.GOMAXPROCS(0), defaultKernels().name),
		Type:        rt.DeviceCPU,
		MemoryFree:  total,
		MemoryTotal: total,
		Caps:        rt.DeviceCaps{Async: false, HostBuffer: true, BufferFromHostPtr: true, Events: true},
	}
}

func (d *device) NewBackend() (rt.Backend, error) { return NewBackend(0) }
func (*device) BufferType() rt.BufferType         { return theBufferType }
func (*device) HostBufferType() rt.BufferType     { return theBufferType }

// BufferFromHost wraps data as a CPU buffer without copying.
func (*device) BufferFromHost(data []byte, maxTensorSize int) (rt.Buffer, error) {
	if maxTensorSize > len(data) {
		return nil, fmt.Errorf("cpu: max tensor size %d exceeds the %d-byte slice", maxTensorSize, len(data))
	}
	return newWeightBuffer(theBufferType, data), nil
}

// SupportsBufferType accepts any host-addressable memory, including GPU
// host-visible buffers, so the scheduler can share them without copies.
func (*device) SupportsBufferType(bt rt.BufferType) bool { return bt.IsHost() }

func (*device) SupportsOp(t *rt.Tensor) bool { return supportsOp(t) }

// OffloadOp is false: the CPU is where offloading comes from.
func (*device) OffloadOp(*rt.Tensor) bool { return false }

func (*device) NewEvent() (rt.Event, error) { return &event{}, nil }

// event is trivially complete: the CPU backend finishes work before
// GraphCompute returns.
type event struct{ freed bool }

func (e *event) Record(b rt.Backend) error { return e.use() }
func (e *event) Wait(b rt.Backend) error   { return e.use() }
func (e *event) Synchronize() error        { return e.use() }
func (e *event) Free()                     { e.freed = true }

func (e *event) use() error {
	if e.freed {
		return fmt.Errorf("cpu event: used after free: %w", rt.ErrClosed)
	}
	return nil
}
