package runtime_test

import (
	"math"
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
)

func f32bits(b uint32) float32 { return math.Float32frombits(b) }

func pow2(e int) float32 { return float32(math.Ldexp(1, e)) }

func TestF32ToF16(t *testing.T) {
	tests := []struct {
		name string
		in   float32
		want uint16
	}{
		{"zero", 0, 0x0000},
		{"negative zero", float32(math.Copysign(0, -1)), 0x8000},
		{"one", 1, 0x3c00},
		{"minus two", -2, 0xc000},
		{"half", 0.5, 0x3800},
		{"0.1", 0.1, 0x2e66},
		{"pi", math.Pi, 0x4248},
		{"largest", 65504, 0x7bff},
		{"just below the overflow tie", 65519.996, 0x7bff},
		{"overflow tie rounds to even (inf)", 65520, 0x7c00},
		{"overflow", 1e6, 0x7c00},
		{"negative overflow", -1e6, 0xfc00},
		{"inf", float32(math.Inf(1)), 0x7c00},
		{"-inf", float32(math.Inf(-1)), 0xfc00},
		{"smallest normal", pow2(-14), 0x0400},
		{"smallest subnormal", pow2(-24), 0x0001},
		{"half the smallest subnormal ties to 0", pow2(-25), 0x0000},
		{"above half the smallest subnormal", pow2(-25) * 1.5, 0x0001},
		{"far below", pow2(-30), 0x0000},
		{"negative underflow keeps sign", -pow2(-30), 0x8000},
		{"subnormal tie to even (1.5 units)", pow2(-24) * 1.5, 0x0002},
		{"subnormal tie to even (2.5 units)", pow2(-24) * 2.5, 0x0002},
		{"largest subnormal ties up into normal", pow2(-24) * 1023.5, 0x0400},
		{"mantissa tie to even (down)", 1 + pow2(-11), 0x3c00},
		{"mantissa tie to even (up)", 1 + 3*pow2(-11), 0x3c02},
		{"above the tie", f32bits(0x3f801001), 0x3c01},
		{"mantissa carry into exponent", 2 - pow2(-12), 0x4000},
	}
	for _, tc := range tests {
		if got := rt.F32ToF16(tc.in); got != tc.want {
			t.Errorf("%s: F32ToF16(%g) = %#04x, want %#04x", tc.name, tc.in, got, tc.want)
		}
	}
	for _, nan := range []uint32{0x7fc00000, 0xffc00000, 0x7f800001, 0x7fbfffff} {
		h := rt.F32ToF16(f32bits(nan))
		if h&0x7c00 != 0x7c00 || h&0x03ff == 0 {
			t.Errorf("NaN %#08x became %#04x, not a NaN", nan, h)
		}
	}
}

func TestF16ToF32(t *testing.T) {
	tests := []struct {
		in   uint16
		want float32
	}{
		{0x0000, 0}, {0x3c00, 1}, {0xc000, -2}, {0x3555, 0.333251953125},
		{0x0001, pow2(-24)}, {0x03ff, 1023 * pow2(-24)}, {0x8001, -pow2(-24)},
		{0x0400, pow2(-14)}, {0x7bff, 65504},
		{0x7c00, float32(math.Inf(1))}, {0xfc00, float32(math.Inf(-1))},
	}
	for _, tc := range tests {
		if got := rt.F16ToF32(tc.in); got != tc.want {
			t.Errorf("F16ToF32(%#04x) = %g, want %g", tc.in, got, tc.want)
		}
	}
	if z := rt.F16ToF32(0x8000); z != 0 || !math.Signbit(float64(z)) {
		t.Errorf("F16ToF32(0x8000) = %g, want -0", z)
	}
	for _, h := range []uint16{0x7e00, 0x7c01, 0xfe00} {
		if v := rt.F16ToF32(h); !math.IsNaN(float64(v)) {
			t.Errorf("F16ToF32(%#04x) = %g, want NaN", h, v)
		}
	}
}

// TestF16RoundTripAll converts every half to float32 and back: exact for
// all non-NaN values, and NaN stays NaN.
func TestF16RoundTripAll(t *testing.T) {
	for i := 0; i < 1<<16; i++ {
		h := uint16(i)
		f := rt.F16ToF32(h)
		back := rt.F32ToF16(f)
		isNaN := h&0x7c00 == 0x7c00 && h&0x03ff != 0
		if isNaN {
			if !math.IsNaN(float64(f)) || back&0x7c00 != 0x7c00 || back&0x03ff == 0 {
				t.Fatalf("NaN %#04x -> %g -> %#04x", h, f, back)
			}
			continue
		}
		if back != h {
			t.Fatalf("%#04x -> %g -> %#04x", h, f, back)
		}
		// Halfway to the next half rounds to the even one of the two.
		if h&0x7fff < 0x7bff {
			next := rt.F16ToF32(h + 1)
			if h&0x8000 != 0 {
				continue // walk positives only; negatives mirror them
			}
			mid := float32((float64(f) + float64(next)) / 2)
			want := h
			if h&1 == 1 {
				want = h + 1
			}
			if got := rt.F32ToF16(mid); got != want {
				t.Fatalf("midpoint of %#04x and %#04x: %#04x, want %#04x", h, h+1, got, want)
			}
		}
	}
}

func TestBF16(t *testing.T) {
	tests := []struct {
		name string
		in   float32
		want uint16
	}{
		{"one", 1, 0x3f80},
		{"minus two", -2, 0xc000},
		{"negative zero", float32(math.Copysign(0, -1)), 0x8000},
		{"tie to even (down)", f32bits(0x3f808000), 0x3f80},
		{"tie to even (up)", f32bits(0x3f818000), 0x3f82},
		{"above the tie", f32bits(0x3f808001), 0x3f81},
		{"below the tie", f32bits(0x3f807fff), 0x3f80},
		{"inf", float32(math.Inf(1)), 0x7f80},
		{"-inf", float32(math.Inf(-1)), 0xff80},
		{"largest float rounds to inf", math.MaxFloat32, 0x7f80},
		{"subnormal", f32bits(0x00010000), 0x0001},
		{"pi", math.Pi, 0x4049},
	}
	for _, tc := range tests {
		if got := rt.F32ToBF16(tc.in); got != tc.want {
			t.Errorf("%s: F32ToBF16(%g) = %#04x, want %#04x", tc.name, tc.in, got, tc.want)
		}
	}
	// NaNs whose payload lies only in the dropped bits must stay NaN.
	for _, nan := range []uint32{0x7fc00000, 0x7f800001, 0xff800001, 0x7fffffff} {
		h := rt.F32ToBF16(f32bits(nan))
		if h&0x7f80 != 0x7f80 || h&0x007f == 0 {
			t.Errorf("NaN %#08x became %#04x, not a NaN", nan, h)
		}
	}
	for i := 0; i < 1<<16; i++ {
		h := uint16(i)
		f := rt.BF16ToF32(h)
		if math.Float32bits(f) != uint32(h)<<16 {
			t.Fatalf("BF16ToF32(%#04x) = %#08x", h, math.Float32bits(f))
		}
		if h&0x7f80 == 0x7f80 && h&0x7f != 0 {
			continue // NaN
		}
		if back := rt.F32ToBF16(f); back != h {
			t.Fatalf("%#04x -> %g -> %#04x", h, f, back)
		}
	}
}
