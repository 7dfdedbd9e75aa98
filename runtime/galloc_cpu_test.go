package runtime_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gpurt/gpurt/cpu"
	rt "github.com/gpurt/gpurt/runtime"
)

// These tests compute graphs with the CPU backend twice: once with the graph
// allocator's shared, reused memory and once with every tensor in memory of
// its own (AllocContextTensors). Same kernels, same inputs: any tensor
// overwritten too early shows up as a different result.

// graphBuilder builds a graph in ctx and returns its outputs.
type graphBuilder func(ctx *rt.Context) []*rt.Tensor

// transformer builds layers of a small llama-style block over seq tokens:
// RMS norm, rotary q and k through reshape views, masked softmax attention,
// and a SiLU feed-forward, each with a residual connection.
func transformer(layers, seq int) graphBuilder {
	return func(ctx *rt.Context) []*rt.Tensor {
		const d, heads = 32, 4
		hd := d / heads
		x := ctx.NewTensor(rt.F32, d, seq).SetName("x")
		pos := ctx.NewTensor(rt.I32, seq).SetName("pos")
		x.SetInput()
		pos.SetInput()
		h := x
		for l := 0; l < layers; l++ {
			w := func(name string, ne ...int) *rt.Tensor {
				return ctx.NewTensor(rt.F32, ne...).SetName(fmt.Sprintf("%s.%d", name, l))
			}
			wq, wk, wv, wo := w("wq", d, d), w("wk", d, d), w("wv", d, d), w("wo", d, d)
			w1, w2 := w("w1", d, 2*d), w("w2", 2*d, d)
			n := ctx.RmsNorm(h, 1e-5)
			rope := func(t *rt.Tensor) *rt.Tensor {
				r := ctx.Rope(ctx.Reshape(t, hd, heads, seq), pos, hd, rt.RopeNeox, 10000, 1)
				return ctx.Reshape(r, d, seq)
			}
			q, k, v := rope(ctx.MulMat(wq, n)), rope(ctx.MulMat(wk, n)), ctx.MulMat(wv, n)
			att := ctx.SoftMax(ctx.DiagMaskInf(ctx.MulMat(k, q), 0), nil, float32(1/math.Sqrt(d)))
			h = ctx.Add(h, ctx.MulMat(wo, ctx.MulMat(ctx.Cont(ctx.Transpose(v)), att)))
			h = ctx.Add(h, ctx.MulMat(w2, ctx.Silu(ctx.MulMat(w1, ctx.RmsNorm(h, 1e-5)))))
			h.SetName(fmt.Sprintf("h.%d", l))
		}
		return []*rt.Tensor{h}
	}
}

var cpuGraphs = []struct {
	name  string
	build graphBuilder
}{
	{"elementwise chain", func(ctx *rt.Context) []*rt.Tensor {
		return []*rt.Tensor{elementwiseChainIn(ctx, 12)}
	}},
	{"intermediate outputs", func(ctx *rt.Context) []*rt.Tensor {
		x := ctx.NewTensor(rt.F32, 64, 8).SetName("x")
		x.SetInput()
		mid := ctx.Scale(ctx.Silu(x), 2, 0).SetName("mid")
		cp := ctx.Cont(mid).SetName("cp")
		y := ctx.SumRows(ctx.Sqr(ctx.Add(ctx.Neg(cp), mid))).SetName("y")
		return []*rt.Tensor{mid, cp, y}
	}},
	{"views keep sources alive", func(ctx *rt.Context) []*rt.Tensor {
		x := ctx.NewTensor(rt.F32, 16, 16).SetName("x")
		x.SetInput()
		a := ctx.Scale(x, 3, 1)
		top := ctx.View2D(a, 16, 8, a.Nb[1], 8*a.Nb[1]) // rows 8..15
		tmp := ctx.Exp(ctx.Cont(ctx.Transpose(x)))
		for i := 0; i < 3; i++ {
			tmp = ctx.Cont(ctx.Tanh(tmp))
		}
		return []*rt.Tensor{ctx.Add(ctx.Cont(top), ctx.View2D(tmp, 16, 8, tmp.Nb[1], 0))}
	}},
	{"transformer", transformer(3, 6)},
}

// fillLeafs writes the same pseudo-random values into the leafs of graphs
// built alike, and returns what it wrote to each input.
func fillLeafs(t *testing.T, g *rt.Graph) map[*rt.Tensor][]byte {
	t.Helper()
	r := rand.New(rand.NewPCG(5, 6))
	inputs := map[*rt.Tensor][]byte{}
	for _, l := range g.Leafs {
		if l.ViewSrc != nil {
			continue
		}
		switch l.Type {
		case rt.I32:
			pos := make([]int32, l.Nelements())
			for i := range pos {
				pos[i] = int32(3 + i)
			}
			must(t, rt.TensorSetI32(l, pos))
		default:
			must(t, rt.TensorSetF32(l, randomValues(r, l.Nelements())))
		}
		if l.Flags&rt.FlagInput != 0 {
			raw := make([]byte, l.Nbytes())
			must(t, rt.TensorGet(l, raw, 0))
			inputs[l] = raw
		}
	}
	return inputs
}

