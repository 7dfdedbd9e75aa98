package vk

import (
	"fmt"

	rt "github.com/gpurt/gpurt/runtime"
)

// SupportsOp reports whether the shaders compute t exactly as the CPU
// backend does: its op, dtypes, shapes and memory layout.
func (d *Device) SupportsOp(t *rt.Tensor) bool {
	return t != nil && !d.disabled[t.Op] && check(t) == nil
}

func shp(t *rt.Tensor) string { return fmt.Sprintf("%v%s", t.Type, rt.ShapeString(t.Ne)) }

func plainFloat(t rt.DType) bool { return t == rt.F32 || t == rt.F16 || t == rt.BF16 }
func f32OrF16(t rt.DType) bool   { return t == rt.F32 || t == rt.F16 }

func divides(n, d int) bool {
	if d == 0 {
		return n == 0
	}
	return n%d == 0
}

// layoutOK checks what the shaders assume of a tensor's memory: element
// strides aligned to the element size, whole blocks along dim 0 with packed
// blocks for quantized types, and sizes that fit 31 bits.
func layoutOK(t *rt.Tensor) error {
	if !t.Type.Valid() {
		return fmt.Errorf("unsupported dtype %v", t.Type)
	}
	if t.Nelements() >= 1<<31 || t.Nbytes() >= 1<<32 {
		return fmt.Errorf("%s is too large", shp(t))
	}
	a := elemAlign(t.Type)
	for i, nb := range t.Nb {
		if nb < 0 || (nb%a != 0 && t.Ne[i] > 1) {
			return fmt.Errorf("%s: stride nb[%d]=%d is not a multiple of %d", shp(t), i, nb, a)
		}
	}
	if t.Type.IsQuantized() {
		if t.Ne[0]%t.Type.BlockSize() != 0 {
			return fmt.Errorf("%s: rows are not whole blocks", shp(t))
		}
		if t.Nb[0] != t.Type.TypeSize() {
			return fmt.Errorf("%s: blocks are not packed along dim 0", shp(t))
		}
	}
	return nil
}

