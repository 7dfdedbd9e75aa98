package runtime

import (
	"fmt"
	"math"
)

// MaxDims is the number of dimensions a tensor can have.
const MaxDims = 4

// MaxSrc is the number of sources an op can have.
const MaxSrc = 4

// MaxParams is the number of 32-bit op parameters a tensor carries.
const MaxParams = 16

// Flag marks a tensor's role in a graph.
type Flag uint8

const (
	FlagInput  Flag = 1 << iota // set by the user before compute
	FlagOutput                  // read by the user after compute; never overwritten
	FlagParam                   // a trainable parameter
)

// Tensor describes an up-to-4-D array and, for op nodes, how it is computed.
// Ne is the number of elements per dimension (innermost first) and Nb the
// stride of each dimension in bytes, as in ggml. For quantized types Nb[0] is
// the block size in bytes and Nb[1] the row size.
type Tensor struct {
	Type   DType
	Ne     [MaxDims]int
	Nb     [MaxDims]int
	Op     Op
	Params [MaxParams]int32
	Src    [MaxSrc]*Tensor

	// ViewSrc is the tensor whose memory this one aliases, at byte ViewOffs.
	ViewSrc  *Tensor
	ViewOffs int

	Flags Flag
	Name  string

	// Buffer holds the tensor's data at byte Offset, once allocated.
	Buffer Buffer
	Offset int

	// Extra is for backends that attach per-tensor state.
	Extra any
}

// Nelements is the total number of elements.
func (t *Tensor) Nelements() int { return t.Ne[0] * t.Ne[1] * t.Ne[2] * t.Ne[3] }

// Nrows is the number of rows (elements beyond dimension 0).
func (t *Tensor) Nrows() int { return t.Ne[1] * t.Ne[2] * t.Ne[3] }

// Nbytes is the span of memory the tensor covers, honouring its strides.
// Constructors refuse tensors whose span overflows an int, so for them it
// is exact; for a hand-made tensor that overflows it is -1.
func (t *Tensor) Nbytes() int {
	n, ok := spanBytes(t.Type, t.Ne, t.Nb)
	if !ok {
		return -1
	}
	return n
}

// spanBytes is the byte span of a tensor of dtype dt, shape ne and strides
// nb, and false when it overflows an int (or a stride is negative).
func spanBytes(dt DType, ne, nb [MaxDims]int) (int, bool) {
	// Dims and strides below 2^28 (every real tensor's) cannot overflow
	// the sum of four products: the checked arithmetic is for the rest.
	const small = 1 << 28
	checked := false
	for i, n := range ne {
		if n <= 0 {
			return 0, true
		}
		checked = checked || n >= small || uint(nb[i]) >= small
	}
	bs := dt.BlockSize()
	if bs <= 0 {
		return 0, false
	}
	if !checked {
		n := dt.TypeSize()
		if bs > 1 {
			n = ne[0] / bs * nb[0]
		} else {
			n += (ne[0] - 1) * nb[0]
		}
		return n + (ne[1]-1)*nb[1] + (ne[2]-1)*nb[2] + (ne[3]-1)*nb[3], true
	}
	var n int
	var ok bool
	if bs == 1 {
		n = dt.TypeSize()
		for i := 0; i < MaxDims; i++ {
			if n, ok = addMul(n, ne[i]-1, nb[i]); !ok {
				return 0, false
			}
		}
		return n, true
	}
	if n, ok = mulInt(ne[0]/bs, nb[0]); !ok {
		return 0, false
	}
	for i := 1; i < MaxDims; i++ {
		if n, ok = addMul(n, ne[i]-1, nb[i]); !ok {
			return 0, false
		}
	}
	return n, true
}

// mulInt is a*b for non-negative a and b, and false on overflow.
func mulInt(a, b int) (int, bool) {
	if a < 0 || b < 0 {
		return 0, false
	}
	if a == 0 || b == 0 {
		return 0, true
	}
	if a > math.MaxInt/b {
		return 0, false
	}
	return a * b, true
}

// addInt is a+b for non-negative a and b, and false on overflow.
func addInt(a, b int) (int, bool) {
	if a < 0 || b < 0 || a > math.MaxInt-b {
		return 0, false
	}
	return a + b, true
}

// addMul is acc + a*b for non-negative operands, and false on overflow.
func addMul(acc, a, b int) (int, bool) {
	p, ok := mulInt(a, b)
	if !ok {
		return 0, false
	}
	return addInt(acc, p)
}

