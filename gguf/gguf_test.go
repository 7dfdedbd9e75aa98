package gguf

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gpurt/gpurt/runtime"
)

// sampleKVs has one key of every scalar type, every array element type, and
// nested arrays.
func sampleKVs() []KV {
	inner1, _ := ValueOf([]int32{1, -2, 3})
	inner2, _ := ValueOf([]string{"x", ""})
	deep, _ := ValueOf([]Value{inner1})
	vals := []struct {
		k string
		v any
	}{
		{"t.u8", uint8(200)},
		{"t.i8", int8(-100)},
		{"t.u16", uint16(60000)},
		{"t.i16", int16(-30000)},
		{"t.u32", uint32(4000000000)},
		{"t.i32", int32(-2000000000)},
		{"t.f32", float32(1.5)},
		{"t.bool", true},
		{"t.false", false},
		{"t.str", "héllo ▁world"},
		{"t.empty", ""},
		{"t.u64", uint64(math.MaxUint64)},
		{"t.i64", int64(math.MinInt64)},
		{"t.f64", math.Pi},
		{"a.u8", []uint8{0, 1, 255}},
		{"a.i8", []int8{-128, 0, 127}},
		{"a.u16", []uint16{1, 65535}},
		{"a.i16", []int16{-32768, 32767}},
		{"a.u32", []uint32{7, math.MaxUint32}},
		{"a.i32", []int32{-1, 0, 1}},
		{"a.f32", []float32{-0.25, float32(math.Inf(1))}},
		{"a.bool", []bool{true, false, true}},
		{"a.str", []string{"<s>", "▁the", ""}},
		{"a.u64", []uint64{1 << 40}},
		{"a.i64", []int64{-1 << 40}},
		{"a.f64", []float64{2.5e300}},
		{"a.empty", []float32{}},
		{"a.nested", []Value{inner1, inner2}},
		{"a.deep", []Value{deep, deep}},
		{KeyAlignment, uint32(64)},
	}
	kvs := make([]KV, len(vals))
	for i, kv := range vals {
		v, err := ValueOf(kv.v)
		if err != nil {
			panic(err)
		}
		kvs[i] = KV{kv.k, v}
	}
	return kvs
}

type sampleTensor struct {
	name string
	typ  runtime.DType
	ne   []int
}

var sampleTensors = []sampleTensor{
	{"w.f32", runtime.F32, []int{3, 2}},
	{"w.f16", runtime.F16, []int{5}},
	{"w.q8", runtime.Q8_0, []int{64, 2}},
	{"w.q4", runtime.Q4_0, []int{32, 1, 2, 1}},
	{"w.bf16", runtime.BF16, []int{2, 2, 2}},
	{"w.i32", runtime.I32, []int{4}},
	{"w.empty", runtime.F32, []int{0, 3}},
}

func sampleValues(n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(i%7) - 2.5
	}
	return v
}

