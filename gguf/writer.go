package gguf

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"

	"github.com/gpurt/gpurt/internal/atomicfile"
	"github.com/gpurt/gpurt/runtime"
)

// Writer builds a GGUF v3 file from metadata and tensors. Tensor data is
// referenced, not copied, until WriteTo.
type Writer struct {
	kvs     []KV
	kvIndex map[string]int
	tensors []writerTensor
	tIndex  map[string]bool
}

type writerTensor struct {
	info TensorInfo
	data []byte
	fill func(dst []byte) error // set by AddTensorFunc instead of data
}

// NewWriter returns an empty writer.
func NewWriter() *Writer {
	return &Writer{kvIndex: map[string]int{}, tIndex: map[string]bool{}}
}

// Set adds a metadata key, or replaces its value if already set. value is
// anything ValueOf accepts. general.alignment must be a uint32 power of two.
func (w *Writer) Set(key string, value any) error {
	v, err := ValueOf(value)
	if err != nil {
		return fmt.Errorf("gguf: set %s: %w", key, err)
	}
	if key == KeyAlignment {
		a, ok := v.x.(uint32)
		if !ok || a == 0 || a&(a-1) != 0 {
			return fmt.Errorf("gguf: set %s: want a uint32 power of two, got %s %v", key, v.TypeName(), v)
		}
	}
	if i, ok := w.kvIndex[key]; ok {
		w.kvs[i].Value = v
		return nil
	}
	w.kvIndex[key] = len(w.kvs)
	w.kvs = append(w.kvs, KV{Key: key, Value: v})
	return nil
}

// AddTensor adds a tensor with shape ne (ggml order, innermost first, 1 to 4
// dimensions) whose packed bytes are data.
func (w *Writer) AddTensor(name string, dtype runtime.DType, ne []int, data []byte) error {
	ti, err := w.tensorInfo(name, dtype, ne)
	if err != nil {
		return err
	}
	if int64(len(data)) != ti.Size {
		return fmt.Errorf("gguf: add tensor %q: %d bytes of data, %v %v needs %d", name, len(data), dtype, ne, ti.Size)
	}
	w.tIndex[name] = true
	w.tensors = append(w.tensors, writerTensor{info: ti, data: data})
	return nil
}

// AddTensorFunc adds a tensor whose packed bytes fill writes into dst (of
// the tensor's size) when the file is written, so a large model can be
// streamed to disk one tensor at a time instead of held in memory.
func (w *Writer) AddTensorFunc(name string, dtype runtime.DType, ne []int, fill func(dst []byte) error) error {
	if fill == nil {
		return fmt.Errorf("gguf: add tensor %q: nil fill function: %w", name, runtime.ErrInvalidArgument)
	}
	ti, err := w.tensorInfo(name, dtype, ne)
	if err != nil {
		return err
	}
	w.tIndex[name] = true
	w.tensors = append(w.tensors, writerTensor{info: ti, fill: fill})
	return nil
}

// tensorInfo validates a new tensor's name, type and shape.
func (w *Writer) tensorInfo(name string, dtype runtime.DType, ne []int) (TensorInfo, error) {
	if w.tIndex[name] {
		return TensorInfo{}, fmt.Errorf("gguf: add tensor %q: duplicate name", name)
	}
	if !dtype.Known() {
		return TensorInfo{}, fmt.Errorf("gguf: add tensor %q: unsupported dtype %v: %w", name, dtype, runtime.ErrUnsupported)
	}
	if len(ne) < 1 || len(ne) > runtime.MaxDims {
		return TensorInfo{}, fmt.Errorf("gguf: add tensor %q: %d dimensions, want 1 to %d", name, len(ne), runtime.MaxDims)
	}
	ti := TensorInfo{Name: name, Type: dtype, NDims: len(ne), Ne: [runtime.MaxDims]int{1, 1, 1, 1}}
	for i, n := range ne {
		if n < 0 {
			return TensorInfo{}, fmt.Errorf("gguf: add tensor %q: negative dimension %v", name, ne)
		}
		ti.Ne[i] = n
	}
	if ti.Ne[0]%dtype.BlockSize() != 0 {
		return TensorInfo{}, fmt.Errorf("gguf: add tensor %q: %d elements per row is not a multiple of the %v block size %d", name, ti.Ne[0], dtype, dtype.BlockSize())
	}
	size, ok := tensorSize(dtype, ti.Ne)
	if !ok {
		return TensorInfo{}, fmt.Errorf("gguf: add tensor %q: shape %v overflows", name, ne)
	}
	ti.Size = size
	return ti, nil
}

