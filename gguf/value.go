// Package gguf reads and writes GGUF files, the model format of ggml and
// llama.cpp: a header of typed key/value metadata, a table of tensor infos,
// and an aligned data section holding the tensors' bytes.
//
// Open memory-maps a file and exposes each tensor's bytes as a view into the
// map; Parse reads a GGUF image that is already in memory. Writer builds a
// GGUF v3 file.
package gguf

import (
	"fmt"
	"strings"
)

// ValueType is a GGUF metadata value type id.
type ValueType uint32

const (
	TypeUint8   ValueType = 0
	TypeInt8    ValueType = 1
	TypeUint16  ValueType = 2
	TypeInt16   ValueType = 3
	TypeUint32  ValueType = 4
	TypeInt32   ValueType = 5
	TypeFloat32 ValueType = 6
	TypeBool    ValueType = 7
	TypeString  ValueType = 8
	TypeArray   ValueType = 9
	TypeUint64  ValueType = 10
	TypeInt64   ValueType = 11
	TypeFloat64 ValueType = 12
)

var typeNames = [...]string{"uint8", "int8", "uint16", "int16", "uint32", "int32", "float32", "bool", "string", "array", "uint64", "int64", "float64"}

func (t ValueType) String() string {
	if int(t) < len(typeNames) {
		return typeNames[t]
	}
	return fmt.Sprintf("type(%d)", uint32(t))
}

// Valid reports whether t is a known value type.
func (t ValueType) Valid() bool { return int(t) < len(typeNames) }

// encodedSize is the size in bytes of a fixed-size value, or the smallest
// possible encoding of a variable-size one (a string's length, an array's
// type and length). Counts read from a file are checked against it so that
// a corrupt count can never make the reader allocate more than the file holds.
func (t ValueType) encodedSize() int {
	switch t {
	case TypeUint8, TypeInt8, TypeBool:
		return 1
	case TypeUint16, TypeInt16:
		return 2
	case TypeUint32, TypeInt32, TypeFloat32:
		return 4
	case TypeUint64, TypeInt64, TypeFloat64, TypeString:
		return 8
	case TypeArray:
		return 12
	}
	return 0
}

// Value is one metadata value. Scalars hold the Go value of their type
// (uint8 ... float64, bool, string). An array holds a typed slice of its
// element type ([]uint8 ... []float64, []bool, []string), or []Value for an
// array of arrays.
type Value struct {
	typ  ValueType
	elem ValueType // element type, for arrays
	x    any
}

// KV is one metadata key/value pair.
type KV struct {
	Key   string
	Value Value
}

// Type is the value's type.
func (v Value) Type() ValueType { return v.typ }

// ElemType is the element type of an array value.
func (v Value) ElemType() ValueType { return v.elem }

// Interface returns the value as a Go value: a scalar, a typed slice, or
// []Value for an array of arrays. Slices are shared, not copied.
func (v Value) Interface() any { return v.x }

// Len is the number of elements of an array value, and 0 for a scalar.
func (v Value) Len() int {
	if v.typ != TypeArray {
		return 0
	}
	switch s := v.x.(type) {
	case []uint8:
		return len(s)
	case []int8:
		return len(s)
	case []uint16:
		return len(s)
	case []int16:
		return len(s)
	case []uint32:
		return len(s)
	case []int32:
		return len(s)
	case []float32:
		return len(s)
	case []bool:
		return len(s)
	case []string:
		return len(s)
	case []uint64:
		return len(s)
	case []int64:
		return len(s)
	case []float64:
		return len(s)
	case []Value:
		return len(s)
	}
	return 0
}

// TypeName describes the type for messages, e.g. "array[string]".
func (v Value) TypeName() string {
	if v.typ == TypeArray {
		return "array[" + v.elem.String() + "]"
	}
	return v.typ.String()
}

