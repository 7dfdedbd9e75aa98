package runtime

// The backend layer, in the shape of ggml-backend.h: a Device makes Backends
// (execution streams) and owns BufferTypes; a BufferType allocates Buffers;
// tensors live in Buffers. Every method reports failure as an error.

// BufferUsage tells the scheduler what a buffer holds.
type BufferUsage int

const (
	UsageAny     BufferUsage = iota
	UsageWeights             // model weights: ops on them go to the buffer's backend
	UsageCompute             // graph intermediates
)

func (u BufferUsage) String() string {
	return [...]string{"any", "weights", "compute"}[u]
}

// BufferType allocates buffers of one kind of memory on one device.
type BufferType interface {
	Name() string
	// Alloc returns a buffer of at least size bytes. Size 0 gives a valid empty buffer.
	Alloc(size int) (Buffer, error)
	// Alignment is the byte alignment of tensor offsets inside a buffer.
	Alignment() int
	// MaxSize is the largest single buffer this type can allocate.
	MaxSize() int
	// AllocSize is the number of bytes t needs in a buffer of this type.
	AllocSize(t *Tensor) int
	// IsHost reports whether buffers of this type are CPU-addressable (see HostBuffer).
	IsHost() bool
	Device() Device
}

// Buffer is a block of device memory that holds tensors. Offsets passed to
// the tensor methods are relative to the tensor's data; callers normally use
// the bounds-checked helpers TensorSet, TensorGet and TensorMemset instead.
type Buffer interface {
	Type() BufferType
	Size() int
	// InitTensor prepares a tensor placed in this buffer (e.g. backend extras).
	InitTensor(t *Tensor) error
	SetTensor(t *Tensor, data []byte, offset int) error
	GetTensor(t *Tensor, data []byte, offset int) error
	MemsetTensor(t *Tensor, value byte, offset, size int) error
	// CopyTensor copies src into dst, which lives in this buffer. It returns
	// false when it has no direct path from src's buffer.
	CopyTensor(src, dst *Tensor) (bool, error)
	// Clear sets every byte of the buffer to value.
	Clear(value byte) error
	// Reset drops per-tensor state (called before a buffer is reused).
	Reset()
	SetUsage(u BufferUsage)
	Usage() BufferUsage
	// Free releases the memory. Using the buffer afterwards is an error.
	Free() error
}

// HostBuffer is a Buffer whose memory the CPU can read and write directly.
// Buffers of a type with IsHost() true implement it.
type HostBuffer interface {
	Buffer
	// Bytes returns the whole buffer's memory.
	Bytes() []byte
}

// WriteNotifier is implemented by host buffers that keep state derived
// from their contents (the CPU's repacked weights): whoever writes a
// tensor's bytes through Bytes() rather than the buffer's methods calls
// Written afterwards (NoteWritten does).
type WriteNotifier interface {
	Written(t *Tensor)
}

// NoteWritten tells t's buffer, if it keeps derived state, that t's bytes
// were written directly.
func NoteWritten(t *Tensor) {
	if wn, ok := t.Buffer.(WriteNotifier); ok {
		wn.Written(t)
	}
}

// Backend is an execution stream on a device. Work may run asynchronously
// until Synchronize.
type Backend interface {
	Name() string
	Device() Device
	// GraphCompute runs every node of g, whose tensors are allocated in
	// buffers this backend supports. It may return before the work is done,
	// but reads g's structure (nodes, sources, placements) only during the
	// call, so the caller may change g afterwards.
	GraphCompute(g *Graph) error
	// Synchronize waits for all queued work.
	Synchronize() error
	Close() error
}

// AsyncBackend is implemented by backends that queue transfers. Use the
// TensorSetAsync, TensorGetAsync and TensorCopyAsync helpers, which fall back
// to synchronous transfers.
type AsyncBackend interface {
	Backend
	SetTensorAsync(t *Tensor, data []byte, offset int) error
	GetTensorAsync(t *Tensor, data []byte, offset int) error
	// CopyTensorAsync copies src (on backend from) into dst, which this backend
	// owns, ordered after work queued on both. False means no direct path.
	CopyTensorAsync(from Backend, src, dst *Tensor) (bool, error)
}

// Event marks a point in a backend's queue.
type Event interface {
	// Record marks the current end of b's queue.
	Record(b Backend) error
	// Wait makes work later queued on b wait for the event.
	Wait(b Backend) error
	// Synchronize blocks the caller until the event has completed.
	Synchronize() error
	Free()
}

// DeviceType classifies a device for placement decisions.
type DeviceType int

const (
	DeviceCPU   DeviceType = iota
	DeviceGPU              // discrete GPU with its own memory
	DeviceIGPU             // integrated or software GPU sharing host memory
	DeviceAccel            // an accelerator that works together with the CPU
)

func (t DeviceType) String() string {
	return [...]string{"CPU", "GPU", "IGPU", "ACCEL"}[t]
}

// DeviceCaps says what optional features a device really has.
type DeviceCaps struct {
	Async             bool // async set/get/copy
	HostBuffer        bool // a host-visible buffer type
	BufferFromHostPtr bool // wrapping caller memory as a buffer
	Events            bool
}

// DeviceProps describes a device.
type DeviceProps struct {
	Name        string
	Description string
	Type        DeviceType
	MemoryFree  uint64
	MemoryTotal uint64
	Caps        DeviceCaps
	// Software is true for CPU-emulated GPUs (lavapipe); automatic device
	// choice never prefers them over the CPU backend.
	Software bool
}

// Device is one piece of hardware (or emulation of it).
type Device interface {
	Name() string
	Props() DeviceProps
	// NewBackend starts an execution stream on the device.
	NewBackend() (Backend, error)
	// BufferType is the default (device-local) buffer type.
	BufferType() BufferType
	// HostBufferType is a host-visible buffer type, or nil.
	HostBufferType() BufferType
	// BufferFromHost wraps data as a buffer without copying, if Caps say so.
	BufferFromHost(data []byte, maxTensorSize int) (Buffer, error)
	SupportsOp(t *Tensor) bool
	SupportsBufferType(bt BufferType) bool
	// OffloadOp reports whether an op on weights in host memory is worth
	// running on this device anyway (e.g. a large matmul).
	OffloadOp(t *Tensor) bool
	NewEvent() (Event, error)
}
