package runtime

import (
	"fmt"
	"math"
)

// DType is a tensor element type. The numeric values are GGML's type ids, so
// a GGUF tensor-info type field converts directly.
type DType int32

const (
	F32  DType = 0
	F16  DType = 1
	Q4_0 DType = 2
	Q8_0 DType = 8
	I32  DType = 26
	BF16 DType = 30
)

// QK is the number of elements in one Q4_0 or Q8_0 block.
const QK = 32

type typeTraits struct {
	name      string
	blockSize int // elements per block
	typeSize  int // bytes per block
	quantized bool
}

var traits = map[DType]typeTraits{
	F32:  {"f32", 1, 4, false},
	F16:  {"f16", 1, 2, false},
	BF16: {"bf16", 1, 2, false},
	Q8_0: {"q8_0", QK, 2 + QK, true},
	Q4_0: {"q4_0", QK, 2 + QK/2, true},
	I32:  {"i32", 1, 4, false},
}

// DTypes lists every supported dtype in a stable order.
var DTypes = []DType{F32, F16, BF16, Q8_0, Q4_0, I32}

// Valid reports whether t is a dtype gpurt supports.
func (t DType) Valid() bool { _, ok := traits[t]; return ok }

func (t DType) String() string {
	if tr, ok := traits[t]; ok {
		return tr.name
	}
	return fmt.Sprintf("dtype(%d)", int32(t))
}

// ParseDType converts a name such as "q8_0" to its dtype.
func ParseDType(name string) (DType, error) {
	for _, t := range DTypes {
		if traits[t].name == name {
			return t, nil
		}
	}
	return 0, fmt.Errorf("unknown dtype %q", name)
}

// BlockSize is the number of elements that share one block (1 for plain types).
func (t DType) BlockSize() int { return traits[t].blockSize }

// TypeSize is the size in bytes of one block.
func (t DType) TypeSize() int { return traits[t].typeSize }

// IsQuantized reports whether t is a block-quantized type.
func (t DType) IsQuantized() bool { return traits[t].quantized }

// IsFloat reports whether t holds (possibly quantized) real numbers.
func (t DType) IsFloat() bool { return t.Valid() && t != I32 }

// RowSize is the number of bytes of a contiguous row of ne elements. ne must
// be a multiple of the block size.
func (t DType) RowSize(ne int) int { return t.TypeSize() * ne / t.BlockSize() }

// F32ToF16 converts to IEEE half precision, rounding to nearest even.
func F32ToF16(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int32(b>>23&0xff) - 127 + 15
	mant := b & 0x7fffff
	switch {
	case b&0x7fffffff > 0x7f800000: // NaN
		return sign | 0x7e00
	case b&0x7fffffff == 0x7f800000: // Inf
		return sign | 0x7c00
	case exp >= 0x1f: // overflow
		return sign | 0x7c00
	case exp <= 0: // subnormal or zero
		if exp < -10 {
			return sign
		}
		mant |= 0x800000
		shift := uint32(14 - exp)
		h := mant >> shift
		rem := mant & (1<<shift - 1)
		half := uint32(1) << (shift - 1)
		if rem > half || (rem == half && h&1 == 1) {
			h++
		}
		return sign | uint16(h)
	}
	h := uint32(exp)<<10 | mant>>13
	rem := mant & 0x1fff
	if rem > 0x1000 || (rem == 0x1000 && h&1 == 1) {
		h++ // may carry into the exponent, which is still correct
	}
	return sign | uint16(h)
}

// F16ToF32 converts an IEEE half to float32 exactly.
func F16ToF32(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1f
	mant := uint32(h) & 0x3ff
	switch {
	case exp == 0x1f:
		return math.Float32frombits(sign | 0x7f800000 | mant<<13)
	case exp == 0:
		if mant == 0 {
			return math.Float32frombits(sign)
		}
		f := float32(mant) / (1 << 24)
		if sign != 0 {
			return -f
		}
		return f
	}
	return math.Float32frombits(sign | (exp+127-15)<<23 | mant<<13)
}

// F32ToBF16 converts to bfloat16, rounding to nearest even (as ggml does).
func F32ToBF16(f float32) uint16 {
	b := math.Float32bits(f)
	if b&0x7fffffff > 0x7f800000 {
		return uint16(b>>16) | 64 // quiet NaN
	}
	return uint16((b + (0x7fff + (b>>16)&1)) >> 16)
}

// BF16ToF32 converts a bfloat16 to float32 exactly.
func BF16ToF32(h uint16) float32 { return math.Float32frombits(uint32(h) << 16) }
