package runtime

import (
	"fmt"
	"math"
)

// Op constructors. Each checks its inputs' dtypes and shapes; on a mismatch
// the context records an error naming the op, the shapes and the reason.

func (c *Context) check(op Op, srcs ...*Tensor) bool {
	if c.err != nil {
		return false
	}
	for i, s := range srcs {
		if s == nil {
			c.fail(op, "source %d is nil", i)
			return false
		}
	}
	return true
}

func shapes(ts ...*Tensor) string {
	s := ""
	for i, t := range ts {
		if i > 0 {
			s += " and "
		}
		s += fmt.Sprintf("%v%s", t.Type, ShapeString(t.Ne))
	}
	return s
}

func isFloatPlain(t DType) bool { return t == F32 || t == F16 || t == BF16 }

// divides reports whether n is a multiple of d; a zero d fits only n == 0.
func divides(n, d int) bool {
	if d == 0 {
		return n == 0
	}
	return n%d == 0
}

// Dup makes a contiguous copy of a.
func (c *Context) Dup(a *Tensor) *Tensor {
	if !c.check(OpDup, a) {
		return c.fail(OpDup, "")
	}
	return c.newTensor(a.Type, a.Ne, OpDup, a)
}

// Cont makes a contiguous copy of a, which may be a non-contiguous view.
func (c *Context) Cont(a *Tensor) *Tensor {
	if !c.check(OpCont, a) {
		return c.fail(OpCont, "")
	}
	return c.newTensor(a.Type, a.Ne, OpCont, a)
}

// ContReshape makes a contiguous copy of a with a new shape of the same size.
func (c *Context) ContReshape(a *Tensor, ne ...int) *Tensor {
	if !c.check(OpCont, a) {
		return c.fail(OpCont, "")
	}
	shape, err := fullShape(ne)
	if err != nil {
		return c.fail(OpCont, "%v", err)
	}
	if nel(shape) != a.Nelements() {
		return c.fail(OpCont, "cannot make %s into %s: element counts differ", shapes(a), ShapeString(shape))
	}
	if shape[0]%a.Type.BlockSize() != 0 {
		return c.fail(OpCont, "ne0=%d is not a multiple of %v's block size", shape[0], a.Type)
	}
	return c.newTensor(a.Type, shape, OpCont, a)
}

// Cpy copies a into b, converting dtype; the result is a view of b.
func (c *Context) Cpy(a, b *Tensor) *Tensor {
	if !c.check(OpCpy, a, b) {
		return c.fail(OpCpy, "")
	}
	if a.Nelements() != b.Nelements() {
		return c.fail(OpCpy, "element counts differ: %s", shapes(a, b))
	}
	if !cpyAllowed(a.Type, b.Type) {
		return c.fail(OpCpy, "unsupported conversion %v to %v", a.Type, b.Type)
	}
	if b.Type.IsQuantized() && !b.IsContiguous() {
		return c.fail(OpCpy, "quantized destination %s must be contiguous", shapes(b))
	}
	r := c.newView(b, b.Type, b.Ne, b.Nb, 0, OpCpy)
	r.Src[0], r.Src[1] = a, b
	r.Name = b.Name + " (copy)"
	return r
}

// Cast converts a to dtype t in a new contiguous tensor.
func (c *Context) Cast(a *Tensor, t DType) *Tensor {
	if !c.check(OpCpy, a) {
		return c.fail(OpCpy, "")
	}
	if !t.Valid() {
		return c.fail(OpCpy, "unsupported dtype %v", t)
	}
	if a.Ne[0]%t.BlockSize() != 0 {
		return c.fail(OpCpy, "cannot cast %s to %v: ne0 is not a multiple of %d", shapes(a), t, t.BlockSize())
	}
	return c.Cpy(a, c.newTensor(t, a.Ne, OpNone))
}

