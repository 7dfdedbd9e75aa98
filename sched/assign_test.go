package sched

import (
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/gpurt/gpurt/runtime"
)

// findTensor finds a tensor by name among g's nodes, leafs and their sources.
func findTensor(g *runtime.Graph, name string) *runtime.Tensor {
	for _, list := range [][]*runtime.Tensor{g.Nodes, g.Leafs} {
		for _, t := range list {
			if t.Name == name {
				return t
			}
			for _, s := range t.Src {
				if s != nil && s.Name == name {
					return s
				}
			}
		}
	}
	return nil
}

type assignCase struct {
	name    string
	offload bool
	// build makes the backends and graph; pin, if set, pins nodes first.
	build func(t *testing.T) (bs []runtime.Backend, bts []runtime.BufferType, g *runtime.Graph, pin func(*Scheduler))
	// want maps every node and leaf (and any input copy to check) to
	// "BACKEND cause".
	want map[string]string
}

func weightsOn(t testing.TB, b *fakeBackend, ts ...*runtime.Tensor) {
	allocIn(t, b.dev.bt, runtime.UsageWeights, ts...)
}

var assignCases = []assignCase{
	{
		name: "pre-allocated destination and view source",
		build: func(t *testing.T) ([]runtime.Backend, []runtime.BufferType, *runtime.Graph, func(*Scheduler)) {
			gpu, cpuB := gpuAndCPU(t)
			ctx := runtime.NewContext()
			kv := named(ctx.NewTensor(runtime.F32, 8, 4), "kv")
			v := named(ctx.View1D(kv, 8, 0), "v") // created before kv has memory
			allocIn(t, gpu.dev.bt, runtime.UsageAny, kv)
			x := input(ctx, "x", 8)
			a := named(ctx.Add(v, x), "a")
			d := named(ctx.Scale(a, 2, 0), "d")
			allocIn(t, gpu.dev.bt, runtime.UsageAny, d)
			return backends(gpu, cpuB), nil, buildGraph(t, ctx, d), nil
		},
		want: map[string]string{
			"kv": "GPU 1.dst", "v": "GPU 1.vsrc", "x": "CPU 1.inp", "d": "GPU 1.dst",
			"a":       "GPU 2.sup", // expanded up from d
			"GPU#x#0": "GPU 4.cpy",
		},
	},
	{
		name: "inputs, weights and expansion",
		build: func(t *testing.T) ([]runtime.Backend, []runtime.BufferType, *runtime.Graph, func(*Scheduler)) {
			gpu, cpuB := gpuAndCPU(t)
			ctx := runtime.NewContext()
			wq := named(ctx.NewTensor(runtime.F32, 8, 8), "wq")
			bias := named(ctx.NewTensor(runtime.F32, 8), "bias")
			weightsOn(t, gpu, wq, bias)
			x := input(ctx, "x", 8, 2)
			xs := named(ctx.Scale(x, 0.5, 0), "xs")
			q := named(ctx.MulMat(wq, xs), "q")
			y := named(ctx.Add(q, bias), "y")
			s := named(ctx.Silu(y), "s")
			return backends(gpu, cpuB), nil, buildGraph(t, ctx, s), nil
		},
		want: map[string]string{
			"wq": "GPU 1.dst", "bias": "GPU 1.dst", "x": "CPU 1.inp",
			"xs": "GPU 2.sup", // expanded up from q
			"q":  "GPU 1.wgt0", "y": "GPU 1.wgt1",
			"s":       "GPU 2.sup", // expanded down from y
			"GPU#x#0": "GPU 4.cpy",
		},
	},
	{
		name: "rope does not follow its weights",
		build: func(t *testing.T) ([]runtime.Backend, []runtime.BufferType, *runtime.Graph, func(*Scheduler)) {
			gpu, cpuB := gpuAndCPU(t)
			ctx := runtime.NewContext()
			wq := named(ctx.NewTensor(runtime.F32, 8, 8), "wq")
			weightsOn(t, gpu, wq)
			pos := named(ctx.NewTensor(runtime.I32, 2), "pos")
			weightsOn(t, cpuB, pos) // a small weight in CPU memory
			x := input(ctx, "x", 8, 2)
			q := named(ctx.MulMat(wq, x), "q")
			q3 := named(ctx.Reshape(q, 4, 2, 2), "q3")
			r := named(ctx.Rope(q3, pos, 4, runtime.RopeNormal, 10000, 1), "r")
			return backends(gpu, cpuB), nil, buildGraph(t, ctx, r), nil
		},
		want: map[string]string{
			"wq": "GPU 1.dst", "pos": "CPU 1.dst", "x": "CPU 1.inp", "q": "GPU 1.wgt0",
			"q3": "GPU 4.vsrc", "r": "GPU 2.sup",
			"GPU#x#0": "GPU 4.cpy", "GPU#pos#0": "GPU 4.cpy",
		},
	},
	{
		name:  "weights in CPU memory without op offload",
		build: offloadGraph,
		want: map[string]string{
			"w": "CPU 1.dst", "x": "CPU 1.inp", "m": "CPU 1.wgt0", "o": "CPU 2.sup",
		},
	},
	{
		name:    "weights in CPU memory with op offload",
		offload: true,
		build:   offloadGraph,
		want: map[string]string{
			"w": "CPU 1.dst", "x": "CPU 1.inp", "m": "GPU 1.off", "o": "GPU 2.sup",
			"GPU#w#0": "GPU 4.cpy", "GPU#x#0": "GPU 4.cpy",
		},
	},
	{
		name: "upgrade to a backend with the same buffer type",
		build: func(t *testing.T) ([]runtime.Backend, []runtime.BufferType, *runtime.Graph, func(*Scheduler)) {
			cpuB := newFake(t, fakeOpts{name: "CPU", cpu: true, host: true, acceptHost: true})
			blas := newFake(t, fakeOpts{name: "BLAS", acceptHost: true, ops: []runtime.Op{runtime.OpMulMat}})
			ctx := runtime.NewContext()
			wc := named(ctx.NewTensor(runtime.F32, 8), "wc")
			weightsOn(t, cpuB, wc)
			x := input(ctx, "x", 8, 8)
			n1 := named(ctx.Add(x, wc), "n1")
			a := input(ctx, "a", 8, 8)
			n2 := named(ctx.MulMat(a, n1), "n2")
			bt := cpuB.dev.bt
			return backends(blas, cpuB), []runtime.BufferType{bt, bt}, buildGraph(t, ctx, n2), nil
		},
		want: map[string]string{
			// BLAS can hold the weight (op NONE) in CPU memory, but lacks ADD.
			"wc": "BLAS 1.dst", "x": "CPU 1.inp", "a": "CPU 1.inp",
			"n1": "CPU 1.wgt1",
			"n2": "BLAS 3.upg",
		},
	},
	{
		name: "an op the GPU lacks goes to the best backend",
		build: func(t *testing.T) ([]runtime.Backend, []runtime.BufferType, *runtime.Graph, func(*Scheduler)) {
			gpu, cpuB := gpuAndCPU(t, runtime.OpMulMat, runtime.OpAdd)
			ctx := runtime.NewContext()
			w1 := named(ctx.NewTensor(runtime.F32, 8, 8), "w1")
			w2 := named(ctx.NewTensor(runtime.F32, 8, 8), "w2")
			weightsOn(t, gpu, w1, w2)
			x := input(ctx, "x", 8, 2)
			q := named(ctx.MulMat(w1, x), "q")
			gl := named(ctx.Gelu(q), "g")
			o := named(ctx.MulMat(w2, gl), "o")
			return backends(gpu, cpuB), nil, buildGraph(t, ctx, o), nil
		},
		want: map[string]string{
			"w1": "GPU 1.dst", "w2": "GPU 1.dst", "x": "CPU 1.inp",
			"q": "GPU 1.wgt0", "g": "CPU 3.best", "o": "GPU 1.wgt0",
			"GPU#x#0": "GPU 4.cpy", "CPU#q#0": "CPU 4.cpy", "GPU#g#0": "GPU 4.cpy",
		},
	},
	{
		name: "views and unassigned sources",
		build: func(t *testing.T) ([]runtime.Backend, []runtime.BufferType, *runtime.Graph, func(*Scheduler)) {
			gpu, cpuB := gpuAndCPU(t)
			ctx := runtime.NewContext()
			wq := named(ctx.NewTensor(runtime.F32, 8, 8), "wq")
			weightsOn(t, gpu, wq)
			x := input(ctx, "x", 8, 2)
			q := named(ctx.MulMat(wq, x), "q")
			r := named(ctx.Reshape(q, 16), "r")
			c := named(ctx.NewTensor(runtime.F32, 16), "c") // a constant without memory
			o := named(ctx.Add(r, c), "o")
			return backends(gpu, cpuB), nil, buildGraph(t, ctx, o), nil
		},
		want: map[string]string{
			"wq": "GPU 1.dst", "x": "CPU 1.inp", "q": "GPU 1.wgt0",
			"r": "GPU 4.vsrc", "o": "GPU 2.sup", "c": "GPU 4.cur",
			"GPU#x#0": "GPU 4.cpy",
		},
	},
	{
		name: "pinned nodes are kept",
		build: func(t *testing.T) ([]runtime.Backend, []runtime.BufferType, *runtime.Graph, func(*Scheduler)) {
			gpu, cpuB := gpuAndCPU(t)
			ctx := runtime.NewContext()
			wq := named(ctx.NewTensor(runtime.F32, 8, 8), "wq")
			weightsOn(t, gpu, wq)
			x := input(ctx, "x", 8, 2)
			q := named(ctx.MulMat(wq, x), "q")
			s := named(ctx.Silu(q), "s")
			u := named(ctx.Scale(s, 2, 0), "u")
			pin := func(sc *Scheduler) {
				if err := sc.SetTensorBackend(s, cpuB); err != nil {
					t.Fatal(err)
				}
				// A pin on a weight's op beats pass 1 too.
				if err := sc.SetTensorBackend(x, gpu); err != nil {
					t.Fatal(err)
				}
			}
			return backends(gpu, cpuB), nil, buildGraph(t, ctx, u), pin
		},
		want: map[string]string{
			"wq": "GPU 1.dst", "x": "GPU usr", "q": "GPU 1.wgt0",
			"s": "CPU usr", "u": "CPU 2.sup", "CPU#q#0": "CPU 4.cpy",
		},
	},
}

