//go:build cgo

package wgpu

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/gpurt/gpurt/cpu"
	rt "github.com/gpurt/gpurt/runtime"
	"github.com/gpurt/gpurt/runtime/optest"
)

// One device serves every test of the package: opening one costs tens of
// milliseconds and wgpu objects are per device anyway. It is the registry's,
// so that tests which release the registry's devices hand the next tests a
// rediscovered one.
func TestMain(m *testing.M) {
	code := m.Run()
	// Every test must have freed its buffers, events and backends, and
	// wgpu-native must hold nothing of gpurt's once the devices are closed.
	if err := rt.Release(); err != nil {
		fmt.Fprintf(os.Stderr, "wgpu tests: %v\n", err)
		code = max(code, 1)
	}
	os.Exit(code)
}

// device returns the registry's first WebGPU device or skips when the
// machine has no WebGPU adapter (CI runs on lavapipe, which has one).
func device(t testing.TB) *Device {
	t.Helper()
	devs, err := rt.FamilyDevices(RegName)
	if len(devs) == 0 {
		t.Skipf("no WebGPU device: %v", err)
	}
	return devs[0].(*Device)
}

func newBackend(t testing.TB, d *Device) *Backend {
	t.Helper()
	b, err := d.NewBackend()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b.(*Backend)
}

// graphRun builds a graph with build on a fresh context, fills its leaves
// from fill (by name; others get uniform(-1,1) values), runs it on b in a
// buffer of type bt and returns the output as float32 values.
type graphSpec struct {
	build func(ctx *rt.Context) *rt.Tensor
	fill  map[string][]float32
	seed  uint64
}

func (s graphSpec) run(t testing.TB, b rt.Backend, bt rt.BufferType) []float32 {
	t.Helper()
	ctx := rt.NewContext()
	out := s.build(ctx)
	if err := ctx.Err(); err != nil {
		t.Fatal(err)
	}
	g, err := ctx.BuildGraph(out)
	if err != nil {
		t.Fatal(err)
	}
	buf, err := rt.AllocContextTensors(ctx, bt)
	if err != nil {
		t.Fatal(err)
	}
	defer buf.Free()
	for _, n := range ctx.Tensors() {
		if n.ViewSrc != nil && n.Buffer == nil {
			if err := rt.InitView(n); err != nil {
				t.Fatal(err)
			}
		}
	}
	r := rand.New(rand.NewPCG(s.seed, 7))
	for _, l := range g.Leafs {
		vals, ok := s.fill[l.Name]
		if !ok {
			vals = make([]float32, l.Nelements())
			for i := range vals {
				vals[i] = 2*r.Float32() - 1
				if l.Type == rt.I32 {
					vals[i] = float32(r.IntN(4))
				}
			}
		}
		if err := rt.TensorSetF32(l, vals); err != nil {
			t.Fatalf("fill %q: %v", l.Name, err)
		}
	}
	if err := b.GraphCompute(g); err != nil {
		t.Fatal(err)
	}
	if err := b.Synchronize(); err != nil {
		t.Fatal(err)
	}
	got, err := rt.TensorGetF32(out)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// compare runs spec on the WebGPU device and on the CPU backend and checks
// the normalized mean squared error of the outputs.
func compare(t *testing.T, spec graphSpec, maxNMSE float64) {
	t.Helper()
	d := device(t)
	got := spec.run(t, newBackend(t, d), d.BufferType())
	cb, err := cpu.NewBackend(1)
	if err != nil {
		t.Fatal(err)
	}
	defer cb.Close()
	want := spec.run(t, cb, cpu.Device().BufferType())
	if len(got) != len(want) {
		t.Fatalf("got %d values, want %d", len(got), len(want))
	}
	if e := nmse(got, want); !(e <= maxNMSE) {
		n := min(len(got), 8)
		t.Fatalf("nmse %.3g > %.0e\n got %v\nwant %v", e, maxNMSE, got[:n], want[:n])
	}
}

// nmse is optest.NMSE, except that every non-finite value must be matched
// exactly (a mismatch gives +Inf).
func nmse(got, want []float32) float64 {
	for i := range want {
		g, w := float64(got[i]), float64(want[i])
		finite := !math.IsInf(g, 0) && !math.IsNaN(g) && !math.IsInf(w, 0) && !math.IsNaN(w)
		if !finite && g != w && !(math.IsNaN(g) && math.IsNaN(w)) {
			return math.Inf(1)
		}
	}
	return optest.NMSE(got, want)
}
