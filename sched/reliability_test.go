package sched

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/gpurt/gpurt/runtime"
)

// TestPipelinePinnedInput queues 8 runs on a slow asynchronous GPU whose
// only split reads an input pinned to the GPU: no input is copied, so the
// split records no event of its own, yet the user's write of run i+4's
// input must wait until run i no longer reads that copy.
func TestPipelinePinnedInput(t *testing.T) {
	const runs = 8
	gpu := newFake(t, fakeOpts{name: "GPU", async: true, events: true, kernels: true, delay: 2 * time.Millisecond})
	cb := newCPU(t)
	ctx := runtime.NewContext()
	w := named(ctx.NewTensor(runtime.F32, 8, 8), "w")
	weightsOn(t, gpu, w)
	r := rand.New(rand.NewPCG(9, 9))
	if err := runtime.TensorSetF32(w, randomValues(r, w.Nelements())); err != nil {
		t.Fatal(err)
	}
	build := func() (*runtime.Graph, *runtime.Tensor, *runtime.Tensor) {
		c := runtime.NewContext()
		p := input(c, "p", 8, 2)
		y := named(c.Silu(c.MulMat(w, p)), "y")
		return buildGraph(t, c, y), p, y
	}
	inputs := make([][]float32, runs)
	for i := range inputs {
		inputs[i] = randomValues(r, 16)
	}

	s := newSched(t, backends(gpu, cb), true, false)
	raw := make([][]byte, runs)
	outs := make([]*runtime.Tensor, runs)
	for run := 0; run < runs; run++ {
		s.Reset()
		g, p, y := build()
		if err := s.SetTensorBackend(p, gpu); err != nil {
			t.Fatal(err)
		}
		if err := s.AllocGraph(g); err != nil {
			t.Fatal(err)
		}
		if err := runtime.TensorSetF32(p, inputs[run]); err != nil {
			t.Fatal(err)
		}
		if err := s.GraphComputeAsync(g); err != nil {
			t.Fatal(err)
		}
		raw[run] = make([]byte, y.Nbytes())
		if err := runtime.TensorGetAsync(gpu, y, raw[run], 0); err != nil {
			t.Fatal(err)
		}
		outs[run] = y
	}
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
	for run := 0; run < runs; run++ {
		g, p, y := build()
		alloc, err := runtime.AllocGraphOn(g, gpu.dev.bt)
		if err != nil {
			t.Fatal(err)
		}
		if err := runtime.TensorSetF32(p, inputs[run]); err != nil {
			t.Fatal(err)
		}
		if err := gpu.GraphCompute(g); err != nil {
			t.Fatal(err)
		}
		if err := gpu.Synchronize(); err != nil {
			t.Fatal(err)
		}
		want, _ := runtime.TensorGetF32(y)
		got, _ := runtime.DecodeF32(outs[run], raw[run])
		if !slices.Equal(got, want) {
			t.Errorf("run %d: pipelined result differs from a sequential run (its pinned input was overwritten)", run)
		}
		alloc.Free()
	}
}

// TestAlternatingGraphs alternates two prebuilt graphs, with Reset in
// between: each must give its own result every time, although splitting
// the other one last rewrote the sources of neither.
func TestAlternatingGraphs(t *testing.T) {
	gpu := newFake(t, fakeOpts{name: "GPU", kernels: true, ops: []runtime.Op{runtime.OpMulMat}})
	cb := newCPU(t)
	ctx := runtime.NewContext()
	w := named(ctx.NewTensor(runtime.F32, 8, 8), "w")
	weightsOn(t, gpu, w)
	r := rand.New(rand.NewPCG(2, 3))
	if err := runtime.TensorSetF32(w, randomValues(r, w.Nelements())); err != nil {
		t.Fatal(err)
	}
	type prebuilt struct {
		g    *runtime.Graph
		x, o *runtime.Tensor
	}
	mk := func(scale float32) prebuilt {
		c := runtime.NewContext()
		x := input(c, "x", 8, 2)
		// GPU, then CPU (the GPU only has MUL_MAT), then GPU: both copies.
		o := c.MulMat(w, c.Scale(c.MulMat(w, x), scale, 0))
		return prebuilt{buildGraph(t, c, o), x, o}
	}
	graphs := []prebuilt{mk(2), mk(-3)}
	in := randomValues(r, 16)
	var first [2][]float32
	s := newSched(t, backends(gpu, cb), false, false)
	for run := 0; run < 6; run++ {
		p := graphs[run%2]
		s.Reset()
		if err := s.AllocGraph(p.g); err != nil {
			t.Fatal(err)
		}
		if err := runtime.TensorSetF32(p.x, in); err != nil {
			t.Fatal(err)
		}
		if err := s.GraphCompute(p.g); err != nil {
			t.Fatal(err)
		}
		got, err := runtime.TensorGetF32(p.o)
		if err != nil {
			t.Fatal(err)
		}
		if run < 2 {
			first[run] = got
		} else if !slices.Equal(got, first[run%2]) {
			t.Fatalf("run %d (graph %d): result changed from %v to %v", run, run%2, first[run%2][:4], got[:4])
		}
	}
	if slices.Equal(first[0], first[1]) {
		t.Fatal("the two graphs give the same result; the test cannot tell them apart")
	}
}

// TestAllocGraphTwice: a second AllocGraph without Reset is refused.
func TestAllocGraphTwice(t *testing.T) {
	gpu, cb := gpuAndCPU(t)
	s := newSched(t, backends(gpu, cb), false, false)
	c := runtime.NewContext()
	g1 := buildGraph(t, c, c.Silu(input(c, "a", 4)))
	g2 := buildGraph(t, c, c.Gelu(input(c, "b", 4)))
	if err := s.AllocGraph(g1); err != nil {
		t.Fatal(err)
	}
	for _, g := range []*runtime.Graph{g2, g1} {
		if err := s.AllocGraph(g); !errors.Is(err, runtime.ErrInvalidArgument) {
			t.Errorf("AllocGraph again without Reset: %v, want an error wrapping ErrInvalidArgument", err)
		}
	}
	s.Reset()
	if err := s.AllocGraph(g2); err != nil {
		t.Errorf("AllocGraph after Reset: %v", err)
	}
}

// TestNewRefusesBackendTwice: the same backend twice is an error.
func TestNewRefusesBackendTwice(t *testing.T) {
	gpu, cb := gpuAndCPU(t)
	for _, bs := range [][]runtime.Backend{{gpu, gpu, cb}, {gpu, cb, cb}} {
		if s, err := New(bs, nil, 64, false, false); !errors.Is(err, runtime.ErrInvalidArgument) {
			if s != nil {
				s.Close()
			}
			t.Errorf("New(%v): %v, want ErrInvalidArgument", splitNames(bs), err)
		}
	}
}

func splitNames(bs []runtime.Backend) []string {
	var n []string
	for _, b := range bs {
		n = append(n, b.Name())
	}
	return n
}
