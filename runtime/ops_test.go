package runtime_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/gpurt/gpurt/cpu"
	rt "github.com/gpurt/gpurt/runtime"
)

// TestOpConstructorErrors covers every error path of the op and view
// constructors: each returns an error naming the op and the problem, and
// none panics, not even on zero-size dims or nil sources.
func TestOpConstructorErrors(t *testing.T) {
	f32 := func(c *rt.Context, ne ...int) *rt.Tensor { return c.NewTensor(rt.F32, ne...) }
	i32 := func(c *rt.Context, ne ...int) *rt.Tensor { return c.NewTensor(rt.I32, ne...) }
	tests := []struct {
		name  string
		build func(c *rt.Context)
		want  []string
	}{
		// Leaves.
		{"new tensor dims", func(c *rt.Context) { c.NewTensor(rt.F32, 1, 2, 3, 4, 5) }, []string{"5 dims"}},
		{"new tensor negative", func(c *rt.Context) { c.NewTensor(rt.F32, 3, -1) }, []string{"negative dim 1"}},
		{"new tensor no dims", func(c *rt.Context) { c.NewTensor(rt.F32) }, []string{"0 dims"}},

		// Copies.
		{"dup nil", func(c *rt.Context) { c.Dup(nil) }, []string{"DUP", "nil"}},
		{"cont nil", func(c *rt.Context) { c.Cont(nil) }, []string{"CONT", "nil"}},
		{"cont reshape count", func(c *rt.Context) { c.ContReshape(f32(c, 6), 4) }, []string{"CONT", "element counts"}},
		{"cont reshape dims", func(c *rt.Context) { c.ContReshape(f32(c, 6)) }, []string{"CONT", "0 dims"}},
		{"cont reshape partial block", func(c *rt.Context) { c.ContReshape(c.NewTensor(rt.Q8_0, 32, 2), 16, 4) }, []string{"CONT", "block size"}},
		{"cpy nil", func(c *rt.Context) { c.Cpy(f32(c, 2), nil) }, []string{"CPY", "source 1 is nil"}},
		{"cpy count", func(c *rt.Context) { c.Cpy(f32(c, 4), f32(c, 5)) }, []string{"CPY", "element counts", "[4,1,1,1]", "[5,1,1,1]"}},
		{"cpy i32 to q8_0", func(c *rt.Context) { c.Cpy(i32(c, 32), c.NewTensor(rt.Q8_0, 32)) }, []string{"CPY", "i32 to q8_0"}},
		{"cpy q4_0 to i32", func(c *rt.Context) { c.Cpy(c.NewTensor(rt.Q4_0, 32), i32(c, 32)) }, []string{"CPY", "q4_0 to i32"}},
		{"cpy strided quantized", func(c *rt.Context) {
			q := c.NewTensor(rt.Q8_0, 32, 4)
			c.Cpy(f32(c, 32, 2), c.View2D(q, 32, 2, 2*q.Nb[1], 0))
		}, []string{"CPY", "must be contiguous"}},
		{"cast dtype", func(c *rt.Context) { c.Cast(f32(c, 4), rt.DType(5)) }, []string{"CPY", "unsupported dtype"}},
		{"cast block", func(c *rt.Context) { c.Cast(f32(c, 33), rt.Q4_0) }, []string{"CPY", "multiple of 32"}},
		{"get_rows index dtype", func(c *rt.Context) { c.GetRows(f32(c, 4, 3), f32(c, 2)) }, []string{"GET_ROWS", "i32"}},
		{"get_rows shape", func(c *rt.Context) { c.GetRows(f32(c, 4, 3, 2), i32(c, 2, 3)) }, []string{"GET_ROWS", "do not match"}},
		{"set_rows index dtype", func(c *rt.Context) { c.SetRows(f32(c, 4, 3), f32(c, 4, 1), f32(c, 1)) }, []string{"SET_ROWS", "indices must be i32"}},
		{"set_rows rows dtype", func(c *rt.Context) { c.SetRows(f32(c, 4, 3), c.NewTensor(rt.F16, 4, 1), i32(c, 1)) }, []string{"SET_ROWS", "rows must be f32"}},
		{"set_rows into i32", func(c *rt.Context) { c.SetRows(i32(c, 4, 3), f32(c, 4, 1), i32(c, 1)) }, []string{"SET_ROWS", "destination dtype i32"}},
		{"set_rows fit", func(c *rt.Context) { c.SetRows(f32(c, 4, 3), f32(c, 4, 2), i32(c, 1)) }, []string{"SET_ROWS", "do not fit"}},
		{"set_rows zero-size indices", func(c *rt.Context) { c.SetRows(f32(c, 4, 3, 2), f32(c, 4, 1, 2), i32(c, 1, 0)) }, []string{"SET_ROWS", "do not fit"}},
		{"set_rows strided rows", func(c *rt.Context) {
			c.SetRows(c.Transpose(f32(c, 3, 4)), f32(c, 4, 1), i32(c, 1))
		}, []string{"SET_ROWS", "must be contiguous"}},
		{"concat dim", func(c *rt.Context) { c.Concat(f32(c, 2), f32(c, 2), 4) }, []string{"CONCAT", "dim 4 out of range"}},
		{"concat dtypes", func(c *rt.Context) { c.Concat(f32(c, 2), i32(c, 2), 0) }, []string{"CONCAT", "dtypes must match"}},
		{"concat quantized", func(c *rt.Context) { c.Concat(c.NewTensor(rt.Q8_0, 32), c.NewTensor(rt.Q8_0, 32), 0) }, []string{"CONCAT", "unquantized"}},
		{"concat shape", func(c *rt.Context) { c.Concat(f32(c, 2, 3), f32(c, 2, 4), 0) }, []string{"CONCAT", "dim 1 differs"}},

		// Elementwise.
		{"add bf16", func(c *rt.Context) { c.Add(c.NewTensor(rt.BF16, 2), c.NewTensor(rt.BF16, 2)) }, []string{"ADD", "want f32 or f16"}},
		{"sub i32", func(c *rt.Context) { c.Sub(i32(c, 2), i32(c, 2)) }, []string{"SUB", "unsupported dtypes"}},
		{"mul broadcast", func(c *rt.Context) { c.Mul(f32(c, 4, 3), f32(c, 4, 2)) }, []string{"MUL", "cannot be broadcast"}},
		{"div empty", func(c *rt.Context) { c.Div(f32(c, 4, 3), f32(c, 4, 0)) }, []string{"DIV", "cannot be broadcast"}},
		{"scale dtype", func(c *rt.Context) { c.Scale(c.NewTensor(rt.BF16, 2), 2, 0) }, []string{"SCALE", "unsupported dtype bf16"}},
		{"clamp range", func(c *rt.Context) { c.Clamp(f32(c, 2), 1, 0) }, []string{"CLAMP", "min 1 is above max 0"}},
		{"clamp nil", func(c *rt.Context) { c.Clamp(nil, 0, 1) }, []string{"CLAMP", "nil"}},
		{"sqrt q8_0", func(c *rt.Context) { c.Sqrt(c.NewTensor(rt.Q8_0, 32)) }, []string{"SQRT", "q8_0"}},
		{"unary not unary", func(c *rt.Context) { c.Unary(rt.OpMulMat, f32(c, 2)) }, []string{"MUL_MAT", "not a unary op"}},
		{"exp i32", func(c *rt.Context) { c.Exp(i32(c, 2)) }, []string{"EXP", "i32"}},

		// Reductions and norms.
		{"sum f16", func(c *rt.Context) { c.Sum(c.NewTensor(rt.F16, 2)) }, []string{"SUM", "want f32"}},
		{"sum_rows nil", func(c *rt.Context) { c.SumRows(nil) }, []string{"SUM_ROWS", "nil"}},
		{"mean i32", func(c *rt.Context) { c.Mean(i32(c, 3)) }, []string{"MEAN", "want f32"}},
		{"argmax 3d", func(c *rt.Context) { c.Argmax(f32(c, 4, 3, 2)) }, []string{"ARGMAX", "want a matrix"}},
		{"norm eps", func(c *rt.Context) { c.Norm(f32(c, 4), -1) }, []string{"NORM", "negative eps"}},
		{"rms_norm nil", func(c *rt.Context) { c.RmsNorm(nil, 1e-5) }, []string{"RMS_NORM", "nil"}},
		{"rms_norm f16", func(c *rt.Context) { c.RmsNorm(c.NewTensor(rt.F16, 4), 1e-5) }, []string{"RMS_NORM", "want f32"}},

		// Matmul.
		{"mul_mat i32 weight", func(c *rt.Context) { c.MulMat(i32(c, 4, 2), f32(c, 4, 2)) }, []string{"MUL_MAT", "unsupported dtypes"}},
		{"mul_mat broadcast", func(c *rt.Context) { c.MulMat(f32(c, 4, 2, 2), f32(c, 4, 2, 3)) }, []string{"MUL_MAT", "cannot broadcast"}},
		{"mul_mat empty weight batch", func(c *rt.Context) { c.MulMat(f32(c, 4, 2, 0), f32(c, 4, 2, 3)) }, []string{"MUL_MAT", "cannot broadcast"}},
		{"mul_mat transposed weight", func(c *rt.Context) { c.MulMat(c.Transpose(f32(c, 2, 4)), f32(c, 4, 2)) }, []string{"MUL_MAT", "must not be transposed"}},

		// Attention.
		{"rope dtype", func(c *rt.Context) { c.Rope(c.NewTensor(rt.BF16, 4, 1, 2), i32(c, 2), 4, 0, 1e4, 1) }, []string{"ROPE", "unsupported dtype"}},
		{"rope positions", func(c *rt.Context) { c.Rope(f32(c, 4, 1, 2), i32(c, 3), 4, 0, 1e4, 1) }, []string{"ROPE", "one entry per token"}},
		{"rope positions dtype", func(c *rt.Context) { c.Rope(f32(c, 4, 1, 2), f32(c, 2), 4, 0, 1e4, 1) }, []string{"ROPE", "must be i32"}},
		{"rope mode", func(c *rt.Context) { c.Rope(f32(c, 4, 1, 2), i32(c, 2), 4, 1, 1e4, 1) }, []string{"ROPE", "unknown mode 1"}},
		{"rope odd dims", func(c *rt.Context) { c.Rope(f32(c, 4, 1, 2), i32(c, 2), 3, 0, 1e4, 1) }, []string{"ROPE", "n_dims 3"}},
		{"rope too many dims", func(c *rt.Context) { c.Rope(f32(c, 4, 1, 2), i32(c, 2), 6, 0, 1e4, 1) }, []string{"ROPE", "n_dims 6"}},
		{"rope base", func(c *rt.Context) { c.Rope(f32(c, 4, 1, 2), i32(c, 2), 4, 0, 0, 1) }, []string{"ROPE", "freq_base"}},
		{"soft_max dtype", func(c *rt.Context) { c.SoftMax(c.NewTensor(rt.F16, 4), nil, 1) }, []string{"SOFT_MAX", "unsupported dtype f16"}},
		{"soft_max softcap", func(c *rt.Context) { c.SoftMaxExt(f32(c, 4), nil, 1, -1) }, []string{"SOFT_MAX", "softcap -1"}},
		{"rope factors dtype", func(c *rt.Context) {
			c.RopeExt(f32(c, 4, 1, 2), i32(c, 2), i32(c, 2), rt.RopeParams{NDims: 4, FreqBase: 1e4, FreqScale: 1, AttnFactor: 1})
		}, []string{"ROPE", "frequency factors"}},
		{"rope factors short", func(c *rt.Context) {
			c.RopeExt(f32(c, 8, 1, 2), i32(c, 2), f32(c, 3), rt.RopeParams{NDims: 8, FreqBase: 1e4, FreqScale: 1, AttnFactor: 1})
		}, []string{"ROPE", "n_dims/2 = 4"}},
		{"rope yarn context", func(c *rt.Context) {
			c.RopeExt(f32(c, 4, 1, 2), i32(c, 2), nil, rt.RopeParams{NDims: 4, FreqBase: 1e4, FreqScale: 0.5, AttnFactor: 1, ExtFactor: 1, BetaFast: 32, BetaSlow: 1})
		}, []string{"ROPE", "YaRN", "n_ctx_orig (0)"}},
		{"glu shapes", func(c *rt.Context) { c.SwiGLU(f32(c, 4, 2), f32(c, 4, 3)) }, []string{"GLU", "differ in shape"}},
		{"glu dtypes", func(c *rt.Context) { c.GeGLU(f32(c, 4), c.NewTensor(rt.F16, 4)) }, []string{"GLU", "unsupported dtypes"}},
		{"gelu_erf dtype", func(c *rt.Context) { c.GeluErf(i32(c, 4)) }, []string{"GELU_ERF", "unsupported dtype i32"}},
		{"flash_attn head size", func(c *rt.Context) { c.FlashAttnExt(f32(c, 8, 1, 2), f32(c, 4, 5, 2), f32(c, 4, 5, 2), nil, 1, 0) }, []string{"FLASH_ATTN_EXT", "shape mismatch", "head sizes"}},
		{"flash_attn gqa", func(c *rt.Context) { c.FlashAttnExt(f32(c, 4, 1, 3), f32(c, 4, 5, 2), f32(c, 4, 5, 2), nil, 1, 0) }, []string{"FLASH_ATTN_EXT", "3 query heads"}},
		{"flash_attn keys", func(c *rt.Context) { c.FlashAttnExt(f32(c, 4, 1, 2), f32(c, 4, 5, 2), f32(c, 4, 6, 2), nil, 1, 0) }, []string{"FLASH_ATTN_EXT", "same keys"}},
		{"flash_attn mask", func(c *rt.Context) {
			c.FlashAttnExt(f32(c, 4, 3, 2), f32(c, 4, 5, 2), f32(c, 4, 5, 2), f32(c, 5, 2), 1, 0)
		}, []string{"FLASH_ATTN_EXT", "mask", "does not fit"}},
		{"flash_attn q dtype", func(c *rt.Context) {
			c.FlashAttnExt(c.NewTensor(rt.F16, 4, 1, 2), f32(c, 4, 5, 2), f32(c, 4, 5, 2), nil, 1, 0)
		}, []string{"FLASH_ATTN_EXT", "want f32 q"}},
		{"flash_attn softcap", func(c *rt.Context) { c.FlashAttnExt(f32(c, 4, 1, 2), f32(c, 4, 5, 2), f32(c, 4, 5, 2), nil, 1, -2) }, []string{"FLASH_ATTN_EXT", "softcap -2"}},
		{"flash_attn nil v", func(c *rt.Context) { c.FlashAttnExt(f32(c, 4, 1, 2), f32(c, 4, 5, 2), nil, nil, 1, 0) }, []string{"FLASH_ATTN_EXT", "source 2 is nil"}},
		{"soft_max mask dtype", func(c *rt.Context) { c.SoftMax(f32(c, 4), i32(c, 4), 1) }, []string{"SOFT_MAX", "mask dtype i32"}},
		{"soft_max mask rows", func(c *rt.Context) { c.SoftMax(f32(c, 4, 3), f32(c, 4, 2), 1) }, []string{"SOFT_MAX", "does not fit"}},
		{"soft_max empty mask", func(c *rt.Context) { c.SoftMax(f32(c, 4, 2, 3), f32(c, 4, 2, 0), 1) }, []string{"SOFT_MAX", "does not fit"}},
		{"diag_mask_inf dtype", func(c *rt.Context) { c.DiagMaskInf(c.NewTensor(rt.F16, 4, 4), 0) }, []string{"DIAG_MASK_INF", "unsupported dtype"}},
		{"diag_mask_inf n_past", func(c *rt.Context) { c.DiagMaskInf(f32(c, 4, 4), -2) }, []string{"DIAG_MASK_INF", "negative n_past -2"}},

		// Views.
		{"reshape strided", func(c *rt.Context) { c.Reshape(c.Transpose(f32(c, 2, 3)), 6) }, []string{"RESHAPE", "not contiguous"}},
		{"reshape block", func(c *rt.Context) { c.Reshape(c.NewTensor(rt.Q4_0, 64), 16, 4) }, []string{"RESHAPE", "block size"}},
		{"reshape negative", func(c *rt.Context) { c.Reshape(f32(c, 4), -4) }, []string{"RESHAPE", "negative dim"}},
		{"view strides count", func(c *rt.Context) { c.View(f32(c, 8), []int{2, 2}, nil, 0) }, []string{"VIEW", "need 1 strides"}},
		{"view negative stride", func(c *rt.Context) { c.View2D(f32(c, 8), 2, 2, -8, 0) }, []string{"VIEW", "negative stride"}},
		{"view block", func(c *rt.Context) { c.View1D(c.NewTensor(rt.Q8_0, 64), 16, 0) }, []string{"VIEW", "block size"}},
		{"view negative offset", func(c *rt.Context) { c.View1D(f32(c, 8), 2, -4) }, []string{"VIEW", "offset -4"}},
		{"view nil", func(c *rt.Context) { c.View1D(nil, 2, 0) }, []string{"VIEW", "nil"}},
		{"permute quantized", func(c *rt.Context) { c.Permute(c.NewTensor(rt.Q8_0, 32, 2), 1, 0, 2, 3) }, []string{"PERMUTE", "cannot move dim 0"}},
		{"permute range", func(c *rt.Context) { c.Permute(f32(c, 2), 0, 1, 2, 4) }, []string{"PERMUTE", "not a permutation"}},
		{"transpose quantized", func(c *rt.Context) { c.Transpose(c.NewTensor(rt.Q4_0, 32, 2)) }, []string{"TRANSPOSE", "quantized"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("panic: %v", r)
				}
			}()
			c := rt.NewContext()
			tc.build(c)
			err := c.Err()
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

// TestNilSourcesNeverPanic calls every one-source constructor with nil.
func TestNilSourcesNeverPanic(t *testing.T) {
	one := map[string]func(c *rt.Context){
		"scale": func(c *rt.Context) { c.Scale(nil, 1, 0) }, "sqr": func(c *rt.Context) { c.Sqr(nil) },
		"norm": func(c *rt.Context) { c.Norm(nil, 0) }, "sum": func(c *rt.Context) { c.Sum(nil) },
		"mean": func(c *rt.Context) { c.Mean(nil) }, "argmax": func(c *rt.Context) { c.Argmax(nil) },
		"get_rows": func(c *rt.Context) { c.GetRows(nil, nil) }, "set_rows": func(c *rt.Context) { c.SetRows(nil, nil, nil) },
		"concat": func(c *rt.Context) { c.Concat(nil, nil, 0) }, "add": func(c *rt.Context) { c.Add(nil, nil) },
		"mul_mat": func(c *rt.Context) { c.MulMat(nil, nil) }, "rope": func(c *rt.Context) { c.Rope(nil, nil, 2, 0, 1, 1) },
		"soft_max": func(c *rt.Context) { c.SoftMax(nil, nil, 1) }, "diag": func(c *rt.Context) { c.DiagMaskInf(nil, 0) },
		"cast": func(c *rt.Context) { c.Cast(nil, rt.F16) }, "cont_reshape": func(c *rt.Context) { c.ContReshape(nil, 1) },
		"reshape": func(c *rt.Context) { c.Reshape(nil, 1) }, "permute": func(c *rt.Context) { c.Permute(nil, 0, 1, 2, 3) },
		"transpose": func(c *rt.Context) { c.Transpose(nil) },
	}
	for name, build := range one {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("panic: %v", r)
				}
			}()
			c := rt.NewContext()
			build(c)
			if err := c.Err(); err == nil || !strings.Contains(err.Error(), "nil") {
				t.Errorf("error %v does not mention the nil source", err)
			}
		})
	}
}

