package runtime_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
)

// TestBuildErrorsMatch: every build error wraps the sentinel that names its
// kind, so programs match with errors.Is; sizes that overflow are refused.
func TestBuildErrorsMatch(t *testing.T) {
	nan := float32(math.NaN())
	cases := []struct {
		name  string
		build func(c *rt.Context) *rt.Tensor
		want  error
		text  string // the message must name the problem
	}{
		{"shape overflow", func(c *rt.Context) *rt.Tensor { return c.NewTensor(rt.F32, 1<<31, 1<<31, 4) }, rt.ErrOutOfRange, "larger than"},
		{"shape overflow q8_0", func(c *rt.Context) *rt.Tensor { return c.NewTensor(rt.Q8_0, 1<<60, 1<<10) }, rt.ErrOutOfRange, "larger than"},
		{"view offset overflow", func(c *rt.Context) *rt.Tensor { return c.View1D(c.NewTensor(rt.F32, 16), 4, math.MaxInt-8) }, rt.ErrOutOfRange, "offset"},
		{"view stride overflow", func(c *rt.Context) *rt.Tensor {
			return c.View2D(c.NewTensor(rt.F32, 16), 2, 3, math.MaxInt/2, 0)
		}, rt.ErrOutOfRange, "spans"},
		{"reshape count overflow", func(c *rt.Context) *rt.Tensor { return c.Reshape(c.NewTensor(rt.F32, 16), 1<<32, 1<<32, 16) }, rt.ErrShape, "element counts"},
		{"add shapes", func(c *rt.Context) *rt.Tensor { return c.Add(c.NewTensor(rt.F32, 4), c.NewTensor(rt.F32, 3)) }, rt.ErrShape, "ADD"},
		{"rope NaN base", func(c *rt.Context) *rt.Tensor {
			return c.Rope(c.NewTensor(rt.F32, 4, 1, 2), c.NewTensor(rt.I32, 2), 4, rt.RopeNormal, nan, 1)
		}, rt.ErrInvalidArgument, "freq_base"},
		{"rope Inf scale", func(c *rt.Context) *rt.Tensor {
			return c.Rope(c.NewTensor(rt.F32, 4, 1, 2), c.NewTensor(rt.I32, 2), 4, rt.RopeNormal, 1e4, float32(math.Inf(1)))
		}, rt.ErrInvalidArgument, "freq_scale"},
		{"argmax 0-wide rows", func(c *rt.Context) *rt.Tensor { return c.Argmax(c.NewTensor(rt.F32, 0, 3)) }, rt.ErrShape, "empty"},
		{"unrunnable dtype", func(c *rt.Context) *rt.Tensor { return c.NewTensor(rt.IQ2_XXS, 256) }, rt.ErrUnsupported, "iq2_xxs"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := rt.NewContext()
			y := tc.build(c)
			_, err := c.BuildGraph(y)
			if !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want an error wrapping %v", err, tc.want)
			}
			if !strings.Contains(strings.ToLower(err.Error()), strings.ToLower(tc.text)) {
				t.Errorf("%q does not say %q", err, tc.text)
			}
		})
	}
}

// TestTensorSizeHandMade: Nbytes of a hand-made tensor whose span
// overflows is -1, and tensor I/O on it is refused.
func TestTensorSizeHandMade(t *testing.T) {
	x := &rt.Tensor{Type: rt.F32, Ne: [4]int{1 << 31, 1 << 31, 4, 1}, Nb: [4]int{4, 1 << 33, 1 << 64 >> 2, 1 << 62}}
	if n := x.Nbytes(); n != -1 {
		t.Errorf("Nbytes = %d, want -1", n)
	}
}

func TestInRange(t *testing.T) {
	cases := []struct {
		off, size, limit int
		want             bool
	}{
		{0, 0, 0, true}, {0, 4, 4, true}, {1, 4, 4, false}, {4, 0, 4, true}, {5, 0, 4, false},
		{-1, 1, 4, false}, {0, -1, 4, false}, {math.MaxInt, 1, math.MaxInt, false},
		{math.MaxInt - 1, 1, math.MaxInt, true}, {2, math.MaxInt, math.MaxInt, false},
	}
	for _, c := range cases {
		if got := rt.InRange(c.off, c.size, c.limit); got != c.want {
			t.Errorf("InRange(%d, %d, %d) = %v, want %v", c.off, c.size, c.limit, got, c.want)
		}
	}
}
