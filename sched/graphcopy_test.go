package sched

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gpurt/gpurt/cpu"
	"github.com/gpurt/gpurt/runtime"
)

func randomValues(r *rand.Rand, n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = r.Float32()*2 - 1
	}
	return v
}

// smallCPUGraph is an allocated and computed graph on the CPU with a view,
// a transpose and a few ops.
func smallCPUGraph(t *testing.T, cb *cpu.Backend) *runtime.Graph {
	ctx := runtime.NewContext()
	a := named(ctx.NewTensor(runtime.F32, 4, 3), "a")
	b := named(ctx.NewTensor(runtime.F32, 4, 3), "b")
	c := named(ctx.Add(a, b), "c")
	ct := named(ctx.Transpose(c), "ct")
	d := named(ctx.Cont(ct), "d")
	row := named(ctx.View1D(d, 3, 4*3), "row")
	e := named(ctx.Scale(row, 3, 1), "e")
	m := named(ctx.MulMat(a, b), "m")
	g := buildGraph(t, ctx, e, m)
	alloc, err := runtime.AllocGraphOn(g, cpu.BufferType())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { alloc.Free() })
	r := rand.New(rand.NewPCG(1, 2))
	for _, x := range []*runtime.Tensor{a, b} {
		if err := runtime.TensorSetF32(x, randomValues(r, x.Nelements())); err != nil {
			t.Fatal(err)
		}
	}
	if err := cb.GraphCompute(g); err != nil {
		t.Fatal(err)
	}
	return g
}

func newCPU(t testing.TB) *cpu.Backend {
	cb, err := cpu.NewBackend(2)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cb.Close() })
	return cb
}

func TestGraphCopy(t *testing.T) {
	cb := newCPU(t)
	g := smallCPUGraph(t, cb)
	fake := newFake(t, fakeOpts{name: "GPU", kernels: true})
	cg, err := GraphCopy(fake, g)
	if err != nil {
		t.Fatal(err)
	}
	defer cg.Free()

	if got, want := names(cg.Graph.Nodes), names(g.Nodes); !slices.Equal(got, want) {
		t.Fatalf("copied nodes %v, want %v", got, want)
	}
	if got, want := names(cg.Graph.Leafs), names(g.Leafs); !slices.Equal(got, want) {
		t.Fatalf("copied leafs %v, want %v", got, want)
	}
	twin := map[*runtime.Tensor]*runtime.Tensor{}
	for i, n := range g.Nodes {
		twin[n] = cg.Graph.Nodes[i]
	}
	for i, l := range g.Leafs {
		twin[l] = cg.Graph.Leafs[i]
	}
	for orig, d := range twin {
		if d == orig || d.Op != orig.Op || d.Ne != orig.Ne || d.Nb != orig.Nb || d.Type != orig.Type || d.Params != orig.Params {
			t.Errorf("%s: copy differs in op or layout", orig.Name)
		}
		if d.Buffer == nil || d.Buffer.Type() != runtime.BufferType(fake.dev.bt) {
			t.Errorf("%s: copy is not in the GPU's memory", orig.Name)
		}
		for j, s := range orig.Src {
			if s != nil && d.Src[j] != twin[s] {
				t.Errorf("%s: source %d is not the copy of %s", orig.Name, j, s.Name)
			}
		}
		if orig.ViewSrc != nil && (d.ViewSrc != twin[orig.ViewSrc] || d.ViewOffs != orig.ViewOffs) {
			t.Errorf("%s: view of %v at %d, want the copy of %s at %d", orig.Name, d.ViewSrc, d.ViewOffs, orig.ViewSrc.Name, orig.ViewOffs)
		}
		// Data was copied too (results included).
		want, err1 := runtime.TensorGetF32(orig)
		got, err2 := runtime.TensorGetF32(d)
		if err1 != nil || err2 != nil || !slices.Equal(got, want) {
			t.Errorf("%s: copy holds %v, want %v (%v, %v)", orig.Name, got, want, err1, err2)
		}
	}

	// An unallocated graph cannot be copied.
	ctx := runtime.NewContext()
	x := named(ctx.NewTensor(runtime.F32, 4), "x")
	if _, err := GraphCopy(fake, buildGraph(t, ctx, named(ctx.Neg(x), "n"))); err == nil || !strings.Contains(err.Error(), `"n" is not allocated`) {
		t.Errorf("unallocated graph: %v", err)
	}
}

func TestCompareGraphBackend(t *testing.T) {
	cb := newCPU(t)
	g := smallCPUGraph(t, cb)
	// Zero the results so both backends must compute them.
	for _, n := range g.Nodes {
		if !n.Op.IsView() {
			if err := runtime.TensorMemset(n, 0, 0, n.Nbytes()); err != nil {
				t.Fatal(err)
			}
		}
	}
	log := &computeLog{}
	fake := newFake(t, fakeOpts{name: "GPU", kernels: true, log: log})

	var seen []string
	err := CompareGraphBackend(cb, fake, g, func(i int, t1, t2 *runtime.Tensor) bool {
		if g.Nodes[i] != t1 || t1.Name != t2.Name {
			t.Errorf("node %d: got %s and %s", i, t1.Name, t2.Name)
		}
		v1, err1 := runtime.TensorGetF32(t1)
		v2, err2 := runtime.TensorGetF32(t2)
		if err1 != nil || err2 != nil || !slices.Equal(v1, v2) {
			t.Errorf("%s: CPU %v, copy %v (%v, %v)", t1.Name, v1, v2, err1, err2)
		}
		if slices.ContainsFunc(v1, func(f float32) bool { return f != 0 }) == false {
			t.Errorf("%s: result is all zeros; it was not computed", t1.Name)
		}
		seen = append(seen, t1.Name)
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	// Views are computed but not compared.
	if want := []string{"c", "d", "e", "m"}; !slices.Equal(seen, want) {
		t.Errorf("compared %v, want %v", seen, want)
	}
	// One node at a time on the copy's backend.
	if got, want := log.String(), "GPU:c GPU: GPU:d GPU: GPU:e GPU:m"; got != want {
		t.Errorf("copy computed %q, want %q", got, want)
	}

	// The callback stops the comparison.
	seen = nil
	err = CompareGraphBackend(cb, fake, g, func(i int, t1, t2 *runtime.Tensor) bool {
		seen = append(seen, t1.Name)
		return len(seen) < 2
	})
	if err != nil || !slices.Equal(seen, []string{"c", "d"}) {
		t.Errorf("stopped comparison saw %v (%v), want [c d]", seen, err)
	}
}