// AddTensorF32 converts values to dtype (which may be quantized) and adds
// the tensor.
func (w *Writer) AddTensorF32(name string, dtype runtime.DType, ne []int, values []float32) error {
	n := 1
	for _, d := range ne {
		n *= d
	}
	if n != len(values) || n < 0 {
		return fmt.Errorf("gguf: add tensor %q: %d values for shape %v", name, len(values), ne)
	}
	if !runtime.HasCodec(dtype) {
		return fmt.Errorf("gguf: add tensor %q: gpurt cannot quantize to %v: %w", name, dtype, runtime.ErrUnsupported)
	}
	if len(ne) > 0 && ne[0]%dtype.BlockSize() != 0 {
		return fmt.Errorf("gguf: add tensor %q: %d elements per row is not a multiple of the %v block size %d", name, ne[0], dtype, dtype.BlockSize())
	}
	data := make([]byte, dtype.RowSize(n))
	if err := runtime.QuantizeRow(dtype, values, data); err != nil {
		return fmt.Errorf("gguf: add tensor %q: %w", name, err)
	}
	return w.AddTensor(name, dtype, ne, data)
}

func (w *Writer) alignment() int {
	if i, ok := w.kvIndex[KeyAlignment]; ok {
		return int(w.kvs[i].Value.x.(uint32))
	}
	return DefaultAlignment
}

// WriteFile writes the GGUF file to path atomically: into a temporary file
// in the same directory, synced and renamed over path, so an interrupted
// write (a kill, a full disk, a file size limit) leaves the old file intact.
func (w *Writer) WriteFile(path string) error {
	err := atomicfile.Write(path, func(out io.Writer) error {
		_, err := w.WriteTo(out)
		return err
	}, atomicfile.Options{})
	if err != nil {
		return fmt.Errorf("gguf: %w", err)
	}
	return nil
}

// WriteTo writes the GGUF v3 image: header, metadata, tensor infos, then
// each tensor's data padded to the alignment.
func (w *Writer) WriteTo(out io.Writer) (int64, error) {
	e := &encoder{w: bufio.NewWriterSize(out, 1<<20)}
	align := w.alignment()
	e.raw([]byte(Magic))
	e.u32(3)
	e.u64(uint64(len(w.tensors)))
	e.u64(uint64(len(w.kvs)))
	for _, kv := range w.kvs {
		e.str(kv.Key)
		e.u32(uint32(kv.Value.typ))
		e.value(kv.Value)
	}
	var off int64
	for _, t := range w.tensors {
		e.str(t.info.Name)
		e.u32(uint32(t.info.NDims))
		for _, n := range t.info.Ne[:t.info.NDims] {
			e.u64(uint64(n))
		}
		e.u32(uint32(t.info.Type))
		e.u64(uint64(off))
		off += int64(alignUp(int(t.info.Size), align))
	}
	e.pad(align)
	var scratch []byte
	for _, t := range w.tensors {
		data := t.data
		if t.fill != nil && e.err == nil {
			if cap(scratch) < int(t.info.Size) {
				scratch = make([]byte, t.info.Size)
			}
			data = scratch[:t.info.Size]
			if err := t.fill(data); err != nil {
				e.err = fmt.Errorf("gguf: tensor %q: %w", t.info.Name, err)
			}
		}
		e.raw(data)
		e.pad(align)
	}
	if e.err == nil {
		e.err = e.w.Flush()
	}
	return e.n, e.err
}

// encoder writes little-endian fields, remembering the first error.
type encoder struct {
	w   *bufio.Writer
	n   int64
	err error
	buf [8]byte
}

func (e *encoder) raw(p []byte) {
	if e.err != nil {
		return
	}
	n, err := e.w.Write(p)
	e.n += int64(n)
	e.err = err
}

func (e *encoder) pad(align int) {
	if r := int(e.n % int64(align)); r != 0 {
		e.raw(make([]byte, align-r))
	}
}

func (e *encoder) u8(x uint8)   { e.raw([]byte{x}) }
func (e *encoder) u16(x uint16) { binary.LittleEndian.PutUint16(e.buf[:], x); e.raw(e.buf[:2]) }
func (e *encoder) u32(x uint32) { binary.LittleEndian.PutUint32(e.buf[:], x); e.raw(e.buf[:4]) }
func (e *encoder) u64(x uint64) { binary.LittleEndian.PutUint64(e.buf[:], x); e.raw(e.buf[:8]) }
func (e *encoder) str(s string) { e.u64(uint64(len(s))); e.raw([]byte(s)) }

func (e *encoder) value(v Value) {
	switch x := v.x.(type) {
	case uint8:
		e.u8(x)
	case int8:
		e.u8(uint8(x))
	case bool:
		if x {
			e.u8(1)
		} else {
			e.u8(0)
		}
	case uint16:
		e.u16(x)
	case int16:
		e.u16(uint16(x))
	case uint32:
		e.u32(x)
	case int32:
		e.u32(uint32(x))
	case float32:
		e.u32(math.Float32bits(x))
	case uint64:
		e.u64(x)
	case int64:
		e.u64(uint64(x))
	case float64:
		e.u64(math.Float64bits(x))
	case string:
		e.str(x)
	default:
		e.array(v)
	}
}

func (e *encoder) array(v Value) {
	e.u32(uint32(v.elem))
	n := v.Len()
	e.u64(uint64(n))
	for i := 0; i < n; i++ {
		if v.elem == TypeArray {
			e.array(v.x.([]Value)[i])
		} else {
			e.value(v.index(i))
		}
	}
}
