package rpc

import (
	"fmt"
	"math"

	rt "github.com/gpurt/gpurt/runtime"
)

// The mapping between gpurt's ops and ggml's. rt.DType values are ggml's
// type ids already; ops differ in numbering and in their parameter layouts,
// so each direction has an explicit case per op.

func (o ggmlOp) String() string {
	if o < ggmlOpCount {
		return ggmlOpNames[o]
	}
	return fmt.Sprintf("GGML_OP(%d)", uint32(o))
}

func f32bits(f float32) int32 { return int32(math.Float32bits(f)) }
func bitsf32(i int32) float32 { return math.Float32frombits(uint32(i)) }

// unaryToGGML maps gpurt's unary ops to ggml's UNARY sub-ops.
var unaryToGGML = map[rt.Op]ggmlUnaryOp{
	rt.OpSilu: ggmlUnarySilu, rt.OpGelu: ggmlUnaryGelu, rt.OpGeluErf: ggmlUnaryGeluErf, rt.OpRelu: ggmlUnaryRelu,
	rt.OpTanh: ggmlUnaryTanh, rt.OpSigmoid: ggmlUnarySigmoid, rt.OpExp: ggmlUnaryExp,
	rt.OpNeg: ggmlUnaryNeg,
}

// toGGML gives ggml's op and op_params for a gpurt node. Params that ggml
// has and gpurt lacks get the values that make both ops compute the same.
func toGGML(t *rt.Tensor) (ggmlOp, [maxParams]int32, error) {
	var p [maxParams]int32
	switch t.Op {
	case rt.OpNone:
		return ggmlOpNone, p, nil
	case rt.OpDup:
		return ggmlOpDup, p, nil
	case rt.OpCont:
		return ggmlOpCont, p, nil
	case rt.OpCpy:
		return ggmlOpCpy, p, nil
	case rt.OpGetRows:
		return ggmlOpGetRows, p, nil
	case rt.OpSetRows:
		return ggmlOpSetRows, p, nil
	case rt.OpConcat:
		p[0] = t.Params[0]
		return ggmlOpConcat, p, nil
	case rt.OpAdd:
		return ggmlOpAdd, p, nil
	case rt.OpSub:
		return ggmlOpSub, p, nil
	case rt.OpMul:
		return ggmlOpMul, p, nil
	case rt.OpDiv:
		return ggmlOpDiv, p, nil
	case rt.OpScale:
		p[0], p[1] = t.Params[0], t.Params[1] // scale, bias
		return ggmlOpScale, p, nil
	case rt.OpSqr:
		return ggmlOpSqr, p, nil
	case rt.OpSqrt:
		return ggmlOpSqrt, p, nil
	case rt.OpClamp:
		p[0], p[1] = t.Params[0], t.Params[1] // min, max
		return ggmlOpClamp, p, nil
	case rt.OpSilu, rt.OpGelu, rt.OpGeluErf, rt.OpRelu, rt.OpTanh, rt.OpSigmoid, rt.OpExp, rt.OpNeg:
		p[0] = int32(unaryToGGML[t.Op])
		return ggmlOpUnary, p, nil
	case rt.OpGLU:
		// ggml's split form: src0 is the gate, src1 the value; [1]=swapped.
		switch t.Params[0] {
		case rt.GLUSwiGLU:
			p[0] = int32(ggmlGluSwiglu)
		case rt.GLUGeGLU:
			p[0] = int32(ggmlGluGeglu)
		default:
			return 0, p, fmt.Errorf("rpc: GLU kind %d has no ggml equivalent: %w", t.Params[0], rt.ErrUnsupported)
		}
		return ggmlOpGlu, p, nil
	case rt.OpSum:
		return ggmlOpSum, p, nil
	case rt.OpSumRows:
		return ggmlOpSumRows, p, nil
	case rt.OpMean:
		return ggmlOpMean, p, nil
	case rt.OpArgmax:
		return ggmlOpArgmax, p, nil
	case rt.OpNorm:
		p[0] = t.Params[0] // eps
		return ggmlOpNorm, p, nil
	case rt.OpRmsNorm:
		p[0] = t.Params[0] // eps
		return ggmlOpRmsNorm, p, nil
	case rt.OpMulMat:
		return ggmlOpMulMat, p, nil
	case rt.OpRope:
		// gpurt: [0]=n_dims [1]=mode f[2]=freq_base f[3]=freq_scale [4]=n_ctx_orig
		// f[5]=ext_factor f[6]=attn_factor f[7]=beta_fast f[8]=beta_slow; ggml has
		// n_past (unused) at [0] and n_ctx at [3] in front of the same values.
		p[1], p[2], p[4] = t.Params[0], t.Params[1], t.Params[4]
		copy(p[5:11], t.Params[2:4])
		copy(p[7:11], t.Params[5:9])
		return ggmlOpRope, p, nil
	case rt.OpSoftMax:
		if t.ParamF(1) != 0 {
			return 0, p, fmt.Errorf("rpc: SOFT_MAX with a logit softcap has no ggml equivalent: %w", rt.ErrUnsupported)
		}
		p[0], p[1] = t.Params[0], f32bits(0) // scale, max_bias (no ALiBi)
		return ggmlOpSoftMax, p, nil
	case rt.OpFlashAttnExt:
		// f[0]=scale f[1]=max_bias f[2]=logit_softcap [3]=precision (default).
		copy(p[:3], t.Params[:3])
		return ggmlOpFlashAttnExt, p, nil
	case rt.OpDiagMaskInf:
		p[0] = t.Params[0] // n_past
		return ggmlOpDiagMaskInf, p, nil
	case rt.OpView:
		// ggml keeps the view's offset from its source as a size_t in op_params.
		offs := uint64(t.ViewOffs)
		if s := t.Src[0]; s != nil && s.ViewSrc != nil {
			offs -= uint64(s.ViewOffs)
		}
		p[0], p[1] = int32(uint32(offs)), int32(uint32(offs>>32))
		return ggmlOpView, p, nil
	case rt.OpReshape:
		return ggmlOpReshape, p, nil
	case rt.OpPermute:
		copy(p[:4], t.Params[:4])
		return ggmlOpPermute, p, nil
	case rt.OpTranspose:
		return ggmlOpTranspose, p, nil
	}
	return 0, p, fmt.Errorf("rpc: op %v has no ggml equivalent: %w", t.Op, rt.ErrUnsupported)
}

