package sched

import (
	"fmt"
	"reflect"

	"github.com/gpurt/gpurt/runtime"
)

// splitGraph assigns every node of g a backend, cuts g into splits, creates
// the input copies (rewriting the sources of g's nodes to them) and builds
// the graph copy for the allocator.
func (s *Scheduler) splitGraph(g *runtime.Graph) error {
	if n := len(g.Nodes) + len(g.Leafs); n > s.graphSize {
		return fmt.Errorf("sched: graph has %d nodes and leafs, the scheduler was sized for %d: %w", n, s.graphSize, runtime.ErrOutOfRange)
	}
	s.undoPrevious(g)
	g.ClearReadOutside()
	s.splitCopy = s.curCopy
	s.splits = s.splits[:0]
	s.graphInputs = s.graphInputs[:0]
	s.splitDone = true
	s.dirty = true

	if err := s.assignBackends(g); err != nil {
		return err
	}
	if err := s.cutSplits(g); err != nil {
		return err
	}
	if s.debug > 0 {
		s.printAssignments(g)
	}
	return s.buildGraphCopy(g)
}

// undoPrevious lets a graph be scheduled again: the graph split last (g
// or another one) gets back the sources its split replaced by input copies,
// so no graph keeps pointing at copies that the next split forgets; and
// tensors of g placed in the compute buffers by an earlier allocation lose
// their placement, so they are not taken for pre-allocated tensors.
// Backends read a graph while GraphCompute runs, so the previous graph may
// still be computing; g itself must not be.
func (s *Scheduler) undoPrevious(g *runtime.Graph) {
	for _, r := range s.rewrites {
		if r.node.Src[r.j] == r.copy {
			r.node.Src[r.j] = r.orig
		}
	}
	s.rewrites = s.rewrites[:0]
	s.rewrittenGraph = g

	s.computeBufs = s.computeBufs[:0]
	add := func(b runtime.Buffer) {
		// Only buffers Go can compare can be recognized (and == not panic).
		if reflect.TypeOf(b).Comparable() {
			s.computeBufs = append(s.computeBufs, b)
		}
	}
	for i := range s.backends {
		switch b := s.galloc.Buffer(i).(type) {
		case nil:
		case *runtime.MultiBuffer:
			for _, p := range b.Parts {
				add(p)
			}
		default:
			add(b)
		}
	}
	if len(s.computeBufs) == 0 {
		return
	}
	for _, list := range [][]*runtime.Tensor{g.Nodes, g.Leafs} {
		for _, t := range list {
			if t.Buffer != nil && s.isComputeBuffer(t.Buffer) {
				t.Buffer, t.Offset = nil, 0
			}
		}
	}
}

func (s *Scheduler) isComputeBuffer(b runtime.Buffer) bool {
	for _, c := range s.computeBufs {
		if c == b {
			return true
		}
	}
	return false
}

// cutSplits is pass 5: a new split starts where the backend changes, where a
// weight sits in memory the split's backend cannot use (so the memory of
// earlier offloaded weights can be reused), and where the split would
// exceed MaxSplitInputs. Sources in memory the split's backend cannot use are
// replaced by copies on that backend.
func (s *Scheduler) cutSplits(g *runtime.Graph) error {
	// The first split takes the backend of the first computing node.
	i := 0
	first := len(s.backends) - 1
	for ; i < len(g.Nodes); i++ {
		if n := g.Nodes[i]; !n.Op.IsView() {
			first = s.node(i).backend
			break
		}
	}
	s.splits = append(s.splits, split{backend: first})
	sp := &s.splits[0]
	cur := first

	for ; i < len(g.Nodes); i++ {
		n := g.Nodes[i]
		if n.Op.IsView() {
			continue
		}
		nb := s.node(i).backend
		if nb < 0 {
			return fmt.Errorf("sched: no backend can run %v node %q (not even the CPU supports it): %w", n.Op, n.Name, runtime.ErrUnsupported)
		}

		newSplit := false
		if nb == cur && len(sp.inputs) > 0 {
			needed := 0 // inputs this node would add to the split
			for j, src := range n.Src {
				if src == nil || repeated(n.Src[:j], src) {
					continue
				}
				sb := s.backendOf(src)
				if isWeight(src) && sb != cur && !s.bufferSupported(src, cur) {
					newSplit = true
					break
				}
				if sb != cur && s.copies[copyKey{src, cur}] == nil && !s.bufferSupported(src, cur) {
					needed++
				}
			}
			// The seed only checks a full split and can then overflow it by a
			// node with several new inputs; counting avoids that.
			if len(sp.inputs)+needed > MaxSplitInputs {
				newSplit = true
			}
		}
		if nb != cur || newSplit {
			sp.end = i
			s.splits = append(s.splits, split{backend: nb, start: i, inputs: nil})
			sp = &s.splits[len(s.splits)-1]
			cur = nb
		}

		for j, src := range n.Src {
			if src == nil {
				continue
			}
			sb := s.backendOf(src)
			if sb < 0 {
				return fmt.Errorf("sched: source %d (%q) of %v node %q has no backend", j, src.Name, n.Op, n.Name)
			}
			// With several copies, user inputs get one tensor per copy on their
			// own backend, the original being the current copy, so the user
			// can fill the next copy while earlier graphs still read theirs.
			if src.Flags&runtime.FlagInput != 0 && s.nCopies > 1 && s.copies[copyKey{src, sb}] == nil {
				cs := make([]*runtime.Tensor, s.nCopies)
				for c := range cs {
					if c == s.curCopy {
						cs[c] = src
					} else {
						cs[c] = s.newCopy(src, sb, c)
					}
					cs[c].SetInput()
					cs[c].SetOutput() // keeps the allocator from reusing its memory
				}
				s.copies[copyKey{src, sb}] = cs
				s.graphInputs = append(s.graphInputs, src)
			}

			if sb != cur && !s.bufferSupported(src, cur) {
				key := copyKey{src, cur}
				cs := s.copies[key]
				if cs == nil {
					cs = make([]*runtime.Tensor, s.nCopies)
					for c := range cs {
						cs[c] = s.newCopy(src, cur, c)
						if s.nCopies > 1 {
							cs[c].SetInput()
							cs[c].SetOutput()
						}
					}
					s.copies[key] = cs
					sp.inputs = append(sp.inputs, src)
				}
				n.Src[j] = cs[s.curCopy]
				// Its reader here no longer counts as a use in g: keep
				// backends from fusing it away in its own split.
				g.MarkReadOutside(src)
				s.rewrites = append(s.rewrites, rewrite{n, j, src, cs[s.curCopy]})
			}
		}
	}
	sp.end = len(g.Nodes)
	return nil
}

