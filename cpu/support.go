package cpu

import (
	"fmt"

	rt "github.com/gpurt/gpurt/runtime"
)

// supportsOp reports whether the CPU kernels handle t's op, dtypes and
// shapes. It accepts exactly the dtype combinations the runtime's op
// constructors accept.
func supportsOp(t *rt.Tensor) bool { return t != nil && validate(t) == nil }

func f32OrF16(t rt.DType) bool { return t == rt.F32 || t == rt.F16 }

// weightType reports whether MUL_MAT takes t as src0.
func weightType(t rt.DType) bool {
	return t == rt.F32 || t == rt.F16 || t == rt.BF16 || t == rt.Q8_0 || t == rt.Q4_0
}

// cpyAllowed mirrors Context.Cpy: I32 converts only to and from plain floats.
func cpyAllowed(from, to rt.DType) bool {
	plain := func(t rt.DType) bool { return t == rt.F32 || t == rt.F16 || t == rt.BF16 }
	return (from == rt.I32) == (to == rt.I32) || plain(from) || plain(to)
}

func shp(t *rt.Tensor) string { return fmt.Sprintf("%v%s", t.Type, rt.ShapeString(t.Ne)) }

// divides reports whether d divides n, treating 0/0 as fitting (both empty).
func divides(n, d int) bool {
	if d == 0 {
		return n == 0
	}
	return n%d == 0
}

// validate checks t's op, dtypes and shapes against what the kernels
// compute; memory is checked later, by resolve.
func validate(t *rt.Tensor) error {
	if !t.Type.Valid() {
		return fmt.Errorf("unsupported result dtype %v", t.Type)
	}
	if t.Op == rt.OpNone || t.Op.IsView() {
		return nil
	}
	nsrc := 1
	switch t.Op {
	case rt.OpCpy, rt.OpGetRows, rt.OpSetRows, rt.OpConcat, rt.OpRope, rt.OpMulMat:
		nsrc = 2
	case rt.OpAdd, rt.OpSub, rt.OpMul, rt.OpDiv:
		nsrc = 2
	}
	for i := 0; i < nsrc; i++ {
		if t.Src[i] == nil {
			return fmt.Errorf("source %d is missing", i)
		}
		if !t.Src[i].Type.Valid() {
			return fmt.Errorf("source %d has unsupported dtype %v", i, t.Src[i].Type)
		}
	}
	a, b := t.Src[0], t.Src[1]
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
		if bs := t.Type.BlockSize(); t.Ne[0]%bs != 0 || a.Ne[0]%bs != 0 {
			return fmt.Errorf("%v rows must be whole blocks: %s from %s", t.Type, shp(t), shp(a))
		}
	case rt.OpCpy:
		if t.Type != b.Type || t.Nelements() != a.Nelements() {
			return fmt.Errorf("result %s does not fit copy of %s into %s", shp(t), shp(a), shp(b))
		}
		if !cpyAllowed(a.Type, t.Type) {
			return fmt.Errorf("unsupported conversion %v to %v", a.Type, t.Type)
		}
		if t.Type.IsQuantized() && (!t.IsContiguous() || t.Ne[0]%t.Type.BlockSize() != 0) {
			return fmt.Errorf("quantized destination %s must be contiguous whole blocks", shp(t))
		}
	case rt.OpGetRows:
		want := rt.F32
		if a.Type == rt.I32 {
			want = rt.I32
		}
		if b.Type != rt.I32 {
			return fmt.Errorf("indices must be i32, got %v", b.Type)
		}
		if t.Type != want || a.Ne[2] != b.Ne[1] || a.Ne[3] != b.Ne[2] || b.Ne[3] != 1 ||
			t.Ne != [rt.MaxDims]int{a.Ne[0], b.Ne[0], b.Ne[1], b.Ne[2]} {
			return fmt.Errorf("result %s does not fit rows of %s picked by %s", shp(t), shp(a), shp(b))
		}
	case rt.OpSetRows:
		// Src[0] holds the F32 rows, Src[1] the indices; t is the target.
		idx := b
		if a.Type != rt.F32 || idx.Type != rt.I32 {
			return fmt.Errorf("want f32 rows and i32 indices, got %s and %s", shp(a), shp(idx))
		}
		if t.Type == rt.I32 {
			return fmt.Errorf("unsupported destination dtype %v", t.Type)
		}
		if t.Ne[0] != a.Ne[0] || a.Ne[1] != idx.Ne[0] || a.Ne[2] != t.Ne[2] || a.Ne[3] != t.Ne[3] ||
			!divides(a.Ne[2], idx.Ne[1]) || !divides(a.Ne[3], idx.Ne[2]) || idx.Ne[3] != 1 {
			return fmt.Errorf("destination %s, rows %s and indices %s do not fit", shp(t), shp(a), shp(idx))
		}
		if !t.IsContiguousRows() || t.Ne[0]%t.Type.BlockSize() != 0 {
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
			return fmt.Errorf("unsupported dtypes %s, %s -> %v (want f32 or f16)", shp(a), shp(b), t.Type)
		}
		if !rt.CanRepeat(b, a) {
			return fmt.Errorf("%s cannot be broadcast to %s", shp(b), shp(a))
		}
		return sameShape()
	case rt.OpScale, rt.OpSqr, rt.OpSqrt, rt.OpClamp,
		rt.OpSilu, rt.OpGelu, rt.OpRelu, rt.OpTanh, rt.OpSigmoid, rt.OpExp, rt.OpNeg:
		if !f32OrF16(a.Type) || t.Type != a.Type {
			return fmt.Errorf("unsupported dtypes %s -> %v (want f32 or f16)", shp(a), t.Type)
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
		if !weightType(a.Type) || b.Type != rt.F32 || t.Type != rt.F32 {
			return fmt.Errorf("unsupported dtypes %s x %s -> %v", shp(a), shp(b), t.Type)
		}
		if a.Ne[0] != b.Ne[0] || !divides(b.Ne[2], a.Ne[2]) || !divides(b.Ne[3], a.Ne[3]) || a.IsTransposed() ||
			t.Ne != [rt.MaxDims]int{a.Ne[1], b.Ne[1], b.Ne[2], b.Ne[3]} {
			return fmt.Errorf("shapes %s x %s -> %s do not fit", shp(a), shp(b), shp(t))
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
			return fmt.Errorf("unknown mode %d", mode)
		}
		if nDims <= 0 || nDims%2 != 0 || nDims > a.Ne[0] {
			return fmt.Errorf("n_dims %d must be even and at most ne0 of %s", nDims, shp(a))
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
