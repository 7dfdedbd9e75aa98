package cpu

import (
	"encoding/binary"
	"fmt"
	"math"
	"sync"
	"unsafe"

	rt "github.com/gpurt/gpurt/runtime"
)

// hostTensor is a tensor's memory resolved for a kernel: the whole buffer's
// bytes, the byte offset of element 0, and the tensor's shape and strides.
// resolve checks once that every element lies inside mem, so kernels index
// freely.
type hostTensor struct {
	typ rt.DType
	ne  [rt.MaxDims]int
	nb  [rt.MaxDims]int
	mem []byte
	off int
	// span is the bytes from off that the tensor's elements reach.
	span int
	buf  rt.Buffer // where mem comes from
}

// resolve finds t's memory. what names the tensor's role in errors.
func resolve(t *rt.Tensor, what string) (hostTensor, error) {
	var h hostTensor
	err := resolveInto(&h, t, what)
	return h, err
}

// resolveInto is resolve into *h, which computeNode's operands use: they
// are resolved for every op of every step, and a copy of each costs.
func resolveInto(h *hostTensor, t *rt.Tensor, what string) error {
	*h = hostTensor{typ: t.Type, ne: t.Ne, nb: t.Nb, off: t.Offset}
	if t.IsEmpty() {
		return nil // never read or written
	}
	if t.Buffer == nil {
		return fmt.Errorf("%s %q is not allocated", what, t.Name)
	}
	hb, ok := t.Buffer.(rt.HostBuffer)
	if !ok {
		return fmt.Errorf("%s %q lives in a %s buffer, which is not host memory", what, t.Name, t.Buffer.Type().Name())
	}
	h.mem = hb.Bytes()
	h.buf = t.Buffer
	h.span = t.Nbytes()
	for i, s := range t.Nb {
		if s < 0 {
			return fmt.Errorf("%s %q has negative stride nb[%d]=%d", what, t.Name, i, s)
		}
	}
	if t.Type.IsQuantized() && (t.Nb[0] != t.Type.TypeSize() || t.Ne[0]%t.Type.BlockSize() != 0) {
		return fmt.Errorf("%s %q: %v rows must be whole contiguous blocks (ne0=%d nb0=%d)", what, t.Name, t.Type, t.Ne[0], t.Nb[0])
	}
	if h.span < 0 {
		return fmt.Errorf("%s %q spans more bytes than an int holds", what, t.Name)
	}
	if end := t.Offset + h.span; t.Offset < 0 || end > len(h.mem) {
		return fmt.Errorf("%s %q spans bytes [%d,%d) outside its %d-byte buffer", what, t.Name, t.Offset, end, len(h.mem))
	}
	return nil
}

// rows is the number of rows (elements beyond dimension 0).
func (h *hostTensor) rows() int { return h.ne[1] * h.ne[2] * h.ne[3] }

// at is the byte offset of row (i1,i2,i3).
func (h *hostTensor) at(i1, i2, i3 int) int {
	return h.off + i1*h.nb[1] + i2*h.nb[2] + i3*h.nb[3]
}

// rowAt is the byte offset of flat row r, counting i1 fastest.
func (h *hostTensor) rowAt(r int) int {
	i1 := r % h.ne[1]
	r /= h.ne[1]
	return h.at(i1, r%h.ne[2], r/h.ne[2])
}

// coords splits flat row r into (i1,i2,i3).
func (h *hostTensor) coords(r int) (i1, i2, i3 int) {
	i1 = r % h.ne[1]
	r /= h.ne[1]
	return i1, r % h.ne[2], r / h.ne[2]
}

// i32 reads the int32 at byte offset off.
func (h *hostTensor) i32(off int) int32 { return int32(binary.LittleEndian.Uint32(h.mem[off:])) }

// f32 reads the float32 at byte offset off.
func (h *hostTensor) f32(off int) float32 {
	return math.Float32frombits(binary.LittleEndian.Uint32(h.mem[off:]))
}

// putF32 writes v at byte offset off.
func (h *hostTensor) putF32(off int, v float32) {
	binary.LittleEndian.PutUint32(h.mem[off:], math.Float32bits(v))
}

// loadRow reads len(out) elements starting at byte off, stepping nb[0]
// bytes, converted to float32. Quantized rows start on a block boundary.
func (h *hostTensor) loadRow(off int, out []float32) {
	n := len(out)
	if n == 0 {
		return
	}
	m, s := h.mem, h.nb[0]
	switch h.typ {
	case rt.F32:
		if s == 4 {
			if v, ok := f32View(m, off, n); ok {
				copy(out, v)
				return
			}
		}
		for i := range out {
			out[i] = math.Float32frombits(binary.LittleEndian.Uint32(m[off+i*s:]))
		}
	case rt.F16:
		tab := f16Table()
		for i := range out {
			out[i] = tab[binary.LittleEndian.Uint16(m[off+i*s:])]
		}
	case rt.BF16:
		for i := range out {
			out[i] = rt.BF16ToF32(binary.LittleEndian.Uint16(m[off+i*s:]))
		}
	case rt.I32:
		for i := range out {
			out[i] = float32(int32(binary.LittleEndian.Uint32(m[off+i*s:])))
		}
	case rt.Q8_0:
		dequantQ8_0(m[off:off+h.typ.RowSize(n)], out)
	case rt.Q4_0:
		dequantQ4_0(m[off:off+h.typ.RowSize(n)], out)
	default:
		// Every other block type through ggml's to_float; resolve checked
		// that rows are whole blocks inside the buffer, so it cannot fail.
		_ = rt.DequantizeRow(h.typ, m[off:off+h.typ.RowSize(n)], out)
	}
}