// offloadGraph is a matmul on weights in CPU memory that the GPU would
// take with op offload.
func offloadGraph(t *testing.T) ([]runtime.Backend, []runtime.BufferType, *runtime.Graph, func(*Scheduler)) {
	gpu := newFake(t, fakeOpts{name: "GPU", offload: func(op *runtime.Tensor) bool { return op.Op == runtime.OpMulMat }})
	cpuB := newFake(t, fakeOpts{name: "CPU", cpu: true, host: true, acceptHost: true})
	ctx := runtime.NewContext()
	w := named(ctx.NewTensor(runtime.F32, 8, 8), "w")
	weightsOn(t, cpuB, w)
	x := input(ctx, "x", 8, 2)
	m := named(ctx.MulMat(w, x), "m")
	o := named(ctx.Silu(m), "o")
	return backends(gpu, cpuB), nil, buildGraph(t, ctx, o), nil
}

func TestAssignmentCauses(t *testing.T) {
	for _, tc := range assignCases {
		t.Run(tc.name, func(t *testing.T) {
			bs, bts, g, pin := tc.build(t)
			s, err := New(bs, bts, 256, false, tc.offload)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if pin != nil {
				pin(s)
			}
			if err := s.splitGraph(g); err != nil {
				t.Fatal(err)
			}
			for _, list := range [][]*runtime.Tensor{g.Nodes, g.Leafs} {
				for _, x := range list {
					if _, ok := tc.want[x.Name]; !ok {
						t.Errorf("%s (%v) is not in the expectations; it got %s %s", x.Name, x.Op, s.backendName(x), s.Cause(x))
					}
				}
			}
			for _, name := range slices.Sorted(maps.Keys(tc.want)) {
				x := findTensor(g, name)
				if x == nil {
					t.Errorf("%s: not found in the graph", name)
					continue
				}
				if got := s.backendName(x) + " " + s.Cause(x); got != tc.want[name] {
					t.Errorf("%s: got %q, want %q", name, got, tc.want[name])
				}
			}
		})
	}
}

