package runtime

import "fmt"

// HostMemoryBuffer is a Buffer over CPU-addressable memory: a Go slice, or
// mapped device memory. Backends with host-visible memory embed or return it
// instead of writing their own byte copying.
type HostMemoryBuffer struct {
	mem    []byte
	size   int // len(mem), kept after Free so use after Free is reported as such
	bt     BufferType
	usage  BufferUsage
	onFree func() error
	freed  bool
}

// NewHostMemoryBuffer wraps mem as a buffer of type bt. onFree, if not nil,
// runs once when the buffer is freed (e.g. to unmap device memory).
func NewHostMemoryBuffer(bt BufferType, mem []byte, onFree func() error) *HostMemoryBuffer {
	return &HostMemoryBuffer{mem: mem, size: len(mem), bt: bt, onFree: onFree}
}

func (b *HostMemoryBuffer) Type() BufferType       { return b.bt }
func (b *HostMemoryBuffer) Size() int              { return b.size }
func (b *HostMemoryBuffer) Bytes() []byte          { return b.mem }
func (b *HostMemoryBuffer) Usage() BufferUsage     { return b.usage }
func (b *HostMemoryBuffer) SetUsage(u BufferUsage) { b.usage = u }
func (b *HostMemoryBuffer) Reset()                 {}

func (b *HostMemoryBuffer) span(t *Tensor, offset, size int) ([]byte, error) {
	if b.freed {
		return nil, fmt.Errorf("%s buffer: used after free: %w", b.bt.Name(), ErrClosed)
	}
	if !InRange(t.Offset, 0, len(b.mem)) || !InRange(offset, size, len(b.mem)-t.Offset) {
		return nil, fmt.Errorf("%s buffer: tensor %q: %d bytes at offset %d+%d are outside the %d-byte buffer: %w", b.bt.Name(), t.Name, size, t.Offset, offset, len(b.mem), ErrOutOfRange)
	}
	start := t.Offset + offset
	return b.mem[start : start+size], nil
}

// InitTensor checks that t lies inside the buffer.
func (b *HostMemoryBuffer) InitTensor(t *Tensor) error {
	_, err := b.span(t, 0, t.Nbytes())
	return err
}

func (b *HostMemoryBuffer) SetTensor(t *Tensor, data []byte, offset int) error {
	dst, err := b.span(t, offset, len(data))
	if err == nil {
		copy(dst, data)
	}
	return err
}

func (b *HostMemoryBuffer) GetTensor(t *Tensor, data []byte, offset int) error {
	src, err := b.span(t, offset, len(data))
	if err == nil {
		copy(data, src)
	}
	return err
}

func (b *HostMemoryBuffer) MemsetTensor(t *Tensor, value byte, offset, size int) error {
	dst, err := b.span(t, offset, size)
	if err == nil {
		fill(dst, value)
	}
	return err
}

// CopyTensor copies directly from any other host buffer.
func (b *HostMemoryBuffer) CopyTensor(src, dst *Tensor) (bool, error) {
	hs, ok := src.Buffer.(HostBuffer)
	if !ok {
		return false, nil
	}
	from := hs.Bytes()
	if !InRange(src.Offset, src.Nbytes(), len(from)) {
		return false, fmt.Errorf("copy %q: source lies outside its buffer: %w", src.Name, ErrOutOfRange)
	}
	return true, b.SetTensor(dst, from[src.Offset:src.Offset+src.Nbytes()], 0)
}

func (b *HostMemoryBuffer) Clear(value byte) error {
	if b.freed {
		return fmt.Errorf("%s buffer: used after free: %w", b.bt.Name(), ErrClosed)
	}
	fill(b.mem, value)
	return nil
}

// Free releases the memory; a second Free is a no-op.
func (b *HostMemoryBuffer) Free() error {
	if b.freed {
		return nil
	}
	b.freed = true
	b.mem = nil
	if b.onFree != nil {
		return b.onFree()
	}
	return nil
}

func fill(b []byte, v byte) {
	if v == 0 {
		clear(b)
		return
	}
	for i := range b {
		b[i] = v
	}
}