// TestBufferMisuseErrors covers buffers that are too small, zero-size
// buffers used wrongly, freed buffers and mismatched copies.
func TestBufferMisuseErrors(t *testing.T) {
	bt := cpu.BufferType()
	ctx := rt.NewContext()
	x := ctx.NewTensor(rt.F32, 64).SetName("x")
	y := ctx.NewTensor(rt.F32, 8).SetName("y")
	q := ctx.NewTensor(rt.Q8_0, 32).SetName("q")
	tr := ctx.Transpose(ctx.NewTensor(rt.F32, 2, 3)).SetName("tr")
	if err := ctx.Err(); err != nil {
		t.Fatal(err)
	}

	if _, err := bt.Alloc(-1); err == nil || !strings.Contains(err.Error(), "negative") {
		t.Errorf("negative alloc: %v", err)
	}
	small, err := bt.Alloc(100)
	if err != nil {
		t.Fatal(err)
	}
	defer small.Free()
	if err := rt.AllocTensor(small, x, 0); err == nil || !strings.Contains(err.Error(), "do not fit") {
		t.Errorf("256-byte tensor in a 100-byte buffer: %v", err)
	}
	if err := rt.AllocTensor(small, y, 80); err == nil || !strings.Contains(err.Error(), "offset 80") {
		t.Errorf("tensor past the end: %v", err)
	}
	ta := rt.NewTensorAllocator(small)
	if err := ta.Alloc(y); err != nil {
		t.Fatal(err)
	}
	if err := ta.Alloc(q); err == nil || !strings.Contains(err.Error(), "not enough space") {
		t.Errorf("allocator past the end: %v", err)
	}
	if err := rt.AllocTensor(small, y, 0); err == nil || !strings.Contains(err.Error(), "already allocated") {
		t.Errorf("allocating twice: %v", err)
	}
	if err := rt.AllocTensor(small, tr, 0); err == nil || !strings.Contains(err.Error(), "view") {
		t.Errorf("allocating a view: %v", err)
	}

	empty, err := bt.Alloc(0)
	if err != nil {
		t.Fatal(err)
	}
	z := ctx.NewTensor(rt.F32, 0).SetName("z")
	if err := rt.AllocTensor(empty, z, 0); err != nil {
		t.Errorf("a zero-size tensor fits a zero-size buffer: %v", err)
	}
	if err := rt.TensorSet(z, []byte{1}, 0); !errors.Is(err, rt.ErrOutOfRange) {
		t.Errorf("writing into a zero-size tensor: %v", err)
	}
	if err := rt.TensorSet(z, nil, 0); err != nil {
		t.Errorf("empty write: %v", err)
	}
	if err := empty.Clear(0); err != nil {
		t.Errorf("clearing an empty buffer: %v", err)
	}

	if err := rt.TensorSetF32(q, make([]float32, 31)); err == nil || !strings.Contains(err.Error(), "31 values") {
		t.Errorf("q8_0 set count: %v", err)
	}
	if err := rt.TensorSetI32(y, []int32{1}); err == nil || !strings.Contains(err.Error(), "not i32") {
		t.Errorf("i32 set on f32: %v", err)
	}
	if _, err := rt.TensorGetI32(y); err == nil || !strings.Contains(err.Error(), "not i32") {
		t.Errorf("i32 get on f32: %v", err)
	}
	if _, err := rt.TensorGetF32(x); !errors.Is(err, rt.ErrNotAllocated) {
		t.Errorf("get of an unallocated tensor: %v", err)
	}
	if err := rt.TensorCopy(y, x); err == nil || !strings.Contains(err.Error(), "sizes differ") {
		t.Errorf("copy between sizes: %v", err)
	}
	if err := rt.InitView(tr); !errors.Is(err, rt.ErrNotAllocated) {
		t.Errorf("view of an unallocated tensor: %v", err)
	}

	if _, err := cpu.Device().BufferFromHost(make([]byte, 8), 16); err == nil {
		t.Error("host buffer smaller than its max tensor size: no error")
	}

	if err := small.Free(); err != nil {
		t.Fatal(err)
	}
	if err := rt.TensorSet(y, make([]byte, 4), 0); err == nil {
		t.Error("write after free: no error")
	}
	if err := small.Clear(0); err == nil || !strings.Contains(err.Error(), "after free") {
		t.Errorf("clear after free: %v", err)
	}
}