// storeRow writes vals as a row starting at byte off, stepping nb[0] bytes.
// F32 to I32 truncates toward zero, as a C cast does.
func (h *hostTensor) storeRow(off int, vals []float32) error {
	n := len(vals)
	if n == 0 {
		return nil
	}
	m, s := h.mem, h.nb[0]
	switch h.typ {
	case rt.F32:
		if s == 4 {
			if v, ok := f32View(m, off, n); ok {
				copy(v, vals)
				return nil
			}
		}
		for i, x := range vals {
			binary.LittleEndian.PutUint32(m[off+i*s:], math.Float32bits(x))
		}
	case rt.F16:
		for i, x := range vals {
			binary.LittleEndian.PutUint16(m[off+i*s:], rt.F32ToF16(x))
		}
	case rt.BF16:
		for i, x := range vals {
			binary.LittleEndian.PutUint16(m[off+i*s:], rt.F32ToBF16(x))
		}
	case rt.I32:
		for i, x := range vals {
			binary.LittleEndian.PutUint32(m[off+i*s:], uint32(int32(x)))
		}
	default:
		if !h.typ.IsQuantized() || !rt.HasCodec(h.typ) {
			return fmt.Errorf("cannot store %v: %w", h.typ, rt.ErrUnsupported)
		}
		// ggml's CPU from_float, as its CPY and SET_ROWS use: for Q8_0 ties
		// round to even, for IQ4_NL there is no scale search.
		return rt.QuantizeRowCPU(h.typ, vals, m[off:off+h.typ.RowSize(n)])
	}
	return nil
}

// f16Table maps every half to its float32 value (256 KiB, built on first
// use): a load is cheaper than the branchy conversion.
var f16Table = sync.OnceValue(func() *[1 << 16]float32 {
	var t [1 << 16]float32
	for i := range t {
		t[i] = rt.F16ToF32(uint16(i))
	}
	return &t
})

// dequantQ8_0 decodes Q8_0 blocks: x = d*q.
func dequantQ8_0(src []byte, out []float32) {
	for b := 0; b < len(out)/rt.QK; b++ {
		blk := src[b*34 : b*34+34]
		d := rt.F16ToF32(binary.LittleEndian.Uint16(blk))
		o := out[b*rt.QK : b*rt.QK+rt.QK]
		for j := range o {
			o[j] = d * float32(int8(blk[2+j]))
		}
	}
}

// dequantQ4_0 decodes Q4_0 blocks: byte j holds element j in its low nibble
// and element j+16 in its high nibble; x = d*(q-8).
func dequantQ4_0(src []byte, out []float32) {
	for b := 0; b < len(out)/rt.QK; b++ {
		blk := src[b*18 : b*18+18]
		d := rt.F16ToF32(binary.LittleEndian.Uint16(blk))
		o := out[b*rt.QK : b*rt.QK+rt.QK]
		for j := 0; j < rt.QK/2; j++ {
			q := blk[2+j]
			o[j] = d * float32(int(q&0x0f)-8)
			o[j+rt.QK/2] = d * float32(int(q>>4)-8)
		}
	}
}

// copyUnits copies n units of sz bytes from src (stride ss) to dst (stride ds).
func copyUnits(dst []byte, doff, ds int, src []byte, soff, ss, n, sz int) {
	if n == 0 {
		return
	}
	if ds == sz && ss == sz {
		copy(dst[doff:doff+n*sz], src[soff:soff+n*sz])
		return
	}
	for i := 0; i < n; i++ {
		copy(dst[doff+i*ds:doff+i*ds+sz], src[soff+i*ss:soff+i*ss+sz])
	}
}

// littleEndian reports whether float32 memory can be viewed in place: tensor
// data is little-endian, as in GGUF.
var littleEndian = func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}()

// f32View returns n float32 values of mem at byte off as a slice aliasing
// the memory, when the address is 4-byte aligned on a little-endian machine.
func f32View(mem []byte, off, n int) ([]float32, bool) {
	if n == 0 || !littleEndian {
		return nil, false
	}
	b := mem[off : off+4*n]
	p := unsafe.Pointer(unsafe.SliceData(b))
	if uintptr(p)%4 != 0 {
		return nil, false
	}
	return unsafe.Slice((*float32)(p), n), true
}
