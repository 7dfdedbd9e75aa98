package runtime_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
)

// Blocks computed by hand from ggml's reference quantizers
// (quantize_row_q8_0_ref, quantize_row_q4_0_ref):
//
//	Q8_0: d = max|x|/127 stored as f16; q = round-half-away(x/d) as int8.
//	Q4_0: d = (the x of largest magnitude, signed)/-8 stored as f16;
//	      q = min(15, int(x/d + 8.5)); byte j = q[j] | q[j+16]<<4.

// block builds a 32-value block: the listed values first, then fill(j) for
// the remaining indices.
func block(vals []float32, fill func(j int) float32) []float32 {
	b := make([]float32, 32)
	for j := range b {
		if j < len(vals) {
			b[j] = vals[j]
		} else if fill != nil {
			b[j] = fill(j)
		}
	}
	return b
}

func TestQ8_0HandBlocks(t *testing.T) {
	tests := []struct {
		name string
		in   []float32
		want []byte    // the 34 bytes: f16 d little-endian, then 32 int8
		back []float32 // dequantized values, where they differ from in
	}{
		{
			// max|x| = 127: d = 1 (f16 0x3c00). Halves round away from zero.
			name: "unit scale",
			in:   block([]float32{127, -127, 0, 1, -1, 63.5, -63.5, 0.5, -0.5, 2.5, -2.5, 100.49}, func(j int) float32 { return float32(j - 16) }),
			want: append([]byte{0x00, 0x3c,
				0x7f, 0x81, 0x00, 0x01, 0xff, 0x40, 0xc0, 0x01, 0xff, 0x03, 0xfd, 0x64},
				// j - 16 for j = 12..31: -4 .. 15
				0xfc, 0xfd, 0xfe, 0xff, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05,
				0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f),
			back: block([]float32{127, -127, 0, 1, -1, 64, -64, 1, -1, 3, -3, 100}, func(j int) float32 { return float32(j - 16) }),
		},
		{
			// max|x| = 63.5: d = 0.5 (f16 0x3800), x/d = 2x.
			name: "half scale",
			in:   block([]float32{63.5, -0.25, 0.25, 0.75, -63.5, 10}, nil),
			want: append([]byte{0x00, 0x38, 0x7f, 0xff, 0x01, 0x02, 0x81, 0x14}, make([]byte, 26)...),
			back: block([]float32{63.5, -0.5, 0.5, 1, -63.5, 10}, nil),
		},
		{
			// d = 1/127 = 0.0078740…, whose f16 is 2^-7·(1+8/1024) = 0x2008;
			// x/d uses the unrounded d, so q = 127, but d·q = 0.99993896484375.
			name: "inexact scale",
			in:   block([]float32{1}, nil),
			want: append([]byte{0x08, 0x20, 0x7f}, make([]byte, 31)...),
			back: block([]float32{0.99993896484375}, nil),
		},
		{
			name: "zeros",
			in:   make([]float32, 32),
			want: make([]byte, 34),
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			checkBlock(t, rt.Q8_0, tc.in, tc.want, tc.back)
		})
	}
}

func TestQ4_0HandBlocks(t *testing.T) {
	tests := []struct {
		name string
		in   []float32
		want []byte
		back []float32
	}{
		{
			// The largest magnitude is -8: d = 1 (0x3c00), q = x + 8.
			// x[j] = j-8 gives q = j; x[j+16] = 7-j gives q = 15-j.
			name: "negative extreme",
			in: block(nil, func(j int) float32 {
				if j < 16 {
					return float32(j - 8)
				}
				return float32(7 - (j - 16))
			}),
			want: []byte{0x00, 0x3c,
				0xf0, 0xe1, 0xd2, 0xc3, 0xb4, 0xa5, 0x96, 0x87,
				0x78, 0x69, 0x5a, 0x4b, 0x3c, 0x2d, 0x1e, 0x0f},
		},
		{
			// The largest magnitude is +8 (first of ±8): d = -1 (0xbc00), so
			// q = int(8.5 - x), clamped to 15: -8 gives 16 → 15 (back: -7).
			// q: [0]=0 [1]=15 [2]=8 (0.3) [3]=9 (-0.6) [4]=6 (2.5), rest 8;
			// [16]=7 (1) [17]=9 (-1), rest 8.
			name: "positive extreme and clamp",
			in: block(nil, func(j int) float32 {
				return map[int]float32{0: 8, 1: -8, 2: 0.3, 3: -0.6, 4: 2.5, 16: 1, 17: -1}[j]
			}),
			want: []byte{0x00, 0xbc,
				0x70, 0x9f, 0x88, 0x89, 0x86, 0x88, 0x88, 0x88,
				0x88, 0x88, 0x88, 0x88, 0x88, 0x88, 0x88, 0x88},
			back: block(nil, func(j int) float32 {
				return map[int]float32{0: 8, 1: -7, 3: -1, 4: 2, 16: 1, 17: -1}[j]
			}),
		},
		{
			// d = 0/-8 is -0, f16 0x8000, as in ggml; every q is int(8.5) = 8.
			name: "zeros",
			in:   make([]float32, 32),
			want: append([]byte{0x00, 0x80}, bytes.Repeat([]byte{0x88}, 16)...),
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			checkBlock(t, rt.Q4_0, tc.in, tc.want, tc.back)
		})
	}
}

