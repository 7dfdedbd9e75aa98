package runtime

import (
	"math"
	"testing"
)

// TestSpanBytes checks spanBytes' unchecked sum, taken where every dim and
// stride is below 2^28, against its overflow-checked arithmetic, and the
// checked path's refusals.
func TestSpanBytes(t *testing.T) {
	for _, tc := range []struct {
		name   string
		dt     DType
		ne, nb [MaxDims]int
		want   int
		ok     bool
	}{
		{"f32 contiguous", F32, [4]int{64, 3, 2, 1}, [4]int{4, 256, 768, 1536}, 1536, true},
		{"f32 strided view", F32, [4]int{8, 4, 1, 1}, [4]int{4, 128, 512, 512}, 4*128 - 128 + 32, true},
		{"q8_0 rows", Q8_0, [4]int{64, 5, 1, 1}, [4]int{34, 68, 340, 340}, 340, true},
		{"empty", F16, [4]int{0, 5, 1, 1}, [4]int{2, 0, 0, 0}, 0, true},
		{"past 2^28, checked", F32, [4]int{1 << 29, 2, 1, 1}, [4]int{4, 1 << 31, 1 << 32, 1 << 32}, 4<<29 + 1<<31 - 4 + 4, true},
		{"overflow", F32, [4]int{2, 3, 1, 1}, [4]int{4, math.MaxInt / 2, 0, 0}, 0, false},
		{"negative stride", F32, [4]int{2, 2, 1, 1}, [4]int{4, -8, 0, 0}, 0, false},
	} {
		got, ok := spanBytes(tc.dt, tc.ne, tc.nb)
		if got != tc.want || ok != tc.ok {
			t.Errorf("%s: spanBytes = %d, %v; want %d, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}
