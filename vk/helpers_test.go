package vk

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gpurt/gpurt/cpu"
	rt "github.com/gpurt/gpurt/runtime"
)

// buildFn builds a graph on a fresh context and returns its output.
type buildFn func(ctx *rt.Context) *rt.Tensor

// leafData is the initial content of a leaf, by name: random values in
// [-1, 1) (converted to the leaf's dtype) unless the test gives bytes.
func leafData(t *rt.Tensor, given map[string][]byte) ([]byte, error) {
	if b, ok := given[t.Name]; ok {
		return b, nil
	}
	h := fnv.New64a()
	h.Write([]byte(t.Name))
	r := rand.New(rand.NewPCG(h.Sum64(), 7))
	vals := make([]float32, t.Nelements())
	for i := range vals {
		vals[i] = r.Float32()*2 - 1
	}
	out := make([]byte, t.Type.RowSize(len(vals)))
	if err := rt.QuantizeRow(t.Type, vals, out); err != nil {
		return nil, err
	}
	return out, nil
}

// fillLeaves uploads each leaf of g: given's bytes by name, else
// leafData's deterministic values.
func fillLeaves(t *testing.T, g *rt.Graph, given map[string][]byte) {
	t.Helper()
	for _, l := range g.Leafs {
		d, err := leafData(l, given)
		if err != nil {
			t.Fatal(err)
		}
		if err := rt.TensorSet(l, d, 0); err != nil {
			t.Fatalf("set %q: %v", l.Name, err)
		}
	}
}

// runGraph builds the graph, places it in one buffer of bt, fills the
// leaves, computes on be and returns the output as float32 values.
func runGraph(t *testing.T, be rt.Backend, bt rt.BufferType, build buildFn, given map[string][]byte) []float32 {
	t.Helper()
	ctx := rt.NewContext()
	out := build(ctx)
	g, err := ctx.BuildGraph(out)
	if err != nil {
		t.Fatal(err)
	}
	alloc(t, ctx, bt)
	fillLeaves(t, g, given)
	if err := be.GraphCompute(g); err != nil {
		t.Fatalf("%s: %v", be.Name(), err)
	}
	if err := be.Synchronize(); err != nil {
		t.Fatal(err)
	}
	vals, err := rt.TensorGetF32(out)
	if err != nil {
		t.Fatal(err)
	}
	return vals
}

var cpuRef struct {
	be *cpu.Backend
}

// checkAgainstCPU runs build on the Vulkan backend and on the CPU backend
// and requires the outputs to agree within tol (relative to the largest
// reference magnitude).
func checkAgainstCPU(t *testing.T, build buildFn, given map[string][]byte, tol float64) {
	t.Helper()
	dev, be := testDevice(t)
	if cpuRef.be == nil {
		b, err := cpu.NewBackend(1)
		if err != nil {
			t.Fatal(err)
		}
		cpuRef.be = b
	}
	got := runGraph(t, be, dev.BufferType(), build, given)
	want := runGraph(t, cpuRef.be, cpu.BufferType(), build, given)
	if err := closeEnough(got, want, tol); err != nil {
		t.Error(err)
	}
}

func closeEnough(got, want []float32, tol float64) error {
	if len(got) != len(want) {
		return fmt.Errorf("got %d values, want %d", len(got), len(want))
	}
	scale := 0.0
	for _, w := range want {
		scale = max(scale, math.Abs(float64(w)))
	}
	scale = max(scale, 1e-30)
	for i := range want {
		g, w := float64(got[i]), float64(want[i])
		if math.IsNaN(g) != math.IsNaN(w) || (!math.IsNaN(w) && math.Abs(g-w) > tol*scale && g != w) {
			return fmt.Errorf("element %d: got %v, want %v (tolerance %g of %g)", i, got[i], want[i], tol, scale)
		}
	}
	return nil
}

func i32Bytes(v ...int32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		b[4*i], b[4*i+1], b[4*i+2], b[4*i+3] = byte(x), byte(x>>8), byte(x>>16), byte(x>>24)
	}
	return b
}

func cpuBackend(t *testing.T) rt.Backend {
	if cpuRef.be == nil {
		b, err := cpu.NewBackend(1)
		if err != nil {
			t.Fatal(err)
		}
		cpuRef.be = b
	}
	return cpuRef.be
}

// graphRunner is a backend or a scheduler.
type graphRunner interface {
	GraphCompute(g *rt.Graph) error
	Synchronize() error
}

// computeF32 runs g on be, waits, and reads out as float32.
func computeF32(t *testing.T, be graphRunner, g *rt.Graph, out *rt.Tensor) []float32 {
	t.Helper()
	if err := be.GraphCompute(g); err != nil {
		t.Fatal(err)
	}
	if err := be.Synchronize(); err != nil {
		t.Fatal(err)
	}
	got, err := rt.TensorGetF32(out)
	if err != nil {
		t.Fatal(err)
	}
	return got
}