func TestOffloadSplits(t *testing.T) {
	for _, offload := range []bool{false, true} {
		bs, _, g, _ := offloadGraph(t)
		s := newSched(t, bs, false, offload)
		if err := s.splitGraph(g); err != nil {
			t.Fatal(err)
		}
		want := []string{"CPU[]"}
		if offload {
			// The weight is copied to the GPU for the op, as is the input.
			want = []string{"GPU[w,x]"}
		}
		if got := splitSummary(s); !slices.Equal(got, want) {
			t.Errorf("offload %v: splits %v, want %v", offload, got, want)
		}
	}
}

func TestPreallocatedInIncompatibleBuffer(t *testing.T) {
	gpu, cpuB := gpuAndCPU(t, runtime.OpMulMat)
	ctx := runtime.NewContext()
	w := named(ctx.NewTensor(runtime.F32, 8, 8), "w")
	weightsOn(t, gpu, w)
	x := input(ctx, "x", 8, 2)
	q := named(ctx.MulMat(w, x), "q")
	gl := named(ctx.Gelu(q), "g")
	allocIn(t, gpu.dev.bt, runtime.UsageAny, gl) // GPU memory, but only the CPU runs GELU
	g := buildGraph(t, ctx, gl)

	s := newSched(t, backends(gpu, cpuB), false, false)
	err := s.AllocGraph(g)
	want := `sched: pre-allocated tensor "g" in a buffer (GPU) that cannot run the operation (GELU)`
	if !errors.Is(err, runtime.ErrUnsupported) || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("got error %v, want %q wrapping ErrUnsupported", err, want)
	}
	if err := s.GraphCompute(g); err == nil || !strings.Contains(err.Error(), `"g"`) {
		t.Fatalf("compute: got error %v, want the same error", err)
	}
}

func TestNoBackendRunsOp(t *testing.T) {
	gpu := newFake(t, fakeOpts{name: "GPU", ops: []runtime.Op{runtime.OpMulMat}})
	cpuB := newFake(t, fakeOpts{name: "CPU", cpu: true, host: true, acceptHost: true, ops: []runtime.Op{runtime.OpMulMat}})
	ctx := runtime.NewContext()
	x := input(ctx, "x", 8, 2)
	gl := named(ctx.Gelu(x), "g")
	s := newSched(t, backends(gpu, cpuB), false, false)
	err := s.AllocGraph(buildGraph(t, ctx, gl))
	if err == nil || !strings.Contains(err.Error(), `GELU node "g"`) {
		t.Fatalf("got %v, want an error naming the GELU node", err)
	}
}