// GetRows picks rows of a ([ne0,rows,ne2,ne3], any dtype) at the I32
// indices b ([n,ne2,ne3]); the F32 result is [ne0,n,ne2,ne3].
func (c *Context) GetRows(a, b *Tensor) *Tensor {
	if !c.check(OpGetRows, a, b) {
		return c.fail(OpGetRows, "")
	}
	if b.Type != I32 {
		return c.fail(OpGetRows, "indices must be i32, got %v", b.Type)
	}
	if a.Ne[2] != b.Ne[1] || b.Ne[3] != 1 || a.Ne[3] != b.Ne[2] {
		return c.fail(OpGetRows, "indices %s do not match rows of %s", shapes(b), shapes(a))
	}
	t := F32
	if a.Type == I32 {
		t = I32
	}
	return c.newTensor(t, [MaxDims]int{a.Ne[0], b.Ne[0], b.Ne[1], b.Ne[2]}, OpGetRows, a, b)
}

// SetRows writes the F32 rows of b into a at the I32 row indices idx
// ([n,ne2',ne3'], broadcast over a's dims 2 and 3); the result is a view of a.
func (c *Context) SetRows(a, b, idx *Tensor) *Tensor {
	if !c.check(OpSetRows, a, b, idx) {
		return c.fail(OpSetRows, "")
	}
	if idx.Type != I32 {
		return c.fail(OpSetRows, "indices must be i32, got %v", idx.Type)
	}
	if b.Type != F32 {
		return c.fail(OpSetRows, "rows must be f32, got %v", b.Type)
	}
	if a.Type == I32 {
		return c.fail(OpSetRows, "unsupported destination dtype %v", a.Type)
	}
	if a.Ne[0] != b.Ne[0] || b.Ne[1] != idx.Ne[0] || b.Ne[2] != a.Ne[2] || b.Ne[3] != a.Ne[3] ||
		!divides(b.Ne[2], idx.Ne[1]) || !divides(b.Ne[3], idx.Ne[2]) || idx.Ne[3] != 1 {
		return c.fail(OpSetRows, "destination %s, rows and indices do not fit", shapes(a, b, idx))
	}
	if !a.IsContiguousRows() {
		return c.fail(OpSetRows, "destination rows of %s must be contiguous", shapes(a))
	}
	r := c.newView(a, a.Type, a.Ne, a.Nb, 0, OpSetRows)
	r.Src[0], r.Src[1] = b, idx
	return r
}

// Concat joins a and b along dim; all other dims must match.
func (c *Context) Concat(a, b *Tensor, dim int) *Tensor {
	if !c.check(OpConcat, a, b) {
		return c.fail(OpConcat, "")
	}
	if dim < 0 || dim >= MaxDims {
		return c.fail(OpConcat, "dim %d out of range", dim)
	}
	if a.Type != b.Type || a.Type.IsQuantized() {
		return c.fail(OpConcat, "dtypes must match and be unquantized: %s", shapes(a, b))
	}
	ne := a.Ne
	for i := 0; i < MaxDims; i++ {
		if i != dim && a.Ne[i] != b.Ne[i] {
			return c.fail(OpConcat, "dim %d differs in %s", i, shapes(a, b))
		}
	}
	ne[dim] += b.Ne[dim]
	r := c.newTensor(a.Type, ne, OpConcat, a, b)
	r.Params[0] = int32(dim)
	return r
}

func (c *Context) binary(op Op, a, b *Tensor) *Tensor {
	if !c.check(op, a, b) {
		return c.fail(op, "")
	}
	if !isFloatPlain(a.Type) || !isFloatPlain(b.Type) || a.Type == BF16 || b.Type == BF16 {
		return c.fail(op, "unsupported dtypes %s (want f32 or f16)", shapes(a, b))
	}
	if !CanRepeat(b, a) {
		return c.fail(op, "%s cannot be broadcast to %s", shapes(b), shapes(a))
	}
	return c.newTensor(a.Type, a.Ne, op, a, b)
}

