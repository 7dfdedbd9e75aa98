package runtime

import (
	"encoding/binary"
	"fmt"
)

// ErrNotAllocated is returned for tensor I/O on a tensor with no buffer.
var ErrNotAllocated = fmt.Errorf("tensor has no buffer: %w", ErrInvalidArgument)

func checkRange(what string, t *Tensor, offset, size int) error {
	if t.Buffer == nil {
		return fmt.Errorf("%s %q: %w", what, t.Name, ErrNotAllocated)
	}
	n := t.Nbytes()
	if n < 0 {
		return fmt.Errorf("%s %q: the tensor's span overflows: %w", what, t.Name, ErrOutOfRange)
	}
	if !InRange(offset, size, n) {
		return fmt.Errorf("%s %q: %d bytes at offset %d do not fit the tensor's %d bytes: %w", what, t.Name, size, offset, n, ErrOutOfRange)
	}
	if !InRange(t.Offset, n, t.Buffer.Size()) {
		return fmt.Errorf("%s %q: the tensor's %d bytes at buffer offset %d lie outside its %d-byte buffer: %w", what, t.Name, n, t.Offset, t.Buffer.Size(), ErrOutOfRange)
	}
	return nil
}

// TensorSet writes data into t's memory at byte offset.
func TensorSet(t *Tensor, data []byte, offset int) error {
	if err := checkRange("set tensor", t, offset, len(data)); err != nil {
		return err
	}
	if len(data) == 0 {
		return nil
	}
	return t.Buffer.SetTensor(t, data, offset)
}

// TensorGet reads len(data) bytes of t's memory at byte offset.
func TensorGet(t *Tensor, data []byte, offset int) error {
	if err := checkRange("get tensor", t, offset, len(data)); err != nil {
		return err
	}
	if len(data) == 0 {
		return nil
	}
	return t.Buffer.GetTensor(t, data, offset)
}

// TensorMemset sets size bytes of t's memory at offset to value.
func TensorMemset(t *Tensor, value byte, offset, size int) error {
	if err := checkRange("memset tensor", t, offset, size); err != nil {
		return err
	}
	if size == 0 {
		return nil
	}
	return t.Buffer.MemsetTensor(t, value, offset, size)
}

// TensorSetAsync queues a write on b when it can, else writes synchronously.
func TensorSetAsync(b Backend, t *Tensor, data []byte, offset int) error {
	if err := checkRange("set tensor async", t, offset, len(data)); err != nil {
		return err
	}
	if ab, ok := b.(AsyncBackend); ok && len(data) > 0 {
		return ab.SetTensorAsync(t, data, offset)
	}
	return TensorSet(t, data, offset)
}

// TensorGetAsync queues a read on b when it can; data is valid after b.Synchronize.
func TensorGetAsync(b Backend, t *Tensor, data []byte, offset int) error {
	if err := checkRange("get tensor async", t, offset, len(data)); err != nil {
		return err
	}
	if ab, ok := b.(AsyncBackend); ok && len(data) > 0 {
		return ab.GetTensorAsync(t, data, offset)
	}
	return TensorGet(t, data, offset)
}

// TensorCopy copies src's bytes into dst, across any two buffers: directly
// where one side is host memory or the destination buffer has a path, and
// through a host staging slice otherwise.
func TensorCopy(src, dst *Tensor) error {
	if src.Nbytes() != dst.Nbytes() {
		return fmt.Errorf("copy %q to %q: sizes differ (%d and %d bytes): %w", src.Name, dst.Name, src.Nbytes(), dst.Nbytes(), ErrShape)
	}
	if err := checkRange("copy from", src, 0, src.Nbytes()); err != nil {
		return err
	}
	if err := checkRange("copy to", dst, 0, dst.Nbytes()); err != nil {
		return err
	}
	if src == dst || src.Nbytes() == 0 {
		return nil
	}
	if hb, ok := src.Buffer.(HostBuffer); ok {
		return dst.Buffer.SetTensor(dst, hb.Bytes()[src.Offset:src.Offset+src.Nbytes()], 0)
	}
	if hb, ok := dst.Buffer.(HostBuffer); ok {
		err := src.Buffer.GetTensor(src, hb.Bytes()[dst.Offset:dst.Offset+dst.Nbytes()], 0)
		NoteWritten(dst)
		return err
	}
	done, err := dst.Buffer.CopyTensor(src, dst)
	if err != nil || done {
		return err
	}
	staging := make([]byte, src.Nbytes())
	if err := src.Buffer.GetTensor(src, staging, 0); err != nil {
		return err
	}
	return dst.Buffer.SetTensor(dst, staging, 0)
}

