package optest

import (
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/gpurt/gpurt/cpu"
	rt "github.com/gpurt/gpurt/runtime"
)

// graphOf builds c's graph.
func graphOf(t *testing.T, c Case) *rt.Graph {
	t.Helper()
	ctx := rt.NewContext()
	out, err := c.Build(ctx)
	if err != nil {
		t.Fatal(err)
	}
	g, err := ctx.BuildGraph(out)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestCatalogue(t *testing.T) {
	cases := Cases()
	if len(cases) < 500 {
		t.Errorf("%d cases, want several hundred", len(cases))
	}
	perOp := map[rt.Op]int{}
	names := map[string]bool{}
	for _, c := range cases {
		if names[c.Name()] {
			t.Errorf("duplicate case name %s", c.Name())
		}
		names[c.Name()] = true
		if !strings.HasPrefix(c.Name(), c.Op().String()+"(") {
			t.Errorf("case %s does not start with its op %v", c.Name(), c.Op())
		}
		if !opsOf(t, []Case{c})[c.Name()][c.Op()] {
			t.Errorf("case %s has no %v node", c.Name(), c.Op())
		}
		if c.MaxNMSE() <= 0 || c.MaxNMSE() > 1e-3 {
			t.Errorf("case %s: threshold %g", c.Name(), c.MaxNMSE())
		}
		perOp[c.Op()]++
	}
	for _, op := range rt.AllOps() {
		if perOp[op] < 5 {
			t.Errorf("%v has %d cases, want at least 5", op, perOp[op])
		}
	}
	// MUL_MAT: every weight dtype with N = 1, small N and N past a tile.
	for _, w := range weightTypes {
		for _, n := range []string{"n=1,", "n=3,", "n=17,", "n=129,"} {
			found := false
			for _, c := range cases {
				found = found || strings.HasPrefix(c.Name(), "MUL_MAT(type_a="+w.String()+",") && strings.Contains(c.Name(), n)
			}
			if !found {
				t.Errorf("no MUL_MAT case with weights %v and %s", w, n)
			}
		}
	}
	// The other weight types: MUL_MAT with N = 1, small and past a tile,
	// GET_ROWS, and CPY to and from F32 and F16.
	for _, w := range blockTypes {
		for _, n := range []string{"n=1,", "n=2,", "n=8,", "n=33,"} {
			found := false
			for _, c := range cases {
				found = found || strings.HasPrefix(c.Name(), "MUL_MAT(type_a="+w.String()+",") && strings.Contains(c.Name(), n)
			}
			if !found {
				t.Errorf("no MUL_MAT case with weights %v and %s", w, n)
			}
		}
		for _, want := range []string{
			"GET_ROWS(type=" + w.String() + ",ne0=256,rows=10,n=5,bs=[1,1])",
			"CPY(type_src=f32,type_dst=" + w.String() + ",ne=[256,3,2,1])",
			"CPY(type_src=f16,type_dst=" + w.String() + ",ne=[256,3,2,1])",
			"CPY(type_src=" + w.String() + ",type_dst=f32,ne=[256,3,2,1])",
		} {
			if !names[want] {
				t.Errorf("no case %s", want)
			}
		}
	}
	// CPY between every pair of the plain dtypes, Q8_0 and Q4_0.
	for _, src := range []rt.DType{rt.F32, rt.F16, rt.BF16, rt.Q8_0, rt.Q4_0, rt.I32} {
		for _, dst := range []rt.DType{rt.F32, rt.F16, rt.BF16, rt.Q8_0, rt.Q4_0, rt.I32} {
			if (src == rt.I32 && dst.IsQuantized()) || (dst == rt.I32 && src.IsQuantized()) {
				continue
			}
			if !names["CPY(type_src="+src.String()+",type_dst="+dst.String()+",ne=[64,3,2,1])"] {
				t.Errorf("no CPY case from %v to %v", src, dst)
			}
		}
	}
}

// The names are part of the interface (people filter on them and compare
// runs): keep a few fixed.
func TestCaseNamesAreStable(t *testing.T) {
	names := map[string]bool{}
	for _, c := range Cases() {
		names[c.Name()] = true
	}
	for _, n := range []string{
		"MUL_MAT(type_a=q4_0,m=16,n=1,k=256,bs=[1,1],nr=[1,1])",
		"MUL_MAT(type_a=f16,m=16,n=17,k=64,bs=[3,1],nr=[1,1],view_b=permute[0,2,1,3])",
		"ADD(type_a=f32,type_b=f32,ne_a=[33,17,3,2],ne_b=[33,1,1,1])",
		"SOFT_MAX(ne=[33,17,3,2],mask=f16,ne_mask=[33,17,1,1],scale=0.25)",
		"ROPE(type=f32,ne=[64,4,7,1],n_dims=64,mode=2,freq_base=10000,freq_scale=1)",
		"CPY(type_src=f32,type_dst=q8_0,ne=[64,3,2,1])",
		"RMS_NORM(type=f32,ne=[64,5,4,3],eps=1e-06)",
	} {
		if !names[n] {
			t.Errorf("case %s is gone", n)
		}
	}
}

func refCPU(t *testing.T) *cpu.Backend {
	t.Helper()
	ref, err := cpu.NewBackend(max(2, runtime.GOMAXPROCS(0)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ref.Close() })
	return ref
}

// A second CPU backend, single-threaded, passes every case: the harness is
// exercised in CI without a GPU, and the CPU is checked for thread-count
// dependence.
func TestSecondCPUInstancePasses(t *testing.T) {
	b, err := cpu.NewBackend(1)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	sum := RunTWith(t, &Runner{Ref: refCPU(t)}, b, Filter{})
	if sum.Failed != 0 || sum.Skipped != 0 || sum.Passed != len(Cases()) {
		t.Errorf("summary %s, want all %d passed", sum, len(Cases()))
	}
}

// opsOf lists, for every case, the ops its graph computes.
func opsOf(t *testing.T, cases []Case) map[string]map[rt.Op]bool {
	m := map[string]map[rt.Op]bool{}
	for _, c := range cases {
		ops := map[rt.Op]bool{}
		for _, n := range graphOf(t, c).Nodes {
			ops[n.Op] = true
		}
		m[c.Name()] = ops
	}
	return m
}

// A deliberately wrong kernel fails exactly the cases whose graphs compute
// that op, and nothing else.
func TestWrongKernelIsCaught(t *testing.T) {
	cases := Filter{MaxCost: 1 << 20}.Select(Cases())
	uses := opsOf(t, cases)
	ref := refCPU(t)
	// The whole catalogue for an op that only its own cases use, and for
	// CONT, which other cases use to read views and to make in-place inputs.
	full := map[rt.Op]bool{rt.OpRope: true, rt.OpCont: true}
	for _, op := range rt.AllOps() {
		if op.IsView() {
			continue // views compute nothing to get wrong
		}
		r := &Runner{Ref: ref, Cases: cases}
		if !full[op] {
			r.Cases = nil
			for _, c := range cases {
				if uses[c.Name()][op] {
					r.Cases = append(r.Cases, c)
				}
			}
		}
		var failed int
		r.Run(newFaulty(op, skew, rt.OpNone), Filter{}, func(res Result) {
			want := OK
			if uses[res.Case][op] {
				want = Fail
				failed++
			}
			if res.Status != want {
				t.Errorf("wrong %v kernel: %s is %v (%v), want %v", op, res.Case, res.Status, res.Err, want)
			}
		})
		if failed == 0 {
			t.Errorf("wrong %v kernel: no case failed", op)
		}
	}
}

// Other kinds of wrong kernels: a NaN, a write past the output, a write
// into an input.
func TestFaultsAreReported(t *testing.T) {
	ref := refCPU(t)
	for _, tc := range []struct {
		name  string
		op    rt.Op
		cases string // a regular expression on case names
		fault fault
		want  string
	}{
		{"nan", rt.OpSoftMax, "", nanFirst, "NaN at [0,0,0,0]"},
		{"overrun", rt.OpMul, "type_a=f32", overrun, "wrote outside its tensors"},
		{"overrun matmul", rt.OpMulMat, "type_a=(f32|q4_0),m=16", overrun, "bytes past the end of \"out\" (MUL_MAT)"},
		{"clobbered input", rt.OpSqrt, `^SQRT\(type=f32,ne=\[[0-9,]*\](,view=[a-z0-9\[\],]*)?\)$`, clobber, "input \"a\" changed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &Runner{Ref: ref, Cases: Filter{Ops: []rt.Op{tc.op}, Name: regexp.MustCompile(tc.cases)}.Select(Cases())}
			if len(r.Cases) == 0 {
				t.Fatal("no cases")
			}
			sum := r.Run(newFaulty(tc.op, tc.fault, rt.OpNone), Filter{}, func(res Result) {
				if res.Status != Fail || !strings.Contains(res.Err.Error(), tc.want) {
					t.Errorf("%s: %v %v, want a failure saying %q", res.Case, res.Status, res.Err, tc.want)
				}
			})
			if sum.Failed != len(r.Cases) {
				t.Errorf("summary %s, want %d failed", sum, len(r.Cases))
			}
		})
	}
}