// Add returns a+b, broadcasting b over a.
func (c *Context) Add(a, b *Tensor) *Tensor { return c.binary(OpAdd, a, b) }

// Sub returns a-b, broadcasting b over a.
func (c *Context) Sub(a, b *Tensor) *Tensor { return c.binary(OpSub, a, b) }

// Mul returns a*b elementwise, broadcasting b over a.
func (c *Context) Mul(a, b *Tensor) *Tensor { return c.binary(OpMul, a, b) }

// Div returns a/b elementwise, broadcasting b over a.
func (c *Context) Div(a, b *Tensor) *Tensor { return c.binary(OpDiv, a, b) }

func (c *Context) unary(op Op, a *Tensor) *Tensor {
	if !c.check(op, a) {
		return c.fail(op, "")
	}
	if a.Type != F32 && a.Type != F16 {
		return c.fail(op, "unsupported dtype %v (want f32 or f16)", a.Type)
	}
	return c.newTensor(a.Type, a.Ne, op, a)
}

// Scale returns a*s + bias.
func (c *Context) Scale(a *Tensor, s, bias float32) *Tensor {
	r := c.unary(OpScale, a)
	r.setParamF(0, s)
	r.setParamF(1, bias)
	return r
}

// Clamp limits a to [lo, hi].
func (c *Context) Clamp(a *Tensor, lo, hi float32) *Tensor {
	if lo > hi {
		return c.fail(OpClamp, "min %g is above max %g", lo, hi)
	}
	r := c.unary(OpClamp, a)
	r.setParamF(0, lo)
	r.setParamF(1, hi)
	return r
}

func (c *Context) Sqr(a *Tensor) *Tensor     { return c.unary(OpSqr, a) }
func (c *Context) Sqrt(a *Tensor) *Tensor    { return c.unary(OpSqrt, a) }
func (c *Context) Silu(a *Tensor) *Tensor    { return c.unary(OpSilu, a) }
func (c *Context) Gelu(a *Tensor) *Tensor    { return c.unary(OpGelu, a) }
func (c *Context) Relu(a *Tensor) *Tensor    { return c.unary(OpRelu, a) }
func (c *Context) Tanh(a *Tensor) *Tensor    { return c.unary(OpTanh, a) }
func (c *Context) Sigmoid(a *Tensor) *Tensor { return c.unary(OpSigmoid, a) }
func (c *Context) Exp(a *Tensor) *Tensor     { return c.unary(OpExp, a) }
func (c *Context) Neg(a *Tensor) *Tensor     { return c.unary(OpNeg, a) }

// Unary applies a unary op (OpSilu … OpNeg, OpSqr, OpSqrt) by value.
func (c *Context) Unary(op Op, a *Tensor) *Tensor {
	if !op.IsUnary() && op != OpSqr && op != OpSqrt {
		return c.fail(op, "not a unary op")
	}
	return c.unary(op, a)
}

func (c *Context) reduce(op Op, a *Tensor, ne [MaxDims]int, out DType) *Tensor {
	if !c.check(op, a) {
		return c.fail(op, "")
	}
	if a.Type != F32 {
		return c.fail(op, "unsupported dtype %v (want f32)", a.Type)
	}
	return c.newTensor(out, ne, op, a)
}

// Sum adds every element of a into a single value.
func (c *Context) Sum(a *Tensor) *Tensor {
	return c.reduce(OpSum, a, [MaxDims]int{1, 1, 1, 1}, F32)
}

// SumRows sums each row of a.
func (c *Context) SumRows(a *Tensor) *Tensor {
	if !c.check(OpSumRows, a) {
		return c.fail(OpSumRows, "")
	}
	return c.reduce(OpSumRows, a, [MaxDims]int{1, a.Ne[1], a.Ne[2], a.Ne[3]}, F32)
}

