package runtime_test

import (
	"fmt"

	_ "github.com/gpurt/gpurt/cpu" // registers the CPU backend
	rt "github.com/gpurt/gpurt/runtime"
)

// Build y = silu(W·x) and compute it on the best device.
func Example() {
	ctx := rt.NewContext()
	w := ctx.NewTensor(rt.F32, 3, 2).SetName("w") // [K=3, M=2]
	x := ctx.NewTensor(rt.F32, 3, 1).SetName("x") // [K=3, N=1]
	y := ctx.Silu(ctx.MulMat(w, x)).SetName("y")  // [M=2, N=1]
	g, err := ctx.BuildGraph(y)
	if err != nil {
		panic(err) // a shape or dtype mismatch, named
	}

	defer rt.Release() // hand the GPU drivers everything back at the end

	dev, _ := rt.BestDevice()
	backend, _ := dev.NewBackend()
	defer backend.Close()
	buf, _ := rt.AllocContextTensors(ctx, dev.BufferType())
	defer buf.Free()

	rt.TensorSetF32(w, []float32{1, 0, 0, 0, 1, 1})
	rt.TensorSetF32(x, []float32{1, 2, 3})
	if err := backend.GraphCompute(g); err != nil {
		panic(err)
	}
	backend.Synchronize()
	out, _ := rt.TensorGetF32(y)
	fmt.Printf("%.4f\n", out)
	// Output: [0.7311 4.9665]
}