// supportedRemotely reports whether a gpurt node can be sent to a ggml RPC
// server: its op has a ggml equivalent, its dtypes are runnable, and it
// stays within what ggml's CPU backend computes. Protocol 5.0.0 cannot ask
// the server, and a llama.cpp server aborts (or, for some strided inputs,
// computes garbage) on the rest, so those nodes stay on local devices.
func supportedRemotely(t *rt.Tensor) bool {
	if _, _, err := toGGML(t); err != nil {
		return false
	}
	if !t.Type.Valid() {
		return false
	}
	for _, s := range t.Src {
		if s != nil && !s.Type.Valid() {
			return false
		}
	}
	return withinGGMLCPU(t)
}

// withinGGMLCPU holds the limits of ggml's CPU kernels, measured by running
// gpurt's op cases on llama.cpp's rpc-server (TestOpsOnLlamaRPCServer):
// elementwise ops and reductions want contiguous F32 input, copies out of
// quantized or I32 data go to F32 only (and quantized sources must be
// contiguous), MUL_MAT wants rows of src1 packed, and flash attention
// wants an F16 mask.
func withinGGMLCPU(t *rt.Tensor) bool {
	a := t.Src[0]
	switch t.Op {
	case rt.OpScale, rt.OpSqr, rt.OpSqrt, rt.OpClamp, rt.OpSilu, rt.OpGelu, rt.OpGeluErf, rt.OpRelu,
		rt.OpTanh, rt.OpSigmoid, rt.OpExp, rt.OpNeg, rt.OpSum, rt.OpSumRows, rt.OpMean, rt.OpArgmax,
		rt.OpNorm, rt.OpRmsNorm, rt.OpSoftMax, rt.OpDiagMaskInf:
		return a != nil && a.Type == rt.F32 && a.IsContiguous()
	case rt.OpAdd, rt.OpSub, rt.OpMul, rt.OpDiv:
		return a != nil && a.Type == rt.F32 && t.Src[1] != nil && t.Src[1].Type == rt.F32 && a.IsContiguousRows()
	case rt.OpGLU:
		b := t.Src[1]
		return a != nil && b != nil && a.Type == rt.F32 && b.Type == rt.F32 && a.IsContiguous() && b.IsContiguous()
	case rt.OpDup, rt.OpCont, rt.OpCpy:
		if a != nil && (a.Type.IsQuantized() || a.Type == rt.I32) && t.Type != rt.F32 && t.Type != a.Type {
			return false
		}
		if a != nil && a.Type.IsQuantized() && !a.IsContiguous() {
			return false
		}
	case rt.OpMulMat:
		if b := t.Src[1]; b == nil || !b.IsContiguousRows() {
			return false
		}
	case rt.OpFlashAttnExt:
		if m := t.Src[3]; m != nil && m.Type != rt.F16 {
			return false
		}
	}
	return true
}