// The new ops' constructor errors wrap the runtime's sentinels.
func TestAttentionOpErrorsWrapSentinels(t *testing.T) {
	f32 := func(c *rt.Context, ne ...int) *rt.Tensor { return c.NewTensor(rt.F32, ne...) }
	for _, tc := range []struct {
		name  string
		build func(c *rt.Context)
		want  error
	}{
		{"flash_attn heads", func(c *rt.Context) { c.FlashAttnExt(f32(c, 4, 1, 3), f32(c, 4, 5, 2), f32(c, 4, 5, 2), nil, 1, 0) }, rt.ErrShape},
		{"flash_attn softcap", func(c *rt.Context) { c.FlashAttnExt(f32(c, 4, 1, 2), f32(c, 4, 5, 2), f32(c, 4, 5, 2), nil, 1, -1) }, rt.ErrInvalidArgument},
		{"flash_attn q dtype", func(c *rt.Context) {
			c.FlashAttnExt(c.NewTensor(rt.F16, 4, 1, 2), f32(c, 4, 5, 2), f32(c, 4, 5, 2), nil, 1, 0)
		}, rt.ErrUnsupported},
		{"rope yarn", func(c *rt.Context) {
			c.RopeExt(f32(c, 4, 1, 2), c.NewTensor(rt.I32, 2), nil, rt.RopeParams{NDims: 4, FreqBase: 1e4, ExtFactor: 1})
		}, rt.ErrInvalidArgument},
		{"glu shapes", func(c *rt.Context) { c.SwiGLU(f32(c, 4, 2), f32(c, 4, 3)) }, rt.ErrShape},
		{"soft_max softcap", func(c *rt.Context) { c.SoftMaxExt(f32(c, 4), nil, 1, -1) }, rt.ErrInvalidArgument},
	} {
		c := rt.NewContext()
		tc.build(c)
		if err := c.Err(); !errors.Is(err, tc.want) {
			t.Errorf("%s: error %v does not wrap %v", tc.name, err, tc.want)
		}
	}
}
