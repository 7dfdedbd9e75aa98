package optest

import (
	"math"
	"strings"
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
)

func TestCompare(t *testing.T) {
	inf, nan := float32(math.Inf(1)), float32(math.NaN())
	ne := shape(2, 2)
	for _, tc := range []struct {
		name      string
		got, want []float32
		integer   bool
		max       float64
		err       string // "" = pass
	}{
		{"equal", []float32{1, 2, 3, 4}, []float32{1, 2, 3, 4}, false, 1e-7, ""},
		{"within", []float32{1, 2, 3, 4.0001}, []float32{1, 2, 3, 4}, false, 1e-7, ""},
		{"beyond", []float32{1, 2, 3, 4.01}, []float32{1, 2, 3, 4}, false, 1e-7, "largest difference at [1,1,0,0]: got 4.01, want 4"},
		{"nan", []float32{1, nan, 3, 4}, []float32{1, 2, 3, 4}, false, 1, "NaN at [1,0,0,0]"},
		{"reference nan", []float32{1, 2, 3, 4}, []float32{1, 2, nan, 4}, false, 1, "reference produced NaN at [0,1,0,0]"},
		{"both nan", []float32{nan, 2, 3, 4}, []float32{nan, 2, 3, 4}, false, 1, "reference produced NaN"},
		{"matching inf", []float32{-inf, 2, inf, 4}, []float32{-inf, 2, inf, 4}, false, 1e-7, ""},
		{"inf sign", []float32{-inf, 2, 3, 4}, []float32{inf, 2, 3, 4}, false, 1, "got -Inf at [0,0,0,0], want +Inf"},
		{"inf for finite", []float32{1, 2, 3, inf}, []float32{1, 2, 3, 4}, false, 1, "got +Inf at [1,1,0,0], want 4"},
		{"integers", []float32{1, 2, 3, 5}, []float32{1, 2, 3, 4}, true, 1, "got 5 at [1,1,0,0], want 4"},
		{"zero reference", []float32{0, 0, 0, 1e-3}, []float32{0, 0, 0, 0}, false, 1e-7, "NMSE 1e-06"},
		{"length", []float32{1}, []float32{1, 2, 3, 4}, false, 1, "got 1 values, want 4"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := compare(tc.got, tc.want, ne, tc.integer, tc.max)
			switch {
			case tc.err == "" && err != nil:
				t.Errorf("unexpected error %v", err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Errorf("error %v, want one containing %q", err, tc.err)
			}
		})
	}
}

func TestNMSE(t *testing.T) {
	if e := NMSE([]float32{1, 2}, []float32{1, 2}); e != 0 {
		t.Errorf("NMSE of equal slices = %g", e)
	}
	// Σ(0.1²)/Σ(1²+2²) = 0.01/5
	if e := NMSE([]float32{1.1, 2}, []float32{1, 2}); math.Abs(e-0.002) > 1e-7 {
		t.Errorf("NMSE = %g, want 0.002", e)
	}
}

func TestTolerance(t *testing.T) {
	for _, tc := range []struct {
		op   rt.Op
		out  rt.DType
		want float64
	}{
		{rt.OpAdd, rt.F32, 1e-7}, {rt.OpAdd, rt.F16, 1e-6}, {rt.OpExp, rt.F32, 1e-6},
		{rt.OpCpy, rt.BF16, 3e-5}, {rt.OpCpy, rt.Q4_0, 1e-5}, {rt.OpSetRows, rt.Q8_0, 1e-5},
	} {
		if got := tolerance(tc.op, tc.out); got != tc.want {
			t.Errorf("tolerance(%v, %v) = %g, want %g", tc.op, tc.out, got, tc.want)
		}
	}
	if mulMatTolerance(rt.F32) != 1e-6 || mulMatTolerance(rt.Q4_0) != 5e-4 || mulMatTolerance(rt.F16) != 5e-4 {
		t.Error("MUL_MAT tolerances changed")
	}
}