// A case with a node the device rejects is counted as not supported, never
// as passed or failed.
func TestNotSupportedIsCounted(t *testing.T) {
	cases := Filter{Ops: []rt.Op{rt.OpRope, rt.OpSoftMax, rt.OpCont}}.Select(Cases())
	r := &Runner{Ref: refCPU(t), Cases: cases}
	b := newFaulty(rt.OpNone, nil, rt.OpRope)
	var rejected int
	sum := r.Run(b, Filter{}, func(res Result) {
		want := OK
		if strings.HasPrefix(res.Case, "ROPE(") {
			want = NotSupported
			rejected++
			if res.Err == nil || !strings.Contains(res.Err.Error(), "Faulty does not support ROPE") {
				t.Errorf("%s: reason %v", res.Case, res.Err)
			}
		}
		if res.Status != want {
			t.Errorf("%s: %v (%v), want %v", res.Case, res.Status, res.Err, want)
		}
	})
	want := Summary{Passed: len(cases) - rejected, Skipped: rejected}
	if sum != want || rejected == 0 {
		t.Errorf("summary %+v, want %+v", sum, want)
	}
	if !strings.HasSuffix(sum.String(), ", "+strconv.Itoa(rejected)+" skipped") {
		t.Errorf("summary line %q", sum)
	}
}

