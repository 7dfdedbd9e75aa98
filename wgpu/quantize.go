//go:build cgo

package wgpu

import (
	"slices"
	"strconv"
	"strings"

	rt "github.com/gpurt/gpurt/runtime"
)

// quantizeKWGSL is quantize_k.wgsl: the quantizers of the super-block types,
// IQ4_NL and MXFP4, appended instead of quantize.wgsl to a written binding of
// those types.
var quantizeKWGSL = embeddedWGSL("quantize_k.wgsl")

// onlyFor keeps the paragraphs of src (blocks separated by blank lines)
// that are for dtype t: those without an "// @only ids" first line, and
// those whose ids include t's. Leaving the other types' searches out
// shortens the compile on lavapipe by about half.
func onlyFor(src string, t rt.DType) string {
	paras := strings.Split(src, "\n\n")
	keep := paras[:0]
	id := strconv.Itoa(int(t))
	for _, p := range paras {
		if rest, ok := strings.CutPrefix(p, "// @only "); ok {
			ids, _, _ := strings.Cut(rest, "\n")
			if !slices.Contains(strings.Fields(ids), id) {
				continue
			}
		}
		keep = append(keep, p)
	}
	return strings.Join(keep, "\n\n")
}

// quantizeK reports whether quantize_k.wgsl encodes dtype t.
func quantizeK(t rt.DType) bool {
	switch t {
	case rt.Q2_K, rt.Q3_K, rt.Q4_K, rt.Q5_K, rt.Q6_K, rt.IQ4_NL, rt.IQ4_XS, rt.TQ1_0, rt.TQ2_0, rt.MXFP4:
		return true
	}
	return false
}

// quantizerWGSL is the quantizer source for a written binding of the
// runtime-typed dtype t.
func quantizerWGSL(t rt.DType) string {
	if quantizeK(t) {
		return onlyFor(quantizeKWGSL, t)
	}
	return quantizeWGSL
}

// quantizerLoops bounds the loop iterations of one invocation of the
// quantizer of t's destination type (CPY and SET_ROWS into it): lavapipe
// ends an invocation's loops after 65535. The searches over scales
// dominate; 0 for dtypes without such a quantizer.
func quantizerLoops(t *rt.Tensor) int {
	if t.Type == t.Src[0].Type {
		return 0 // a block copy
	}
	switch t.Type {
	case rt.Q4_K, rt.Q5_K:
		// 8 sub-blocks: weights, make_qkx2's 1 + 21 (16) candidates of 2-3
		// passes over 32, requantization; packing and the copies.
		return 8*(64+32+21*96+32) + 2*256 + 56 + 176
	case rt.Q2_K:
		return 16*(16+16+16*48+16) + 2*256 + 56 + 84
	case rt.Q6_K:
		return 16*(16+16+18*32+16) + 2*256 + 56 + 210
	case rt.Q3_K:
		return 16*(16+16+5*16+16) + 3*256 + 56 + 110
	case rt.IQ4_XS:
		// the fit's first pass and 15 candidates, each value a binary
		// search of four steps.
		return 8*(32+16*32*5+32*5+16) + 256 + 56 + 136
	case rt.IQ4_NL:
		return 32 + 32*5 + 16 + 32 + 56 + 18
	case rt.MXFP4:
		return 32 + 32*16 + 17
	case rt.TQ1_0, rt.TQ2_0:
		return 256*3 + 56 + 66
	}
	return 0
}
