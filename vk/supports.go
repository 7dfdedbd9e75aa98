package vk

import (
	"fmt"

	rt "github.com/gpurt/gpurt/runtime"
)

// SupportsOp reports whether the shaders compute t exactly as the CPU
// backend does: runtime.ValidateNode's op set, within the memory layouts
// the shaders address.
func (d *Device) SupportsOp(t *rt.Tensor) bool {
	if t != nil && t.Op == rt.OpFlashAttnExt && d.software && flashAttnLoops(t) > llvmpipeLoopBudget {
		return false // the scheduler runs such long contexts elsewhere
	}
	return t != nil && !d.disabled[t.Op] && check(t) == nil
}

// shaderQuant reports whether the shaders decode quantized type t
// (dequant.glsl and the Q8_0/Q4_0 loaders); a tensor of any other quantized
// type is left to the CPU.
func shaderQuant(t rt.DType) bool {
	switch t {
	case rt.Q4_0, rt.Q4_1, rt.Q5_0, rt.Q5_1, rt.Q8_0, rt.Q2_K, rt.Q3_K, rt.Q4_K, rt.Q5_K, rt.Q6_K,
		rt.IQ4_NL, rt.IQ4_XS, rt.MXFP4, rt.TQ1_0, rt.TQ2_0:
		return true
	}
	return false
}

// llvmpipeLoopBudget is the most loop iterations one invocation may run on
// lavapipe, which silently ends every loop of an invocation once 65535
// have run in total (with a margin).
const llvmpipeLoopBudget = 65535 - 64

// flashAttnLoops estimates the loop iterations of one flash_attn.comp
// invocation: per tile of keys, the dot over D, each owned output dim
// over the tile, and two shared-memory reductions.
func flashAttnLoops(t *rt.Tensor) int {
	q, k, v := t.Src[0], t.Src[1], t.Src[2]
	if q == nil || k == nil || v == nil {
		return 0
	}
	tiles := (k.Ne[1] + wgFlashAttn - 1) / wgFlashAttn
	owned := (v.Ne[0] + wgFlashAttn - 1) / wgFlashAttn
	return q.Ne[0] + tiles*(q.Ne[0]+owned*min(wgFlashAttn, k.Ne[1])+2*7)
}

func shp(t *rt.Tensor) string { return fmt.Sprintf("%v%s", t.Type, rt.ShapeString(t.Ne)) }

// layoutOK checks what the shaders assume of a tensor's memory: element
// strides aligned to the element size, packed blocks along dim 0 for
// quantized types, and sizes that fit 31 bits of elements and 32 of bytes.
func layoutOK(t *rt.Tensor) error {
	if t.Nelements() >= 1<<31 || t.Nbytes() >= 1<<32 {
		return fmt.Errorf("%s is too large", shp(t))
	}
	a := elemAlign(t.Type)
	for i, nb := range t.Nb {
		if nb < 0 || (nb%a != 0 && t.Ne[i] > 1) {
			return fmt.Errorf("%s: stride nb[%d]=%d is not a multiple of %d", shp(t), i, nb, a)
		}
	}
	if t.Type.IsQuantized() && t.Nb[0] != t.Type.TypeSize() {
		return fmt.Errorf("%s: blocks are not packed along dim 0", shp(t))
	}
	return nil
}

// check explains why t cannot run here, or returns nil.
func check(t *rt.Tensor) error {
	if err := rt.ValidateNode(t); err != nil {
		return err
	}
	if t.Op == rt.OpNone || t.Op.IsView() {
		return nil
	}
	for _, x := range append([]*rt.Tensor{t}, t.Src[:]...) {
		if x == nil {
			continue
		}
		if x.Type.IsQuantized() && !shaderQuant(x.Type) {
			return fmt.Errorf("%s: the shaders do not decode %v yet", shp(x), x.Type)
		}
		if err := layoutOK(x); err != nil {
			return err
		}
	}
	a, b := t.Src[0], t.Src[1]
	if t.Type.IsQuantized() && !quantizable(t.Type) && (t.Op == rt.OpSetRows || (t.Op == rt.OpCpy && a.Type != t.Type)) {
		return fmt.Errorf("no %v quantizer in the shaders: %w", t.Type, rt.ErrUnsupported)
	}
	switch t.Op {
	case rt.OpCpy:
		// Quantizing works block by block on matching shapes.
		if t.Type.IsQuantized() && t.Type != a.Type && (!t.IsContiguous() || t.Ne != a.Ne) {
			return fmt.Errorf("quantizing %s into %s needs a contiguous destination of the same shape", shp(a), shp(t))
		}
	case rt.OpMulMat:
		if a.Ne[0] > 1 && a.Nb[0] != a.Type.TypeSize() {
			return fmt.Errorf("weight %s must have contiguous rows", shp(a))
		}
		if b.Ne[2]*b.Ne[3] > maxGroups {
			return fmt.Errorf("%d batches exceed %d", b.Ne[2]*b.Ne[3], maxGroups)
		}
	case rt.OpRope:
		if a.Ne[0]%2 != 0 {
			return fmt.Errorf("rope over an odd ne0: %s", shp(a))
		}
		if ff := t.Src[2]; ff != nil && ff.Ne[0] > 1 && ff.Nb[0] != 4 {
			return fmt.Errorf("frequency factors %s must be packed", shp(ff))
		}
	case rt.OpFlashAttnExt:
		return checkFlashAttn(t)
	}
	return nil
}

// checkFlashAttn checks what flash_attn.comp assumes: F32, F16, Q8_0 or
// Q4_0 keys and values, packed rows of q, k, v, the mask and the result, head sizes up
// to flashAttnMaxD and a grid within the device's limits.
func checkFlashAttn(t *rt.Tensor) error {
	q, k, v, m := t.Src[0], t.Src[1], t.Src[2], t.Src[3]
	for _, x := range []*rt.Tensor{k, v} {
		switch x.Type {
		case rt.F32, rt.F16, rt.Q8_0, rt.Q4_0:
		default:
			return fmt.Errorf("keys and values %s must be f32, f16, q8_0 or q4_0", shp(x))
		}
	}
	for _, x := range []*rt.Tensor{t, q, k, v, m} {
		if x != nil && x.Ne[0] > 1 && x.Nb[0] != x.Type.TypeSize() {
			return fmt.Errorf("%s must have packed rows", shp(x))
		}
	}
	if q.Ne[0] > flashAttnMaxD || v.Ne[0] > flashAttnMaxD {
		return fmt.Errorf("head sizes %d and %d exceed %d", q.Ne[0], v.Ne[0], flashAttnMaxD)
	}
	if q.Ne[1] > maxGroups || q.Ne[2] > maxGroups || q.Ne[3] > maxGroups {
		return fmt.Errorf("%s has too many queries, heads or sequences", shp(q))
	}
	return nil
}

// quantizable reports whether the shaders can write dtype t from F32 values
// (quant_store in common.glsl; quant_k_store in quant_k.glsl for the
// super-block types, IQ4_NL and MXFP4: see quantizeK).
func quantizable(t rt.DType) bool {
	switch t {
	case rt.Q8_0, rt.Q4_0, rt.Q4_1, rt.Q5_0, rt.Q5_1:
		return true
	}
	return quantizeK(t)
}
