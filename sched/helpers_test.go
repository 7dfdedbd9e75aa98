package sched

import (
	"testing"

	"github.com/gpurt/gpurt/runtime"
)

func newFake(t testing.TB, o fakeOpts) *fakeBackend {
	t.Helper()
	b := newFakeBackend(newFakeDevice(o))
	t.Cleanup(func() { b.Close() })
	return b
}

// gpuAndCPU is the common pair: a GPU with its own (non-host) memory that
// supports ops, and a CPU that supports everything.
func gpuAndCPU(t testing.TB, gpuOps ...runtime.Op) (gpu, cpuB *fakeBackend) {
	t.Helper()
	if len(gpuOps) == 0 {
		gpuOps = nil
	}
	gpu = newFake(t, fakeOpts{name: "GPU", ops: gpuOps})
	cpuB = newFake(t, fakeOpts{name: "CPU", cpu: true, host: true, acceptHost: true})
	return gpu, cpuB
}

func newSched(t testing.TB, backends []runtime.Backend, parallel, offload bool) *Scheduler {
	t.Helper()
	s, err := New(backends, nil, 4096, parallel, offload)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// allocIn places ts in a new buffer of type bt with the given usage.
func allocIn(t testing.TB, bt runtime.BufferType, usage runtime.BufferUsage, ts ...*runtime.Tensor) runtime.Buffer {
	t.Helper()
	size := 0
	for _, x := range ts {
		size += runtime.AlignUp(bt.AllocSize(x), bt.Alignment())
	}
	buf, err := bt.Alloc(size)
	if err != nil {
		t.Fatal(err)
	}
	buf.SetUsage(usage)
	ta := runtime.NewTensorAllocator(buf)
	for _, x := range ts {
		if err := ta.Alloc(x); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { buf.Free() })
	return buf
}

func backends(bs ...runtime.Backend) []runtime.Backend { return bs }

func named(t *runtime.Tensor, name string) *runtime.Tensor { return t.SetName(name) }

func input(ctx *runtime.Context, name string, ne ...int) *runtime.Tensor {
	x := ctx.NewTensor(runtime.F32, ne...).SetName(name)
	x.SetInput()
	return x
}

func buildGraph(t testing.TB, ctx *runtime.Context, outs ...*runtime.Tensor) *runtime.Graph {
	t.Helper()
	g, err := ctx.BuildGraph(outs...)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// splitSummary describes the splits as "BACKEND[input,input] BACKEND[]".
func splitSummary(s *Scheduler) []string {
	var out []string
	for _, sp := range s.splits {
		str := s.backends[sp.backend].Name() + "["
		for i, in := range sp.inputs {
			if i > 0 {
				str += ","
			}
			str += in.Name
		}
		out = append(out, str+"]")
	}
	return out
}
