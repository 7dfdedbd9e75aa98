//go:build arm64 && !purego

package cpu

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
	"golang.org/x/sys/cpu"
)

// Where neon-dotprod is chosen, the baseline neon set stays under test.
func init() {
	if simdKernels != neonKernels {
		supersededKernels = append(supersededKernels, neonKernels)
	}
}

// On arm64 the SIMD sets are NEON and replace every portable kernel, so the
// kernel tests that run each set in kernelSets cover all of them.
func TestNEONSetReplacesEveryKernel(t *testing.T) {
	if neonKernels == nil || neonKernels.name != "neon" {
		t.Fatalf("neonKernels = %v, want the neon set", neonKernels)
	}
	g := reflect.ValueOf(goKernels).Elem()
	for _, k := range []*kernels{neonKernels, selectNEON(true)} {
		s := reflect.ValueOf(k).Elem()
		for i := 0; i < s.NumField(); i++ {
			if g.Field(i).Kind() == reflect.Func && g.Field(i).IsNil() {
				continue // an optional kernel the portable set lacks too (the amd64 panel kernels)
			}
			if f := s.Field(i); f.Kind() == reflect.Func && f.Pointer() == g.Field(i).Pointer() {
				t.Errorf("%s: kernel %s is the portable one", k.name, s.Type().Field(i).Name)
			}
		}
	}
}

// simdKernels is neon-dotprod exactly when the CPU has the dot product, and
// that set differs from neon in the SDOT integer dots only (Q8_0, Q4_0,
// their four-row forms, Q4_K and Q6_K).
func TestDotProdSelection(t *testing.T) {
	want := "neon"
	if cpu.ARM64.HasASIMDDP {
		want = "neon-dotprod"
	}
	t.Logf("HasASIMDDP = %v, simdKernels = %s", cpu.ARM64.HasASIMDDP, simdKernels.name)
	if simdKernels.name != want {
		t.Errorf("simdKernels = %s, want %s", simdKernels.name, want)
	}
	if selectNEON(false) != neonKernels {
		t.Errorf("without dot product: %s, want the neon set", selectNEON(false).name)
	}
	sdot := map[string]bool{"dotQ8": true, "dotQ4": true, "dotQ8x4": true, "dotQ4x4": true, "dotQ4K": true, "dotQ6K": true}
	d, n := reflect.ValueOf(selectNEON(true)).Elem(), reflect.ValueOf(neonKernels).Elem()
	for i := 0; i < d.NumField(); i++ {
		name := d.Type().Field(i).Name
		if d.Field(i).Kind() != reflect.Func || n.Field(i).IsNil() {
			continue
		}
		if same := d.Field(i).Pointer() == n.Field(i).Pointer(); same == sdot[name] {
			t.Errorf("neon-dotprod kernel %s: same as neon = %v, want %v", name, same, !sdot[name])
		}
	}
}

// The integer dots' block sums are exact: with integer scales of 1 or 2 and
// totals below 2^24, every set gives the exact integer result, for extreme
// quants (weights of -128, activations of ±127) and block counts around the
// four-block steps.
func TestIntegerDotsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	one, two := rt.F32ToF16(1), rt.F32ToF16(2)
	for _, nb := range []int{1, 2, 3, 4, 5, 7, 8, 9, 12} {
		var q q8Rows
		q.resize(1, nb)
		y := q.row(0)
		for b := range y.d {
			y.d[b] = float32(1 + rng.IntN(2))
			for j := 0; j < rt.QK; j++ {
				v := int8(rng.IntN(255) - 127)
				if b%3 == 0 {
					v = -127 // times weights of -128: the largest block sum
				}
				y.qs[b*rt.QK+j] = v
				y.neg[b] -= int32(v)
			}
		}
		for _, typ := range []rt.DType{rt.Q8_0, rt.Q4_0} {
			bs := 34
			if typ == rt.Q4_0 {
				bs = 18
			}
			stride := nb*bs + 3
			wb := make([]byte, 4*stride)
			var want [4]float64
			for r := 0; r < 4; r++ {
				for b := 0; b < nb; b++ {
					blk := wb[r*stride+b*bs : r*stride+(b+1)*bs]
					h := one
					if rng.IntN(2) == 1 {
						h = two
					}
					binary.LittleEndian.PutUint16(blk, h)
					for j := 2; j < bs; j++ {
						blk[j] = byte(rng.IntN(256))
						if (b+r)%3 == 0 && typ == rt.Q8_0 {
							blk[j] = 0x80 // -128
						}
					}
					var s int64
					for j := 0; j < rt.QK; j++ {
						yq := int64(y.qs[b*rt.QK+j])
						if typ == rt.Q8_0 {
							s += int64(int8(blk[2+j])) * yq
						} else if j < rt.QK/2 {
							s += (int64(blk[2+j]&15) - 8) * yq
						} else {
							s += (int64(blk[2+j-rt.QK/2]>>4) - 8) * yq
						}
					}
					want[r] += float64(rt.F16ToF32(h)) * float64(y.d[b]) * float64(s)
				}
			}
			for _, k := range kernelSets() {
				dot, dot4 := k.dotQ8, k.dotQ8x4
				if typ == rt.Q4_0 {
					dot, dot4 = k.dotQ4, k.dotQ4x4
				}
				var got4 [4]float32
				dot4(wb, stride, y, &got4)
				for r := 0; r < 4; r++ {
					if got := dot(wb[r*stride:], y); float64(got) != want[r] {
						t.Errorf("%s %v nb=%d row %d: %v, want %v", k.name, typ, nb, r, got, want[r])
					}
					if float64(got4[r]) != want[r] {
						t.Errorf("%s %v x4 nb=%d row %d: %v, want %v", k.name, typ, nb, r, got4[r], want[r])
					}
				}
			}
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
