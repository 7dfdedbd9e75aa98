package runtime

import (
	"fmt"
	"math"
	"strings"
)

// DType is a tensor element type. The numeric values are GGML's type ids, so
// a GGUF tensor-info type field converts directly.
type DType int32

const (
	F32     DType = 0
	F16     DType = 1
	Q4_0    DType = 2
	Q4_1    DType = 3
	Q5_0    DType = 6
	Q5_1    DType = 7
	Q8_0    DType = 8
	Q8_1    DType = 9
	Q2_K    DType = 10
	Q3_K    DType = 11
	Q4_K    DType = 12
	Q5_K    DType = 13
	Q6_K    DType = 14
	Q8_K    DType = 15
	IQ2_XXS DType = 16
	IQ2_XS  DType = 17
	IQ3_XXS DType = 18
	IQ1_S   DType = 19
	IQ4_NL  DType = 20
	IQ3_S   DType = 21
	IQ2_S   DType = 22
	IQ4_XS  DType = 23
	I8      DType = 24
	I16     DType = 25
	I32     DType = 26
	I64     DType = 27
	F64     DType = 28
	IQ1_M   DType = 29
	BF16    DType = 30
	TQ1_0   DType = 34
	TQ2_0   DType = 35
	MXFP4   DType = 39
)

// QK is the number of elements in one block of the 32-element types
// (Q4_0, Q8_0, Q4_1, Q5_0, Q5_1, Q8_1, IQ4_NL, MXFP4).
const QK = 32

// QKK is the number of elements in one super-block of the K-quants (and
// IQ4_XS, TQ1_0, TQ2_0).
const QKK = 256

type typeTraits struct {
	name      string
	blockSize int // elements per block
	typeSize  int // bytes per block
	quantized bool
	// runnable marks the types gpurt computes with; the others are known
	// by name and size only, so a file holding them can still be listed.
	runnable bool
}

// traits holds every ggml type id that GGUF files use, with ggml's names,
// block sizes and block byte sizes.
// traitTable is traits by type id, for the lookups every op makes (a map
// access per call was 3% of a small model's token).
var traitTable = func() (tab [64]struct {
	typeTraits
	known bool
}) {
	for t, tr := range traits {
		tab[t].typeTraits, tab[t].known = tr, true
	}
	return tab
}()

// noTraits are the (zero) traits of an id beyond every known one.
var noTraits typeTraits

// lookupTraits returns t's traits and whether t is a known type id.
func lookupTraits(t DType) (*typeTraits, bool) {
	if uint32(t) >= uint32(len(traitTable)) {
		return &noTraits, false
	}
	e := &traitTable[t]
	return &e.typeTraits, e.known
}

var traits = map[DType]typeTraits{
	F32:     {"f32", 1, 4, false, true},
	F16:     {"f16", 1, 2, false, true},
	BF16:    {"bf16", 1, 2, false, true},
	Q8_0:    {"q8_0", QK, 2 + QK, true, true},
	Q4_0:    {"q4_0", QK, 2 + QK/2, true, true},
	I32:     {"i32", 1, 4, false, true},
	Q4_1:    {"q4_1", QK, 4 + QK/2, true, true},
	Q5_0:    {"q5_0", QK, 2 + 4 + QK/2, true, true},
	Q5_1:    {"q5_1", QK, 4 + 4 + QK/2, true, true},
	Q8_1:    {"q8_1", QK, 4 + QK, true, false},
	Q2_K:    {"q2_K", QKK, QKK/16 + QKK/4 + 4, true, true},
	Q3_K:    {"q3_K", QKK, QKK/8 + QKK/4 + 12 + 2, true, true},
	Q4_K:    {"q4_K", QKK, 4 + 12 + QKK/2, true, true},
	Q5_K:    {"q5_K", QKK, 4 + 12 + QKK/8 + QKK/2, true, true},
	Q6_K:    {"q6_K", QKK, QKK/2 + QKK/4 + QKK/16 + 2, true, true},
	Q8_K:    {"q8_K", QKK, 4 + QKK + QKK/16*2, true, false},
	IQ2_XXS: {"iq2_xxs", QKK, 2 + QKK/8*2, true, false},
	IQ2_XS:  {"iq2_xs", QKK, 2 + QKK/8*2 + QKK/32, true, false},
	IQ3_XXS: {"iq3_xxs", QKK, 2 + 3*QKK/8, true, false},
	IQ1_S:   {"iq1_s", QKK, 2 + QKK/8 + QKK/16, true, false},
	IQ4_NL:  {"iq4_nl", QK, 2 + QK/2, true, true},
	IQ3_S:   {"iq3_s", QKK, 2 + QKK/4 + QKK/32 + QKK/8 + QKK/64, true, false},
	IQ2_S:   {"iq2_s", QKK, 2 + QKK/4 + QKK/16, true, false},
	IQ4_XS:  {"iq4_xs", QKK, 2 + 2 + QKK/64 + QKK/2, true, true},
	I8:      {"i8", 1, 1, false, false},
	I16:     {"i16", 1, 2, false, false},
	I64:     {"i64", 1, 8, false, false},
	F64:     {"f64", 1, 8, false, false},
	IQ1_M:   {"iq1_m", QKK, QKK/8 + QKK/16 + QKK/32, true, false},
	TQ1_0:   {"tq1_0", QKK, 2 + (QKK-4*QKK/64)/5 + QKK/64, true, true},
	TQ2_0:   {"tq2_0", QKK, 2 + 64, true, true},
	MXFP4:   {"mxfp4", QK, 1 + QK/2, true, true},
}