// check explains why t cannot run here, or returns nil.
func check(t *rt.Tensor) error {
	if t.Op == rt.OpNone || t.Op.IsView() {
		return nil
	}
	if err := layoutOK(t); err != nil {
		return err
	}
	nsrc := 1
	switch t.Op {
	case rt.OpCpy, rt.OpGetRows, rt.OpSetRows, rt.OpConcat, rt.OpRope, rt.OpMulMat,
		rt.OpAdd, rt.OpSub, rt.OpMul, rt.OpDiv:
		nsrc = 2
	case rt.OpSoftMax:
		if t.Src[1] != nil {
			if err := layoutOK(t.Src[1]); err != nil {
				return err
			}
		}
	}
	for i := 0; i < nsrc; i++ {
		if t.Src[i] == nil {
			return fmt.Errorf("source %d is missing", i)
		}
		if err := layoutOK(t.Src[i]); err != nil {
			return err
		}
	}
	a, b := t.Src[0], t.Src[1]
	if a == nil {
		return fmt.Errorf("source 0 is missing")
	}
	sameShape := func() error {
		if t.Ne != a.Ne {
			return fmt.Errorf("result %s does not match source %s", shp(t), shp(a))
		}
		return nil
	}
	switch t.Op {
	case rt.OpDup, rt.OpCont:
		if t.Type != a.Type || t.Nelements() != a.Nelements() {
			return fmt.Errorf("result %s is not a copy of %s", shp(t), shp(a))
		}
	case rt.OpCpy:
		if t.Type != b.Type || t.Nelements() != a.Nelements() {
			return fmt.Errorf("result %s does not fit copy of %s into %s", shp(t), shp(a), shp(b))
		}
		if (a.Type == rt.I32) != (t.Type == rt.I32) && !plainFloat(a.Type) && !plainFloat(t.Type) {
			return fmt.Errorf("unsupported conversion %v to %v", a.Type, t.Type)
		}
		if t.Type.IsQuantized() && t.Type != a.Type {
			// Quantizing works block by block on matching shapes.
			if !t.IsContiguous() || t.Ne != a.Ne {
				return fmt.Errorf("quantizing %s into %s needs a contiguous destination of the same shape", shp(a), shp(t))
			}
		}
	case rt.OpGetRows:
		want := rt.F32
		if a.Type == rt.I32 {
			want = rt.I32
		}
		if b.Type != rt.I32 || t.Type != want || a.Ne[2] != b.Ne[1] || a.Ne[3] != b.Ne[2] || b.Ne[3] != 1 ||
			t.Ne != [rt.MaxDims]int{a.Ne[0], b.Ne[0], b.Ne[1], b.Ne[2]} {
			return fmt.Errorf("result %s does not fit rows of %s picked by %s", shp(t), shp(a), shp(b))
		}
	case rt.OpSetRows:
		idx := b
		if a.Type != rt.F32 || idx.Type != rt.I32 || t.Type == rt.I32 {
			return fmt.Errorf("want f32 rows, i32 indices and a float destination: %s, %s, %s", shp(a), shp(idx), shp(t))
		}
		if t.Ne[0] != a.Ne[0] || a.Ne[1] != idx.Ne[0] || a.Ne[2] != t.Ne[2] || a.Ne[3] != t.Ne[3] ||
			!divides(a.Ne[2], idx.Ne[1]) || !divides(a.Ne[3], idx.Ne[2]) || idx.Ne[3] != 1 {
			return fmt.Errorf("destination %s, rows %s and indices %s do not fit", shp(t), shp(a), shp(idx))
		}
		if !t.IsContiguousRows() {
			return fmt.Errorf("destination rows of %s must be contiguous", shp(t))
		}
	case rt.OpConcat:
		dim := int(t.Params[0])
		if a.Type != b.Type || a.Type.IsQuantized() || t.Type != a.Type {
			return fmt.Errorf("dtypes must match and be unquantized: %s, %s", shp(a), shp(b))
		}
		if dim < 0 || dim >= rt.MaxDims {
			return fmt.Errorf("dim %d out of range", dim)
		}
		for i := 0; i < rt.MaxDims; i++ {
			want := a.Ne[i]
			if i == dim {
				want += b.Ne[i]
			} else if a.Ne[i] != b.Ne[i] {
				return fmt.Errorf("dim %d differs in %s and %s", i, shp(a), shp(b))
			}
			if t.Ne[i] != want {
				return fmt.Errorf("result %s is not %s and %s joined on dim %d", shp(t), shp(a), shp(b), dim)
			}
		}
	case rt.OpAdd, rt.OpSub, rt.OpMul, rt.OpDiv:
		if !f32OrF16(a.Type) || !f32OrF16(b.Type) || t.Type != a.Type {
			return fmt.Errorf("unsupported dtypes %s, %s -> %v", shp(a), shp(b), t.Type)
		}
		if !rt.CanRepeat(b, a) {
			return fmt.Errorf("%s cannot be broadcast to %s", shp(b), shp(a))
		}
		return sameShape()
	case rt.OpScale, rt.OpSqr, rt.OpSqrt, rt.OpClamp,
		rt.OpSilu, rt.OpGelu, rt.OpRelu, rt.OpTanh, rt.OpSigmoid, rt.OpExp, rt.OpNeg:
		if !f32OrF16(a.Type) || t.Type != a.Type {
			return fmt.Errorf("unsupported dtypes %s -> %v", shp(a), t.Type)
		}
		return sameShape()
	case rt.OpSum, rt.OpSumRows, rt.OpMean, rt.OpNorm, rt.OpRmsNorm, rt.OpArgmax:
		if a.Type != rt.F32 {
			return fmt.Errorf("unsupported dtype %v (want f32)", a.Type)
		}
		want, wantType := a.Ne, rt.F32
		switch t.Op {
		case rt.OpSum:
			want = [rt.MaxDims]int{1, 1, 1, 1}
		case rt.OpSumRows, rt.OpMean:
			want[0] = 1
		case rt.OpArgmax:
			if a.Ne[2] != 1 || a.Ne[3] != 1 {
				return fmt.Errorf("want a matrix, got %s", shp(a))
			}
			want, wantType = [rt.MaxDims]int{a.Ne[1], 1, 1, 1}, rt.I32
		}
		if t.Ne != want || t.Type != wantType {
			return fmt.Errorf("result %s, want %v%s", shp(t), wantType, rt.ShapeString(want))
		}
	case rt.OpMulMat:
		if weightSuffix[a.Type] == "" || b.Type != rt.F32 || t.Type != rt.F32 {
			return fmt.Errorf("unsupported dtypes %s x %s -> %v", shp(a), shp(b), t.Type)
		}
		if a.Ne[0] != b.Ne[0] || !divides(b.Ne[2], a.Ne[2]) || !divides(b.Ne[3], a.Ne[3]) ||
			t.Ne != [rt.MaxDims]int{a.Ne[1], b.Ne[1], b.Ne[2], b.Ne[3]} {
			return fmt.Errorf("shapes %s x %s -> %s do not fit", shp(a), shp(b), shp(t))
		}
		if a.Ne[0] > 1 && a.Nb[0] != a.Type.TypeSize() {
			return fmt.Errorf("weight %s must have contiguous rows", shp(a))
		}
		if b.Ne[2]*b.Ne[3] > maxGroups {
			return fmt.Errorf("%d batches exceed %d", b.Ne[2]*b.Ne[3], maxGroups)
		}
	case rt.OpRope:
		nDims, mode := int(t.Params[0]), int(t.Params[1])
		if !f32OrF16(a.Type) || t.Type != a.Type {
			return fmt.Errorf("unsupported dtypes %s -> %v", shp(a), t.Type)
		}
		if b.Type != rt.I32 || b.Ne[0] != a.Ne[2] || b.Nelements() != b.Ne[0] {
			return fmt.Errorf("positions %s must be i32 with one entry per token of %s", shp(b), shp(a))
		}
		if mode != rt.RopeNormal && mode != rt.RopeNeox {
			return fmt.Errorf("unknown rope mode %d", mode)
		}
		if nDims <= 0 || nDims%2 != 0 || nDims > a.Ne[0] || a.Ne[0]%2 != 0 {
			return fmt.Errorf("n_dims %d must be even and at most the even ne0 of %s", nDims, shp(a))
		}
		if !(t.ParamF(2) > 0) {
			return fmt.Errorf("freq_base %g must be positive", t.ParamF(2))
		}
		return sameShape()
	case rt.OpSoftMax:
		if a.Type != rt.F32 || t.Type != rt.F32 {
			return fmt.Errorf("unsupported dtypes %s -> %v", shp(a), t.Type)
		}
		if m := b; m != nil {
			if !f32OrF16(m.Type) {
				return fmt.Errorf("unsupported mask dtype %v", m.Type)
			}
			if m.Ne[0] != a.Ne[0] || m.Ne[1] < a.Ne[1] || !divides(a.Ne[2], m.Ne[2]) || !divides(a.Ne[3], m.Ne[3]) {
				return fmt.Errorf("mask %s does not fit %s", shp(m), shp(a))
			}
		}
		return sameShape()
	case rt.OpDiagMaskInf:
		if a.Type != rt.F32 || t.Type != rt.F32 {
			return fmt.Errorf("unsupported dtypes %s -> %v", shp(a), t.Type)
		}
		if t.Params[0] < 0 {
			return fmt.Errorf("negative n_past %d", t.Params[0])
		}
		return sameShape()
	default:
		return fmt.Errorf("unsupported op %v", t.Op)
	}
	return nil
}