// String formats the value briefly; long arrays are elided.
func (v Value) String() string {
	if v.typ != TypeArray {
		if s, ok := v.x.(string); ok {
			return fmt.Sprintf("%q", s)
		}
		return fmt.Sprint(v.x)
	}
	const show = 8
	n := v.Len()
	parts := make([]string, 0, min(n, show)+1)
	for i := 0; i < n && i < show; i++ {
		parts = append(parts, v.index(i).String())
	}
	if n > show {
		parts = append(parts, fmt.Sprintf("... (%d elements)", n))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// index returns element i of an array as a Value.
func (v Value) index(i int) Value {
	e := Value{typ: v.elem}
	switch s := v.x.(type) {
	case []uint8:
		e.x = s[i]
	case []int8:
		e.x = s[i]
	case []uint16:
		e.x = s[i]
	case []int16:
		e.x = s[i]
	case []uint32:
		e.x = s[i]
	case []int32:
		e.x = s[i]
	case []float32:
		e.x = s[i]
	case []bool:
		e.x = s[i]
	case []string:
		e.x = s[i]
	case []uint64:
		e.x = s[i]
	case []int64:
		e.x = s[i]
	case []float64:
		e.x = s[i]
	case []Value:
		return s[i]
	}
	return e
}

// ValueOf wraps a Go value as a metadata value. It accepts a Value, the
// sized scalar types (uint8 ... int64, float32, float64), bool, string,
// slices of those, and []Value of arrays for an array of arrays. Go's int
// and uint are rejected because GGUF has no type of their size.
func ValueOf(x any) (Value, error) {
	switch x := x.(type) {
	case Value:
		return x, x.check()
	case uint8:
		return Value{typ: TypeUint8, x: x}, nil
	case int8:
		return Value{typ: TypeInt8, x: x}, nil
	case uint16:
		return Value{typ: TypeUint16, x: x}, nil
	case int16:
		return Value{typ: TypeInt16, x: x}, nil
	case uint32:
		return Value{typ: TypeUint32, x: x}, nil
	case int32:
		return Value{typ: TypeInt32, x: x}, nil
	case float32:
		return Value{typ: TypeFloat32, x: x}, nil
	case bool:
		return Value{typ: TypeBool, x: x}, nil
	case string:
		return Value{typ: TypeString, x: x}, nil
	case uint64:
		return Value{typ: TypeUint64, x: x}, nil
	case int64:
		return Value{typ: TypeInt64, x: x}, nil
	case float64:
		return Value{typ: TypeFloat64, x: x}, nil
	case []uint8:
		return Value{typ: TypeArray, elem: TypeUint8, x: x}, nil
	case []int8:
		return Value{typ: TypeArray, elem: TypeInt8, x: x}, nil
	case []uint16:
		return Value{typ: TypeArray, elem: TypeUint16, x: x}, nil
	case []int16:
		return Value{typ: TypeArray, elem: TypeInt16, x: x}, nil
	case []uint32:
		return Value{typ: TypeArray, elem: TypeUint32, x: x}, nil
	case []int32:
		return Value{typ: TypeArray, elem: TypeInt32, x: x}, nil
	case []float32:
		return Value{typ: TypeArray, elem: TypeFloat32, x: x}, nil
	case []bool:
		return Value{typ: TypeArray, elem: TypeBool, x: x}, nil
	case []string:
		return Value{typ: TypeArray, elem: TypeString, x: x}, nil
	case []uint64:
		return Value{typ: TypeArray, elem: TypeUint64, x: x}, nil
	case []int64:
		return Value{typ: TypeArray, elem: TypeInt64, x: x}, nil
	case []float64:
		return Value{typ: TypeArray, elem: TypeFloat64, x: x}, nil
	case []Value:
		v := Value{typ: TypeArray, elem: TypeArray, x: x}
		return v, v.check()
	}
	return Value{}, fmt.Errorf("gguf: no metadata type for Go type %T", x)
}

// check verifies that an array of arrays holds only arrays, recursively, so
// the writer never meets a value it cannot encode.
func (v Value) check() error {
	if !v.typ.Valid() || v.x == nil {
		return fmt.Errorf("gguf: invalid metadata value")
	}
	if v.typ != TypeArray || v.elem != TypeArray {
		return nil
	}
	for i, e := range v.x.([]Value) {
		if e.typ != TypeArray {
			return fmt.Errorf("gguf: element %d of an array of arrays is a %s", i, e.TypeName())
		}
		if err := e.check(); err != nil {
			return err
		}
	}
	return nil
}
