package runtime_test

import (
	"math"
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
)

func TestQuantizeRoundTripError(t *testing.T) {
	src := make([]float32, 256)
	for i := range src {
		src[i] = float32(math.Sin(float64(i)*0.37)) * 3
	}
	tests := []struct {
		dtype  rt.DType
		maxErr float64
	}{
		{rt.F32, 0}, {rt.F16, 2e-3}, {rt.BF16, 2e-2}, {rt.Q8_0, 3.0 / 127}, {rt.Q4_0, 3.0 / 7},
		// The other types, with bounds of about one quantization step for
		// values in [-3, 3] (the ternary types only keep signs and zeros).
		{rt.Q8_1, 3.0 / 127}, {rt.Q8_K, 3.0 / 127}, {rt.Q4_1, 6.0 / 15}, {rt.Q5_0, 3.0 / 15}, {rt.Q5_1, 6.0 / 31},
		{rt.Q2_K, 6.0 / 3}, {rt.Q3_K, 3.0 / 3}, {rt.Q4_K, 6.0 / 15}, {rt.Q5_K, 6.0 / 31}, {rt.Q6_K, 3.0 / 31},
		{rt.IQ4_NL, 3.0 / 6}, {rt.IQ4_XS, 3.0 / 6}, {rt.MXFP4, 1}, {rt.TQ1_0, 3}, {rt.TQ2_0, 3},
	}
	for _, tc := range tests {
		buf := make([]byte, tc.dtype.RowSize(len(src)))
		if err := rt.QuantizeRow(tc.dtype, src, buf); err != nil {
			t.Fatal(err)
		}
		got := make([]float32, len(src))
		if err := rt.DequantizeRow(tc.dtype, buf, got); err != nil {
			t.Fatal(err)
		}
		worst := 0.0
		for i := range src {
			worst = math.Max(worst, math.Abs(float64(got[i]-src[i])))
		}
		if worst > tc.maxErr {
			t.Errorf("%v: max error %g > %g", tc.dtype, worst, tc.maxErr)
		}
	}
	if err := rt.QuantizeRow(rt.Q4_0, src[:31], make([]byte, 100)); err == nil {
		t.Error("31 elements into q4_0 should fail")
	}
	if err := rt.DequantizeRow(rt.Q8_0, make([]byte, 10), make([]float32, 32)); err == nil {
		t.Error("short q8_0 source should fail")
	}
}
