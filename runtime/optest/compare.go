package optest

import (
	"fmt"
	"math"

	rt "github.com/gpurt/gpurt/runtime"
)

var negInf = math.Inf(-1)

// Error thresholds, as normalized mean squared error Σ(got-want)²/Σwant².
// Backends may sum in a different order, fuse multiply-adds and use their
// own exp/sin/tanh; they may not lose precision beyond the output dtype.
const (
	nmseExact      = 1e-7 // f32 arithmetic: +, *, /, sqrt, copies
	nmseTranscend  = 1e-6 // f32 exp, tanh, sigmoid, sin/cos: GPU libm differs in the last bits
	nmseF16        = 1e-6 // results rounded to f16: one ulp either way everywhere stays below
	nmseBF16       = 3e-5 // results rounded to bf16
	nmseQuantDst   = 1e-5 // values quantized on the device (CPY/SET_ROWS into a block type)
	nmseMulMatF32  = 1e-6 // f32 weights: order of summation only
	nmseMulMatLowP = 5e-4 // f16/bf16/quantized weights: backends may round src1 to f16 or q8_0, as ggml does
	nmseFlashAttn  = 1e-5 // f32/f16 K and V: two chained f32 dot products and exps
)

// tolerance is the threshold for op producing dtype out.
func tolerance(op rt.Op, out rt.DType) float64 {
	t := nmseExact
	switch op {
	case rt.OpExp, rt.OpSilu, rt.OpGelu, rt.OpGeluErf, rt.OpTanh, rt.OpSigmoid, rt.OpSoftMax, rt.OpRope, rt.OpGLU:
		t = nmseTranscend
	case rt.OpMulMat:
		t = nmseMulMatF32
	}
	switch out {
	case rt.F16:
		t = max(t, nmseF16)
	case rt.BF16:
		t = max(t, nmseBF16)
	default:
		if out.IsQuantized() {
			t = max(t, nmseQuantDst)
		}
	}
	return t
}

// mulMatTolerance is the threshold for MUL_MAT with weights of dtype w.
func mulMatTolerance(w rt.DType) float64 {
	if w == rt.F32 {
		return nmseMulMatF32
	}
	return nmseMulMatLowP
}

// NMSE is Σ(got-want)²/Σwant² over the pairs where both are finite, or the
// plain sum of squared differences when want is all zeros.
func NMSE(got, want []float32) float64 {
	var diff, norm float64
	for i := range want {
		g, w := float64(got[i]), float64(want[i])
		if math.IsInf(g, 0) || math.IsInf(w, 0) || math.IsNaN(g) || math.IsNaN(w) {
			continue
		}
		diff += (g - w) * (g - w)
		norm += w * w
	}
	if norm == 0 {
		return diff
	}
	return diff / norm
}

// compare checks got against want, both in logical order of shape ne. Any
// NaN fails; an infinity must be matched by one of the same sign. Integer
// results must be equal; float results must be within maxNMSE.
func compare(got, want []float32, ne [rt.MaxDims]int, integer bool, maxNMSE float64) (float64, error) {
	if len(got) != len(want) {
		return 0, fmt.Errorf("got %d values, want %d", len(got), len(want))
	}
	for i := range want {
		g, w := float64(got[i]), float64(want[i])
		switch {
		case math.IsNaN(w):
			return 0, fmt.Errorf("reference produced NaN at %s", coords(i, ne))
		case math.IsNaN(g):
			return 0, fmt.Errorf("NaN at %s, want %g", coords(i, ne), w)
		case math.IsInf(g, 0) || math.IsInf(w, 0):
			if g != w {
				return 0, fmt.Errorf("got %g at %s, want %g", g, coords(i, ne), w)
			}
		case integer && g != w:
			return 0, fmt.Errorf("got %g at %s, want %g", g, coords(i, ne), w)
		}
	}
	e := NMSE(got, want)
	if e > maxNMSE || math.IsNaN(e) {
		i := worst(got, want)
		return e, fmt.Errorf("NMSE %.3g exceeds %.0e; largest difference at %s: got %g, want %g",
			e, maxNMSE, coords(i, ne), got[i], want[i])
	}
	return e, nil
}

// worst is the index of the largest finite difference.
func worst(got, want []float32) int {
	best, bi := -1.0, 0
	for i := range want {
		d := math.Abs(float64(got[i]) - float64(want[i]))
		if !math.IsNaN(d) && !math.IsInf(d, 0) && d > best {
			best, bi = d, i
		}
	}
	return bi
}

// coords formats flat index i of shape ne as [i0,i1,i2,i3].
func coords(i int, ne [rt.MaxDims]int) string {
	var c [rt.MaxDims]int
	for d := 0; d < rt.MaxDims; d++ {
		if ne[d] > 0 {
			c[d] = i % ne[d]
			i /= ne[d]
		}
	}
	return fmtNe(c)
}
