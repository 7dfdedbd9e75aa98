package runtime

import (
	"errors"
	"fmt"
)

// AlignUp rounds n up to a multiple of align (a power of two or any positive value).
func AlignUp(n, align int) int {
	if align <= 1 {
		return n
	}
	return (n + align - 1) / align * align
}

// AllocTensor places t in buf at byte offset and initializes it there.
func AllocTensor(buf Buffer, t *Tensor, offset int) error {
	if t.Buffer != nil {
		return fmt.Errorf("alloc %q: tensor is already allocated", t.Name)
	}
	if t.ViewSrc != nil {
		return fmt.Errorf("alloc %q: tensor is a view; use InitView", t.Name)
	}
	size := buf.Type().AllocSize(t)
	if !InRange(offset, size, buf.Size()) {
		return fmt.Errorf("alloc %q: %d bytes at offset %d do not fit the %d-byte buffer %s: %w", t.Name, size, offset, buf.Size(), buf.Type().Name(), ErrOutOfRange)
	}
	t.Buffer = buf
	t.Offset = offset
	return buf.InitTensor(t)
}

// TensorAllocator places tensors one after another in a buffer (ggml_tallocr).
type TensorAllocator struct {
	buf    Buffer
	offset int
}

// NewTensorAllocator starts placing tensors at the beginning of buf.
func NewTensorAllocator(buf Buffer) *TensorAllocator { return &TensorAllocator{buf: buf} }

// Alloc places t at the next aligned offset.
func (a *TensorAllocator) Alloc(t *Tensor) error {
	bt := a.buf.Type()
	size := AlignUp(bt.AllocSize(t), bt.Alignment())
	if a.offset+size > a.buf.Size() {
		return fmt.Errorf("alloc %q: not enough space in %s buffer (need %d bytes, %d of %d free): %w", t.Name, bt.Name(), size, a.buf.Size()-a.offset, a.buf.Size(), ErrOutOfMemory)
	}
	if err := AllocTensor(a.buf, t, a.offset); err != nil {
		return err
	}
	a.offset += size
	return nil
}

// AllocContextTensors allocates every unallocated tensor of ctx in buffers of
// type bt, splitting into several buffers (a MultiBuffer) when one would
// exceed bt.MaxSize. Views are placed in their sources' buffers. It returns
// nil and no error when there is nothing to allocate.
func AllocContextTensors(ctx *Context, bt BufferType) (Buffer, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	align, maxSize := bt.Alignment(), bt.MaxSize()
	var groups [][]*Tensor
	var sizes []int
	cur, curSize := []*Tensor(nil), 0
	for _, t := range ctx.Tensors() {
		if t.Buffer != nil || t.ViewSrc != nil {
			continue
		}
		size := AlignUp(bt.AllocSize(t), align)
		if size < 0 || size > maxSize {
			return nil, fmt.Errorf("alloc %q: %d bytes exceed the maximum buffer size %d of %s: %w", t.Name, size, maxSize, bt.Name(), ErrOutOfMemory)
		}
		if curSize+size > maxSize && len(cur) > 0 {
			groups, sizes = append(groups, cur), append(sizes, curSize)
			cur, curSize = nil, 0
		}
		cur = append(cur, t)
		curSize += size
	}
	if len(cur) > 0 {
		groups, sizes = append(groups, cur), append(sizes, curSize)
	}
	if len(groups) == 0 {
		return nil, nil
	}
	var bufs []Buffer
	free := func() {
		for _, b := range bufs {
			b.Free()
		}
	}
	for i, g := range groups {
		buf, err := bt.Alloc(sizes[i])
		if err != nil {
			free()
			return nil, fmt.Errorf("alloc %d bytes of %s: %w", sizes[i], bt.Name(), err)
		}
		bufs = append(bufs, buf)
		ta := NewTensorAllocator(buf)
		for _, t := range g {
			if err := ta.Alloc(t); err != nil {
				free()
				return nil, err
			}
		}
	}
	for _, t := range ctx.Tensors() {
		if t.Buffer == nil && t.ViewSrc != nil && t.ViewSrc.Buffer != nil {
			if err := InitView(t); err != nil {
				free()
				return nil, err
			}
		}
	}
	if len(bufs) == 1 {
		return bufs[0], nil
	}
	return NewMultiBuffer(bufs), nil
}

// MultiBuffer groups several buffers so they can be managed as one, as
// ggml's multi-buffer: usage, clear and free apply to every part. Tensors
// live in the individual parts.
type MultiBuffer struct {
	Parts []Buffer
}

// NewMultiBuffer groups parts, which must share one buffer type.
func NewMultiBuffer(parts []Buffer) *MultiBuffer { return &MultiBuffer{Parts: parts} }

var errMultiTensor = fmt.Errorf("multi-buffer: tensors live in the parts, not the multi-buffer: %w", ErrInvalidArgument)

func (m *MultiBuffer) Type() BufferType { return m.Parts[0].Type() }

// Size is the total size of the parts.
func (m *MultiBuffer) Size() int {
	n := 0
	for _, p := range m.Parts {
		n += p.Size()
	}
	return n
}

func (m *MultiBuffer) InitTensor(*Tensor) error                   { return errMultiTensor }
func (m *MultiBuffer) SetTensor(*Tensor, []byte, int) error       { return errMultiTensor }
func (m *MultiBuffer) GetTensor(*Tensor, []byte, int) error       { return errMultiTensor }
func (m *MultiBuffer) MemsetTensor(*Tensor, byte, int, int) error { return errMultiTensor }
func (m *MultiBuffer) CopyTensor(*Tensor, *Tensor) (bool, error)  { return false, errMultiTensor }
func (m *MultiBuffer) Usage() BufferUsage                         { return m.Parts[0].Usage() }

func (m *MultiBuffer) Clear(v byte) error {
	for _, p := range m.Parts {
		if err := p.Clear(v); err != nil {
			return err
		}
	}
	return nil
}

func (m *MultiBuffer) Reset() {
	for _, p := range m.Parts {
		p.Reset()
	}
}

func (m *MultiBuffer) SetUsage(u BufferUsage) {
	for _, p := range m.Parts {
		p.SetUsage(u)
	}
}

func (m *MultiBuffer) Free() error {
	var errs []error
	for _, p := range m.Parts {
		errs = append(errs, p.Free())
	}
	return errors.Join(errs...)
}
