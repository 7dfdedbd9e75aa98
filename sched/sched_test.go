package sched

import (
	"errors"
	"strings"
	"testing"

	"github.com/gpurt/gpurt/runtime"
)

func TestNewChecks(t *testing.T) {
	gpu, cpuB := gpuAndCPU(t)
	var many []runtime.Backend
	for i := 0; i < MaxBackends; i++ {
		many = append(many, gpu)
	}
	many = append(many, cpuB)

	cases := []struct {
		name     string
		backends []runtime.Backend
		bts      []runtime.BufferType
		size     int
		want     string // error substring; "" means success
	}{
		{"ok", backends(gpu, cpuB), nil, 16, ""},
		{"cpu only", backends(cpuB), nil, 16, ""},
		{"explicit buffer types", backends(gpu, cpuB), []runtime.BufferType{gpu.dev.bt, cpuB.dev.bt}, 16, ""},
		{"no backends", nil, nil, 16, "no backends"},
		{"too many", many, nil, 16, "17 backends, at most 16"},
		{"last is not a CPU", backends(cpuB, gpu), nil, 16, "last backend must be a CPU device, GPU is a GPU device"},
		{"unsupported buffer type", backends(gpu, cpuB), []runtime.BufferType{cpuB.dev.bt, cpuB.dev.bt}, 16, "backend GPU does not support buffer type CPU"},
		{"buffer type count", backends(gpu, cpuB), []runtime.BufferType{gpu.dev.bt}, 16, "1 buffer types for 2 backends"},
		{"nil backend", backends(nil, cpuB), nil, 16, "backend 0 is nil"},
		{"graph size", backends(gpu, cpuB), nil, 0, "graph size 0"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, err := New(tc.backends, tc.bts, tc.size, true, false)
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				s.Close()
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

func TestAccessorsAndEvents(t *testing.T) {
	gpu := newFake(t, fakeOpts{name: "GPU", events: true})
	plain := newFake(t, fakeOpts{name: "PLAIN"})                       // no events: synchronizes instead
	failing := newFake(t, fakeOpts{name: "FAILING", failEvents: true}) // the same when creating them fails
	cpuB := newFake(t, fakeOpts{name: "CPU", cpu: true, host: true, acceptHost: true})
	for _, parallel := range []bool{false, true} {
		s := newSched(t, backends(gpu, plain, failing, cpuB), parallel, false)
		wantCopies := 1
		if parallel {
			wantCopies = MaxCopies
		}
		if s.NCopies() != wantCopies || s.NBackends() != 4 || s.Backend(1) != plain || s.Backend(4) != nil || s.Backend(-1) != nil {
			t.Errorf("parallel %v: NCopies %d, NBackends %d, Backend(1) %v", parallel, s.NCopies(), s.NBackends(), s.Backend(1))
		}
		if !parallel {
			if s.events != nil {
				t.Error("events without pipeline parallelism")
			}
			continue
		}
		for b, evs := range s.events {
			for c, ev := range evs {
				if (ev != nil) != (b == 0) {
					t.Errorf("backend %d copy %d: event %v; only the GPU has events", b, c, ev)
				}
			}
		}
	}
	s := newSched(t, backends(gpu, cpuB), false, false)
	if err := s.SetTensorBackend(&runtime.Tensor{Name: "t"}, plain); err == nil || !strings.Contains(err.Error(), "PLAIN is not one of the scheduler's") {
		t.Errorf("pin to a foreign backend: %v", err)
	}
	if s.BufferSize(plain) != 0 || s.TensorBackend(&runtime.Tensor{}) != nil {
		t.Error("foreign backend has a buffer size, or an unknown tensor a backend")
	}
}

func TestSynchronizeResetsCopy(t *testing.T) {
	gpu, cpuB, g := chainWithGap(t)
	s := newSched(t, backends(gpu, cpuB), true, false)
	if err := s.GraphCompute(g); err != nil {
		t.Fatal(err)
	}
	// Still allocated: the copy rotated and Synchronize keeps it.
	if s.curCopy != 1 {
		t.Fatalf("current copy %d after one compute, want 1", s.curCopy)
	}
	if err := s.Synchronize(); err != nil || s.curCopy != 1 {
		t.Fatalf("allocated: copy %d after Synchronize (%v), want 1", s.curCopy, err)
	}
	s.Reset()
	if err := s.Synchronize(); err != nil || s.curCopy != 0 {
		t.Fatalf("not allocated: copy %d after Synchronize (%v), want 0", s.curCopy, err)
	}
}

func TestComputeOtherGraphNeedsReset(t *testing.T) {
	gpu, cpuB, g := chainWithGap(t)
	_, _, other := chainWithGap(t)
	s := newSched(t, backends(gpu, cpuB), false, false)
	if err := s.AllocGraph(g); err != nil {
		t.Fatal(err)
	}
	if err := s.GraphCompute(other); err == nil || !strings.Contains(err.Error(), "call Reset") {
		t.Fatalf("got %v, want an error asking for Reset", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.GraphCompute(g); !errors.Is(err, errClosed) {
		t.Fatalf("after Close: %v", err)
	}
}
