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
	OpGelu // tanh approximation, as ggml
	OpRelu
	OpTanh
	OpSigmoid
	OpExp
	OpNeg

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
	OpRope        // src1 = I32 positions [ne2]; [0]=n_dims [1]=mode f[2]=freq_base f[3]=freq_scale
	OpSoftMax     // optional mask src1 [ne0, >=ne1, ne2', ne3']; f[0]=scale
	OpDiagMaskInf // [0]=n_past; element (i,j) with i > n_past+j becomes -Inf

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

var opNames = [OpCount]string{
	OpNone: "NONE", OpDup: "DUP", OpCont: "CONT", OpCpy: "CPY", OpGetRows: "GET_ROWS",
	OpSetRows: "SET_ROWS", OpConcat: "CONCAT", OpAdd: "ADD", OpSub: "SUB", OpMul: "MUL",
	OpDiv: "DIV", OpScale: "SCALE", OpSqr: "SQR", OpSqrt: "SQRT", OpClamp: "CLAMP",
	OpSilu: "SILU", OpGelu: "GELU", OpRelu: "RELU", OpTanh: "TANH", OpSigmoid: "SIGMOID",
	OpExp: "EXP", OpNeg: "NEG", OpSum: "SUM", OpSumRows: "SUM_ROWS", OpMean: "MEAN",
	OpArgmax: "ARGMAX", OpNorm: "NORM", OpRmsNorm: "RMS_NORM", OpMulMat: "MUL_MAT",
	OpRope: "ROPE", OpSoftMax: "SOFT_MAX", OpDiagMaskInf: "DIAG_MASK_INF", OpView: "VIEW",
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
		OpRope, OpRmsNorm, OpSoftMax:
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
