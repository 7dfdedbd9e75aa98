package sched

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/gpurt/gpurt/runtime"
)

// longChain is x → q=MulMat(w1,x) → r=Add(q,q) → g=Gelu(r) → o=MulMat(w2,g)
// → p=Add(o,o) on a GPU without GELU: splits GPU[q,r] CPU[g] GPU[o,p].
func longChain(t *testing.T, log *computeLog) (*fakeBackend, *fakeBackend, *runtime.Graph) {
	gpu := newFake(t, fakeOpts{name: "GPU", ops: []runtime.Op{runtime.OpMulMat, runtime.OpAdd}, log: log})
	cpuB := newFake(t, fakeOpts{name: "CPU", cpu: true, host: true, acceptHost: true, log: log})
	ctx := runtime.NewContext()
	w1 := named(ctx.NewTensor(runtime.F32, 8, 8), "w1")
	w2 := named(ctx.NewTensor(runtime.F32, 8, 8), "w2")
	weightsOn(t, gpu, w1, w2)
	q := named(ctx.MulMat(w1, input(ctx, "x", 8, 2)), "q")
	r := named(ctx.Add(q, q), "r")
	gl := named(ctx.Gelu(r), "g")
	o := named(ctx.MulMat(w2, gl), "o")
	p := named(ctx.Add(o, o), "p")
	return gpu, cpuB, buildGraph(t, ctx, p)
}

func TestEvalCallback(t *testing.T) {
	cases := []struct {
		name      string
		stopAt    string // the callback returns false after this node
		wantCalls string
		wantRuns  string
	}{
		{
			name:      "observe r and o",
			wantCalls: "ask:q ask:r got:r ask:g ask:o got:o ask:p",
			wantRuns:  "GPU:q,r CPU:g GPU:o GPU:p",
		},
		{
			name:      "stop after r",
			stopAt:    "r",
			wantCalls: "ask:q ask:r got:r",
			wantRuns:  "GPU:q,r",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			log := &computeLog{}
			gpu, cpuB, g := longChain(t, log)
			s := newSched(t, backends(gpu, cpuB), false, false)
			var calls []string
			s.SetEvalCallback(func(x *runtime.Tensor, ask bool) bool {
				if ask {
					calls = append(calls, "ask:"+x.Name)
					return x.Name == "r" || x.Name == "o"
				}
				calls = append(calls, "got:"+x.Name)
				return x.Name != tc.stopAt
			})
			if err := s.GraphCompute(g); err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(calls, " "); got != tc.wantCalls {
				t.Errorf("callback calls %q, want %q", got, tc.wantCalls)
			}
			if got := log.String(); got != tc.wantRuns {
				t.Errorf("computed %q, want %q", got, tc.wantRuns)
			}
		})
	}

	// Without a callback each split runs whole.
	log := &computeLog{}
	gpu, cpuB, g := longChain(t, log)
	s := newSched(t, backends(gpu, cpuB), false, false)
	if err := s.GraphCompute(g); err != nil {
		t.Fatal(err)
	}
	if got, want := log.String(), "GPU:q,r CPU:g GPU:o,p"; got != want {
		t.Errorf("computed %q, want %q", got, want)
	}
}

func TestReserveOnlyWhenNeeded(t *testing.T) {
	g1 := newFake(t, fakeOpts{name: "G1"})
	g2 := newFake(t, fakeOpts{name: "G2"})
	cpuB := newFake(t, fakeOpts{name: "CPU", cpu: true, host: true, acceptHost: true})
	s := newSched(t, backends(g1, g2, cpuB), false, false)

	// graph is x → n=Scale(x) with n pinned to b.
	graph := func(width int, b *fakeBackend) (*runtime.Graph, *runtime.Tensor) {
		ctx := runtime.NewContext()
		n := named(ctx.Scale(input(ctx, "x", width, 2), 2, 0), "n")
		if err := s.SetTensorBackend(n, b); err != nil {
			t.Fatal(err)
		}
		return buildGraph(t, ctx, n), n
	}
	steps := []struct {
		what    string
		width   int
		on      *fakeBackend
		reserve bool
	}{
		{"first graph", 8, g1, true},
		{"same graph", 8, g1, false},
		{"node moves to a backend with another buffer type", 8, g2, true},
		{"same again", 8, g2, false},
		{"larger tensors than reserved", 64, g2, true},
		{"smaller tensors fit", 8, g2, false},
		{"back to the larger size, which fits", 64, g2, false},
	}
	for _, st := range steps {
		before := s.nReserve
		s.Reset()
		g, n := graph(st.width, st.on)
		if err := s.AllocGraph(g); err != nil {
			t.Fatalf("%s: %v", st.what, err)
		}
		if got := s.nReserve > before; got != st.reserve {
			t.Errorf("%s: reserved %v, want %v", st.what, got, st.reserve)
		}
		if n.Buffer == nil || n.Buffer.Type() != runtime.BufferType(st.on.dev.bt) {
			t.Errorf("%s: n is in %v, want a %s buffer", st.what, n.Buffer, st.on.Name())
		}
		if err := s.GraphCompute(g); err != nil {
			t.Fatalf("%s: %v", st.what, err)
		}
	}

	// Reserve sizes for the largest graph up front; later graphs fit.
	s.Reset()
	measure, _ := graph(256, g1)
	if err := s.Reserve(measure); err != nil {
		t.Fatal(err)
	}
	before := s.nReserve
	if s.BufferSize(g1) < 256*2*4 {
		t.Errorf("G1 compute buffer is %d bytes after Reserve, want at least %d", s.BufferSize(g1), 256*2*4)
	}
	for _, width := range []int{8, 256, 100} {
		s.Reset()
		g, _ := graph(width, g1)
		if err := s.AllocGraph(g); err != nil {
			t.Fatal(err)
		}
	}
	if s.nReserve != before {
		t.Errorf("%d reservations after Reserve, want none", s.nReserve-before)
	}
}

