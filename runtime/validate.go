package runtime

import (
	"fmt"
	"math"
)

func f32OrF16(t DType) bool { return t == F32 || t == F16 }

// weightType reports whether MUL_MAT takes t as src0.
func weightType(t DType) bool {
	return t == F32 || t == F16 || t == BF16 || (t.IsQuantized() && t.Valid())
}

// cpyAllowed mirrors Context.Cpy: I32 converts only to and from plain floats.
func cpyAllowed(from, to DType) bool {
	return (from == I32) == (to == I32) || isFloatPlain(from) || isFloatPlain(to)
}

// ValidateNode checks that t is a well-formed node of the op set: its
// sources are present, and its dtypes, shapes and parameters are ones the op
// constructors can produce. Backends call it before their own narrower
// checks, so that every backend agrees on what an op means.
func ValidateNode(t *Tensor) error {
	if err := validateNode(t); err != nil {
		return fmt.Errorf("%w: %w", err, ErrShape)
	}
	return nil
}

func validateNode(t *Tensor) error {
	if !t.Type.Valid() {
		return fmt.Errorf("unsupported result dtype %v", t.Type)
	}
	if t.Op == OpNone || t.Op.IsView() {
		return nil
	}
	nsrc := 1
	switch t.Op {
	case OpCpy, OpGetRows, OpSetRows, OpConcat, OpRope, OpMulMat, OpGLU:
		nsrc = 2
	case OpAdd, OpSub, OpMul, OpDiv:
		nsrc = 2
	case OpFlashAttnExt:
		nsrc = 3
	}
	for i := 0; i < nsrc; i++ {
		if t.Src[i] == nil {
			return fmt.Errorf("source %d is missing", i)
		}
		if !t.Src[i].Type.Valid() {
			return fmt.Errorf("source %d has unsupported dtype %v", i, t.Src[i].Type)
		}
	}
	for i := nsrc; i < MaxSrc; i++ {
		if s := t.Src[i]; s != nil && !s.Type.Valid() {
			return fmt.Errorf("source %d has unsupported dtype %v", i, s.Type)
		}
	}
	a, b := t.Src[0], t.Src[1]
	sameShape := func() error {
		if t.Ne != a.Ne {
			return fmt.Errorf("result %s does not match source %s", shapes(t), shapes(a))
		}
		return nil
	}
	switch t.Op {
	case OpDup, OpCont:
		if t.Type != a.Type || t.Nelements() != a.Nelements() {
			return fmt.Errorf("result %s is not a copy of %s", shapes(t), shapes(a))
		}
		if bs := t.Type.BlockSize(); t.Ne[0]%bs != 0 || a.Ne[0]%bs != 0 {
			return fmt.Errorf("%v rows must be whole blocks: %s from %s", t.Type, shapes(t), shapes(a))
		}
	case OpCpy:
		if t.Type != b.Type || t.Nelements() != a.Nelements() {
			return fmt.Errorf("result %s does not fit copy of %s into %s", shapes(t), shapes(a), shapes(b))
		}
		if !cpyAllowed(a.Type, t.Type) {
			return fmt.Errorf("unsupported conversion %v to %v", a.Type, t.Type)
		}
		if t.Type.IsQuantized() && (!t.IsContiguous() || t.Ne[0]%t.Type.BlockSize() != 0) {
			return fmt.Errorf("quantized destination %s must be contiguous whole blocks", shapes(t))
		}
	case OpGetRows:
		want := F32
		if a.Type == I32 {
			want = I32
		}
		if b.Type != I32 {
			return fmt.Errorf("indices must be i32, got %v", b.Type)
		}
		if t.Type != want || a.Ne[2] != b.Ne[1] || a.Ne[3] != b.Ne[2] || b.Ne[3] != 1 ||
			t.Ne != [MaxDims]int{a.Ne[0], b.Ne[0], b.Ne[1], b.Ne[2]} {
			return fmt.Errorf("result %s does not fit rows of %s picked by %s", shapes(t), shapes(a), shapes(b))
		}
	case OpSetRows:
		// Src[0] holds the F32 rows, Src[1] the indices; t is the target.
		idx := b
		if a.Type != F32 || idx.Type != I32 {
			return fmt.Errorf("want f32 rows and i32 indices, got %s and %s", shapes(a), shapes(idx))
		}
		if t.Type == I32 {
			return fmt.Errorf("unsupported destination dtype %v", t.Type)
		}
		if t.Ne[0] != a.Ne[0] || a.Ne[1] != idx.Ne[0] || a.Ne[2] != t.Ne[2] || a.Ne[3] != t.Ne[3] ||
			!divides(a.Ne[2], idx.Ne[1]) || !divides(a.Ne[3], idx.Ne[2]) || idx.Ne[3] != 1 {
			return fmt.Errorf("destination %s, rows %s and indices %s do not fit", shapes(t), shapes(a), shapes(idx))
		}
		if !t.IsContiguousRows() || t.Ne[0]%t.Type.BlockSize() != 0 {
			return fmt.Errorf("destination rows of %s must be contiguous", shapes(t))
		}
	case OpConcat:
		dim := int(t.Params[0])
		if a.Type != b.Type || a.Type.IsQuantized() || t.Type != a.Type {
			return fmt.Errorf("dtypes must match and be unquantized: %s, %s", shapes(a), shapes(b))
		}
		if dim < 0 || dim >= MaxDims {
			return fmt.Errorf("dim %d out of range", dim)
		}
		for i := 0; i < MaxDims; i++ {
			want := a.Ne[i]
			if i == dim {
				want += b.Ne[i]
			} else if a.Ne[i] != b.Ne[i] {
				return fmt.Errorf("dim %d differs in %s and %s", i, shapes(a), shapes(b))
			}
			if t.Ne[i] != want {
				return fmt.Errorf("result %s is not %s and %s joined on dim %d", shapes(t), shapes(a), shapes(b), dim)
			}
		}
	case OpAdd, OpSub, OpMul, OpDiv:
		if !f32OrF16(a.Type) || !f32OrF16(b.Type) || t.Type != a.Type {
			return fmt.Errorf("unsupported dtypes %s, %s -> %v (want f32 or f16)", shapes(a), shapes(b), t.Type)
		}
		if !CanRepeat(b, a) {
			return fmt.Errorf("%s cannot be broadcast to %s", shapes(b), shapes(a))
		}
		return sameShape()
	case OpScale, OpSqr, OpSqrt, OpClamp,
		OpSilu, OpGelu, OpGeluErf, OpRelu, OpTanh, OpSigmoid, OpExp, OpNeg:
		if !f32OrF16(a.Type) || t.Type != a.Type {
			return fmt.Errorf("unsupported dtypes %s -> %v (want f32 or f16)", shapes(a), t.Type)
		}
		return sameShape()
	case OpSum, OpSumRows, OpMean, OpNorm, OpRmsNorm, OpArgmax:
		if a.Type != F32 {
			return fmt.Errorf("unsupported dtype %v (want f32)", a.Type)
		}
		want, wantType := a.Ne, F32
		switch t.Op {
		case OpSum:
			want = [MaxDims]int{1, 1, 1, 1}
		case OpSumRows, OpMean:
			want[0] = 1
		case OpArgmax:
			if a.Ne[2] != 1 || a.Ne[3] != 1 {
				return fmt.Errorf("want a matrix, got %s", shapes(a))
			}
			want, wantType = [MaxDims]int{a.Ne[1], 1, 1, 1}, I32
		}
		if t.Ne != want || t.Type != wantType {
			return fmt.Errorf("result %s, want %v%s", shapes(t), wantType, ShapeString(want))
		}
	case OpMulMat:
		if !weightType(a.Type) || b.Type != F32 || t.Type != F32 {
			return fmt.Errorf("unsupported dtypes %s x %s -> %v", shapes(a), shapes(b), t.Type)
		}
		if a.Ne[0] != b.Ne[0] || !divides(b.Ne[2], a.Ne[2]) || !divides(b.Ne[3], a.Ne[3]) || a.IsTransposed() ||
			t.Ne != [MaxDims]int{a.Ne[1], b.Ne[1], b.Ne[2], b.Ne[3]} {
			return fmt.Errorf("shapes %s x %s -> %s do not fit", shapes(a), shapes(b), shapes(t))
		}
	case OpRope:
		return validateRope(t)
	case OpGLU:
		if !f32OrF16(a.Type) || b.Type != a.Type || t.Type != a.Type {
			return fmt.Errorf("%w: unsupported dtypes %s, %s -> %v (want one of f32 or f16)", ErrUnsupported, shapes(a), shapes(b), t.Type)
		}
		if a.Ne != b.Ne {
			return fmt.Errorf("%w: gate %s and value %s differ in shape", ErrShape, shapes(a), shapes(b))
		}
		if k := t.Params[0]; k != GLUSwiGLU && k != GLUGeGLU {
			return fmt.Errorf("%w: unknown GLU kind %d", ErrInvalidArgument, k)
		}
		return sameShape()
	case OpFlashAttnExt:
		return validateFlashAttn(t)
	case OpSoftMax:
		if a.Type != F32 || t.Type != F32 {
			return fmt.Errorf("unsupported dtype %v -> %v (want f32)", a.Type, t.Type)
		}
		if sc := t.ParamF(1); !(sc >= 0) || math.IsInf(float64(sc), 0) {
			return fmt.Errorf("%w: softcap %g must be finite and not negative", ErrInvalidArgument, sc)
		}
		if m := b; m != nil {
			if !f32OrF16(m.Type) {
				return fmt.Errorf("unsupported mask dtype %v", m.Type)
			}
			if m.Ne[0] != a.Ne[0] || m.Ne[1] < a.Ne[1] || !divides(a.Ne[2], m.Ne[2]) || !divides(a.Ne[3], m.Ne[3]) {
				return fmt.Errorf("mask %s does not fit %s", shapes(m), shapes(a))
			}
		}
		return sameShape()
	case OpDiagMaskInf:
		if a.Type != F32 || t.Type != F32 {
			return fmt.Errorf("unsupported dtypes %s -> %v", shapes(a), t.Type)
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

func finite(f float32) bool { return !math.IsInf(float64(f), 0) && !math.IsNaN(float64(f)) }

// validateRope checks a ROPE node (see Context.RopeExt).
func validateRope(t *Tensor) error {
	a, pos, ff := t.Src[0], t.Src[1], t.Src[2]
	p := RopeParamsOf(t)
	if !f32OrF16(a.Type) || t.Type != a.Type {
		return fmt.Errorf("%w: unsupported dtypes %s -> %v", ErrUnsupported, shapes(a), t.Type)
	}
	if pos.Type != I32 || pos.Ne[0] != a.Ne[2] || pos.Nelements() != pos.Ne[0] {
		return fmt.Errorf("%w: positions %s must be i32 with one entry per token of %s", ErrShape, shapes(pos), shapes(a))
	}
	if p.Mode != RopeNormal && p.Mode != RopeNeox {
		return fmt.Errorf("%w: unknown mode %d", ErrInvalidArgument, p.Mode)
	}
	if p.NDims <= 0 || p.NDims%2 != 0 || p.NDims > a.Ne[0] {
		return fmt.Errorf("%w: n_dims %d must be even and at most ne0 of %s", ErrInvalidArgument, p.NDims, shapes(a))
	}
	if !(p.FreqBase > 0) || !finite(p.FreqBase) {
		return fmt.Errorf("%w: freq_base %g must be positive", ErrInvalidArgument, p.FreqBase)
	}
	if !finite(p.FreqScale) || !finite(p.ExtFactor) || !finite(p.AttnFactor) {
		return fmt.Errorf("%w: freq_scale %g, ext_factor %g and attn_factor %g must be finite", ErrInvalidArgument, p.FreqScale, p.ExtFactor, p.AttnFactor)
	}
	if p.ExtFactor != 0 && (!(p.FreqScale > 0) || p.NCtxOrig <= 0 || !(p.BetaFast > 0) || !(p.BetaSlow > 0) ||
		!finite(p.BetaFast) || !finite(p.BetaSlow)) {
		return fmt.Errorf("%w: YaRN (ext_factor %g) needs a positive freq_scale (%g), n_ctx_orig (%d), beta_fast (%g) and beta_slow (%g)",
			ErrInvalidArgument, p.ExtFactor, p.FreqScale, p.NCtxOrig, p.BetaFast, p.BetaSlow)
	}
	if ff != nil && (ff.Type != F32 || ff.Nelements() != ff.Ne[0] || ff.Ne[0] < p.NDims/2) {
		return fmt.Errorf("%w: frequency factors %s must be f32 with at least n_dims/2 = %d entries", ErrUnsupported, shapes(ff), p.NDims/2)
	}
	if t.Ne != a.Ne {
		return fmt.Errorf("%w: result %s does not match source %s", ErrShape, shapes(t), shapes(a))
	}
	return nil
}

// kvType reports whether FLASH_ATTN_EXT takes t for K or V.
func kvType(t DType) bool { return t == F32 || t == F16 || t == BF16 || t == Q8_0 || t == Q4_0 }

// validateFlashAttn checks a FLASH_ATTN_EXT node (see Context.FlashAttnExt).
func validateFlashAttn(t *Tensor) error {
	q, k, v, m := t.Src[0], t.Src[1], t.Src[2], t.Src[3]
	if q.Type != F32 || !kvType(k.Type) || !kvType(v.Type) || t.Type != F32 {
		return fmt.Errorf("%w: unsupported dtypes q %s, k %s, v %s -> %v (want f32 q; f32, f16, bf16, q8_0 or q4_0 k and v)",
			ErrUnsupported, shapes(q), shapes(k), shapes(v), t.Type)
	}
	if k.Ne[0] != q.Ne[0] {
		return fmt.Errorf("%w: head sizes of q %s and k %s differ", ErrShape, shapes(q), shapes(k))
	}
	if v.Ne[1] != k.Ne[1] || k.Ne[3] != q.Ne[3] || v.Ne[3] != q.Ne[3] {
		return fmt.Errorf("%w: k %s and v %s must hold the same keys for the sequences of q %s", ErrShape, shapes(k), shapes(v), shapes(q))
	}
	if !divides(q.Ne[2], k.Ne[2]) || !divides(q.Ne[2], v.Ne[2]) || k.Ne[2] == 0 || v.Ne[2] == 0 {
		return fmt.Errorf("%w: %d query heads are not a multiple of the kv heads of k %s and v %s", ErrShape, q.Ne[2], shapes(k), shapes(v))
	}
	if m != nil {
		if !f32OrF16(m.Type) {
			return fmt.Errorf("%w: unsupported mask dtype %v", ErrUnsupported, m.Type)
		}
		if m.Ne[0] != k.Ne[1] || m.Ne[1] < q.Ne[1] || !divides(q.Ne[2], m.Ne[2]) || !divides(q.Ne[3], m.Ne[3]) || m.Ne[2] == 0 || m.Ne[3] == 0 {
			return fmt.Errorf("%w: mask %s does not fit %d keys, %d queries, %d heads and %d sequences", ErrShape, shapes(m), k.Ne[1], q.Ne[1], q.Ne[2], q.Ne[3])
		}
	}
	if !finite(t.ParamF(0)) {
		return fmt.Errorf("%w: scale %g must be finite", ErrInvalidArgument, t.ParamF(0))
	}
	if t.ParamF(1) != 0 {
		return fmt.Errorf("%w: max_bias %g: ALiBi", ErrUnsupported, t.ParamF(1))
	}
	if sc := t.ParamF(2); !(sc >= 0) || !finite(sc) {
		return fmt.Errorf("%w: logit softcap %g must be finite and not negative", ErrInvalidArgument, sc)
	}
	if want := [MaxDims]int{v.Ne[0], q.Ne[2], q.Ne[1], q.Ne[3]}; t.Ne != want {
		return fmt.Errorf("%w: result %s, want f32%s", ErrShape, shapes(t), ShapeString(want))
	}
	return nil
}