// naiveResults computes build's graph with every tensor in its own memory.
func naiveResults(t *testing.T, be rt.Backend, mk graphBuilder) [][]float32 {
	t.Helper()
	ctx := rt.NewContext()
	g := build(t, ctx, mk(ctx)...)
	buf, err := rt.AllocContextTensors(ctx, cpu.BufferType())
	must(t, err)
	defer buf.Free()
	fillLeafs(t, g)
	must(t, be.GraphCompute(g))
	return outputs(t, g)
}

func outputs(t *testing.T, g *rt.Graph) [][]float32 {
	t.Helper()
	var out [][]float32
	for _, n := range g.Nodes {
		if n.Flags&rt.FlagOutput != 0 {
			v, err := rt.TensorGetF32(n)
			must(t, err)
			out = append(out, v)
		}
	}
	return out
}

// computeAndCompare fills and computes g, already allocated, and checks its
// inputs are intact and its outputs match want.
func computeAndCompare(t *testing.T, be rt.Backend, g *rt.Graph, want [][]float32) {
	t.Helper()
	inputs := fillLeafs(t, g)
	must(t, be.GraphCompute(g))
	for x, raw := range inputs {
		got := make([]byte, len(raw))
		must(t, rt.TensorGet(x, got, 0))
		if !slices.Equal(got, raw) {
			t.Errorf("input %s was overwritten", x.Name)
		}
	}
	got := outputs(t, g)
	if len(got) != len(want) {
		t.Fatalf("%d outputs, want %d", len(got), len(want))
	}
	for i := range got {
		for j := range got[i] {
			if d := math.Abs(float64(got[i][j] - want[i][j])); d > 1e-5*(1+math.Abs(float64(want[i][j]))) {
				t.Fatalf("output %d element %d: %g, want %g", i, j, got[i][j], want[i][j])
			}
		}
	}
}

func TestGraphAllocatorCPUCompute(t *testing.T) {
	be, err := cpu.NewBackend(2)
	must(t, err)
	defer be.Close()
	for _, c := range cpuGraphs {
		t.Run(c.name, func(t *testing.T) {
			want := naiveResults(t, be, c.build)
			ctx := rt.NewContext()
			g := build(t, ctx, c.build(ctx)...)
			a, err := rt.AllocGraphOn(g, cpu.BufferType())
			must(t, err)
			defer a.Free()
			naive := 0
			for _, n := range append(slices.Clone(g.Leafs), g.Nodes...) {
				if n.ViewSrc == nil {
					naive += rt.AlignUp(n.Nbytes(), cpu.Alignment)
				}
			}
			t.Logf("%d nodes: %d bytes, %d without reuse", len(g.Nodes), a.BufferSize(0), naive)
			if a.BufferSize(0) >= naive {
				t.Errorf("no memory saved: %d bytes of %d", a.BufferSize(0), naive)
			}
			checkNoOverlap(t, g)
			computeAndCompare(t, be, g, want)
		})
	}
}

func TestGraphAllocatorCPUReserveThenSmaller(t *testing.T) {
	be, err := cpu.NewBackend(2)
	must(t, err)
	defer be.Close()
	bt := cpu.BufferType()
	a := rt.NewGraphAllocator([]rt.BufferType{bt, bt})
	defer a.Free()
	slotsFor := func(g *rt.Graph) []int { return make([]int, len(g.Nodes)) }
	ctx := rt.NewContext()
	big := build(t, ctx, transformer(2, 8)(ctx)...)
	must(t, a.Reserve(big, slotsFor(big), nil))
	size := a.BufferSize(0)
	for _, seq := range []int{8, 5, 1} {
		t.Run(fmt.Sprint(seq), func(t *testing.T) {
			want := naiveResults(t, be, transformer(2, seq))
			ctx := rt.NewContext()
			g := build(t, ctx, transformer(2, seq)(ctx)...)
			ok, err := a.AllocGraph(g)
			if !ok || err != nil {
				t.Fatalf("AllocGraph = %v, %v", ok, err)
			}
			if a.BufferSize(0) != size {
				t.Errorf("buffer changed from %d to %d bytes", size, a.BufferSize(0))
			}
			computeAndCompare(t, be, g, want)
		})
	}
}
