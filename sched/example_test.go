package sched_test

import (
	"fmt"
	"log"

	"github.com/gpurt/gpurt/cpu"
	"github.com/gpurt/gpurt/runtime"
	"github.com/gpurt/gpurt/sched"
)

// A scheduler over the CPU alone (a GPU backend would come first in the
// list). The graph is allocated by the scheduler, the inputs set, and the
// graph computed.
func Example() {
	cb, err := cpu.NewBackend(1)
	if err != nil {
		log.Fatal(err)
	}
	defer cb.Close()
	s, err := sched.New([]runtime.Backend{cb}, nil, 64, false, false)
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()

	ctx := runtime.NewContext()
	x := ctx.NewTensor(runtime.F32, 4).SetName("x")
	x.SetInput()
	y := ctx.Scale(ctx.Add(x, x), 0.5, 1).SetName("y")
	g, err := ctx.BuildGraph(y)
	if err != nil {
		log.Fatal(err)
	}

	if err := s.AllocGraph(g); err != nil {
		log.Fatal(err)
	}
	if err := runtime.TensorSetF32(x, []float32{1, 2, 3, 4}); err != nil {
		log.Fatal(err)
	}
	if err := s.GraphCompute(g); err != nil {
		log.Fatal(err)
	}
	out, err := runtime.TensorGetF32(y)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(out, s.NSplits(), s.TensorBackend(y).Name(), s.Cause(x))
	// Output: [2 3 4 5] 1 CPU 1.inp
}