// Mean averages each row of a.
func (c *Context) Mean(a *Tensor) *Tensor {
	if !c.check(OpMean, a) {
		return c.fail(OpMean, "")
	}
	return c.reduce(OpMean, a, [MaxDims]int{1, a.Ne[1], a.Ne[2], a.Ne[3]}, F32)
}

// Argmax gives the index of the largest element of each row of matrix a.
func (c *Context) Argmax(a *Tensor) *Tensor {
	if !c.check(OpArgmax, a) {
		return c.fail(OpArgmax, "")
	}
	if a.Ne[2] != 1 || a.Ne[3] != 1 {
		return c.fail(OpArgmax, "want a matrix, got %s", shapes(a))
	}
	if a.Ne[0] == 0 && a.Ne[1] > 0 {
		// No element to pick; backends would disagree on what to return.
		return c.fail(OpArgmax, "rows of %s are empty", shapes(a))
	}
	return c.reduce(OpArgmax, a, [MaxDims]int{a.Ne[1], 1, 1, 1}, I32)
}

func (c *Context) norm(op Op, a *Tensor, eps float32) *Tensor {
	if !c.check(op, a) {
		return c.fail(op, "")
	}
	if eps < 0 {
		return c.fail(op, "negative eps %g", eps)
	}
	r := c.reduce(op, a, a.Ne, F32)
	r.setParamF(0, eps)
	return r
}

// Norm normalizes each row of a to zero mean and unit variance.
func (c *Context) Norm(a *Tensor, eps float32) *Tensor { return c.norm(OpNorm, a, eps) }

// RmsNorm divides each row of a by its root mean square.
func (c *Context) RmsNorm(a *Tensor, eps float32) *Tensor { return c.norm(OpRmsNorm, a, eps) }

// MulMat multiplies: a is [K,M,ne02,ne03] (any float dtype), b is F32
// [K,N,ne12,ne13] with ne12%ne02 == 0 and ne13%ne03 == 0; the F32 result is
// [M,N,ne12,ne13], i.e. result = b·aᵀ per matrix, as ggml_mul_mat.
func (c *Context) MulMat(a, b *Tensor) *Tensor {
	if !c.check(OpMulMat, a, b) {
		return c.fail(OpMulMat, "")
	}
	if a.Type == I32 || b.Type != F32 {
		return c.fail(OpMulMat, "unsupported dtypes %s (want a float or quantized weight and f32)", shapes(a, b))
	}
	if a.Ne[0] != b.Ne[0] {
		return c.fail(OpMulMat, "inner dims differ: %s", shapes(a, b))
	}
	if !divides(b.Ne[2], a.Ne[2]) || !divides(b.Ne[3], a.Ne[3]) {
		return c.fail(OpMulMat, "%s cannot broadcast over %s", shapes(a), shapes(b))
	}
	if a.IsTransposed() {
		return c.fail(OpMulMat, "weight %s must not be transposed", shapes(a))
	}
	return c.newTensor(F32, [MaxDims]int{a.Ne[1], b.Ne[1], b.Ne[2], b.Ne[3]}, OpMulMat, a, b)
}

// RopeParams are ROPE's parameters, as ggml_rope_ext takes them.
type RopeParams struct {
	NDims      int     // rotated dimensions (partial rotary when < head dim)
	Mode       int     // RopeNormal (adjacent pairs) or RopeNeox (half split)
	FreqBase   float32 // theta_i = pos·FreqBase^(-2i/NDims)
	FreqScale  float32 // 1 / linear scaling factor
	NCtxOrig   int     // YaRN: original training context
	ExtFactor  float32 // YaRN extrapolation mix (0 = off)
	AttnFactor float32 // YaRN magnitude scale (1 = none)
	BetaFast   float32 // YaRN (32 in llama.cpp)
	BetaSlow   float32 // YaRN (1 in llama.cpp)
}

