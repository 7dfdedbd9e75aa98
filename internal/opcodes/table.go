package opcodes

import (
	"strings"

	rt "github.com/gpurt/gpurt/runtime"
)

// A Code is one named value: Name in upper snake case without its table's
// prefix (GELU_ERF).
type Code struct {
	Name  string
	Value uint32
	Doc   string
}

// A Table is one family of codes.
type Table struct {
	// Prefix starts every name: UNARY gives UNARY_SCALE in the shaders and
	// UnaryScale in Go.
	Prefix string
	Doc    string
	// Bits marks a set of flags (written in hex) rather than a selector.
	Bits  bool
	Codes []Code
	// NoGo leaves the table out of the Go constants (the dtype ids, which
	// Go has as runtime.DType).
	NoGo bool
	// GLSL and WGSL say which shader languages get the table.
	GLSL, WGSL bool
	// Preprocessor also gives GLSL each value as a plain integer, PP_DT_F32,
	// for #if (which does not take the u suffix) and glslc -D flags.
	Preprocessor bool
}

// Tables lists every shared table, in the order the generated files give
// them.
var Tables = []Table{
	dtypeTable(),
	{
		Prefix: "UNARY", GLSL: true, WGSL: true,
		Doc: "The op selector of unary.comp (bits 16..23 of its mode) and unary.wgsl (its OP constant). COPY runs in unary.comp only; WebGPU has copy.wgsl.",
		Codes: []Code{
			{"COPY", 0, "DUP, CONT and CPY that do not quantize: copy converting dtype"},
			{"SCALE", 1, "x*p0 + p1"},
			{"SQR", 2, ""},
			{"SQRT", 3, ""},
			{"CLAMP", 4, "to [p0, p1]"},
			{"SILU", 5, ""},
			{"GELU", 6, "tanh approximation"},
			{"RELU", 7, ""},
			{"TANH", 8, ""},
			{"SIGMOID", 9, ""},
			{"EXP", 10, ""},
			{"NEG", 11, ""},
			{"DIAG_MASK_INF", 12, "element (i,j) with i > n_past+j becomes -Inf"},
			{"GELU_ERF", 13, "exact GELU"},
		},
	},
	{
		Prefix: "UNARY", GLSL: true, Bits: true,
		Doc: "unary.comp's mode bits.",
		Codes: []Code{
			{"SAME_SHAPE", 1 << 24, "source and destination have one shape: no source coordinates"},
			{"FAST", 1 << 31, "contiguous F32 of one shape, addressed by flat index"},
		},
	},
	{
		Prefix: "BINARY", GLSL: true, WGSL: true,
		Doc: "The op selector of binary.comp (bits 24..31 of its mode) and binary.wgsl (its OP constant). CONCAT runs in binary.comp only; WebGPU has concat.wgsl.",
		Codes: []Code{
			{"ADD", 0, ""},
			{"SUB", 1, ""},
			{"MUL", 2, ""},
			{"DIV", 3, ""},
			{"CONCAT", 4, ""},
			{"SWIGLU", 5, "GLU of kind SwiGLU: silu(a)*b"},
			{"GEGLU", 6, "GLU of kind GeGLU: gelu_tanh(a)*b"},
		},
	},
	{
		Prefix: "BINARY", GLSL: true, Bits: true,
		Doc: "binary.comp's flags (specialization constant 2).",
		Codes: []Code{
			{"FAST_VEC4", 1 << 29, "also FAST: same shapes, 16-byte aligned, a multiple of 4 elements"},
			{"FAST_ROW", 1 << 30, "also FAST: src1 is one row repeated"},
			{"FAST", 1 << 31, "every operand contiguous F32, addressed by flat index"},
		},
	},
	{
		Prefix: "REDUCE", GLSL: true,
		Doc: "The op selector of reduce.comp (bits 24..31 of its mode).",
		Codes: []Code{
			{"SUM_ROWS", 0, ""},
			{"MEAN", 1, ""},
			{"NORM", 2, ""},
			{"RMS_NORM", 3, ""},
			{"SOFT_MAX", 4, ""},
			{"ARGMAX", 5, ""},
			{"SUM", 6, "all elements, by one workgroup"},
		},
	},
	{
		Prefix: "REDUCE", GLSL: true, Bits: true,
		Doc: "reduce.comp's mode bits.",
		Codes: []Code{
			{"THREAD_ROWS", 0x100, "one invocation per row (short rows)"},
			{"ROW_VEC4", 0x200, "RMS_NORM over contiguous, 16-byte aligned rows, ne00 % 4 == 0"},
		},
	},
	{
		Prefix: "ROWS", GLSL: true,
		Doc: "The op selector of rows.comp (bits 16..23 of its mode).",
		Codes: []Code{
			{"GET", 0, "GET_ROWS"},
			{"SET", 1, "SET_ROWS"},
			{"QUANTIZE", 2, "a copy into a block-quantized tensor of the same shape"},
		},
	},
	{
		Prefix: "MASK", GLSL: true,
		Doc: "The mask dtype that reduce.comp (SOFT_MAX) and flash_attn.comp read from their modes (bits 16..23) when there is no mask.",
		Codes: []Code{
			{"NONE", 255, "no mask tensor"},
		},
	},
	{
		Prefix: "ROPE", GLSL: true, Bits: true,
		Doc: "rope.comp's mode bits.",
		Codes: []Code{
			{"FREQ_FACTORS", 1 << 24, "src2 holds frequency factors"},
		},
	},
	{
		Prefix: "FUSE", GLSL: true, Bits: true,
		Doc: "The fusion flags of reduce.comp, mul_mat.comp and mul_mat_vec.comp: a push constant (not the specialized mode), so a fused dispatch runs the unfused op's pipeline.",
		Codes: []Code{
			{"MUL", 1, "RMS_NORM then MUL: each row times the F32 weight row at off1 (binding 1)"},
			{"ADD", 2, "MUL_MAT then ADD (a bias or a residual): plus the F32 addend at offb (binding 2), strides nbb1..3 (0 where broadcast)"},
		},
	},
}

// shaderDTypes are the dtypes the shaders name.
var shaderDTypes = []rt.DType{
	rt.F32, rt.F16, rt.Q4_0, rt.Q4_1, rt.Q5_0, rt.Q5_1, rt.Q8_0, rt.Q2_K, rt.Q3_K, rt.Q4_K, rt.Q5_K, rt.Q6_K,
	rt.IQ4_NL, rt.IQ4_XS, rt.I32, rt.BF16, rt.TQ1_0, rt.TQ2_0, rt.MXFP4,
}

func dtypeTable() Table {
	t := Table{
		Prefix: "DT", GLSL: true, WGSL: true, NoGo: true, Preprocessor: true,
		Doc: "Runtime dtype ids (runtime.DType), as the shaders receive them in modes and constants.",
	}
	for _, dt := range shaderDTypes {
		t.Codes = append(t.Codes, Code{Name: strings.ToUpper(dt.String()), Value: uint32(dt)})
	}
	return t
}