// nodeBuilder rebuilds ggml nodes received by the server with gpurt's op
// constructors, which check every shape, dtype and parameter. An op that
// gpurt computes in several steps (one-source GLU, REGLU, GEGLU_ERF) gives
// several nodes; the intermediate ones get memory from the server's
// scratch buffer.
type nodeBuilder struct {
	ctx *rt.Context
	// convert lists I64 index leaves that are narrowed to I32 twins on the
	// host before every compute (llama.cpp's SET_ROWS indices are I64).
	convert []indexTwin
	twins   map[*rt.Tensor]*rt.Tensor
}

// indexTwin is an I64 leaf and the I32 tensor the graph reads instead.
type indexTwin struct{ wide, narrow *rt.Tensor }

func unsupported(op ggmlOp, format string, args ...any) error {
	return fmt.Errorf("rpc: %v: %s: %w", op, fmt.Sprintf(format, args...), rt.ErrUnsupported)
}

// i32Index returns t, or for an I64 leaf its I32 twin.
func (nb *nodeBuilder) i32Index(op ggmlOp, t *rt.Tensor) (*rt.Tensor, error) {
	if t.Type == rt.I32 {
		return t, nil
	}
	if t.Type != rt.I64 {
		return nil, fmt.Errorf("rpc: %v: indices must be i32 or i64, got %v: %w", op, t.Type, rt.ErrShape)
	}
	if t.Op != rt.OpNone || !t.IsContiguous() {
		return nil, unsupported(op, "i64 indices must be a contiguous input tensor")
	}
	if tw, ok := nb.twins[t]; ok {
		return tw, nil
	}
	if nb.twins == nil {
		nb.twins = map[*rt.Tensor]*rt.Tensor{}
	}
	tw := nb.ctx.NewTensor(rt.I32, t.Ne[:]...)
	tw.Name = t.Name + " (i32)"
	nb.twins[t] = tw
	nb.convert = append(nb.convert, indexTwin{wide: t, narrow: tw})
	return tw, nil
}