// Rope rotates pairs of a ([head_dim, heads, tokens, ne3]) by
// position-dependent angles: theta_i = pos·freqScale·freqBase^(-2i/nDims).
// pos is I32 [tokens]. It is RopeExt without frequency factors or YaRN.
func (c *Context) Rope(a, pos *Tensor, nDims, mode int, freqBase, freqScale float32) *Tensor {
	return c.RopeExt(a, pos, nil, RopeParams{
		NDims: nDims, Mode: mode, FreqBase: freqBase, FreqScale: freqScale, AttnFactor: 1,
	})
}

// RopeExt is ggml_rope_ext: ROPE with optional frequency factors and YaRN
// scaling. freqFactors is nil or F32 [>=NDims/2]; theta_i is divided by
// freqFactors[i] (Llama 3 rope_freqs, Phi-3 LongRoPE short/long factors).
// With ExtFactor != 0 the angle of pair i mixes interpolation
// (theta·FreqScale) and extrapolation (theta) by YaRN's ramp between the
// correction dims from NCtxOrig, BetaFast and BetaSlow, and cos and sin are
// scaled by AttnFactor·(1+0.1·ln(1/FreqScale)); otherwise by AttnFactor.
func (c *Context) RopeExt(a, pos, freqFactors *Tensor, p RopeParams) *Tensor {
	if !c.check(OpRope, a, pos) {
		return c.fail(OpRope, "")
	}
	r := c.newTensor(a.Type, a.Ne, OpRope, a, pos, freqFactors)
	r.Params[0], r.Params[1] = int32(p.NDims), int32(p.Mode)
	r.setParamF(2, p.FreqBase)
	r.setParamF(3, p.FreqScale)
	r.Params[4] = int32(p.NCtxOrig)
	r.setParamF(5, p.ExtFactor)
	r.setParamF(6, p.AttnFactor)
	r.setParamF(7, p.BetaFast)
	r.setParamF(8, p.BetaSlow)
	if err := validateRope(r); err != nil {
		return c.failNode(OpRope, r, err)
	}
	return r
}

// RopeParamsOf reads a ROPE node's parameters.
func RopeParamsOf(t *Tensor) RopeParams {
	return RopeParams{
		NDims: int(t.Params[0]), Mode: int(t.Params[1]), FreqBase: t.ParamF(2), FreqScale: t.ParamF(3),
		NCtxOrig: int(t.Params[4]), ExtFactor: t.ParamF(5), AttnFactor: t.ParamF(6),
		BetaFast: t.ParamF(7), BetaSlow: t.ParamF(8),
	}
}

// RopeYarnCorrDims is ggml_rope_yarn_corr_dims: the pairs between which
// YaRN's ramp falls from extrapolation (below lo) to interpolation (above
// hi), from the dims whose pair turns BetaFast and BetaSlow times over the
// original context NCtxOrig.
func RopeYarnCorrDims(p RopeParams) (lo, hi float64) {
	dim := func(nRot float32) float64 {
		return float64(p.NDims) * math.Log(float64(p.NCtxOrig)/(float64(nRot)*2*math.Pi)) / (2 * math.Log(float64(p.FreqBase)))
	}
	return max(0, math.Floor(dim(p.BetaFast))), min(float64(p.NDims-1), math.Ceil(dim(p.BetaSlow)))
}

// SoftMax computes softmax(a*scale + mask) over rows. mask may be nil; if
// given it is F32 or F16 [ne0, >=ne1, ne2', ne3'] broadcast over dims 2, 3.
func (c *Context) SoftMax(a, mask *Tensor, scale float32) *Tensor {
	return c.SoftMaxExt(a, mask, scale, 0)
}

// SoftMaxExt computes softmax(x + mask) over rows with x = a*scale, or,
// when softcap > 0, the capped logit x = softcap*tanh(a*scale/softcap)
// (Gemma 2), applied before the mask. mask is as for SoftMax.
func (c *Context) SoftMaxExt(a, mask *Tensor, scale, softcap float32) *Tensor {
	if !c.check(OpSoftMax, a) {
		return c.fail(OpSoftMax, "")
	}
	r := c.newTensor(F32, a.Ne, OpSoftMax, a, mask)
	r.setParamF(0, scale)
	r.setParamF(1, softcap)
	if err := ValidateNode(r); err != nil {
		return c.failNode(OpSoftMax, r, err)
	}
	return r
}

