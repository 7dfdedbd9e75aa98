package gguf

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"math/bits"
	"os"

	"github.com/gpurt/gpurt/runtime"
)

// Magic is the first four bytes of every GGUF file.
const Magic = "GGUF"

// DefaultAlignment applies when general.alignment is absent.
const DefaultAlignment = 32

// KeyAlignment is the metadata key that sets the data alignment.
const KeyAlignment = "general.alignment"

// TensorInfo describes one tensor of a GGUF file.
type TensorInfo struct {
	Name string
	Type runtime.DType
	// Ne is the number of elements per dimension, innermost first (ggml
	// order); dimensions beyond NDims are 1.
	Ne    [runtime.MaxDims]int
	NDims int
	// Offset is the tensor's byte offset within the data section and Size
	// its length in bytes; Size is -1 for a type id gpurt does not know,
	// whose block layout (and so size) is unknown.
	Offset int64
	Size   int64
}

// Runnable returns nil if gpurt computes with the tensor's type, and
// otherwise an error naming the tensor and its type that wraps
// runtime.ErrUnsupported. A file holding such tensors still opens and lists.
func (ti *TensorInfo) Runnable() error {
	if ti.Type.Valid() {
		return nil
	}
	return &UnrunnableError{Tensor: ti.Name, Type: ti.Type}
}

// UnrunnableError names a tensor whose type gpurt knows only by name and
// size, or not at all. It wraps runtime.ErrUnsupported.
type UnrunnableError struct {
	Tensor string
	Type   runtime.DType
}

func (e *UnrunnableError) Error() string {
	return fmt.Sprintf("%s is %v, which gpurt cannot run yet", e.Tensor, e.Type)
}

func (e *UnrunnableError) Unwrap() error { return runtime.ErrUnsupported }

// Nelements is the tensor's element count.
func (ti *TensorInfo) Nelements() int { return ti.Ne[0] * ti.Ne[1] * ti.Ne[2] * ti.Ne[3] }

// Shape returns the first NDims dimensions.
func (ti *TensorInfo) Shape() []int { return append([]int(nil), ti.Ne[:ti.NDims]...) }

// File is a parsed GGUF image. Metadata and tensor infos live on the Go heap;
// tensor data stays in the image (a memory map for Open) and is valid until
// Close.
type File struct {
	Version    uint32
	KVs        []KV // in file order
	Tensors    []TensorInfo
	Alignment  int
	DataOffset int64 // start of the data section in the image

	data    []byte
	kvIndex map[string]int
	tIndex  map[string]int
	unmap   func() error
}

// Open memory-maps the GGUF file at path and parses its header.
func Open(path string) (*File, error) {
	// Opening a FIFO or a device would block or read forever.
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("gguf: %w", err)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("gguf: open %s: not a regular file (%v): %w", path, st.Mode().Type(), runtime.ErrInvalidArgument)
	}
	data, unmap, err := mapFile(path)
	if err != nil {
		var pathErr *fs.PathError
		if errors.As(err, &pathErr) { // it names the file already
			return nil, fmt.Errorf("gguf: %w", err)
		}
		return nil, fmt.Errorf("gguf: open %s: %w", path, err)
	}
	f, err := Parse(data)
	if err != nil {
		unmap()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	f.unmap = unmap
	return f, nil
}

// Close releases the file's memory map. Slices returned by TensorData must
// not be used afterwards. Closing a File made by Parse does nothing.
func (f *File) Close() error {
	f.data = nil
	if f.unmap == nil {
		return nil
	}
	u := f.unmap
	f.unmap = nil
	return u()
}

// Parse reads a GGUF v2 or v3 image held in memory. Tensor data is not
// copied: TensorData returns views into data.
func Parse(data []byte) (*File, error) {
	d := &decoder{b: data}
	magic, err := d.take(4, "magic")
	if err != nil {
		return nil, err
	}
	if string(magic) != Magic {
		return nil, d.errorf(0, "bad magic %q, want %q", magic, Magic)
	}
	f := &File{data: data, Alignment: DefaultAlignment, kvIndex: map[string]int{}, tIndex: map[string]int{}}
	if f.Version, err = d.u32("version"); err != nil {
		return nil, err
	}
	switch {
	case f.Version == 2 || f.Version == 3:
	case f.Version == 1:
		return nil, d.errorf(4, "GGUF version 1 is not supported (only 2 and 3)")
	case bits.ReverseBytes32(f.Version) <= 3:
		return nil, d.errorf(4, "bad version %#x: a big-endian GGUF file is not supported", f.Version)
	default:
		return nil, d.errorf(4, "bad version %d, want 2 or 3", f.Version)
	}
	// The smallest tensor info is a name length, n_dims, type and offset;
	// the smallest KV a key length, a type and one byte.
	nTensors, err := d.count("tensor count", 8+4+4+8)
	if err != nil {
		return nil, err
	}
	nKV, err := d.count("metadata KV count", 8+4+1)
	if err != nil {
		return nil, err
	}
	if err := f.readKVs(d, nKV); err != nil {
		return nil, err
	}
	if err := f.readTensorInfos(d, nTensors); err != nil {
		return nil, err
	}
	f.DataOffset = int64(alignUp(d.off, f.Alignment))
	if err := f.checkTensorBounds(); err != nil {
		return nil, err
	}
	return f, nil
}

