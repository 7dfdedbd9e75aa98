package runtime

// Op is the operation that computes a tensor. Parameter layouts (Params
// indices) are listed with each op; "f" marks a float32 parameter.
//
// Shapes follow ggml: Ne[0] is the innermost (row) dimension. MUL_MAT takes
// src0 as [K,M,…] and src1 as [K,N,…] and gives [M,N,…].
type Op int

const (
	OpNone Op = iota // a leaf

	// Lookup and copy.
	OpDup     // contiguous copy of src0, same dtype
	OpCont    // contiguous copy of src0 (possibly reshaped), same dtype
	OpCpy     // copy src0 into src1 converting dtype; the result is a view of src1
	OpGetRows // rows of src0 picked by I32 src1 [n,ne2,ne3]; F32 result [ne0,n,ne2,ne3]
	OpSetRows // write F32 src0 rows into the view's target at I32 rows src1; the result is a view of the target
	OpConcat  // src0 and src1 joined along Params[0]

	// Elementwise binary; src1 broadcasts over src0.
	OpAdd
	OpSub
	OpMul
	OpDiv

	// Elementwise.
	OpScale // x*f[0] + f[1]
	OpSqr
	OpSqrt
	OpClamp // clamp to [f[0], f[1]]

	// Unary.
	OpSilu
	OpGelu    // tanh approximation, as ggml
	OpGeluErf // exact GELU: 0.5·x·(1+erf(x/√2))
	OpRelu
	OpTanh
	OpSigmoid
	OpExp
	OpNeg

	// Gated linear unit: act(src0)·src1, elementwise over two tensors of one
	// shape and dtype (F32 or F16). [0]=kind (GLUSwiGLU: silu, GLUGeGLU:
	// tanh GELU).
	OpGLU

	// Reductions.
	OpSum     // sum of all elements, shape [1,1,1,1]
	OpSumRows // per-row sums, shape [1,ne1,ne2,ne3]
	OpMean    // per-row means, shape [1,ne1,ne2,ne3]
	OpArgmax  // per-row index of the maximum of a matrix, I32 [ne1]

	// Normalization over rows, f[0] = eps.
	OpNorm
	OpRmsNorm

	OpMulMat

	// Attention.
	// ROPE: src1 = I32 positions [ne2], optional src2 = F32 frequency
	// factors [>=n_dims/2]; [0]=n_dims [1]=mode f[2]=freq_base
	// f[3]=freq_scale [4]=n_ctx_orig f[5]=ext_factor f[6]=attn_factor
	// f[7]=beta_fast f[8]=beta_slow (ggml_rope_ext; see RopeParams).
	OpRope
	// SOFT_MAX: optional mask src1 [ne0, >=ne1, ne2', ne3']; f[0]=scale
	// f[1]=logit softcap (0 = off).
	OpSoftMax
	OpDiagMaskInf // [0]=n_past; element (i,j) with i > n_past+j becomes -Inf
	// FLASH_ATTN_EXT: src0 = q, src1 = k, src2 = v, optional src3 = mask
	// (see Context.FlashAttnExt); f[0]=scale f[1]=max_bias (always 0: no
	// ALiBi) f[2]=logit softcap (0 = off), as ggml's op params.
	OpFlashAttnExt

	// Views share their source's memory and compute nothing.
	OpView
	OpReshape
	OpPermute // [0..3] = axis of each source dimension in the result
	OpTranspose

	OpCount
)

// Rope modes.
const (
	RopeNormal = 0 // rotate adjacent pairs (x0,x1), (x2,x3), …
	RopeNeox   = 2 // rotate (x_i, x_{i+n_dims/2})
)

// GLU kinds (OpGLU's Params[0]): the activation applied to the gate.
const (
	GLUSwiGLU = 0 // silu(a)·b
	GLUGeGLU  = 1 // gelu_tanh(a)·b
)

var opNames = [OpCount]string{
	OpNone: "NONE", OpDup: "DUP", OpCont: "CONT", OpCpy: "CPY", OpGetRows: "GET_ROWS",
	OpSetRows: "SET_ROWS", OpConcat: "CONCAT", OpAdd: "ADD", OpSub: "SUB", OpMul: "MUL",
	OpDiv: "DIV", OpScale: "SCALE", OpSqr: "SQR", OpSqrt: "SQRT", OpClamp: "CLAMP",
	OpSilu: "SILU", OpGelu: "GELU", OpGeluErf: "GELU_ERF", OpRelu: "RELU", OpTanh: "TANH", OpSigmoid: "SIGMOID",
	OpExp: "EXP", OpNeg: "NEG", OpGLU: "GLU", OpSum: "SUM", OpSumRows: "SUM_ROWS", OpMean: "MEAN",
	OpArgmax: "ARGMAX", OpNorm: "NORM", OpRmsNorm: "RMS_NORM", OpMulMat: "MUL_MAT",
	OpRope: "ROPE", OpSoftMax: "SOFT_MAX", OpDiagMaskInf: "DIAG_MASK_INF",
	OpFlashAttnExt: "FLASH_ATTN_EXT", OpView: "VIEW",
	OpReshape: "RESHAPE", OpPermute: "PERMUTE", OpTranspose: "TRANSPOSE",
}

func (o Op) String() string {
	if o >= 0 && o < OpCount {
		return opNames[o]
	}
	return "OP?"
}

// ParseOp converts an op name such as "MUL_MAT" to its Op.
func ParseOp(name string) (Op, bool) {
	for i, n := range opNames {
		if n == name {
			return Op(i), true
		}
	}
	return 0, false
}

// IsView reports whether the op only reinterprets its source's memory.
func (o Op) IsView() bool {
	return o == OpView || o == OpReshape || o == OpPermute || o == OpTranspose
}

// IsUnary reports whether the op is a one-input elementwise function.
func (o Op) IsUnary() bool { return o >= OpSilu && o <= OpNeg }

// IsBinary reports whether the op is ADD, SUB, MUL or DIV.
func (o Op) IsBinary() bool { return o >= OpAdd && o <= OpDiv }

// CanInplace reports whether a backend must accept the result aliasing
// src0's memory exactly (the graph allocator reuses src0 when it dies here).
func (o Op) CanInplace() bool {
	switch o {
	case OpScale, OpDiagMaskInf, OpAdd, OpSub, OpMul, OpDiv, OpSqr, OpSqrt, OpClamp,
		OpRope, OpRmsNorm, OpSoftMax, OpGLU:
		return true
	}
	return o.IsUnary()
}

// AllOps lists every computing op and view op (not OpNone).
func AllOps() []Op {
	ops := make([]Op, 0, OpCount-1)
	for o := OpNone + 1; o < OpCount; o++ {
		ops = append(ops, o)
	}
	return ops
}
