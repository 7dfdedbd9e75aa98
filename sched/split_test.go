package sched

import (
	"fmt"
	"slices"
	"testing"

	"github.com/gpurt/gpurt/runtime"
)

// chainWithGap is x → q=MulMat(w1,x) → g=Gelu(q) → o=MulMat(w2,g) with the
// weights on a GPU that lacks GELU.
func chainWithGap(t *testing.T) (gpu, cpuB *fakeBackend, g *runtime.Graph) {
	gpu, cpuB = gpuAndCPU(t, runtime.OpMulMat, runtime.OpAdd)
	ctx := runtime.NewContext()
	w1 := named(ctx.NewTensor(runtime.F32, 8, 8), "w1")
	w2 := named(ctx.NewTensor(runtime.F32, 8, 8), "w2")
	weightsOn(t, gpu, w1, w2)
	x := input(ctx, "x", 8, 2)
	q := named(ctx.MulMat(w1, x), "q")
	gl := named(ctx.Gelu(q), "g")
	o := named(ctx.MulMat(w2, gl), "o")
	return gpu, cpuB, buildGraph(t, ctx, o)
}

func names(ts []*runtime.Tensor) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.Name
	}
	return out
}

func TestSplitsAroundUnsupportedOp(t *testing.T) {
	for _, parallel := range []bool{false, true} {
		t.Run(fmt.Sprintf("parallel=%v", parallel), func(t *testing.T) {
			gpu, cpuB, g := chainWithGap(t)
			s := newSched(t, backends(gpu, cpuB), parallel, false)
			if err := s.splitGraph(g); err != nil {
				t.Fatal(err)
			}
			if got, want := splitSummary(s), []string{"GPU[x]", "CPU[q]", "GPU[g]"}; !slices.Equal(got, want) {
				t.Fatalf("splits %v, want %v", got, want)
			}
			// Sources now read the current copy (copy 0 on a fresh scheduler).
			for _, c := range []struct {
				node string
				j    int
				want string
			}{{"q", 1, "GPU#x#0"}, {"g", 0, "CPU#q#0"}, {"o", 1, "GPU#g#0"}} {
				if got := g.Tensor(c.node).Src[c.j]; got == nil || got.Name != c.want {
					t.Errorf("%s: source %d is %v, want %s", c.node, c.j, got, c.want)
				}
			}

			wantNodes := []string{"x (view)", "GPU#x#0", "q", "q (view)", "CPU#q#0", "g", "g (view)", "GPU#g#0", "o"}
			if got := names(s.graph.Nodes); !slices.Equal(got, wantNodes) {
				t.Errorf("graph copy nodes %v, want %v", got, wantNodes)
			}
			if want := []int{1, 0, 0, 0, 1, 1, 1, 0, 0}; !slices.Equal(s.nodeBackends, want) {
				t.Errorf("graph copy node backends %v, want %v", s.nodeBackends, want)
			}
			dep := s.graph.Nodes[0]
			if dep.Op != runtime.OpNone || dep.ViewSrc != g.Tensor("x") || dep.Src[0] != g.Tensor("x") {
				t.Errorf("dependency node: op %v, view of %v, source %v", dep.Op, dep.ViewSrc, dep.Src[0])
			}

			wantLeafs := []string{"w2", "w1", "x"}
			if parallel {
				// Every copy of the user input on its own backend (the
				// original is the current copy), then every copy of each
				// split input, then the graph's leafs.
				wantLeafs = []string{
					"x", "CPU#x#1", "CPU#x#2", "CPU#x#3",
					"GPU#x#0", "GPU#x#1", "GPU#x#2", "GPU#x#3",
					"CPU#q#0", "CPU#q#1", "CPU#q#2", "CPU#q#3",
					"GPU#g#0", "GPU#g#1", "GPU#g#2", "GPU#g#3",
					"w2", "w1", "x",
				}
			}
			if got := names(s.graph.Leafs); !slices.Equal(got, wantLeafs) {
				t.Errorf("graph copy leafs %v, want %v", got, wantLeafs)
			}
			for _, c := range s.graph.Leafs {
				if parallel && c.Flags&(runtime.FlagInput|runtime.FlagOutput) != runtime.FlagInput|runtime.FlagOutput && c.Name[0] != 'w' {
					t.Errorf("%s: copies must be inputs and outputs with several copies", c.Name)
				}
			}
		})
	}
}