func (f *File) readKVs(d *decoder, n int) error {
	f.KVs = make([]KV, 0, n)
	for i := 0; i < n; i++ {
		at := d.off
		key, err := d.str(fmt.Sprintf("key of KV %d", i))
		if err != nil {
			return err
		}
		if _, dup := f.kvIndex[key]; dup {
			return d.errorf(at, "duplicate key %q", key)
		}
		tat := d.off
		t, err := d.u32(fmt.Sprintf("type of key %q", key))
		if err != nil {
			return err
		}
		if !ValueType(t).Valid() {
			return d.errorf(tat, "key %q has unknown value type %d", key, t)
		}
		v, err := d.value(ValueType(t), 0)
		if err != nil {
			return fmt.Errorf("key %q: %w", key, err)
		}
		if key == KeyAlignment {
			a, ok := v.x.(uint32)
			if !ok {
				return d.errorf(at, "%s is a %s, want uint32", key, v.TypeName())
			}
			if a == 0 || a&(a-1) != 0 {
				return d.errorf(at, "%s %d is not a power of two", key, a)
			}
			f.Alignment = int(a)
		}
		f.kvIndex[key] = len(f.KVs)
		f.KVs = append(f.KVs, KV{Key: key, Value: v})
	}
	return nil
}

func (f *File) readTensorInfos(d *decoder, n int) error {
	f.Tensors = make([]TensorInfo, 0, n)
	for i := 0; i < n; i++ {
		at := d.off
		name, err := d.str(fmt.Sprintf("name of tensor %d", i))
		if err != nil {
			return err
		}
		if _, dup := f.tIndex[name]; dup {
			return d.errorf(at, "duplicate tensor name %q", name)
		}
		ti := TensorInfo{Name: name, Ne: [runtime.MaxDims]int{1, 1, 1, 1}}
		nat := d.off
		nd, err := d.u32(fmt.Sprintf("n_dims of tensor %q", name))
		if err != nil {
			return err
		}
		if nd > runtime.MaxDims {
			return d.errorf(nat, "tensor %q has %d dimensions, at most %d are supported", name, nd, runtime.MaxDims)
		}
		ti.NDims = int(nd)
		for j := 0; j < ti.NDims; j++ {
			dat := d.off
			ne, err := d.u64(fmt.Sprintf("dimension %d of tensor %q", j, name))
			if err != nil {
				return err
			}
			if ne > math.MaxInt64 {
				return d.errorf(dat, "tensor %q dimension %d is negative (%d)", name, j, int64(ne))
			}
			ti.Ne[j] = int(ne)
		}
		tat := d.off
		t, err := d.u32(fmt.Sprintf("type of tensor %q", name))
		if err != nil {
			return err
		}
		if t > math.MaxInt32 {
			return d.errorf(tat, "tensor %q has type id %d, beyond any ggml type", name, t)
		}
		ti.Type = runtime.DType(t)
		ti.Size = -1 // an unknown type id: listed, never loaded
		if ti.Type.Known() {
			if bs := ti.Type.BlockSize(); ti.Ne[0]%bs != 0 {
				return d.errorf(at, "tensor %q: %d elements per row is not a multiple of the %v block size %d", name, ti.Ne[0], ti.Type, bs)
			}
			size, ok := tensorSize(ti.Type, ti.Ne)
			if !ok {
				return d.errorf(at, "tensor %q: shape %v overflows", name, ti.Ne[:ti.NDims])
			}
			ti.Size = size
		}
		oat := d.off
		off, err := d.u64(fmt.Sprintf("offset of tensor %q", name))
		if err != nil {
			return err
		}
		if off > math.MaxInt64 {
			return d.errorf(oat, "tensor %q has offset %d beyond any file", name, off)
		}
		ti.Offset = int64(off)
		f.tIndex[name] = len(f.Tensors)
		f.Tensors = append(f.Tensors, ti)
	}
	return nil
}