// TensorCopyAsync copies src (owned by from) into dst (owned by to), queued
// on to when it has a direct path; otherwise both sides are synchronized
// and the copy is done synchronously.
func TensorCopyAsync(from, to Backend, src, dst *Tensor) error {
	if src == dst {
		return nil
	}
	if ab, ok := to.(AsyncBackend); ok {
		done, err := ab.CopyTensorAsync(from, src, dst)
		if err != nil || done {
			return err
		}
	}
	if err := from.Synchronize(); err != nil {
		return err
	}
	if err := to.Synchronize(); err != nil {
		return err
	}
	return TensorCopy(src, dst)
}

// InitView places a view tensor in its view source's buffer.
func InitView(t *Tensor) error {
	if t.ViewSrc == nil || t.ViewSrc.Buffer == nil {
		return fmt.Errorf("init view %q: view source: %w", t.Name, ErrNotAllocated)
	}
	t.Buffer = t.ViewSrc.Buffer
	t.Offset = t.ViewSrc.Offset + t.ViewOffs
	return t.Buffer.InitTensor(t)
}

// TensorSetF32 converts values to t's dtype and writes them. t must be
// contiguous and hold exactly len(values) elements.
func TensorSetF32(t *Tensor, values []float32) error {
	if t.Nelements() != len(values) {
		return fmt.Errorf("set %q: %d values for %d elements: %w", t.Name, len(values), t.Nelements(), ErrShape)
	}
	if !t.IsContiguous() {
		return fmt.Errorf("set %q: tensor is not contiguous: %w", t.Name, ErrShape)
	}
	buf := make([]byte, t.Type.RowSize(len(values)))
	if err := QuantizeRow(t.Type, values, buf); err != nil {
		return fmt.Errorf("set %q: %w", t.Name, err)
	}
	return TensorSet(t, buf, 0)
}

// TensorGetF32 reads t (any layout, any dtype) as float32 values in logical order.
func TensorGetF32(t *Tensor) ([]float32, error) {
	raw := make([]byte, t.Nbytes())
	if err := TensorGet(t, raw, 0); err != nil {
		return nil, err
	}
	return DecodeF32(t, raw)
}

// DecodeF32 converts t's raw bytes (laid out by t.Nb, starting at t's first
// byte) to float32 values in logical order.
func DecodeF32(t *Tensor, raw []byte) ([]float32, error) {
	out := make([]float32, t.Nelements())
	rowLen, rb, es := t.Ne[0], t.RowBytes(), t.Type.TypeSize()
	var gather []byte // a packed copy of a strided row
	if !t.IsContiguousRows() {
		gather = make([]byte, rb)
	}
	i := 0
	for i3 := 0; i3 < t.Ne[3]; i3++ {
		for i2 := 0; i2 < t.Ne[2]; i2++ {
			for i1 := 0; i1 < t.Ne[1]; i1++ {
				off := i1*t.Nb[1] + i2*t.Nb[2] + i3*t.Nb[3]
				row := gather
				if row == nil {
					row = raw[off : off+rb]
				} else {
					for i0 := 0; i0 < rowLen; i0++ {
						copy(row[i0*es:(i0+1)*es], raw[off+i0*t.Nb[0]:])
					}
				}
				if err := DequantizeRow(t.Type, row, out[i:i+rowLen]); err != nil {
					return nil, err
				}
				i += rowLen
			}
		}
	}
	return out, nil
}

// TensorSetI32 writes int32 values into a contiguous I32 tensor.
func TensorSetI32(t *Tensor, values []int32) error {
	if t.Type != I32 {
		return fmt.Errorf("set %q: tensor is %v, not i32: %w", t.Name, t.Type, ErrShape)
	}
	if t.Nelements() != len(values) || !t.IsContiguous() {
		return fmt.Errorf("set %q: %d values for %d elements (contiguous required): %w", t.Name, len(values), t.Nelements(), ErrShape)
	}
	buf := make([]byte, 4*len(values))
	for i, v := range values {
		binary.LittleEndian.PutUint32(buf[4*i:], uint32(v))
	}
	return TensorSet(t, buf, 0)
}

// TensorGetI32 reads an I32 tensor (any layout) in logical order, exactly.
func TensorGetI32(t *Tensor) ([]int32, error) {
	if t.Type != I32 {
		return nil, fmt.Errorf("get %q: tensor is %v, not i32: %w", t.Name, t.Type, ErrShape)
	}
	raw := make([]byte, t.Nbytes())
	if err := TensorGet(t, raw, 0); err != nil {
		return nil, err
	}
	out := make([]int32, 0, t.Nelements())
	for i3 := 0; i3 < t.Ne[3]; i3++ {
		for i2 := 0; i2 < t.Ne[2]; i2++ {
			for i1 := 0; i1 < t.Ne[1]; i1++ {
				for i0 := 0; i0 < t.Ne[0]; i0++ {
					off := i0*t.Nb[0] + i1*t.Nb[1] + i2*t.Nb[2] + i3*t.Nb[3]
					out = append(out, int32(binary.LittleEndian.Uint32(raw[off:])))
				}
			}
		}
	}
	return out, nil
}
