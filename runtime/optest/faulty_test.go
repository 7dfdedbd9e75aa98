package optest

import (
	"fmt"
	"math"
	"slices"

	"github.com/gpurt/gpurt/cpu"
	rt "github.com/gpurt/gpurt/runtime"
)

// faultyDevice is the CPU device, rejecting one op when reject is set.
type faultyDevice struct {
	rt.Device
	reject rt.Op // OpNone: reject nothing
}

func (d *faultyDevice) Name() string { return "Faulty" }

func (d *faultyDevice) SupportsOp(t *rt.Tensor) bool {
	if d.reject != rt.OpNone && t.Op == d.reject {
		return false
	}
	return d.Device.SupportsOp(t)
}

// fault damages node n after the CPU computed it.
type fault func(n *rt.Tensor) error

// faultyBackend is a single-threaded CPU backend whose kernel for op is
// wrong: it computes node by node, so later nodes see the damage.
type faultyBackend struct {
	*cpu.Backend
	dev   *faultyDevice
	op    rt.Op
	fault fault
}

func newFaulty(op rt.Op, f fault, reject rt.Op) *faultyBackend {
	b, _ := cpu.NewBackend(1)
	return &faultyBackend{Backend: b, dev: &faultyDevice{Device: cpu.Device(), reject: reject}, op: op, fault: f}
}

func (b *faultyBackend) Device() rt.Device { return b.dev }

func (b *faultyBackend) GraphCompute(g *rt.Graph) error {
	for i, n := range g.Nodes {
		if err := b.Backend.GraphCompute(g.View(i, i+1)); err != nil {
			return err
		}
		if n.Op == b.op && b.fault != nil {
			if err := b.fault(n); err != nil {
				return err
			}
		}
	}
	return nil
}

// skew is a wrong kernel: every finite value x becomes 1.1x + 0.1, every
// integer i+1.
func skew(n *rt.Tensor) error {
	vals, err := rt.TensorGetF32(n)
	if err != nil {
		return err
	}
	for i, v := range vals {
		switch {
		case n.Type == rt.I32:
			vals[i] = v + 1
		case !math.IsInf(float64(v), 0):
			vals[i] = 1.1*v + 0.1
		}
	}
	return writeLogical(n, vals)
}

// nanFirst puts a NaN in the first element.
func nanFirst(n *rt.Tensor) error {
	vals, err := rt.TensorGetF32(n)
	if err != nil {
		return err
	}
	vals[0] = float32(math.NaN())
	return writeLogical(n, vals)
}

// overrun writes 4 bytes just past the end of the node's memory.
func overrun(n *rt.Tensor) error {
	hb, ok := n.Buffer.(rt.HostBuffer)
	if !ok {
		return fmt.Errorf("not host memory")
	}
	end := n.Offset + n.Nbytes()
	copy(hb.Bytes()[end:end+4], []byte{1, 2, 3, 4})
	return nil
}

// clobber changes the first byte of the node's first source.
func clobber(n *rt.Tensor) error {
	src := n.Src[0]
	hb := src.Buffer.(rt.HostBuffer)
	hb.Bytes()[src.Offset] ^= 0xff
	return nil
}

// writeLogical stores vals (in logical order) into t's memory, honouring
// its strides and dtype.
func writeLogical(t *rt.Tensor, vals []float32) error {
	raw := make([]byte, t.Nbytes())
	if err := rt.TensorGet(t, raw, 0); err != nil {
		return err
	}
	ne0, i := t.Ne[0], 0
	for i3 := 0; i3 < t.Ne[3]; i3++ {
		for i2 := 0; i2 < t.Ne[2]; i2++ {
			for i1 := 0; i1 < t.Ne[1]; i1++ {
				off := i1*t.Nb[1] + i2*t.Nb[2] + i3*t.Nb[3]
				row := vals[i : i+ne0]
				i += ne0
				if t.Type.IsQuantized() {
					// A row whose values stay keeps its blocks (SET_ROWS leaves
					// the other rows alone; requantizing a K-quant's values
					// would not give its bytes back).
					cur := make([]float32, ne0)
					if err := rt.DequantizeRow(t.Type, raw[off:], cur); err == nil && slices.Equal(cur, row) {
						continue
					}
					if err := rt.QuantizeRowCPU(t.Type, row, raw[off:]); err != nil { // as the CPU stores CPY and SET_ROWS results
						return err
					}
					continue
				}
				for i0 := range row {
					if err := rt.QuantizeRow(t.Type, row[i0:i0+1], raw[off+i0*t.Nb[0]:]); err != nil {
						return err
					}
				}
			}
		}
	}
	return rt.TensorSet(t, raw, 0)
}