func TestDebugOutput(t *testing.T) {
	cases := []struct {
		level string
		want  string
	}{
		{"1", `
## SPLIT #0: GPU # 1 inputs: [x (   0K)] 

## SPLIT #1: CPU # 1 inputs: [q (   0K)] 

## SPLIT #2: GPU # 1 inputs: [g (   0K)] 
`},
		{"2", `
## SPLIT #0: GPU # 1 inputs: [x (   0K)] 
node #  0 (   MUL_MAT):                    q (   0K) [  GPU   1.wgt0]:                   w1 (   0K) [  GPU    1.dst]              GPU#x#0 (   0K) [  GPU    4.cpy]

## SPLIT #1: CPU # 1 inputs: [q (   0K)] 
node #  1 (      GELU):                    g (   0K) [  CPU   3.best]:              CPU#q#0 (   0K) [  CPU    4.cpy]

## SPLIT #2: GPU # 1 inputs: [g (   0K)] 
node #  2 (   MUL_MAT):                    o (   0K) [  GPU   1.wgt0]:                   w2 (   0K) [  GPU    1.dst]              GPU#g#0 (   0K) [  GPU    4.cpy]
`},
	}
	for _, tc := range cases {
		t.Setenv("GPURT_SCHED_DEBUG", tc.level)
		gpu, cpuB, g := chainWithGap(t)
		s := newSched(t, backends(gpu, cpuB), false, false)
		var out bytes.Buffer
		s.SetDebugOutput(&out)
		if err := s.AllocGraph(g); err != nil {
			t.Fatal(err)
		}
		if out.String() != tc.want {
			t.Errorf("GPURT_SCHED_DEBUG=%s:\n%s\nwant:\n%s", tc.level, out.String(), tc.want)
		}
	}

	// Sizes: whole MiB from 1 MiB up, else whole KiB.
	for n, want := range map[int]string{0: "0K", 1023: "0K", 4096: "4K", 3 << 20: "3M", 3<<20 + 5: "3M"} {
		if got := fmtSize(n); got != want {
			t.Errorf("fmtSize(%d) = %s, want %s", n, got, want)
		}
	}
	t.Setenv("GPURT_SCHED_DEBUG", "")
	gpu, cpuB, g := chainWithGap(t)
	s := newSched(t, backends(gpu, cpuB), false, false)
	var out bytes.Buffer
	s.SetDebugOutput(&out)
	if err := s.AllocGraph(g); err != nil || out.Len() != 0 {
		t.Errorf("debug off: printed %q (%v)", out.String(), err)
	}
}

func TestComputeInputCopies(t *testing.T) {
	// Each rule of copying a split input, counted on the fakes.
	cases := []struct {
		name     string
		events   bool
		parallel bool
	}{
		{"one copy", false, false},
		{"pipeline without events", false, true},
		{"pipeline with events", true, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			gpu := newFake(t, fakeOpts{name: "GPU", events: tc.events, ops: []runtime.Op{runtime.OpMulMat, runtime.OpAdd}})
			cpuB := newFake(t, fakeOpts{name: "CPU", cpu: true, host: true, acceptHost: true, events: tc.events})
			ctx := runtime.NewContext()
			w1 := named(ctx.NewTensor(runtime.F32, 8, 8), "w1")
			weightsOn(t, gpu, w1)
			x := input(ctx, "x", 8, 2)
			q := named(ctx.MulMat(w1, x), "q")
			gl := named(ctx.Gelu(q), "g")
			g := buildGraph(t, ctx, gl)
			s := newSched(t, backends(gpu, cpuB), tc.parallel, false)
			if err := s.AllocGraph(g); err != nil {
				t.Fatal(err)
			}
			vals := []float32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}
			if err := runtime.TensorSetF32(x, vals); err != nil {
				t.Fatal(err)
			}
			gpu.syncs.Store(0)
			if err := s.GraphComputeAsync(g); err != nil {
				t.Fatal(err)
			}
			// The user input was copied at once.
			got, err := runtime.TensorGetF32(g.Tensor("q").Src[1])
			if err != nil || !slices.Equal(got, vals) {
				t.Fatalf("GPU copy of x holds %v (%v)", got, err)
			}
			if tc.events {
				// Recorded after each split with inputs; no whole-backend waits.
				if r := gpu.records.Load() + cpuB.records.Load(); r != 2 {
					t.Errorf("%d events recorded, want 2", r)
				}
				if n := gpu.syncs.Load(); n != 1 {
					t.Errorf("GPU synchronized %d times, want 1 (before the sync copy of q)", n)
				}
			} else if n := gpu.syncs.Load(); n != 2 {
				// Before copying x (instead of an event), and before copying q
				// off it.
				t.Errorf("GPU synchronized %d times, want 2", n)
			}
			if err := s.Synchronize(); err != nil {
				t.Fatal(err)
			}
		})
	}
}