// build makes the gpurt node for one ggml node w with sources src and view
// base viewSrc (the node's memory is assigned by the caller).
func (nb *nodeBuilder) build(w *wireTensor, src [maxSrc]*rt.Tensor, viewSrc *rt.Tensor) (*rt.Tensor, error) {
	c := nb.ctx
	op := ggmlOp(w.Op)
	a, b := src[0], src[1]
	need := func(n int) error {
		for i := 0; i < n; i++ {
			if src[i] == nil {
				return fmt.Errorf("rpc: %v: source %d is missing: %w", op, i, rt.ErrShape)
			}
		}
		for i := n; i < maxSrc; i++ {
			if src[i] != nil && !(op == ggmlOpSoftMax && i == 1) && !(op == ggmlOpGlu && i == 1) &&
				!(op == ggmlOpFlashAttnExt && i == 3) && !(op == ggmlOpSetRows && i == 2) &&
				!(op == ggmlOpRope && i == 2) {
				return unsupported(op, "unexpected source %d", i)
			}
		}
		return nil
	}
	ne := func() []int {
		return []int{int(w.Ne[0]), int(w.Ne[1]), int(w.Ne[2]), int(w.Ne[3])}
	}
	nargs := 1
	switch op {
	case ggmlOpCpy, ggmlOpGetRows, ggmlOpSetRows, ggmlOpConcat, ggmlOpAdd, ggmlOpSub, ggmlOpMul,
		ggmlOpDiv, ggmlOpMulMat, ggmlOpRope:
		nargs = 2
	case ggmlOpFlashAttnExt:
		nargs = 3
	}
	if err := need(nargs); err != nil {
		return nil, err
	}
	var r *rt.Tensor
	switch op {
	case ggmlOpDup:
		r = c.Dup(a)
	case ggmlOpCont:
		r = c.ContReshape(a, ne()...)
	case ggmlOpCpy:
		r = c.Cpy(a, b)
	case ggmlOpGetRows:
		idx, err := nb.i32Index(op, b)
		if err != nil {
			return nil, err
		}
		r = c.GetRows(a, idx)
	case ggmlOpSetRows:
		// The result is a view of the destination, which ggml 0.18 lists as
		// source 2 (older clients do not: rebuild it from the result).
		idx, err := nb.i32Index(op, b)
		if err != nil {
			return nil, err
		}
		dst := src[2]
		if dst == nil {
			if dst, err = nb.viewOf(viewSrc, w); err != nil {
				return nil, err
			}
		}
		r = c.SetRows(dst, a, idx)
	case ggmlOpConcat:
		r = c.Concat(a, b, int(w.Params[0]))
	case ggmlOpAdd:
		r = c.Add(a, b)
	case ggmlOpSub:
		r = c.Sub(a, b)
	case ggmlOpMul:
		r = c.Mul(a, b)
	case ggmlOpDiv:
		r = c.Div(a, b)
	case ggmlOpScale:
		r = c.Scale(a, bitsf32(w.Params[0]), bitsf32(w.Params[1]))
	case ggmlOpSqr:
		r = c.Sqr(a)
	case ggmlOpSqrt:
		r = c.Sqrt(a)
	case ggmlOpClamp:
		r = c.Clamp(a, bitsf32(w.Params[0]), bitsf32(w.Params[1]))
	case ggmlOpUnary:
		u, err := unaryFromGGML(ggmlUnaryOp(w.Params[0]))
		if err != nil {
			return nil, err
		}
		r = c.Unary(u, a)
	case ggmlOpSum:
		r = c.Sum(a)
	case ggmlOpSumRows:
		r = c.SumRows(a)
	case ggmlOpMean:
		r = c.Mean(a)
	case ggmlOpArgmax:
		r = c.Argmax(a)
	case ggmlOpNorm:
		r = c.Norm(a, bitsf32(w.Params[0]))
	case ggmlOpRmsNorm:
		r = c.RmsNorm(a, bitsf32(w.Params[0]))
	case ggmlOpMulMat:
		r = c.MulMat(a, b)
	case ggmlOpRope:
		mode := int(w.Params[2])
		if mode != rt.RopeNormal && mode != rt.RopeNeox {
			return nil, unsupported(op, "mode %d (multimodal and vision ROPE)", mode)
		}
		r = c.RopeExt(a, b, src[2], rt.RopeParams{
			NDims: int(w.Params[1]), Mode: mode, NCtxOrig: int(w.Params[4]),
			FreqBase: bitsf32(w.Params[5]), FreqScale: bitsf32(w.Params[6]),
			ExtFactor: bitsf32(w.Params[7]), AttnFactor: bitsf32(w.Params[8]),
			BetaFast: bitsf32(w.Params[9]), BetaSlow: bitsf32(w.Params[10]),
		})
	case ggmlOpSoftMax:
		if src[2] != nil {
			return nil, unsupported(op, "attention sinks")
		}
		if maxBias := bitsf32(w.Params[1]); maxBias != 0 {
			return nil, unsupported(op, "ALiBi (max_bias %g)", maxBias)
		}
		r = c.SoftMax(a, b, bitsf32(w.Params[0]))
	case ggmlOpDiagMaskInf:
		r = c.DiagMaskInf(a, int(w.Params[0]))
	case ggmlOpView:
		offs := uint64(uint32(w.Params[0])) | uint64(uint32(w.Params[1]))<<32
		if offs > math.MaxInt32*uint64(1<<16) {
			return nil, fmt.Errorf("rpc: VIEW offset %d: %w", offs, rt.ErrOutOfRange)
		}
		r = c.View(a, ne(), []int{int(w.Nb[1]), int(w.Nb[2]), int(w.Nb[3])}, int(offs))
	case ggmlOpReshape:
		r = c.Reshape(a, ne()...)
	case ggmlOpPermute:
		r = c.Permute(a, int(w.Params[0]), int(w.Params[1]), int(w.Params[2]), int(w.Params[3]))
	case ggmlOpTranspose:
		r = c.Transpose(a)
	case ggmlOpGlu:
		var err error
		if r, err = nb.glu(w, a, b); err != nil {
			return nil, err
		}
	case ggmlOpFlashAttnExt:
		if src[4] != nil {
			return nil, unsupported(op, "attention sinks")
		}
		if maxBias := bitsf32(w.Params[1]); maxBias != 0 {
			return nil, unsupported(op, "ALiBi (max_bias %g)", maxBias)
		}
		r = c.FlashAttnExt(a, b, src[2], src[3], bitsf32(w.Params[0]), bitsf32(w.Params[2]))
	default:
		return nil, unsupported(op, "not implemented by gpurt")
	}
	if err := c.Err(); err != nil {
		return nil, fmt.Errorf("rpc: %v: %w: %w", op, err, rt.ErrShape)
	}
	return r, nil
}

