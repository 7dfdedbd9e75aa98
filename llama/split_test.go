package llama

import (
	"errors"
	"math"
	"slices"
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
)

// TestSplitDevices deals offloaded blocks over devices by proportion.
func TestSplitDevices(t *testing.T) {
	for _, tc := range []struct {
		name   string
		n, dev int
		split  []float64
		want   []int
		out    int
	}{
		{"even", 8, 2, nil, []int{0, 0, 0, 0, 1, 1, 1, 1}, 1},
		{"3,1", 8, 2, []float64{3, 1}, []int{0, 0, 0, 0, 0, 0, 1, 1}, 1},
		{"1,3", 8, 2, []float64{1, 3}, []int{0, 0, 1, 1, 1, 1, 1, 1}, 1},
		{"0,1", 8, 2, []float64{0, 1}, []int{1, 1, 1, 1, 1, 1, 1, 1}, 1},
		{"1,0", 4, 2, []float64{1, 0}, []int{0, 0, 0, 0}, 0},
		{"short list", 4, 3, []float64{1}, []int{0, 0, 0, 0}, 0},
		{"1,0,1", 4, 3, []float64{1, 0, 1}, []int{0, 0, 2, 2}, 2},
		{"ngl 3 of 5 with 2,1", 3, 2, []float64{2, 1}, []int{0, 0, 1}, 1},
		{"fractions", 5, 2, []float64{0.2, 0.8}, []int{0, 1, 1, 1, 1}, 1},
		{"one device", 5, 1, []float64{7}, []int{0, 0, 0, 0, 0}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, out := splitDevices(tc.n, tc.dev, tc.split)
			if !slices.Equal(got, tc.want) || out != tc.out {
				t.Fatalf("splitDevices(%d, %d, %v) = %v, output %d; want %v, output %d", tc.n, tc.dev, tc.split, got, out, tc.want, tc.out)
			}
		})
	}
}

func TestValidateTensorSplit(t *testing.T) {
	for _, tc := range []struct {
		name  string
		split []float64
		devs  int
		ok    bool
	}{
		{"nil", nil, 0, true},
		{"3,1", []float64{3, 1}, 2, true},
		{"fewer than devices", []float64{1}, 3, true},
		{"count unknown", []float64{1, 2, 3}, -1, true},
		{"too many", []float64{1, 1, 1}, 2, false},
		{"no gpu", []float64{1}, 0, false},
		{"negative", []float64{1, -1}, 2, false},
		{"NaN", []float64{math.NaN()}, 1, false},
		{"Inf", []float64{math.Inf(1)}, 1, false},
		{"all zero", []float64{0, 0}, 2, false},
		{"sum overflows", []float64{math.MaxFloat64, math.MaxFloat64}, 2, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := ValidateTensorSplit(tc.split, tc.devs)
			if tc.ok != (err == nil) {
				t.Fatalf("ValidateTensorSplit(%v, %d) = %v, want ok %v", tc.split, tc.devs, err, tc.ok)
			}
			if err != nil && !errors.Is(err, rt.ErrInvalidArgument) {
				t.Fatalf("error %v does not wrap ErrInvalidArgument", err)
			}
		})
	}
}

func TestParseTensorSplit(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []float64
		ok   bool
	}{
		{"", nil, true},
		{"3,1", []float64{3, 1}, true},
		{" 0.5 , 1.5 ", []float64{0.5, 1.5}, true},
		{",1", []float64{0, 1}, true},
		{"1,x", nil, false},
		{"0,0", nil, false},
		{"-1,2", nil, false},
		{"nan", nil, false},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseTensorSplit(tc.in)
			if tc.ok != (err == nil) {
				t.Fatalf("ParseTensorSplit(%q) error %v, want ok %v", tc.in, err, tc.ok)
			}
			if tc.ok && !slices.Equal(got, tc.want) {
				t.Fatalf("ParseTensorSplit(%q) = %v, want %v", tc.in, got, tc.want)
			}
			if err != nil && !errors.Is(err, rt.ErrInvalidArgument) {
				t.Fatalf("error %v does not wrap ErrInvalidArgument", err)
			}
		})
	}
}
