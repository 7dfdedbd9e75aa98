package sched

import (
	"errors"
	"fmt"

	"github.com/gpurt/gpurt/runtime"
)

// CopiedGraph is a deep copy of a graph, with its data, on another backend.
type CopiedGraph struct {
	// Graph has the copies of the original's nodes, in the same order, and of
	// its leafs.
	Graph  *runtime.Graph
	buffer runtime.Buffer
}

// Buffer holds the copied tensors (nil when there were none to allocate).
func (c *CopiedGraph) Buffer() runtime.Buffer { return c.buffer }

// Free releases the copy's memory.
func (c *CopiedGraph) Free() error {
	if c.buffer == nil {
		return nil
	}
	err := c.buffer.Free()
	c.buffer = nil
	return err
}

// GraphCopy copies g, every tensor of which must be allocated, onto b: each
// tensor gets a twin with the same layout, op, parameters and name in a new
// buffer of b's default type, holding a copy of the data; views are views of
// the twins.
func GraphCopy(b runtime.Backend, g *runtime.Graph) (*CopiedGraph, error) {
	if b == nil || g == nil {
		return nil, errors.New("sched: graph copy: nil backend or graph")
	}
	ctx := runtime.NewContext()
	twins := make(map[*runtime.Tensor]*runtime.Tensor, len(g.Nodes)+len(g.Leafs))

	var dup func(t *runtime.Tensor) (*runtime.Tensor, error)
	dup = func(t *runtime.Tensor) (*runtime.Tensor, error) {
		if d, ok := twins[t]; ok {
			return d, nil
		}
		if allocatedIn(t) == nil {
			return nil, fmt.Errorf("sched: graph copy: tensor %q is not allocated (allocate the graph first)", t.Name)
		}
		var d *runtime.Tensor
		if t.ViewSrc == nil {
			d = ctx.NewTensor(t.Type, t.Ne[:]...)
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("sched: graph copy of %q: %w", t.Name, err)
			}
			d.Nb = t.Nb
		} else {
			vs, err := dup(t.ViewSrc)
			if err != nil {
				return nil, err
			}
			d = &runtime.Tensor{Type: t.Type, Ne: t.Ne, Nb: t.Nb, ViewSrc: vs, ViewOffs: t.ViewOffs}
		}
		d.Op, d.Params, d.Name = t.Op, t.Params, t.Name
		twins[t] = d
		for i, src := range t.Src {
			if src == nil {
				continue
			}
			ds, err := dup(src)
			if err != nil {
				return nil, err
			}
			d.Src[i] = ds
		}
		return d, nil
	}
	for _, list := range [][]*runtime.Tensor{g.Nodes, g.Leafs} {
		for _, t := range list {
			if _, err := dup(t); err != nil {
				return nil, err
			}
		}
	}

	buf, err := runtime.AllocContextTensors(ctx, b.Device().BufferType())
	if err != nil {
		return nil, fmt.Errorf("sched: graph copy onto %s: %w", b.Name(), err)
	}
	cg := &CopiedGraph{Graph: runtime.NewGraph(), buffer: buf}

	// Copy data and place views, sources first.
	done := make(map[*runtime.Tensor]bool, len(twins))
	var initTwin func(t *runtime.Tensor) error
	initTwin = func(t *runtime.Tensor) error {
		if done[t] {
			return nil
		}
		done[t] = true
		d := twins[t]
		if d.ViewSrc != nil {
			if err := initTwin(t.ViewSrc); err != nil {
				return err
			}
			if d.Buffer == nil {
				if err := runtime.InitView(d); err != nil {
					return err
				}
			}
		} else if err := runtime.TensorCopy(t, d); err != nil {
			return err
		}
		for _, src := range t.Src {
			if src != nil {
				if err := initTwin(src); err != nil {
					return err
				}
			}
		}
		return nil
	}
	for _, list := range [][]*runtime.Tensor{g.Nodes, g.Leafs} {
		for _, t := range list {
			if err := initTwin(t); err != nil {
				return nil, errors.Join(fmt.Errorf("sched: graph copy onto %s: %w", b.Name(), err), cg.Free())
			}
		}
	}

	for _, t := range g.Nodes {
		cg.Graph.Nodes = append(cg.Graph.Nodes, twins[t])
	}
	for _, t := range g.Leafs {
		cg.Graph.Leafs = append(cg.Graph.Leafs, twins[t])
	}
	return cg, nil
}

// CompareGraphBackend runs g, which must be allocated for b1, on b1 and a copy
// of it on b2, one node at a time, and hands each computing node's pair of
// results to cb (with the node's index), which returns false to stop. Views
// are computed but not compared.
func CompareGraphBackend(b1, b2 runtime.Backend, g *runtime.Graph, cb func(i int, t1, t2 *runtime.Tensor) bool) (err error) {
	if cb == nil {
		return errors.New("sched: compare graph backend: nil callback")
	}
	cg, err := GraphCopy(b2, g)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, cg.Free()) }()

	for i, t1 := range g.Nodes {
		t2 := cg.Graph.Nodes[i]
		if err := computeOne(b1, g, i); err != nil {
			return err
		}
		if err := computeOne(b2, cg.Graph, i); err != nil {
			return err
		}
		if t1.Op.IsView() {
			continue
		}
		if !cb(i, t1, t2) {
			break
		}
	}
	return nil
}

// computeOne runs node i of g on b and waits for it.
func computeOne(b runtime.Backend, g *runtime.Graph, i int) error {
	if err := b.GraphCompute(g.View(i, i+1)); err != nil {
		return fmt.Errorf("sched: compare: %s on %s: %w", g.Nodes[i].Name, b.Name(), err)
	}
	if err := b.Synchronize(); err != nil {
		return fmt.Errorf("sched: compare: synchronize %s: %w", b.Name(), err)
	}
	return nil
}
