package vk

import rt "github.com/gpurt/gpurt/runtime"

// quantizeK reports whether quant_k.glsl encodes dtype t (the rows_k
// variant of rows.comp): the super-block types, IQ4_NL and MXFP4.
func quantizeK(t rt.DType) bool {
	switch t {
	case rt.Q2_K, rt.Q3_K, rt.Q4_K, rt.Q5_K, rt.Q6_K, rt.IQ4_NL, rt.IQ4_XS, rt.TQ1_0, rt.TQ2_0, rt.MXFP4:
		return true
	}
	return false
}

// rowsVariant is the rows.comp variant for t: rows_k for SET_ROWS and
// copies into the types of quant_k.glsl, rows (without the quantizers)
// otherwise.
func rowsVariant(t *rt.Tensor) string {
	if t.Op != rt.OpGetRows && quantizeK(t.Type) {
		return "rows_k"
	}
	return "rows"
}