// buildSample writes a file with sampleKVs and sampleTensors.
func buildSample(t testing.TB) []byte {
	t.Helper()
	w := NewWriter()
	for _, kv := range sampleKVs() {
		if err := w.Set(kv.Key, kv.Value); err != nil {
			t.Fatal(err)
		}
	}
	for _, st := range sampleTensors {
		n := 1
		for _, d := range st.ne {
			n *= d
		}
		if err := w.AddTensorF32(st.name, st.typ, st.ne, sampleValues(n)); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	n, err := w.WriteTo(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if n != int64(buf.Len()) {
		t.Fatalf("WriteTo reported %d bytes, wrote %d", n, buf.Len())
	}
	return buf.Bytes()
}

func TestRoundTripMetadata(t *testing.T) {
	f, err := Parse(buildSample(t))
	if err != nil {
		t.Fatal(err)
	}
	if f.Version != 3 {
		t.Errorf("version %d, want 3", f.Version)
	}
	want := sampleKVs()
	if len(f.KVs) != len(want) {
		t.Fatalf("%d KVs, want %d", len(f.KVs), len(want))
	}
	for i, kv := range want {
		got := f.KVs[i]
		if got.Key != kv.Key {
			t.Errorf("KV %d key %q, want %q", i, got.Key, kv.Key)
		}
		if !reflect.DeepEqual(got.Value, kv.Value) {
			t.Errorf("%s = %s %v, want %s %v", kv.Key, got.Value.TypeName(), got.Value, kv.Value.TypeName(), kv.Value)
		}
	}
	if f.Alignment != 64 {
		t.Errorf("alignment %d, want 64", f.Alignment)
	}
	if f.DataOffset%64 != 0 {
		t.Errorf("data offset %d is not 64-aligned", f.DataOffset)
	}
}

func TestRoundTripTensors(t *testing.T) {
	f, err := Parse(buildSample(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Tensors) != len(sampleTensors) {
		t.Fatalf("%d tensors, want %d", len(f.Tensors), len(sampleTensors))
	}
	for i, st := range sampleTensors {
		ti := f.Tensors[i]
		if ti.Name != st.name || ti.Type != st.typ || !reflect.DeepEqual(ti.Shape(), st.ne) {
			t.Errorf("tensor %d: %s %v %v, want %s %v %v", i, ti.Name, ti.Type, ti.Shape(), st.name, st.typ, st.ne)
		}
		if ti.Offset%64 != 0 {
			t.Errorf("%s offset %d not aligned", ti.Name, ti.Offset)
		}
		got, err := f.TensorF32(st.name)
		if err != nil {
			t.Fatal(err)
		}
		// Round the sample through the dtype to get the exact expected values.
		src := sampleValues(ti.Nelements())
		raw := make([]byte, st.typ.RowSize(len(src)))
		if err := runtime.QuantizeRow(st.typ, src, raw); err != nil {
			t.Fatal(err)
		}
		data, _ := f.TensorData(st.name)
		if !bytes.Equal(data, raw) {
			t.Errorf("%s: data differs from the written bytes", st.name)
		}
		want := make([]float32, len(src))
		if err := runtime.DequantizeRow(st.typ, raw, want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: values %v, want %v", st.name, got, want)
		}
	}
}

func TestAccessors(t *testing.T) {
	f, err := Parse(buildSample(t))
	if err != nil {
		t.Fatal(err)
	}
	check := func(name string, got, want any, err error) {
		t.Helper()
		if err != nil {
			t.Errorf("%s: %v", name, err)
		} else if !reflect.DeepEqual(got, want) {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	s, err := f.String("t.str")
	check("String", s, "héllo ▁world", err)
	b, err := f.Bool("t.bool")
	check("Bool", b, true, err)
	u, err := f.Uint32("t.u16")
	check("Uint32(u16)", u, uint32(60000), err)
	n, err := f.Int("t.i32")
	check("Int(i32)", n, -2000000000, err)
	n, err = f.Int("t.i64")
	check("Int(i64)", n, math.MinInt64, err)
	x, err := f.Float32("t.f64")
	check("Float32(f64)", x, float32(math.Pi), err)
	sa, err := f.StringArray("a.str")
	check("StringArray", sa, []string{"<s>", "▁the", ""}, err)
	fa, err := f.Float32Array("a.f32")
	check("Float32Array", fa, []float32{-0.25, float32(math.Inf(1))}, err)
	ia, err := f.Int32Array("a.i8")
	check("Int32Array(i8)", ia, []int32{-128, 0, 127}, err)

	errCases := []struct {
		name string
		call func() error
		want string
	}{
		{"missing", func() error { _, err := f.String("nope"); return err }, "nope: key not found"},
		{"String of u8", func() error { _, err := f.String("t.u8"); return err }, "t.u8 is a uint8, want string"},
		{"Uint32 negative", func() error { _, err := f.Uint32("t.i8"); return err }, "t.i8 value -100 does not fit in a uint32"},
		{"Uint32 too big", func() error { _, err := f.Uint32("t.u64"); return err }, "t.u64 value 18446744073709551615 is out of range"},
		{"Int of string", func() error { _, err := f.Int("t.str"); return err }, "t.str is a string, want an integer"},
		{"Bool of u8", func() error { _, err := f.Bool("t.u8"); return err }, "t.u8 is a uint8, want bool"},
		{"Float32 of bool", func() error { _, err := f.Float32("t.bool"); return err }, "t.bool is a bool, want float32"},
		{"StringArray of f32s", func() error { _, err := f.StringArray("a.f32"); return err }, "a.f32 is a array[float32], want array[string]"},
		{"Float32Array of strings", func() error { _, err := f.Float32Array("a.str"); return err }, "a.str is a array[string], want array[float32]"},
		{"Int32Array of u32 overflow", func() error { _, err := f.Int32Array("a.u32"); return err }, "a.u32 element 1 value 4294967295 does not fit in an int32"},
		{"Int32Array of nested", func() error { _, err := f.Int32Array("a.nested"); return err }, "a.nested is a array[array], want array[int32]"},
		{"Int32Array of scalar", func() error { _, err := f.Int32Array("t.i32"); return err }, "t.i32 is a int32, want array[int32]"},
	}
	for _, c := range errCases {
		err := c.call()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
	if _, err := f.String("nope"); !errors.Is(err, ErrNoKey) {
		t.Errorf("missing key error %v does not wrap ErrNoKey", err)
	}
}

func TestWriterErrors(t *testing.T) {
	w := NewWriter()
	cases := []struct {
		name string
		err  error
		want string
	}{
		{"int", w.Set("k", 3), "no metadata type for Go type int"},
		{"alignment type", w.Set(KeyAlignment, int32(32)), "want a uint32 power of two"},
		{"alignment pow2", w.Set(KeyAlignment, uint32(48)), "want a uint32 power of two"},
		{"nested scalar", w.Set("k", []Value{{typ: TypeUint8, x: uint8(1)}}), "element 0 of an array of arrays is a uint8"},
		{"dtype", w.AddTensor("t", runtime.DType(99), []int{1}, nil), "unsupported dtype"},
		{"dims", w.AddTensor("t", runtime.F32, []int{1, 1, 1, 1, 1}, nil), "5 dimensions"},
		{"block", w.AddTensor("t", runtime.Q8_0, []int{16}, make([]byte, 17)), "not a multiple of the q8_0 block size 32"},
		{"size", w.AddTensor("t", runtime.F32, []int{2, 2}, make([]byte, 15)), "15 bytes of data, f32 [2 2] needs 16"},
		{"values", w.AddTensorF32("t", runtime.F32, []int{2, 2}, make([]float32, 3)), "3 values for shape [2 2]"},
	}
	for _, c := range cases {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, c.err, c.want)
		}
	}
	if err := w.AddTensor("t", runtime.F32, []int{1}, make([]byte, 4)); err != nil {
		t.Fatal(err)
	}
	if err := w.AddTensor("t", runtime.F32, []int{1}, make([]byte, 4)); err == nil || !strings.Contains(err.Error(), "duplicate") {
		t.Errorf("duplicate tensor: error %v", err)
	}
	// Set replaces an existing key in place.
	if err := w.Set("a", uint8(1)); err != nil {
		t.Fatal(err)
	}
	if err := w.Set("a", "two"); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := w.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	f, err := Parse(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if s, err := f.String("a"); err != nil || s != "two" || len(f.KVs) != 1 {
		t.Errorf("replaced key: %q %v, %d KVs", s, err, len(f.KVs))
	}
}

func TestOpenMapsFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.gguf")
	if err := os.WriteFile(path, buildSample(t), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	d, err := f.TensorData("w.f32")
	if err != nil || len(d) != 24 {
		t.Fatalf("TensorData: %d bytes, %v", len(d), err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := f.TensorData("w.f32"); err == nil {
		t.Error("TensorData after Close did not fail")
	}
	if _, err := Open(filepath.Join(t.TempDir(), "missing.gguf")); err == nil {
		t.Error("opening a missing file did not fail")
	}
	empty := filepath.Join(t.TempDir(), "empty.gguf")
	os.WriteFile(empty, nil, 0o644)
	if _, err := Open(empty); err == nil || !strings.Contains(err.Error(), "truncated magic") {
		t.Errorf("empty file: %v", err)
	}
}

// header builds the start of a GGUF image by hand, for corruption tests.
type header struct{ bytes.Buffer }

func (h *header) u32(x uint32) *header { binary.Write(h, binary.LittleEndian, x); return h }
func (h *header) u64(x uint64) *header { binary.Write(h, binary.LittleEndian, x); return h }
func (h *header) str(s string) *header { h.u64(uint64(len(s))); h.WriteString(s); return h }
func (h *header) start(tensors, kvs uint64) *header {
	h.WriteString("GGUF")
	return h.u32(3).u64(tensors).u64(kvs)
}

// tensor appends a tensor info.
func (h *header) tensor(name string, dtype uint32, off uint64, ne ...uint64) *header {
	h.str(name).u32(uint32(len(ne)))
	for _, n := range ne {
		h.u64(n)
	}
	return h.u32(dtype).u64(off)
}

func TestCorruptInput(t *testing.T) {
	valid := buildSample(t)
	f, err := Parse(valid)
	if err != nil {
		t.Fatal(err)
	}
	last := f.Tensors[len(f.Tensors)-2] // w.i32, the last one with data
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "at byte 0: truncated magic"},
		{"bad magic", []byte("GGML\x03\x00\x00\x00"), "at byte 0: bad magic"},
		{"truncated version", new(header).start(0, 0).Bytes()[:4:4], "truncated version"},
		{"bad version", append([]byte("GGUF"), 9, 0, 0, 0), "at byte 4: bad version 9"},
		{"big endian", append([]byte("GGUF"), 0, 0, 0, 3), "big-endian"},
		{"v1", append([]byte("GGUF"), 1, 0, 0, 0), "version 1 is not supported"},
		{"absurd tensor count", new(header).start(1<<60, 0).Bytes(), "at byte 8: absurd tensor count 1152921504606846976"},
		{"absurd kv count", new(header).start(0, 1<<40).Bytes(), "at byte 16: absurd metadata KV count"},
		{"truncated kv", append(new(header).start(0, 1).str("key").Bytes(), 8, 0), "truncated type of key \"key\""},
		{"absurd key length", new(header).start(0, 1).u64(1 << 62).u32(0).u32(0).Bytes(), "at byte 24: absurd key of KV 0 length"},
		{"unknown value type", new(header).start(0, 1).str("k").u32(13).u32(0).Bytes(), "key \"k\" has unknown value type 13"},
		{"absurd string", new(header).start(0, 1).str("k").u32(uint32(TypeString)).u64(1 << 50).Bytes(), "absurd string value length"},
		{"absurd array", new(header).start(0, 1).str("k").u32(uint32(TypeArray)).u32(uint32(TypeUint64)).u64(1 << 40).Bytes(), "absurd array length 1099511627776"},
		{"bad elem type", new(header).start(0, 1).str("k").u32(uint32(TypeArray)).u32(77).u64(0).Bytes(), "unknown array element type 77"},
		{"bad bool", new(header).start(0, 1).str("k").u32(uint32(TypeBool)).u32(2).Bytes(), "bool value 2"},
		{"deep nesting", nestedArrays(20), "nested more than 16 deep"},
		{"alignment type", new(header).start(0, 1).str(KeyAlignment).u32(uint32(TypeUint8)).u32(0).Bytes(), "general.alignment is a uint8, want uint32"},
		{"alignment zero", new(header).start(0, 1).str(KeyAlignment).u32(uint32(TypeUint32)).u32(0).Bytes(), "general.alignment 0 is not a power of two"},
		{"too many dims", new(header).start(1, 0).tensor("t", 0, 0, 1, 1, 1, 1, 1).Bytes(), "tensor \"t\" has 5 dimensions"},
		{"offset 2^63-32", append(new(header).start(1, 0).tensor("t", 0, 1<<63-32, 1).Bytes(), make([]byte, 64)...), "runs past the end"},
		{"partial K-quant block", new(header).start(1, 0).tensor("t", 14, 0, 4).Bytes(), "4 elements per row is not a multiple of the q6_K block size 256"},
		{"block multiple", new(header).start(1, 0).tensor("t", uint32(runtime.Q4_0), 0, 16).Bytes(), "16 elements per row is not a multiple of the q4_0 block size 32"},
		{"negative dim", new(header).start(1, 0).tensor("t", 0, 0, 1<<63).Bytes(), "dimension 0 is negative"},
		{"overflow", new(header).start(1, 0).tensor("t", 0, 0, 1<<31, 1<<31, 1<<31).Bytes(), "overflows"},
		{"misaligned", append(new(header).start(1, 0).tensor("t", 0, 4, 1).Bytes(), make([]byte, 64)...), "offset 4 is not a multiple of the alignment 32"},
		{"past end", new(header).start(1, 0).tensor("t", 0, 0, 1024).Bytes(), "tensor \"t\" data (4096 bytes at offset 0 of the data section) runs past the end of the file (57 bytes)"},
		{"duplicate tensor", append(new(header).start(2, 0).tensor("t", 0, 0, 1).tensor("t", 0, 32, 1).Bytes(), make([]byte, 64)...), "duplicate tensor name \"t\""},
		{"truncated data", valid[:f.DataOffset+last.Offset+last.Size-1], "tensor \"w.i32\" data"},
	}
	dup := new(header).start(0, 2).str("k").u32(uint32(TypeUint8))
	dup.WriteByte(1)
	dup.str("k").u32(uint32(TypeUint8)).WriteByte(2)
	cases = append(cases, struct {
		name string
		data []byte
		want string
	}{"duplicate key", dup.Bytes(), "at byte 38: duplicate key \"k\""})
	for _, c := range cases {
		_, err := Parse(c.data)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
		if err != nil && !strings.Contains(err.Error(), "gguf: at byte ") {
			t.Errorf("%s: error %q does not name a byte offset", c.name, err)
		}
		if err != nil && (!errors.Is(err, runtime.ErrCorruptFile) || strings.Contains(err.Error(), "at byte -")) {
			t.Errorf("%s: error %q does not wrap ErrCorruptFile or names a negative offset", c.name, err)
		}
	}
}

// nestedArrays is a file with one key whose value is arrays nested depth deep.
func nestedArrays(depth int) []byte {
	h := new(header).start(0, 1).str("k").u32(uint32(TypeArray))
	for i := 0; i < depth; i++ {
		h.u32(uint32(TypeArray)).u64(1)
	}
	return h.u32(uint32(TypeUint8)).u64(0).Bytes()
}

func TestVersion2(t *testing.T) {
	data := buildSample(t)
	data[4] = 2
	f, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if f.Version != 2 || len(f.Tensors) != len(sampleTensors) {
		t.Errorf("v2: version %d, %d tensors", f.Version, len(f.Tensors))
	}
}

func TestDefaultAlignment(t *testing.T) {
	w := NewWriter()
	w.Set("general.architecture", "llama")
	w.AddTensorF32("a", runtime.F32, []int{3}, []float32{1, 2, 3})
	w.AddTensorF32("b", runtime.F32, []int{1}, []float32{4})
	var buf bytes.Buffer
	w.WriteTo(&buf)
	f, err := Parse(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	b, _ := f.Tensor("b")
	if f.Alignment != 32 || f.DataOffset%32 != 0 || b.Offset != 32 {
		t.Errorf("alignment %d, data offset %d, b at %d", f.Alignment, f.DataOffset, b.Offset)
	}
	if int64(buf.Len())%32 != 0 {
		t.Errorf("file size %d is not padded to the alignment", buf.Len())
	}
}

// TestOpenRefusesNonRegular: a FIFO (or a directory) as the model path is
// an error at once; opening a FIFO used to block forever.
func TestOpenRefusesNonRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "model.gguf")
	if err := mkfifo(fifo); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	for _, path := range []string{fifo, dir} {
		done := make(chan error, 1)
		go func() {
			_, err := Open(path)
			done <- err
		}()
		select {
		case err := <-done:
			if !errors.Is(err, runtime.ErrInvalidArgument) || !strings.Contains(err.Error(), "not a regular file") {
				t.Errorf("Open(%s): %v, want a not-a-regular-file error", path, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("Open(%s) hangs", path)
		}
	}
}

// TestWriteFileAtomic: WriteFile replaces the file through a temporary one,
// leaving nothing else in the directory, and a failed write (here: the
// target is a directory) changes nothing.
func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.gguf")
	if err := os.WriteFile(path, []byte("old"), 0o640); err != nil {
		t.Fatal(err)
	}
	w := NewWriter()
	if err := w.Set("general.name", "x"); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("directory holds %v, want only m.gguf", entries)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want the replaced file's 0640", st.Mode().Perm())
	}
	sub := filepath.Join(dir, "sub")
	os.Mkdir(sub, 0o755)
	if err := w.WriteFile(sub); err == nil {
		t.Error("writing over a directory succeeded")
	}
}
