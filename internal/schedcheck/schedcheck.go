// Package schedcheck holds scheduler checks that every backend's tests run
// on their own device, so that the scheduler's pipeline parallelism (input
// copies, events, asynchronous reads) is exercised on real backends and not
// only on the scheduler's fakes.
//
// # Pipeline
//
// Pipeline runs a graph that goes GPU → CPU → GPU through the scheduler
// with pipeline parallelism for several runs without synchronizing between
// them. Each run feeds a CPU-side input (copied to the GPU by the scheduler)
// and an input pinned to the GPU (one tensor per copy), and reads its result
// asynchronously; every run must match the CPU alone.
package schedcheck

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	rt "github.com/gpurt/gpurt/runtime"
	"github.com/gpurt/gpurt/sched"
)

// PipelineOptions configures Pipeline.
type PipelineOptions struct {
	// Runs is the number of graphs queued before the one synchronization
	// (at least 8, twice the scheduler's copies, when zero).
	Runs int
	// Tolerance is the largest absolute difference from the CPU allowed.
	Tolerance float64
	// Timeout fails the check instead of hanging when a run deadlocks.
	Timeout time.Duration
}

const dim = 16

type pipelineGraph struct {
	g         *rt.Graph
	x, pinned *rt.Tensor // CPU-side input, input pinned to the GPU
	mid, out  *rt.Tensor // the node pinned to the CPU, the result
}

// build makes out = w2 · silu(w1·x + pinned) + pinned with the silu pinned
// to the CPU by the caller: splits GPU, CPU, GPU.
func build(w1, w2 *rt.Tensor) (pipelineGraph, error) {
	ctx := rt.NewContext()
	p := pipelineGraph{
		x:      ctx.NewTensor(rt.F32, dim, 2).SetName("x"),
		pinned: ctx.NewTensor(rt.F32, dim, 2).SetName("pinned"),
	}
	p.x.SetInput()
	p.pinned.SetInput()
	h := ctx.Add(ctx.MulMat(w1, p.x), p.pinned)
	p.mid = ctx.Silu(h).SetName("mid")
	p.out = ctx.Add(ctx.MulMat(w2, p.mid), p.pinned).SetName("out")
	p.out.SetOutput()
	g, err := ctx.BuildGraph(p.out)
	p.g = g
	return p, err
}

func values(r *rand.Rand, n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = 2*r.Float32() - 1
	}
	return v
}

// Pipeline runs the check with gpu (any non-CPU backend) and cpuBackend.
func Pipeline(t testing.TB, gpu, cpuBackend rt.Backend, o PipelineOptions) {
	t.Helper()
	if o.Runs == 0 {
		o.Runs = 2 * sched.MaxCopies
	}
	if o.Tolerance == 0 {
		o.Tolerance = 1e-3
	}
	if o.Timeout == 0 {
		o.Timeout = 2 * time.Minute
	}
	done := make(chan error, 1)
	go func() { done <- pipeline(gpu, cpuBackend, o) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(o.Timeout):
		// The goroutine is stuck in the backend; the process cannot recover it.
		panic(fmt.Sprintf("schedcheck: pipelined runs on %s did not finish in %v (deadlock)", gpu.Name(), o.Timeout))
	}
}

func pipeline(gpu, cpuBackend rt.Backend, o PipelineOptions) (err error) {
	wctx := rt.NewContext()
	w1 := wctx.NewTensor(rt.F32, dim, dim).SetName("w1")
	w2 := wctx.NewTensor(rt.F32, dim, dim).SetName("w2")
	wbuf, err := rt.AllocContextTensors(wctx, gpu.Device().BufferType())
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, wbuf.Free()) }()
	wbuf.SetUsage(rt.UsageWeights)
	r := rand.New(rand.NewPCG(7, 11))
	wv1, wv2 := values(r, dim*dim), values(r, dim*dim)
	if err := errors.Join(rt.TensorSetF32(w1, wv1), rt.TensorSetF32(w2, wv2)); err != nil {
		return err
	}
	xs, ps := make([][]float32, o.Runs), make([][]float32, o.Runs)
	for i := range xs {
		xs[i], ps[i] = values(r, 2*dim), values(r, 2*dim)
	}

	s, err := sched.New([]rt.Backend{gpu, cpuBackend}, nil, 256, true, false)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, s.Close()) }()
	raw := make([][]byte, o.Runs)
	outs := make([]*rt.Tensor, o.Runs)
	for run := 0; run < o.Runs; run++ {
		s.Reset()
		p, err := build(w1, w2)
		if err != nil {
			return err
		}
		if err := errors.Join(s.SetTensorBackend(p.pinned, gpu), s.SetTensorBackend(p.mid, cpuBackend)); err != nil {
			return err
		}
		if err := s.AllocGraph(p.g); err != nil {
			return fmt.Errorf("run %d: %w", run, err)
		}
		if n := s.NSplits(); n != 3 {
			return fmt.Errorf("run %d: %d splits, want 3 (GPU, CPU, GPU)", run, n)
		}
		if err := errors.Join(rt.TensorSetF32(p.x, xs[run]), rt.TensorSetF32(p.pinned, ps[run])); err != nil {
			return fmt.Errorf("run %d: set inputs: %w", run, err)
		}
		if err := s.GraphComputeAsync(p.g); err != nil {
			return fmt.Errorf("run %d: %w", run, err)
		}
		if b := s.TensorBackend(p.out); b != gpu {
			return fmt.Errorf("run %d: the result is on %v, want %s", run, b, gpu.Name())
		}
		raw[run] = make([]byte, p.out.Nbytes())
		if err := rt.TensorGetAsync(gpu, p.out, raw[run], 0); err != nil {
			return fmt.Errorf("run %d: read result: %w", run, err)
		}
		outs[run] = p.out
	}
	if err := s.Synchronize(); err != nil {
		return err
	}
	for run := 0; run < o.Runs; run++ {
		got, err := rt.DecodeF32(outs[run], raw[run])
		if err != nil {
			return err
		}
		want := reference(wv1, wv2, xs[run], ps[run])
		for i := range want {
			if d := math.Abs(float64(got[i] - want[i])); !(d <= o.Tolerance) {
				return fmt.Errorf("run %d: out[%d] = %g, want %g (the pipelined runs mixed up their inputs)", run, i, got[i], want[i])
			}
		}
	}
	return nil
}

// reference computes the graph in plain Go: w·x for a [dim,dim] w is
// out[m] = Σ_k w[m*dim+k]·x[k] per column of x.
func reference(w1, w2, x, p []float32) []float32 {
	mul := func(w, v []float32) []float32 {
		out := make([]float32, len(v))
		for c := 0; c < len(v)/dim; c++ {
			for m := 0; m < dim; m++ {
				var sum float64
				for k := 0; k < dim; k++ {
					sum += float64(w[m*dim+k]) * float64(v[c*dim+k])
				}
				out[c*dim+m] = float32(sum)
			}
		}
		return out
	}
	h := mul(w1, x)
	for i := range h {
		v := float64(h[i] + p[i])
		h[i] = float32(v / (1 + math.Exp(-v)))
	}
	out := mul(w2, h)
	for i := range out {
		out[i] += p[i]
	}
	return out
}