// DTypes lists every dtype gpurt computes with, in a stable order: the
// plain floats, every weight type of GGUF files that ggml can quantize
// without an importance matrix, and I32.
//
// Q8_1 and Q8_K are not among them: they are the CPU's activation types
// (what ggml converts F32 activations to before the integer dot products of
// the _1 formats and the K-quants). QuantizeRow, QuantizeRowCPU and
// DequantizeRow convert them, GGUF files holding them can be listed, but no
// tensor of a graph has them (Valid is false), as no ggml model stores them.
var DTypes = []DType{F32, F16, BF16, Q4_0, Q4_1, Q5_0, Q5_1, Q8_0,
	Q2_K, Q3_K, Q4_K, Q5_K, Q6_K, IQ4_NL, IQ4_XS, MXFP4, TQ1_0, TQ2_0, I32}

// WeightDTypes are the quantized types of DTypes, in the same order.
var WeightDTypes = func() []DType {
	var ts []DType
	for _, t := range DTypes {
		if t.IsQuantized() {
			ts = append(ts, t)
		}
	}
	return ts
}()

// KnownDTypes lists every ggml type id gpurt knows by name and size,
// runnable or not, in id order.
var KnownDTypes = func() []DType {
	var ts []DType
	for t := DType(0); t < 64; t++ {
		if _, ok := traits[t]; ok {
			ts = append(ts, t)
		}
	}
	return ts
}()

// Valid reports whether t is a dtype gpurt computes with.
func (t DType) Valid() bool { tr, ok := lookupTraits(t); return ok && tr.runnable }

// Known reports whether t is a ggml type id gpurt knows the name and block
// layout of, even if it cannot compute with it (for listing files).
func (t DType) Known() bool { _, ok := lookupTraits(t); return ok }

func (t DType) String() string {
	if tr, ok := traits[t]; ok {
		return tr.name
	}
	return fmt.Sprintf("dtype(%d)", int32(t))
}

// ParseDType converts a name such as "q8_0" or "Q4_K" (case-insensitive)
// to its dtype; it knows every type of KnownDTypes.
func ParseDType(name string) (DType, error) {
	for _, t := range KnownDTypes {
		if strings.EqualFold(traits[t].name, name) {
			return t, nil
		}
	}
	return 0, fmt.Errorf("unknown dtype %q", name)
}

// BlockSize is the number of elements that share one block (1 for plain types).
func (t DType) BlockSize() int { tr, _ := lookupTraits(t); return tr.blockSize }

// TypeSize is the size in bytes of one block.
func (t DType) TypeSize() int { tr, _ := lookupTraits(t); return tr.typeSize }

// IsQuantized reports whether t is a block-quantized type.
func (t DType) IsQuantized() bool { tr, _ := lookupTraits(t); return tr.quantized }

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