// InRange reports whether [offset, offset+size) lies inside [0, limit),
// without overflowing for any int inputs.
func InRange(offset, size, limit int) bool {
	return offset >= 0 && size >= 0 && offset <= limit && size <= limit-offset
}

// RowBytes is the size of one contiguous row in bytes.
func (t *Tensor) RowBytes() int { return t.Type.RowSize(t.Ne[0]) }

// Dims is the number of dimensions up to the last one larger than 1.
func (t *Tensor) Dims() int {
	for i := MaxDims - 1; i >= 1; i-- {
		if t.Ne[i] > 1 {
			return i + 1
		}
	}
	return 1
}

// IsContiguous reports whether the elements are packed in order with no gaps.
func (t *Tensor) IsContiguous() bool {
	if t.Ne[0] != t.Type.BlockSize() && t.Nb[0] != t.Type.TypeSize() {
		return false
	}
	next := t.RowBytes()
	for i := 1; i < MaxDims; i++ {
		if t.Ne[i] == 1 {
			continue // a dim of 1 may have any stride
		}
		if t.Nb[i] != next {
			return false
		}
		next *= t.Ne[i]
	}
	return true
}

// IsContiguousRows reports whether each row is packed (dimension 0 has unit stride).
func (t *Tensor) IsContiguousRows() bool { return t.Ne[0] == 1 || t.Nb[0] == t.Type.TypeSize() }

// IsTransposed reports whether dimension 0 strides further than dimension 1.
func (t *Tensor) IsTransposed() bool { return t.Nb[0] > t.Nb[1] }

// IsPermuted reports whether the strides are not in increasing order.
func (t *Tensor) IsPermuted() bool {
	return t.Nb[0] > t.Nb[1] || t.Nb[1] > t.Nb[2] || t.Nb[2] > t.Nb[3]
}

// IsEmpty reports whether any dimension is zero.
func (t *Tensor) IsEmpty() bool { return t.Nelements() == 0 }

// IsView reports whether the tensor aliases another's memory.
func (t *Tensor) IsView() bool { return t.ViewSrc != nil }

// SameShape reports whether a and b have equal Ne.
func SameShape(a, b *Tensor) bool { return a.Ne == b.Ne }

// CanRepeat reports whether b can be broadcast (tiled) to a's shape.
func CanRepeat(b, a *Tensor) bool {
	if b.IsEmpty() {
		return a.IsEmpty()
	}
	for i := 0; i < MaxDims; i++ {
		if a.Ne[i]%b.Ne[i] != 0 {
			return false
		}
	}
	return true
}

// ShapeString formats a shape as [a,b,c,d].
func ShapeString(ne [MaxDims]int) string {
	return fmt.Sprintf("[%d,%d,%d,%d]", ne[0], ne[1], ne[2], ne[3])
}

func (t *Tensor) String() string {
	name := t.Name
	if name == "" {
		name = "?"
	}
	return fmt.Sprintf("%s %s %v%s", name, t.Op, t.Type, ShapeString(t.Ne))
}

// SetInput marks t as a graph input, filled by the user.
func (t *Tensor) SetInput() { t.Flags |= FlagInput }

// SetOutput marks t as a graph output, kept after compute.
func (t *Tensor) SetOutput() { t.Flags |= FlagOutput }

// SetParam marks t as a trainable parameter.
func (t *Tensor) SetParam() { t.Flags |= FlagParam }

// SetName names the tensor and returns it, for chaining.
func (t *Tensor) SetName(name string) *Tensor { t.Name = name; return t }

// ParamI returns op parameter i as an int32.
func (t *Tensor) ParamI(i int) int32 { return t.Params[i] }

// ParamF returns op parameter i as a float32.
func (t *Tensor) ParamF(i int) float32 { return math.Float32frombits(uint32(t.Params[i])) }

func (t *Tensor) setParamF(i int, f float32) { t.Params[i] = int32(math.Float32bits(f)) }

// contiguousStrides sets Nb for a packed layout of Ne.
func contiguousStrides(t DType, ne [MaxDims]int) [MaxDims]int {
	var nb [MaxDims]int
	nb[0] = t.TypeSize()
	nb[1] = nb[0] * (ne[0] / t.BlockSize())
	nb[2] = nb[1] * ne[1]
	nb[3] = nb[2] * ne[2]
	return nb
}
