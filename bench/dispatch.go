package bench

import (
	"fmt"

	rt "github.com/gpurt/gpurt/runtime"
)

// Dispatch overhead defaults: a thousand ADDs of 32 floats, so that the time
// is the cost of launching ops, not of computing them.
const (
	DefaultDispatchOps = 1000
	DefaultDispatchLen = 32
)

// buildDispatch chains ops ADDs: y = (…((x + b) + b) …) + b.
func buildDispatch(ops, length int) (*builder, *rt.Tensor) {
	b := newBuilder()
	y := b.ctx.NewTensor(rt.F32, length)
	bias := b.ctx.NewTensor(rt.F32, length)
	for i := 0; i < ops; i++ {
		y = b.ctx.Add(y, bias)
	}
	return b, y
}

// Dispatch measures the time per op of a graph of ops tiny ADDs on be.
func Dispatch(be rt.Backend, ops, length int, p Policy) (Record, error) {
	rec := Record{Op: "DISPATCH", Type: "f32", Ne: [4]int{length, 1, 1, 1}, Nodes: ops}
	if ops < 1 {
		return rec, fmt.Errorf("dispatch bench: %d ops", ops)
	}
	b, out := buildDispatch(ops, length)
	pr, err := prepare(b, out, be, 7)
	if err != nil {
		return rec, err
	}
	defer pr.free()
	t, err := Measure(p, pr.run)
	if err != nil {
		return rec, err
	}
	rec.Us = us(t.Median) / float64(ops)
	rec.Runs = t.Runs
	rec.Status = StatusOK
	rec.Note = fmt.Sprintf("%d ADD nodes of %d floats, %.0f µs per graph", ops, length, us(t.Median))
	return rec, nil
}