// A panicking kernel fails its case and the run goes on.
func TestPanicFailsTheCase(t *testing.T) {
	cases := Filter{Ops: []rt.Op{rt.OpTanh, rt.OpNeg}, Sample: 4}.Select(Cases())
	r := &Runner{Ref: refCPU(t), Cases: cases}
	b := newFaulty(rt.OpTanh, func(*rt.Tensor) error { panic("kernel bug") }, rt.OpNone)
	sum := r.Run(b, Filter{}, func(res Result) {
		if strings.HasPrefix(res.Case, "TANH(") && (res.Status != Fail || !strings.HasPrefix(res.Err.Error(), "panic: kernel bug")) {
			t.Errorf("%s: %v %v", res.Case, res.Status, res.Err)
		}
	})
	if sum.Failed == 0 || sum.Passed == 0 {
		t.Errorf("summary %s", sum)
	}
}

// The CPU backend, the reference of every other backend, agrees with an
// oracle written from the op definitions.
func TestCPUAgreesWithOracle(t *testing.T) {
	b, err := cpu.NewBackend(0)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	sum := RunTWith(t, &Runner{Ref: oracle{}}, b, Filter{})
	if sum.Failed != 0 || sum.Skipped != 0 {
		t.Errorf("summary %s", sum)
	}
}

// The in-place cases put the output where the graph allocator puts it in
// real graphs: over the op's first source, an intermediate that dies there.
func TestInplaceCasesMatchTheGraphAllocator(t *testing.T) {
	var n int
	for _, c := range Cases() {
		ip, ok := c.(interface{ Inplace() bool })
		if !ok || !ip.Inplace() {
			continue
		}
		n++
		if !c.Op().CanInplace() {
			t.Errorf("%s: %v cannot run in place", c.Name(), c.Op())
		}
		g := graphOf(t, c)
		out := g.Nodes[len(g.Nodes)-1]
		a, err := rt.AllocGraphOn(g, cpu.BufferType())
		if err != nil {
			t.Fatalf("%s: %v", c.Name(), err)
		}
		if src := out.Src[0]; out.Buffer != src.Buffer || out.Offset != src.Offset {
			t.Errorf("%s: the graph allocator does not run %v in place", c.Name(), c.Op())
		}
		a.Free()
	}
	if n < 15 {
		t.Errorf("%d in-place cases", n)
	}
}
