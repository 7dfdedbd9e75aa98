package vk

import (
	"fmt"

	rt "github.com/gpurt/gpurt/runtime"
)

// SupportsOp reports whether the shaders compute t exactly as the CPU
// backend does: runtime.ValidateNode's op set, within the memory layouts
// the shaders address.
func (d *Device) SupportsOp(t *rt.Tensor) bool {
	return t != nil && !d.disabled[t.Op] && check(t) == nil
}

// shaderQuant reports whether the shaders decode quantized type t. The
// runtime knows more weight types than the shaders do yet; a tensor of any
// other quantized type is left to the CPU.
func shaderQuant(t rt.DType) bool { return t == rt.Q8_0 || t == rt.Q4_0 }

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
	}
	return nil
}