// tensorSize is the byte size of a packed tensor, and false on overflow.
func tensorSize(t runtime.DType, ne [runtime.MaxDims]int) (int64, bool) {
	size := uint64(ne[0] / t.BlockSize())
	for _, n := range []uint64{uint64(t.TypeSize()), uint64(ne[1]), uint64(ne[2]), uint64(ne[3])} {
		hi, lo := bits.Mul64(size, n)
		if hi != 0 || lo > math.MaxInt64 {
			return 0, false
		}
		size = lo
	}
	return int64(size), true
}

// checkTensorBounds verifies every tensor is aligned and lies inside the image.
func (f *File) checkTensorBounds() error {
	for i := range f.Tensors {
		ti := &f.Tensors[i]
		// The tensor's absolute position, which overflows for a crafted
		// offset: report the start of the data section then.
		at := f.DataOffset
		if ti.Offset <= math.MaxInt64-f.DataOffset {
			at += ti.Offset
		}
		if ti.Offset%int64(f.Alignment) != 0 {
			return &FormatError{Offset: at, Msg: fmt.Sprintf("tensor %q offset %d is not a multiple of the alignment %d", ti.Name, ti.Offset, f.Alignment)}
		}
		avail := int64(len(f.data)) - f.DataOffset
		if ti.Offset > avail || ti.Size > avail-ti.Offset { // Size -1 (unknown) checks the offset alone
			return &FormatError{Offset: at, Msg: fmt.Sprintf("tensor %q data (%d bytes at offset %d of the data section) runs past the end of the file (%d bytes)", ti.Name, ti.Size, ti.Offset, len(f.data))}
		}
	}
	return nil
}

func alignUp(n, a int) int { return (n + a - 1) / a * a }

// Tensor returns the info of the named tensor.
func (f *File) Tensor(name string) (*TensorInfo, bool) {
	i, ok := f.tIndex[name]
	if !ok {
		return nil, false
	}
	return &f.Tensors[i], true
}

// TensorData returns the named tensor's bytes as a view into the image. The
// slice is read-only (writing to a mapped file faults) and valid until Close.
func (f *File) TensorData(name string) ([]byte, error) {
	ti, ok := f.Tensor(name)
	if !ok {
		return nil, fmt.Errorf("gguf: no tensor %q", name)
	}
	if f.data == nil {
		return nil, fmt.Errorf("gguf: tensor %q: file is closed: %w", name, runtime.ErrClosed)
	}
	if ti.Size < 0 {
		return nil, fmt.Errorf("gguf: %w", ti.Runnable())
	}
	start := f.DataOffset + ti.Offset
	return f.data[start : start+ti.Size : start+ti.Size], nil
}

// TensorF32 decodes the named tensor (any supported dtype) to float32 values
// in ggml element order.
func (f *File) TensorF32(name string) ([]float32, error) {
	raw, err := f.TensorData(name)
	if err != nil {
		return nil, err
	}
	ti, _ := f.Tensor(name)
	if !runtime.HasCodec(ti.Type) {
		return nil, fmt.Errorf("gguf: %w", ti.Runnable())
	}
	out := make([]float32, ti.Nelements())
	if err := runtime.DequantizeRow(ti.Type, raw, out); err != nil {
		return nil, fmt.Errorf("gguf: tensor %q: %w", name, err)
	}
	return out, nil
}

// Size is the length of the underlying image in bytes.
func (f *File) Size() int64 { return int64(len(f.data)) }

// readWholeFile is the portable fallback where memory maps are unavailable.
func readWholeFile(path string) ([]byte, func() error, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	return b, func() error { return nil }, nil
}

// PrefaultTensor maps the pages of the named tensor's data into the
// process now, where the file is memory-mapped, so that the first read of
// each page does not fault later, in the middle of a computation. Page
// faults are slow on virtual machines (40-250 µs each were measured), and
// a model's weights are read a page at a time: llama.cpp maps its files
// with MAP_POPULATE for the same reason. It only advises the kernel, so
// it never fails.
func (f *File) PrefaultTensor(name string) {
	ti, ok := f.Tensor(name)
	if !ok || f.data == nil || f.unmap == nil || ti.Size <= 0 {
		return
	}
	start := f.DataOffset + ti.Offset
	page := int64(os.Getpagesize())
	lo := start / page * page
	prefault(f.data[lo : start+ti.Size])
}
