package vk

import (
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
)

func TestAddSmoke(t *testing.T) {
	dev, be := testDevice(t)
	ctx := rt.NewContext()
	a := ctx.NewTensor(rt.F32, 5, 3).SetName("a")
	b := ctx.NewTensor(rt.F32, 5, 1).SetName("b")
	c := ctx.Add(a, b)
	g, err := ctx.BuildGraph(c)
	if err != nil {
		t.Fatal(err)
	}
	alloc(t, ctx, dev.BufferType())
	av := make([]float32, 15)
	for i := range av {
		av[i] = float32(i)
	}
	bv := []float32{100, 200, 300, 400, 500}
	if err := rt.TensorSetF32(a, av); err != nil {
		t.Fatal(err)
	}
	if err := rt.TensorSetF32(b, bv); err != nil {
		t.Fatal(err)
	}
	got := computeF32(t, be, g, c)
	for i, v := range got {
		if want := av[i] + bv[i%5]; v != want {
			t.Errorf("c[%d] = %v, want %v", i, v, want)
		}
	}
	t.Log(dev.Props().Description)
}
