package cpu

import (
	"fmt"
	"math"
	"sync"

	rt "github.com/gpurt/gpurt/runtime"
)

// Alignment of tensors in CPU buffers: a cache line, enough for any SIMD load.
const Alignment = 64

type bufferType struct{}

var theBufferType = bufferType{}

// BufferType returns the CPU buffer type: 64-byte aligned host memory.
func BufferType() rt.BufferType { return theBufferType }

func (bufferType) Name() string   { return "CPU" }
func (bufferType) Alignment() int { return Alignment }

// MaxSize is the memory the machine has (RAM and swap, within the cgroup's
// limit), or 64 TiB where that is unknown; never more than an int holds.
// The graph allocator asks once per tensor, so the figure is read from the
// system once per process (reading the cgroup's files every time was a
// third of token generation time on small models, see docs/performance.md).
func (bufferType) MaxSize() int {
	if total := cachedTotalMemory(); total > 0 {
		return int(min(total, uint64(math.MaxInt)))
	}
	return min(math.MaxInt, 1<<46)
}

// cachedTotalMemory is totalMemory, read once.
var cachedTotalMemory = sync.OnceValue(totalMemory)

func (bufferType) AllocSize(t *rt.Tensor) int { return t.Nbytes() }
func (bufferType) IsHost() bool               { return true }
func (bufferType) Device() rt.Device          { return theDevice }

// Alloc returns a zeroed host buffer; size 0 gives a valid empty buffer.
func (bt bufferType) Alloc(size int) (rt.Buffer, error) {
	if size < 0 {
		return nil, fmt.Errorf("cpu: negative buffer size %d: %w", size, rt.ErrInvalidArgument)
	}
	// Go cannot recover from running out of memory, so a request beyond
	// what the machine can give is refused before it is made.
	if avail, ok := availableMemory(); ok && uint64(size) > avail {
		return nil, fmt.Errorf("cpu: allocate %d MiB: only %d MiB of memory are available: %w", size>>20, avail>>20, rt.ErrOutOfMemory)
	}
	mem, err := allocAligned(size)
	if err != nil {
		return nil, err
	}
	return newWeightBuffer(bt, mem), nil
}

// allocAligned returns size bytes starting on an Alignment boundary; an
// impossible size is an out-of-memory error rather than a runtime panic.
func allocAligned(size int) (mem []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			mem, err = nil, fmt.Errorf("cpu: allocate %d bytes: %w", size, rt.ErrOutOfMemory)
		}
	}()
	if size == 0 {
		return []byte{}, nil
	}
	raw := make([]byte, size+Alignment)
	off := alignOffset(raw)
	return raw[off : off+size : off+size], nil
}
