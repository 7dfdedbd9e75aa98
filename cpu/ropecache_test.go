package cpu

import (
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
)

// TestRopeTablesReuse runs ROPE nodes that share or differ in positions,
// base, mode and frequency factors in one graph: each must get its own
// angles when the last node's tables do not apply (checked against the
// reference loops).
func TestRopeTablesReuse(t *testing.T) {
	b := newTB("rope tables")
	ctx := b.ctx
	x := b.rand(rt.F32, 8, 3, 4)
	posA := b.ints([]int32{0, 5, 9, 200}, 4)
	posB := b.ints([]int32{1, 5, 9, 200}, 4)
	ff := b.randIn(1, 4, rt.F32, 4)
	outs := []*rt.Tensor{
		ctx.Rope(x, posA, 8, rt.RopeNormal, 10000, 1),
		ctx.Rope(ctx.Scale(x, 2, 0), posA, 8, rt.RopeNormal, 10000, 1), // reuses
		ctx.Rope(x, posB, 8, rt.RopeNormal, 10000, 1),                  // other positions
		ctx.Rope(x, posB, 8, rt.RopeNormal, 500, 1),                    // other base
		ctx.Rope(x, posB, 8, rt.RopeNeox, 500, 1),                      // other mode
		ctx.RopeExt(x, posB, ff, rt.RopeParams{NDims: 8, Mode: rt.RopeNeox, FreqBase: 500, FreqScale: 1, AttnFactor: 1}),
		ctx.Rope(x, posB, 4, rt.RopeNormal, 500, 1), // partial rotation
	}
	g, err := ctx.BuildGraph(outs...)
	if err != nil {
		t.Fatal(err)
	}
	free, err := allocTight(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer free()
	var want []arr
	for _, k := range append([]*kernels{nil}, kernelSets()...) {
		if err := b.fill(); err != nil {
			t.Fatal(err)
		}
		be := newBackend(2, k)
		err := be.GraphCompute(g)
		be.Close()
		if err != nil {
			t.Fatalf("%s: %v", modeName(k), err)
		}
		for i, o := range outs {
			if k == nil {
				want = append(want, read(o))
				continue
			}
			if !checkClose(t, read(o), want[i], 1e-5) {
				t.Fatalf("%s: ROPE node %d is wrong", modeName(k), i)
			}
		}
	}
}