// checkBlock quantizes in (alone and as the second block of a row), compares
// the bytes with want, and checks that they decode to back (or to in).
func checkBlock(t *testing.T, typ rt.DType, in []float32, want []byte, back []float32) {
	t.Helper()
	if len(want) != typ.TypeSize() {
		t.Fatalf("test block has %d bytes, want %d", len(want), typ.TypeSize())
	}
	got := make([]byte, typ.TypeSize())
	if err := rt.QuantizeRow(typ, in, got); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("bytes\n got % x\nwant % x", got, want)
	}
	row := make([]float32, 64)
	copy(row[32:], in)
	two := make([]byte, 2*typ.TypeSize())
	if err := rt.QuantizeRow(typ, row, two); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(two[typ.TypeSize():], want) {
		t.Errorf("second block of a row differs: % x", two[typ.TypeSize():])
	}
	if back == nil {
		back = in
	}
	dec := make([]float32, 32)
	if err := rt.DequantizeRow(typ, want, dec); err != nil {
		t.Fatal(err)
	}
	for j := range dec {
		if dec[j] != back[j] {
			t.Errorf("decoded [%d] = %v, want %v", j, dec[j], back[j])
		}
	}
}

func TestQuantizeRowErrors(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"partial block", rt.QuantizeRow(rt.Q8_0, make([]float32, 31), make([]byte, 64)), "not a multiple of the block size 32"},
		{"short destination", rt.QuantizeRow(rt.Q4_0, make([]float32, 64), make([]byte, 35)), "need 36"},
		{"bad dtype", rt.QuantizeRow(rt.IQ2_XXS, make([]float32, 256), make([]byte, 1024)), "unsupported dtype"},
		{"dequantize partial block", rt.DequantizeRow(rt.Q4_0, make([]byte, 64), make([]float32, 40)), "not a multiple"},
		{"dequantize short source", rt.DequantizeRow(rt.F16, make([]byte, 5), make([]float32, 3)), "need 6"},
		{"dequantize bad dtype", rt.DequantizeRow(rt.DType(-1), nil, nil), "unsupported dtype"},
	}
	for _, tc := range tests {
		if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one mentioning %q", tc.name, tc.err, tc.want)
		}
	}
}

// TestBlockLayoutSizes pins the GGUF type sizes and ids.
func TestBlockLayoutSizes(t *testing.T) {
	tests := []struct {
		typ        rt.DType
		id         int32
		block, siz int
	}{
		{rt.F32, 0, 1, 4}, {rt.F16, 1, 1, 2}, {rt.Q4_0, 2, 32, 18},
		{rt.Q8_0, 8, 32, 34}, {rt.I32, 26, 1, 4}, {rt.BF16, 30, 1, 2},
	}
	for _, tc := range tests {
		if int32(tc.typ) != tc.id || tc.typ.BlockSize() != tc.block || tc.typ.TypeSize() != tc.siz {
			t.Errorf("%v: id %d block %d size %d, want %d %d %d", tc.typ, int32(tc.typ),
				tc.typ.BlockSize(), tc.typ.TypeSize(), tc.id, tc.block, tc.siz)
		}
		if got := tc.typ.RowSize(64); got != 64/tc.block*tc.siz {
			t.Errorf("%v: RowSize(64) = %d", tc.typ, got)
		}
		if p, err := rt.ParseDType(tc.typ.String()); err != nil || p != tc.typ {
			t.Errorf("ParseDType(%q) = %v, %v", tc.typ.String(), p, err)
		}
	}
	if _, err := rt.ParseDType("q5_z"); err == nil {
		t.Error("ParseDType accepted q5_z")
	}
	if s := fmt.Sprint(rt.DType(99)); !strings.Contains(s, "99") {
		t.Errorf("unknown dtype prints as %q", s)
	}
}

// TestQ8_KLayout checks the K-quants' activation type, which the oracle
// has no rows of: d = 1/iscale as float32 with iscale = -127/max (max the
// value of largest magnitude, signed), quants rounded to nearest even and
// capped at 127, and each 16 quants' sum in bsums.
func TestQ8_KLayout(t *testing.T) {
	x := make([]float32, 256)
	for j := range x {
		x[j] = float32(j-128) + 0.5 // -127.5 … 127.5; the largest magnitude is -127.5 (first)
	}
	out := make([]byte, rt.Q8_K.TypeSize())
	if err := rt.QuantizeRow(rt.Q8_K, x, out); err != nil {
		t.Fatal(err)
	}
	iscale := float32(-127) / float32(-127.5)
	if d := math.Float32frombits(binary.LittleEndian.Uint32(out)); d != 1/iscale {
		t.Errorf("d = %v, want %v", d, 1/iscale)
	}
	for b := 0; b < 16; b++ {
		sum := 0
		for _, q := range out[4+16*b : 4+16*b+16] {
			sum += int(int8(q))
		}
		if got := int(int16(binary.LittleEndian.Uint16(out[260+2*b:]))); got != sum {
			t.Errorf("bsums[%d] = %d, want %d", b, got, sum)
		}
	}
	if q0, q255 := int8(out[4]), int8(out[4+255]); q0 != -127 || q255 != 127 {
		t.Errorf("first and last quants %d, %d; want -127, 127", q0, q255)
	}
	back := make([]float32, 256)
	if err := rt.DequantizeRow(rt.Q8_K, out, back); err != nil {
		t.Fatal(err)
	}
	for j := range back {
		if d := math.Abs(float64(back[j] - x[j])); d > 1 {
			t.Fatalf("value %d: %v back as %v", j, x[j], back[j])
		}
	}
}