func TestSplitInputLimit(t *testing.T) {
	gpu, cpuB := gpuAndCPU(t, runtime.OpMulMat, runtime.OpAdd)
	ctx := runtime.NewContext()
	w := named(ctx.NewTensor(runtime.F32, 8, 8), "w")
	weightsOn(t, gpu, w)
	acc := named(ctx.MulMat(w, input(ctx, "x0", 8, 2)), "mm")
	var outs []*runtime.Tensor
	for i := 1; i <= 11; i++ {
		gi := named(ctx.Gelu(input(ctx, fmt.Sprintf("in%d", i), 8, 2)), fmt.Sprintf("g%d", i))
		outs = append(outs, gi)
		acc = named(ctx.Add(acc, gi), fmt.Sprintf("acc%d", i))
	}
	// The GELUs come first, so one GPU run consumes all eleven of them.
	g := buildGraph(t, ctx, append(outs, acc)...)
	s := newSched(t, backends(gpu, cpuB), false, false)
	if err := s.splitGraph(g); err != nil {
		t.Fatal(err)
	}
	want := []string{"CPU[]", "GPU[x0,g1,g2,g3,g4,g5,g6,g7,g8,g9]", "GPU[g10,g11]"}
	if got := splitSummary(s); !slices.Equal(got, want) {
		t.Fatalf("splits %v, want %v", got, want)
	}
	if start := s.splits[2].start; g.Nodes[start].Name != "acc10" {
		t.Errorf("third split starts at %s, want acc10", g.Nodes[start].Name)
	}
}

func TestSplitOnIncompatibleWeight(t *testing.T) {
	// A weight in memory the GPU cannot use starts a new split, so the memory
	// of the copies of earlier weights can be reused.
	gpu, cpuB := gpuAndCPU(t)
	ctx := runtime.NewContext()
	w1 := named(ctx.NewTensor(runtime.F32, 8, 8), "w1")
	weightsOn(t, gpu, w1)
	wc := named(ctx.NewTensor(runtime.F32, 8), "wc")
	weightsOn(t, cpuB, wc)
	x := input(ctx, "x", 8, 2)
	q := named(ctx.MulMat(w1, x), "q")
	pinned := named(ctx.Add(q, wc), "p")
	g := buildGraph(t, ctx, pinned)
	s := newSched(t, backends(gpu, cpuB), false, false)
	if err := s.SetTensorBackend(pinned, gpu); err != nil {
		t.Fatal(err)
	}
	if err := s.splitGraph(g); err != nil {
		t.Fatal(err)
	}
	if got, want := splitSummary(s), []string{"GPU[x]", "GPU[wc]"}; !slices.Equal(got, want) {
		t.Fatalf("splits %v, want %v", got, want)
	}
}

func TestResplitSameGraph(t *testing.T) {
	// Scheduling a graph again after Reset (here: reserving with it, then
	// allocating it three times) undoes the first split's changes to it and
	// gives the same result, without reserving again.
	gpu, cpuB, g := chainWithGap(t)
	s := newSched(t, backends(gpu, cpuB), false, false)
	if err := s.Reserve(g); err != nil {
		t.Fatal(err)
	}
	var first []string
	for i := 0; i < 3; i++ {
		s.Reset()
		if err := s.AllocGraph(g); err != nil {
			t.Fatal(err)
		}
		got := append(splitSummary(s), names(s.graph.Nodes)...)
		if i == 0 {
			first = got
		} else if !slices.Equal(got, first) {
			t.Fatalf("run %d: %v, first run %v", i, got, first)
		}
	}
	if s.nReserve != 1 {
		t.Errorf("%d reservations, want 1", s.nReserve)
	}
}
