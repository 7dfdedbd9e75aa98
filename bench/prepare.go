package bench

import (
	"fmt"
	"math/rand/v2"

	rt "github.com/gpurt/gpurt/runtime"
)

// UnsupportedError says that a device cannot run an op of a benchmark graph.
type UnsupportedError struct {
	Device string
	Node   *rt.Tensor
}

func (e *UnsupportedError) Error() string {
	return fmt.Sprintf("%s does not support %v %v%s", e.Device, e.Node.Op, e.Node.Type, rt.ShapeString(e.Node.Ne))
}

// prepared is a graph built once, allocated on one backend and filled with
// random inputs, ready to be run again and again.
type prepared struct {
	graph   *rt.Graph
	be      rt.Backend
	buf     rt.Buffer
	weights rt.Buffer // the matmuls' weights, in a buffer of their own
}

// allocWeights places the leaves that are MUL_MAT weights (src0) in one
// buffer marked as holding weights, as a model's are, so that backends
// treat them as a model's (the CPU repacks Q4_0 weights for its GEMVs).
// It returns nil when the graph has none.
func allocWeights(g *rt.Graph, bt rt.BufferType) (rt.Buffer, error) {
	var weights []*rt.Tensor
	seen := map[*rt.Tensor]bool{}
	for _, n := range g.Nodes {
		if w := n.Src[0]; n.Op == rt.OpMulMat && w != nil && w.Op == rt.OpNone && w.ViewSrc == nil && !seen[w] {
			seen[w] = true
			weights = append(weights, w)
		}
	}
	size := 0
	for _, w := range weights {
		size += rt.AlignUp(bt.AllocSize(w), bt.Alignment())
	}
	if size == 0 {
		return nil, nil
	}
	buf, err := bt.Alloc(size)
	if err != nil {
		return nil, err
	}
	buf.SetUsage(rt.UsageWeights)
	off := 0
	for _, w := range weights {
		if err := rt.AllocTensor(buf, w, off); err != nil {
			buf.Free()
			return nil, err
		}
		off += rt.AlignUp(bt.AllocSize(w), bt.Alignment())
	}
	return buf, nil
}

// checkSupport returns an *UnsupportedError for the first computing node of g
// that dev cannot run.
func checkSupport(dev rt.Device, g *rt.Graph) error {
	for _, n := range g.Nodes {
		if n.Op == rt.OpNone || n.Op.IsView() {
			continue
		}
		if !dev.SupportsOp(n) {
			return &UnsupportedError{Device: dev.Name(), Node: n}
		}
	}
	return nil
}

// prepare builds the graph computing out (made by b), checks that be's
// device supports every op, allocates every tensor in the device's default
// buffer type and fills the inputs from seed.
func prepare(b *builder, out *rt.Tensor, be rt.Backend, seed uint64) (*prepared, error) {
	g, err := b.ctx.BuildGraph(out)
	if err != nil {
		return nil, err
	}
	dev := be.Device()
	if err := checkSupport(dev, g); err != nil {
		return nil, err
	}
	p := &prepared{graph: g, be: be}
	if p.weights, err = allocWeights(g, dev.BufferType()); err != nil {
		return nil, err
	}
	if p.buf, err = rt.AllocContextTensors(b.ctx, dev.BufferType()); err != nil {
		p.free()
		return nil, err
	}
	if err := fill(b, seed); err != nil {
		p.free()
		return nil, err
	}
	return p, nil
}

// prepareCase builds and prepares an op case.
func prepareCase(c Case, be rt.Backend, seed uint64) (*prepared, error) {
	b := newBuilder()
	return prepare(b, c.build(b), be, seed)
}

// fill writes random values into every leaf: uniform in [-1, 1) for float
// tensors (quantized to their dtype), and in [0, limit) for I32 indices.
func fill(b *builder, seed uint64) error {
	for i, t := range b.ctx.Tensors() {
		if t.Op != rt.OpNone || t.IsView() || t.Buffer == nil {
			continue
		}
		rng := rand.New(rand.NewPCG(seed, uint64(i)))
		if t.Type == rt.I32 {
			limit := max(b.indices[t], 1)
			v := make([]int32, t.Nelements())
			for j := range v {
				v[j] = int32(rng.IntN(limit))
			}
			if err := rt.TensorSetI32(t, v); err != nil {
				return err
			}
			continue
		}
		v := make([]float32, t.Nelements())
		for j := range v {
			v[j] = 2*rng.Float32() - 1
		}
		if err := rt.TensorSetF32(t, v); err != nil {
			return err
		}
	}
	return nil
}

// run computes the graph once and waits for it.
func (p *prepared) run() error {
	if err := p.be.GraphCompute(p.graph); err != nil {
		return err
	}
	return p.be.Synchronize()
}

func (p *prepared) free() {
	for _, b := range []*rt.Buffer{&p.buf, &p.weights} {
		if *b != nil {
			(*b).Free()
			*b = nil
		}
	}
}
