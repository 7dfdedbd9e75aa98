//go:build arm64 && !purego

package cpu

import (
	"encoding/binary"
	"math"
	"reflect"
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
)

// On arm64 the SIMD set is NEON and replaces every portable kernel, so the
// kernel tests that run each set in kernelSets cover all of it.
func TestNEONSetReplacesEveryKernel(t *testing.T) {
	if simdKernels == nil || simdKernels.name != "neon" {
		t.Fatalf("simdKernels = %v, want the neon set", simdKernels)
	}
	s, g := reflect.ValueOf(simdKernels).Elem(), reflect.ValueOf(goKernels).Elem()
	for i := 0; i < s.NumField(); i++ {
		if g.Field(i).Kind() == reflect.Func && g.Field(i).IsNil() {
			continue // an optional kernel the portable set lacks too (the amd64 panel kernels)
		}
		if f := s.Field(i); f.Kind() == reflect.Func && f.Pointer() == g.Field(i).Pointer() {
			t.Errorf("kernel %s is the portable one", s.Type().Field(i).Name)
		}
	}
}

// FCVTN keeps NaN payloads; the kernel gives sign|0x7e00 as
// runtime.F32ToF16 does, for quiet and signalling NaNs of either sign, at
// every position of the 16-wide loop and the 4-wide tail.
func TestF32ToF16NaNs(t *testing.T) {
	vals := make([]float32, 20)
	dst := make([]byte, 2*len(vals))
	for _, b := range []uint32{0x7fc00000, 0xffc00000, 0x7f800001, 0xff800001, 0x7fffffff, 0xffffffff, 0x7fa5a5a5, 0xff812345, 0x7fc02000} {
		for at := range vals {
			for i := range vals {
				vals[i] = 1.5
			}
			vals[at] = math.Float32frombits(b)
			simdKernels.f32ToF16(vals, dst)
			for i, v := range vals {
				if got, want := binary.LittleEndian.Uint16(dst[2*i:]), rt.F32ToF16(v); got != want {
					t.Errorf("%#08x at %d: [%d] = %#04x, want %#04x", b, at, i, got, want)
				}
			}
		}
	}
}

// maxOf is NaN when any element is, as Go's max.
func TestMaxOfNaN(t *testing.T) {
	for _, n := range []int{4, 5, 16, 17} {
		for at := 0; at < n; at++ {
			x := make([]float32, n)
			x[at] = float32(math.NaN())
			if got := simdKernels.maxOf(x); !math.IsNaN(float64(got)) {
				t.Fatalf("n=%d NaN at %d: %v", n, at, got)
			}
		}
	}
}
