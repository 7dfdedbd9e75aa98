package gguf

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/gpurt/gpurt/runtime"
)

// FormatError reports a malformed GGUF image and the byte offset where the
// problem was found.
type FormatError struct {
	Offset int64
	Msg    string
}

func (e *FormatError) Error() string { return fmt.Sprintf("gguf: at byte %d: %s", e.Offset, e.Msg) }

// Unwrap makes every format error match runtime.ErrCorruptFile.
func (e *FormatError) Unwrap() error { return runtime.ErrCorruptFile }

// maxNesting bounds arrays of arrays, so a crafted file cannot recurse deeply.
const maxNesting = 16

// decoder reads little-endian GGUF fields from an in-memory image, checking
// every length against the bytes that remain.
type decoder struct {
	b   []byte
	off int
}

func (d *decoder) errorf(at int, format string, args ...any) error {
	return &FormatError{Offset: int64(at), Msg: fmt.Sprintf(format, args...)}
}

func (d *decoder) remaining() int { return len(d.b) - d.off }

// take returns the next n bytes, or an error naming what was being read.
func (d *decoder) take(n int, what string) ([]byte, error) {
	if n < 0 || n > d.remaining() {
		return nil, d.errorf(d.off, "truncated %s: need %d bytes, %d remain", what, n, d.remaining())
	}
	p := d.b[d.off : d.off+n]
	d.off += n
	return p, nil
}

func (d *decoder) u32(what string) (uint32, error) {
	p, err := d.take(4, what)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint32(p), nil
}

func (d *decoder) u64(what string) (uint64, error) {
	p, err := d.take(8, what)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint64(p), nil
}

// count reads a 64-bit element count and checks that count elements of at
// least minSize bytes each can fit in what remains of the image.
func (d *decoder) count(what string, minSize int) (int, error) {
	at := d.off
	n, err := d.u64(what)
	if err != nil {
		return 0, err
	}
	if minSize < 1 {
		minSize = 1
	}
	if n > uint64(d.remaining()/minSize) {
		return 0, d.errorf(at, "absurd %s %d: only %d bytes remain", what, n, d.remaining())
	}
	return int(n), nil
}

func (d *decoder) str(what string) (string, error) {
	n, err := d.count(what+" length", 1)
	if err != nil {
		return "", err
	}
	p, err := d.take(n, what)
	if err != nil {
		return "", err
	}
	return string(p), nil
}

// value reads a value of type t.
func (d *decoder) value(t ValueType, depth int) (Value, error) {
	at := d.off
	v := Value{typ: t}
	switch t {
	case TypeUint8, TypeInt8, TypeBool, TypeUint16, TypeInt16, TypeUint32, TypeInt32, TypeFloat32, TypeUint64, TypeInt64, TypeFloat64:
		p, err := d.take(t.encodedSize(), t.String()+" value")
		if err != nil {
			return v, err
		}
		x, err := scalar(t, p)
		if err != nil {
			return v, d.errorf(at, "%v", err)
		}
		v.x = x
		return v, nil
	case TypeString:
		s, err := d.str("string value")
		v.x = s
		return v, err
	case TypeArray:
		return d.array(depth)
	}
	return v, d.errorf(at, "unknown value type %d", uint32(t))
}

func scalar(t ValueType, p []byte) (any, error) {
	le := binary.LittleEndian
	switch t {
	case TypeUint8:
		return p[0], nil
	case TypeInt8:
		return int8(p[0]), nil
	case TypeBool:
		if p[0] > 1 {
			return nil, fmt.Errorf("bool value %d is neither 0 nor 1", p[0])
		}
		return p[0] == 1, nil
	case TypeUint16:
		return le.Uint16(p), nil
	case TypeInt16:
		return int16(le.Uint16(p)), nil
	case TypeUint32:
		return le.Uint32(p), nil
	case TypeInt32:
		return int32(le.Uint32(p)), nil
	case TypeFloat32:
		return math.Float32frombits(le.Uint32(p)), nil
	case TypeUint64:
		return le.Uint64(p), nil
	case TypeInt64:
		return int64(le.Uint64(p)), nil
	case TypeFloat64:
		return math.Float64frombits(le.Uint64(p)), nil
	}
	return nil, fmt.Errorf("%v is not a scalar type", t)
}

func (d *decoder) array(depth int) (Value, error) {
	at := d.off
	if depth >= maxNesting {
		return Value{}, d.errorf(at, "arrays nested more than %d deep", maxNesting)
	}
	et, err := d.u32("array element type")
	if err != nil {
		return Value{}, err
	}
	elem := ValueType(et)
	if !elem.Valid() {
		return Value{}, d.errorf(at, "unknown array element type %d", et)
	}
	n, err := d.count("array length", elem.encodedSize())
	if err != nil {
		return Value{}, err
	}
	v := Value{typ: TypeArray, elem: elem}
	switch elem {
	case TypeString:
		s := make([]string, n)
		for i := range s {
			if s[i], err = d.str(fmt.Sprintf("string element %d", i)); err != nil {
				return v, err
			}
		}
		v.x = s
	case TypeArray:
		s := make([]Value, n)
		for i := range s {
			if s[i], err = d.array(depth + 1); err != nil {
				return v, err
			}
		}
		v.x = s
	default:
		size := elem.encodedSize()
		p, err := d.take(n*size, "array data")
		if err != nil {
			return v, err
		}
		if v.x, err = decodeSlice(elem, n, p); err != nil {
			return v, d.errorf(at, "%v", err)
		}
	}
	return v, nil
}

// decodeSlice converts n packed little-endian elements to a typed slice.
func decodeSlice(t ValueType, n int, p []byte) (any, error) {
	le := binary.LittleEndian
	switch t {
	case TypeUint8:
		return append([]uint8(nil), p...), nil
	case TypeInt8:
		s := make([]int8, n)
		for i := range s {
			s[i] = int8(p[i])
		}
		return s, nil
	case TypeBool:
		s := make([]bool, n)
		for i := range s {
			if p[i] > 1 {
				return nil, fmt.Errorf("bool element %d is %d, neither 0 nor 1", i, p[i])
			}
			s[i] = p[i] == 1
		}
		return s, nil
	case TypeUint16:
		s := make([]uint16, n)
		for i := range s {
			s[i] = le.Uint16(p[2*i:])
		}
		return s, nil
	case TypeInt16:
		s := make([]int16, n)
		for i := range s {
			s[i] = int16(le.Uint16(p[2*i:]))
		}
		return s, nil
	case TypeUint32:
		s := make([]uint32, n)
		for i := range s {
			s[i] = le.Uint32(p[4*i:])
		}
		return s, nil
	case TypeInt32:
		s := make([]int32, n)
		for i := range s {
			s[i] = int32(le.Uint32(p[4*i:]))
		}
		return s, nil
	case TypeFloat32:
		s := make([]float32, n)
		for i := range s {
			s[i] = math.Float32frombits(le.Uint32(p[4*i:]))
		}
		return s, nil
	case TypeUint64:
		s := make([]uint64, n)
		for i := range s {
			s[i] = le.Uint64(p[8*i:])
		}
		return s, nil
	case TypeInt64:
		s := make([]int64, n)
		for i := range s {
			s[i] = int64(le.Uint64(p[8*i:]))
		}
		return s, nil
	case TypeFloat64:
		s := make([]float64, n)
		for i := range s {
			s[i] = math.Float64frombits(le.Uint64(p[8*i:]))
		}
		return s, nil
	}
	return nil, fmt.Errorf("%v is not a fixed-size element type", t)
}
