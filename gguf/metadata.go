package gguf

import (
	"errors"
	"fmt"
	"math"
)

// ErrNoKey is wrapped by accessor errors for a key the file does not have.
var ErrNoKey = errors.New("key not found")

// Value returns the value of key.
func (f *File) Value(key string) (Value, bool) {
	i, ok := f.kvIndex[key]
	if !ok {
		return Value{}, false
	}
	return f.KVs[i].Value, true
}

// Has reports whether the file has key.
func (f *File) Has(key string) bool { _, ok := f.kvIndex[key]; return ok }

func (f *File) lookup(key string) (Value, error) {
	v, ok := f.Value(key)
	if !ok {
		return v, fmt.Errorf("gguf: %s: %w", key, ErrNoKey)
	}
	return v, nil
}

func typeError(key string, v Value, want string) error {
	return fmt.Errorf("gguf: %s is a %s, want %s", key, v.TypeName(), want)
}

// String returns a string value.
func (f *File) String(key string) (string, error) {
	v, err := f.lookup(key)
	if err != nil {
		return "", err
	}
	s, ok := v.x.(string)
	if !ok {
		return "", typeError(key, v, "string")
	}
	return s, nil
}

// Bool returns a bool value.
func (f *File) Bool(key string) (bool, error) {
	v, err := f.lookup(key)
	if err != nil {
		return false, err
	}
	b, ok := v.x.(bool)
	if !ok {
		return false, typeError(key, v, "bool")
	}
	return b, nil
}

// Int returns an integer value of any integer type that fits in an int.
func (f *File) Int(key string) (int, error) {
	n, err := f.integer(key)
	if err != nil {
		return 0, err
	}
	if int64(int(n)) != n {
		return 0, fmt.Errorf("gguf: %s value %d does not fit in an int", key, n)
	}
	return int(n), nil
}

// Uint32 returns an integer value of any integer type, if it fits in a uint32.
func (f *File) Uint32(key string) (uint32, error) {
	n, err := f.integer(key)
	if err != nil {
		return 0, err
	}
	if n < 0 || n > math.MaxUint32 {
		return 0, fmt.Errorf("gguf: %s value %d does not fit in a uint32", key, n)
	}
	return uint32(n), nil
}

// Float32 returns a float32 or float64 value as a float32.
func (f *File) Float32(key string) (float32, error) {
	v, err := f.lookup(key)
	if err != nil {
		return 0, err
	}
	switch x := v.x.(type) {
	case float32:
		return x, nil
	case float64:
		return float32(x), nil
	}
	return 0, typeError(key, v, "float32")
}

// StringArray returns a copy of an array of strings.
func (f *File) StringArray(key string) ([]string, error) {
	v, err := f.lookup(key)
	if err != nil {
		return nil, err
	}
	s, ok := v.x.([]string)
	if !ok {
		return nil, typeError(key, v, "array[string]")
	}
	return append([]string(nil), s...), nil
}

// Float32Array returns a copy of an array of float32 (or float64) values.
func (f *File) Float32Array(key string) ([]float32, error) {
	v, err := f.lookup(key)
	if err != nil {
		return nil, err
	}
	switch s := v.x.(type) {
	case []float32:
		return append([]float32(nil), s...), nil
	case []float64:
		out := make([]float32, len(s))
		for i, x := range s {
			out[i] = float32(x)
		}
		return out, nil
	}
	return nil, typeError(key, v, "array[float32]")
}

// Int32Array returns an integer array of any element type as int32 values,
// if every element fits.
func (f *File) Int32Array(key string) ([]int32, error) {
	v, err := f.lookup(key)
	if err != nil {
		return nil, err
	}
	if v.typ != TypeArray || v.elem == TypeArray {
		return nil, typeError(key, v, "array[int32]")
	}
	out := make([]int32, v.Len())
	for i := range out {
		n, ok := asInt64(v.index(i).x)
		if !ok {
			return nil, typeError(key, v, "array[int32]")
		}
		if n < math.MinInt32 || n > math.MaxInt32 {
			return nil, fmt.Errorf("gguf: %s element %d value %d does not fit in an int32", key, i, n)
		}
		out[i] = int32(n)
	}
	return out, nil
}

// integer looks up an integer value of any type as an int64.
func (f *File) integer(key string) (int64, error) {
	v, err := f.lookup(key)
	if err != nil {
		return 0, err
	}
	if u, ok := v.x.(uint64); ok && u > math.MaxInt64 {
		return 0, fmt.Errorf("gguf: %s value %d is out of range", key, u)
	}
	n, ok := asInt64(v.x)
	if !ok {
		return 0, typeError(key, v, "an integer")
	}
	return n, nil
}

// asInt64 converts any integer value; a uint64 above MaxInt64 does not convert.
func asInt64(x any) (int64, bool) {
	switch x := x.(type) {
	case uint8:
		return int64(x), true
	case int8:
		return int64(x), true
	case uint16:
		return int64(x), true
	case int16:
		return int64(x), true
	case uint32:
		return int64(x), true
	case int32:
		return int64(x), true
	case int64:
		return x, true
	case uint64:
		if x > math.MaxInt64 {
			return 0, false
		}
		return int64(x), true
	}
	return 0, false
}