// GeluErf applies the exact GELU, 0.5·x·(1+erf(x/√2)), elementwise.
func (c *Context) GeluErf(a *Tensor) *Tensor { return c.unary(OpGeluErf, a) }

// SwiGLU computes silu(a)·b elementwise in one pass (OpGLU); a and b have
// one shape and dtype.
func (c *Context) SwiGLU(a, b *Tensor) *Tensor { return c.glu(a, b, GLUSwiGLU) }

// GeGLU computes gelu_tanh(a)·b elementwise in one pass (OpGLU).
func (c *Context) GeGLU(a, b *Tensor) *Tensor { return c.glu(a, b, GLUGeGLU) }

func (c *Context) glu(a, b *Tensor, kind int) *Tensor {
	if !c.check(OpGLU, a, b) {
		return c.fail(OpGLU, "")
	}
	r := c.newTensor(a.Type, a.Ne, OpGLU, a, b)
	r.Params[0] = int32(kind)
	if err := ValidateNode(r); err != nil {
		return c.failNode(OpGLU, r, err)
	}
	return r
}

// FlashAttnExt is ggml_flash_attn_ext: softmax(q·kᵀ·scale + mask)·v per
// head, computed with an online softmax over the keys, so that the
// [nKV, nQ] score matrix is never stored.
//   - q is F32 [D, nQ, H, B];
//   - k is [D, nKV, Hkv, B] and v [Dv, nKV, Hv, B], not transposed, in
//     F32, F16, BF16, Q8_0 or Q4_0 (backends may take fewer), with
//     H % Hkv == 0 and H % Hv == 0: query head h reads kv head h/(H/Hkv),
//     as ggml's GQA broadcast;
//   - mask is nil or F32 or F16 [nKV, >=nQ, M2, M3] with H % M2 == 0 and
//     B % M3 == 0 (broadcast over heads and sequences); -Inf hides a key.
//     ggml's padding of the query dim is accepted (rows past nQ are
//     ignored), not required;
//   - logitSoftcap > 0 caps the scores: s = softcap·tanh(q·k·scale/softcap)
//     before the mask is added; 0 turns it off.
//
// The F32 result is [Dv, H, nQ, B] (ggml's permuted layout). A query row
// whose keys are all masked gives zeros.
func (c *Context) FlashAttnExt(q, k, v, mask *Tensor, scale, logitSoftcap float32) *Tensor {
	if !c.check(OpFlashAttnExt, q, k, v) {
		return c.fail(OpFlashAttnExt, "")
	}
	r := c.newTensor(F32, [MaxDims]int{v.Ne[0], q.Ne[2], q.Ne[1], q.Ne[3]}, OpFlashAttnExt, q, k, v, mask)
	r.setParamF(0, scale)
	r.setParamF(2, logitSoftcap)
	if err := ValidateNode(r); err != nil {
		return c.failNode(OpFlashAttnExt, r, err)
	}
	return r
}

// DiagMaskInf sets element (i,j) (column i of row j) to -Inf where i > nPast+j.
func (c *Context) DiagMaskInf(a *Tensor, nPast int) *Tensor {
	if !c.check(OpDiagMaskInf, a) {
		return c.fail(OpDiagMaskInf, "")
	}
	if a.Type != F32 {
		return c.fail(OpDiagMaskInf, "unsupported dtype %v", a.Type)
	}
	if nPast < 0 {
		return c.fail(OpDiagMaskInf, "negative n_past %d", nPast)
	}
	r := c.newTensor(F32, a.Ne, OpDiagMaskInf, a)
	r.Params[0] = int32(nPast)
	return r
}
