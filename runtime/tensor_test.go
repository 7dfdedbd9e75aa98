package runtime_test

import (
	"strings"
	"testing"

	"github.com/gpurt/gpurt/cpu"
	rt "github.com/gpurt/gpurt/runtime"
)

func TestTensorLayout(t *testing.T) {
	tests := []struct {
		name            string
		dtype           rt.DType
		ne              []int
		nbytes, rowSize int
		nrows           int
	}{
		{"f32 vector", rt.F32, []int{7}, 28, 28, 1},
		{"f16 matrix", rt.F16, []int{3, 5}, 30, 6, 5},
		{"q8_0 3d", rt.Q8_0, []int{64, 2, 3}, 6 * 68, 68, 6},
		{"q4_0 4d", rt.Q4_0, []int{32, 1, 1, 2}, 36, 18, 2},
		{"i32", rt.I32, []int{4, 4}, 64, 16, 4},
		{"bf16", rt.BF16, []int{2, 2, 2, 2}, 32, 4, 8},
		{"empty", rt.F32, []int{0, 3}, 0, 0, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := rt.NewContext()
			x := ctx.NewTensor(tc.dtype, tc.ne...)
			if err := ctx.Err(); err != nil {
				t.Fatal(err)
			}
			if got := x.Nbytes(); got != tc.nbytes {
				t.Errorf("Nbytes = %d, want %d", got, tc.nbytes)
			}
			if got := x.RowBytes(); got != tc.rowSize {
				t.Errorf("RowBytes = %d, want %d", got, tc.rowSize)
			}
			if got := x.Nrows(); got != tc.nrows {
				t.Errorf("Nrows = %d, want %d", got, tc.nrows)
			}
			if x.Nelements() > 0 && (!x.IsContiguous() || x.IsPermuted() || x.IsTransposed()) {
				t.Errorf("new tensor should be contiguous and unpermuted")
			}
		})
	}
}

func TestViewsAndPredicates(t *testing.T) {
	ctx := rt.NewContext()
	a := ctx.NewTensor(rt.F32, 4, 3, 2)
	tr := ctx.Transpose(a)
	pm := ctx.Permute(a, 2, 0, 1, 3)
	rs := ctx.Reshape(a, 12, 2)
	v := ctx.View2D(a, 2, 3, a.Nb[1], 8)
	if err := ctx.Err(); err != nil {
		t.Fatal(err)
	}
	if tr.Ne != [4]int{3, 4, 2, 1} || !tr.IsTransposed() || tr.IsContiguous() {
		t.Errorf("transpose: ne=%v transposed=%v contiguous=%v", tr.Ne, tr.IsTransposed(), tr.IsContiguous())
	}
	// Source dim 0 goes to result dim 2, dim 1 to 0, dim 2 to 1.
	if pm.Ne != [4]int{3, 2, 4, 1} || pm.Nb[2] != 4 || !pm.IsPermuted() {
		t.Errorf("permute: ne=%v nb=%v", pm.Ne, pm.Nb)
	}
	if !rs.IsContiguous() || rs.ViewSrc != a || rs.Op != rt.OpReshape {
		t.Errorf("reshape should be a contiguous view of a")
	}
	if v.ViewOffs != 8 || v.ViewSrc != a || v.IsContiguous() {
		t.Errorf("view2d: offs=%d contiguous=%v", v.ViewOffs, v.IsContiguous())
	}
	// A view of a view points at the root with summed offsets.
	vv := ctx.View1D(v, 1, 4)
	if vv.ViewSrc != a || vv.ViewOffs != 12 {
		t.Errorf("view of view: src=%v offs=%d", vv.ViewSrc, vv.ViewOffs)
	}
	b := ctx.NewTensor(rt.F32, 4, 1, 2)
	if !rt.CanRepeat(b, a) || rt.CanRepeat(a, b) || rt.SameShape(a, b) {
		t.Errorf("CanRepeat/SameShape wrong")
	}
}

func TestBuildErrorsNameTheProblem(t *testing.T) {
	tests := []struct {
		name  string
		build func(c *rt.Context)
		want  []string
	}{
		{"add shapes", func(c *rt.Context) { c.Add(c.NewTensor(rt.F32, 4, 3), c.NewTensor(rt.F32, 3)) }, []string{"ADD", "[3,1,1,1]", "[4,3,1,1]", "broadcast"}},
		{"matmul inner", func(c *rt.Context) { c.MulMat(c.NewTensor(rt.F32, 8, 2), c.NewTensor(rt.F32, 4, 2)) }, []string{"MUL_MAT", "inner dims"}},
		{"matmul dtype", func(c *rt.Context) { c.MulMat(c.NewTensor(rt.F32, 8, 2), c.NewTensor(rt.F16, 8, 2)) }, []string{"MUL_MAT", "f16"}},
		{"reshape count", func(c *rt.Context) { c.Reshape(c.NewTensor(rt.F32, 6), 4) }, []string{"RESHAPE", "element counts"}},
		{"view bounds", func(c *rt.Context) { c.View1D(c.NewTensor(rt.F32, 6), 4, 12) }, []string{"VIEW", "offset 12"}},
		{"quant block", func(c *rt.Context) { c.NewTensor(rt.Q8_0, 33) }, []string{"block size"}},
		{"bad dtype", func(c *rt.Context) { c.NewTensor(rt.DType(99), 3) }, []string{"unsupported dtype"}},
		{"nil source", func(c *rt.Context) { c.Silu(nil) }, []string{"SILU", "nil"}},
		{"get_rows idx", func(c *rt.Context) { c.GetRows(c.NewTensor(rt.F32, 4, 3), c.NewTensor(rt.F32, 2)) }, []string{"GET_ROWS", "i32"}},
		{"permute axes", func(c *rt.Context) { c.Permute(c.NewTensor(rt.F32, 4, 3), 0, 0, 1, 2) }, []string{"PERMUTE", "permutation"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
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
			// The error is sticky and later ops do not panic.
			c.Add(c.NewTensor(rt.F32, 1), c.NewTensor(rt.F32, 1))
			if _, gerr := c.BuildGraph(c.NewTensor(rt.F32, 1)); gerr != err {
				t.Errorf("BuildGraph error = %v, want the first error", gerr)
			}
		})
	}
}