// newCopy makes a tensor with src's layout on backend b, named
// <backend>#<tensor>#<copy>.
func (s *Scheduler) newCopy(src *runtime.Tensor, b, c int) *runtime.Tensor {
	t := &runtime.Tensor{
		Type: src.Type,
		Ne:   src.Ne,
		Nb:   src.Nb,
		Name: fmt.Sprintf("%s#%s#%d", s.backends[b].Name(), src.Name, c),
	}
	s.assign(t, b, "4.cpy")
	return t
}

// buildGraphCopy builds the graph the allocator sees. Before each split's
// nodes it adds, for every input, a view of the input (so the input's memory
// is not reused before the copy is made) and the input's copy (so the copy
// is allocated when the split starts). With several copies, every copy is
// also a leaf, so that all are allocated up front and never overlap.
func (s *Scheduler) buildGraphCopy(g *runtime.Graph) error {
	s.nodeBackends, s.prevNodeBackends = s.prevNodeBackends[:0], s.nodeBackends
	s.leafBackends, s.prevLeafBackends = s.prevLeafBackends[:0], s.leafBackends
	gc := s.graph
	gc.Nodes, gc.Leafs = gc.Nodes[:0], gc.Leafs[:0]

	for k := range s.splits {
		sp := &s.splits[k]
		sp.graph = g.View(sp.start, sp.end)
		for _, in := range sp.inputs {
			gc.Nodes = append(gc.Nodes, dependency(in))
			s.nodeBackends = append(s.nodeBackends, s.backendOf(in))
			gc.Nodes = append(gc.Nodes, s.copies[copyKey{in, sp.backend}][s.curCopy])
			s.nodeBackends = append(s.nodeBackends, sp.backend)
		}
		for i := sp.start; i < sp.end; i++ {
			gc.Nodes = append(gc.Nodes, g.Nodes[i])
			s.nodeBackends = append(s.nodeBackends, s.node(i).backend)
		}
	}

	if s.nCopies > 1 {
		for _, in := range s.graphInputs {
			b := s.backendOf(in)
			for _, c := range s.copies[copyKey{in, b}] {
				gc.Leafs = append(gc.Leafs, c)
				s.leafBackends = append(s.leafBackends, b)
			}
		}
		for k := range s.splits {
			sp := &s.splits[k]
			for _, in := range sp.inputs {
				for _, c := range s.copies[copyKey{in, sp.backend}] {
					gc.Leafs = append(gc.Leafs, c)
					s.leafBackends = append(s.leafBackends, sp.backend)
				}
			}
		}
	}

	for _, l := range g.Leafs {
		b := s.backendOf(l)
		if b < 0 {
			if allocatedIn(l) == nil {
				return fmt.Errorf("sched: leaf %q is used by no node and has no backend", l.Name)
			}
			b = len(s.backends) - 1 // pre-allocated: the allocator leaves it alone
		}
		gc.Leafs = append(gc.Leafs, l)
		s.leafBackends = append(s.leafBackends, b)
	}
	return nil
}

// dependency is a view of in that reads it, as ggml_view_tensor: an OpNone
// node with a view source, which the graph allocator treats as a use of in
// and not as a view whose readers keep in alive.
func dependency(in *runtime.Tensor) *runtime.Tensor {
	d := &runtime.Tensor{
		Type:    in.Type,
		Ne:      in.Ne,
		Nb:      in.Nb,
		Op:      runtime.OpNone,
		ViewSrc: in,
		Name:    in.Name + " (view)",
	}
	if in.ViewSrc != nil {
		d.ViewSrc, d.ViewOffs = in.ViewSrc, in.ViewOffs
	}
	d.Src[0] = in
	return d
}

// rewrite is a node source replaced by an input copy.
type rewrite struct {
	node       *runtime.Tensor
	j          int
	orig, copy *runtime.Tensor
}

// repeated reports whether t is among srcs.
func repeated(srcs []*runtime.Tensor, t *runtime.Tensor) bool {
	for _, x := range srcs {
		if x == t {
			return true
		}
	}
	return false
}
