//go:build cgo

package wgpu

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gpurt/gpurt/cpu"
	rt "github.com/gpurt/gpurt/runtime"
)

func TestReadOnlySlots(t *testing.T) {
	buf := func(id uint64) *buffer { return &buffer{id: id} }
	tests := []struct {
		name   string
		writes uint8
		bufs   []*buffer
		want   uint8
	}{
		{"all in one buffer", 0, []*buffer{buf(1), buf(1), buf(1)}, 0},
		{"weights apart", 0, []*buffer{buf(1), buf(2), buf(1)}, 0b010},
		{"every source apart", 0, []*buffer{buf(1), buf(2), buf(3)}, 0b110},
		{"two sources share a read-only buffer", 0, []*buffer{buf(1), buf(2), buf(2)}, 0b110},
		{"written flag slot", 0b1000, []*buffer{buf(1), buf(2), buf(2), buf(3)}, 0b0110},
		{"source in the flag's buffer", 0b1000, []*buffer{buf(1), buf(3), buf(2), buf(3)}, 0b0100},
	}
	for _, tc := range tests {
		k := kernel{writes: tc.writes}
		if got := readOnlySlots(k, tc.bufs); got != tc.want {
			t.Errorf("%s: read-only slots %04b, want %04b", tc.name, got, tc.want)
		}
	}
	// The declarations follow ro, and a read-only binding has no stores.
	k := kern("binary.wgsl", 64, rt.F32, rt.F32, rt.F16, rt.I32).writing(3)
	k.ro = 0b1110 // slot 3 is written: stays read_write
	pre := genPrelude(k, true)
	for _, want := range []string{"var<storage, read_write> d:", "var<storage, read> a:", "var<storage, read> b:", "var<storage, read_write> c:", "fn sti_c("} {
		if !strings.Contains(pre, want) {
			t.Errorf("prelude lacks %q", want)
		}
	}
	for _, bad := range []string{"fn st_a(", "fn st_b(", "fn st4_a("} {
		if strings.Contains(pre, bad) {
			t.Errorf("prelude has %q for a read-only binding", bad)
		}
	}
}

// TestReadOnlyBindingsRun runs ops whose inputs sit in a buffer of their own
// (as a model's weights do) while the results share another, so that the
// inputs are bound read-only and the rest read_write, and checks the
// results against the CPU and that read-only variants were used.
func TestReadOnlyBindingsRun(t *testing.T) {
	d := device(t)
	build := func(ctx *rt.Context) *rt.Tensor {
		w := ctx.NewTensor(rt.F16, 64, 24).SetName("w")
		x := ctx.NewTensor(rt.F32, 64, 3).SetName("x")
		bias := ctx.NewTensor(rt.F32, 24).SetName("bias")
		emb := ctx.NewTensor(rt.F32, 24, 10).SetName("emb")
		idx := ctx.NewTensor(rt.I32, 3).SetName("idx")
		y := ctx.Add(ctx.MulMat(w, x), bias)
		return ctx.Silu(ctx.Mul(y, ctx.GetRows(emb, idx)))
	}
	run := func(b rt.Backend, bt rt.BufferType) []float32 {
		ctx := rt.NewContext()
		out := build(ctx)
		g, err := ctx.BuildGraph(out)
		if err != nil {
			t.Fatal(err)
		}
		size := 0
		for _, l := range g.Leafs {
			size += rt.AlignUp(bt.AllocSize(l), bt.Alignment())
		}
		inputs, err := bt.Alloc(size)
		if err != nil {
			t.Fatal(err)
		}
		defer inputs.Free()
		ta := rt.NewTensorAllocator(inputs)
		r := rand.New(rand.NewPCG(3, 7))
		for _, l := range g.Leafs {
			if err := ta.Alloc(l); err != nil {
				t.Fatal(err)
			}
			vals := make([]float32, l.Nelements())
			for i := range vals {
				vals[i] = 2*r.Float32() - 1
				if l.Type == rt.I32 {
					vals[i] = float32(r.IntN(10))
				}
			}
			if err := rt.TensorSetF32(l, vals); err != nil {
				t.Fatal(err)
			}
		}
		ga, err := rt.AllocGraphOn(g, bt) // the results: one buffer
		if err != nil {
			t.Fatal(err)
		}
		defer ga.Free()
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
	// Unfused, so that the ADD of the bias runs binary.wgsl (fused, it is
	// the matmul's epilogue, and the check below would pass only when an
	// earlier test had made binary.wgsl's read-only variant).
	b := newBackend(t, d)
	b.SetFusion(false)
	got := run(b, d.BufferType())
	cb, err := cpu.NewBackend(1)
	if err != nil {
		t.Fatal(err)
	}
	defer cb.Close()
	want := run(cb, cpu.Device().BufferType())
	if e := nmse(got, want); !(e <= 1e-6) {
		t.Fatalf("nmse %.3g\n got %v\nwant %v", e, got[:8], want[:8])
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	ro := map[string]bool{}
	for key, p := range d.pipes {
		if p.err == nil && strings.Contains(key, "|ro=") {
			ro[strings.Split(key, "|")[0]] = true
		}
	}
	for _, f := range []string{"binary.wgsl", "getrows.wgsl"} {
		if !ro[f] {
			t.Errorf("no read-only variant of %s was used (read-only variants: %v)", f, ro)
		}
	}
	if !ro["mm.wgsl"] && !ro["mv.wgsl"] && !ro["mulmat.wgsl"] {
		t.Errorf("no read-only variant of a matmul kernel was used (read-only variants: %v)", ro)
	}
}