// viewOf rebuilds the view that a SET_ROWS result is, of its base root.
func (nb *nodeBuilder) viewOf(root *rt.Tensor, w *wireTensor) (*rt.Tensor, error) {
	if root == nil {
		return nil, fmt.Errorf("rpc: %v: missing view source: %w", ggmlOp(w.Op), rt.ErrShape)
	}
	if w.ViewOffs > math.MaxInt32*uint64(1<<16) {
		return nil, fmt.Errorf("rpc: view offset %d: %w", w.ViewOffs, rt.ErrOutOfRange)
	}
	ne := []int{int(w.Ne[0]), int(w.Ne[1]), int(w.Ne[2]), int(w.Ne[3])}
	v := nb.ctx.View(root, ne, []int{int(w.Nb[1]), int(w.Nb[2]), int(w.Nb[3])}, int(w.ViewOffs)-root.ViewOffs)
	return v, nb.ctx.Err()
}

func unaryFromGGML(u ggmlUnaryOp) (rt.Op, error) {
	switch u {
	case ggmlUnarySilu:
		return rt.OpSilu, nil
	case ggmlUnaryGelu:
		return rt.OpGelu, nil
	case ggmlUnaryGeluErf:
		return rt.OpGeluErf, nil
	case ggmlUnaryRelu:
		return rt.OpRelu, nil
	case ggmlUnaryTanh:
		return rt.OpTanh, nil
	case ggmlUnarySigmoid:
		return rt.OpSigmoid, nil
	case ggmlUnaryExp:
		return rt.OpExp, nil
	case ggmlUnaryNeg:
		return rt.OpNeg, nil
	}
	name := fmt.Sprintf("%d", u)
	if u >= 0 && u < ggmlUnaryCount {
		name = ggmlUnaryNames[u]
	}
	return 0, unsupported(ggmlOpUnary, "unary op %s", name)
}

// glu computes ggml's gated linear units, act(gate)·value: SWIGLU and
// GEGLU with gpurt's fused GLU, REGLU and GEGLU_ERF in two steps. With one
// source the gate and the value are the two halves of its rows.
func (nb *nodeBuilder) glu(w *wireTensor, a, b *rt.Tensor) (*rt.Tensor, error) {
	c := nb.ctx
	g := ggmlGluOp(w.Params[0])
	if g != ggmlGluSwiglu && g != ggmlGluGeglu && g != ggmlGluReglu && g != ggmlGluGegluErf {
		name := fmt.Sprintf("%d", g)
		if g >= 0 && g < ggmlGluCount {
			name = ggmlGluNames[g]
		}
		return nil, unsupported(ggmlOpGlu, "%s", name)
	}
	if b == nil {
		half := a.Ne[0] / 2
		if a.Ne[0]%2 != 0 || a.Type.BlockSize() != 1 {
			return nil, fmt.Errorf("rpc: GLU of %v rows of %d: %w", a.Type, a.Ne[0], rt.ErrShape)
		}
		es := a.Type.TypeSize()
		lo := c.View(a, []int{half, a.Ne[1], a.Ne[2], a.Ne[3]}, []int{a.Nb[1], a.Nb[2], a.Nb[3]}, 0)
		hi := c.View(a, []int{half, a.Ne[1], a.Ne[2], a.Ne[3]}, []int{a.Nb[1], a.Nb[2], a.Nb[3]}, half*es)
		a, b = c.Cont(lo), c.Cont(hi)
	}
	if w.Params[1] != 0 { // swapped: the second operand is the gate
		a, b = b, a
	}
	switch g {
	case ggmlGluSwiglu:
		return c.SwiGLU(a, b), c.Err()
	case ggmlGluGeglu:
		return c.GeGLU(a, b), c.Err()
	case ggmlGluReglu:
		return c.Mul(c.Relu(a), b), c.Err()
	default:
		return c.Mul(c.GeluErf(a), b), c.Err()
	}
}