func TestGraphOrder(t *testing.T) {
	ctx := rt.NewContext()
	a := ctx.NewTensor(rt.F32, 4).SetName("a")
	b := ctx.NewTensor(rt.F32, 4).SetName("b")
	s := ctx.Add(a, b).SetName("s")
	m := ctx.Mul(s, a).SetName("m")
	out := ctx.Silu(m).SetName("out")
	g, err := ctx.BuildGraph(out)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, n := range g.Nodes {
		names = append(names, n.Name)
	}
	if strings.Join(names, ",") != "s,m,out" || len(g.Leafs) != 2 {
		t.Errorf("nodes %v, %d leafs", names, len(g.Leafs))
	}
	if out.Flags&rt.FlagOutput == 0 {
		t.Error("output not marked")
	}
	if g.Tensor("m") != m || g.Tensor("nope") != nil {
		t.Error("Tensor lookup")
	}
}

func TestTensorIOBounds(t *testing.T) {
	ctx := rt.NewContext()
	x := ctx.NewTensor(rt.F32, 8).SetName("x")
	if err := rt.TensorSet(x, make([]byte, 4), 0); err == nil || !strings.Contains(err.Error(), "no buffer") {
		t.Errorf("set on unallocated tensor: %v", err)
	}
	buf, err := rt.AllocContextTensors(ctx, cpu.BufferType())
	if err != nil {
		t.Fatal(err)
	}
	defer buf.Free()
	cases := []struct {
		name string
		fn   func() error
	}{
		{"set past end", func() error { return rt.TensorSet(x, make([]byte, 8), 28) }},
		{"get past end", func() error { return rt.TensorGet(x, make([]byte, 33), 0) }},
		{"negative offset", func() error { return rt.TensorGet(x, make([]byte, 4), -4) }},
		{"memset past end", func() error { return rt.TensorMemset(x, 0, 16, 17) }},
		{"set f32 count", func() error { return rt.TensorSetF32(x, []float32{1, 2}) }},
	}
	for _, c := range cases {
		if err := c.fn(); err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
	want := []float32{1, 2, 3, 4, 5, 6, 7, 8}
	if err := rt.TensorSetF32(x, want); err != nil {
		t.Fatal(err)
	}
	if err := rt.TensorMemset(x, 0, 4, 4); err != nil {
		t.Fatal(err)
	}
	got, err := rt.TensorGetF32(x)
	if err != nil {
		t.Fatal(err)
	}
	want[1] = 0
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
}

func TestZeroSizeAndMultiBuffer(t *testing.T) {
	bt := cpu.BufferType()
	empty, err := bt.Alloc(0)
	if err != nil || empty.Size() != 0 {
		t.Fatalf("zero-size alloc: %v size %d", err, empty.Size())
	}
	ctx := rt.NewContext()
	x := ctx.NewTensor(rt.F32, 1)
	if err := rt.AllocTensor(empty, x, 0); err == nil {
		t.Error("placing a tensor in a zero-size buffer should fail")
	}
	if err := empty.Free(); err != nil {
		t.Error(err)
	}

	// A maximum size of 3 tensors' worth forces a multi-buffer.
	small := limitedType{BufferType: bt, max: 3 * 64}
	ctx = rt.NewContext()
	var ts []*rt.Tensor
	for i := 0; i < 7; i++ {
		ts = append(ts, ctx.NewTensor(rt.F32, 16))
	}
	buf, err := rt.AllocContextTensors(ctx, small)
	if err != nil {
		t.Fatal(err)
	}
	mb, ok := buf.(*rt.MultiBuffer)
	if !ok || len(mb.Parts) != 3 {
		t.Fatalf("want a 3-part multi-buffer, got %T", buf)
	}
	mb.SetUsage(rt.UsageWeights)
	for _, p := range mb.Parts {
		if p.Usage() != rt.UsageWeights {
			t.Error("usage not propagated")
		}
	}
	for i, x := range ts {
		if err := rt.TensorSetF32(x, make([]float32, 16)); err != nil {
			t.Errorf("tensor %d: %v", i, err)
		}
	}
	if err := mb.Free(); err != nil {
		t.Error(err)
	}
}

type limitedType struct {
	rt.BufferType
	max int
}

func (l limitedType) MaxSize() int { return l.max }
