package cpu

import (
	"fmt"
	"math"

	rt "github.com/gpurt/gpurt/runtime"
)

// Alignment of tensors in CPU buffers: a cache line, enough for any SIMD load.
const Alignment = 64

type bufferType struct{}

var theBufferType = bufferType{}

// BufferType returns the CPU buffer type: 64-byte aligned host memory.
func BufferType() rt.BufferType { return theBufferType }

func (bufferType) Name() string               { return "CPU" }
func (bufferType) Alignment() int             { return Alignment }
func (bufferType) MaxSize() int               { return min(math.MaxInt, 1<<46) } // 64 TiB, or what 32-bit ints hold
func (bufferType) AllocSize(t *rt.Tensor) int { return t.Nbytes() }
func (bufferType) IsHost() bool               { return true }
func (bufferType) Device() rt.Device          { return theDevice }

// Alloc returns a zeroed host buffer; size 0 gives a valid empty buffer.
func (bt bufferType) Alloc(size int) (rt.Buffer, error) {
	if size < 0 {
		return nil, fmt.Errorf("cpu: negative buffer size %d", size)
	}
	mem, err := allocAligned(size)
	if err != nil {
		return nil, err
	}
	return rt.NewHostMemoryBuffer(bt, mem, nil), nil
}

// allocAligned returns size bytes starting on an Alignment boundary; an
// impossible size is an out-of-memory error rather than a runtime panic.
func allocAligned(size int) (mem []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			mem, err = nil, fmt.Errorf("cpu: out of memory allocating %d bytes", size)
		}
	}()
	if size == 0 {
		return []byte{}, nil
	}
	raw := make([]byte, size+Alignment)
	off := alignOffset(raw)
	return raw[off : off+size : off+size], nil
}
