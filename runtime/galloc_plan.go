package runtime

import "fmt"

// allocPlan is the memory plan of one graph: where each unallocated tensor
// goes. Planning walks the nodes in order, as they will run, and tracks how
// many consumers and views of each tensor are still to come; a tensor whose
// last consumer has run gives its block back to its arena.
type allocPlan struct {
	a     *GraphAllocator
	info  map[*Tensor]*tensorPlan
	slab  []tensorPlan // backing for info, allocated in blocks; never grown in place
	order []*Tensor    // tensors to place, each after its view source
}

type tensorPlan struct {
	consumers   int  // nodes still to run that read the tensor
	views       int  // counted views of the tensor whose consumers have not all run
	countedView bool // this view is counted in its view source's views
	placed      bool // planned, or a view whose source is planned
	slot        int
	at          place
	size        int  // bytes of the block owned
	freeable    bool // owns a block that returns to the arena when dead
}

func (p *allocPlan) get(t *Tensor) *tensorPlan {
	if s := p.info[t]; s != nil {
		return s
	}
	if len(p.slab) == cap(p.slab) {
		p.slab = make([]tensorPlan, 0, max(64, len(p.info)/2))
	}
	p.slab = append(p.slab, tensorPlan{slot: -1})
	s := &p.slab[len(p.slab)-1]
	p.info[t] = s
	return s
}

// plan resets the arenas and plans g; the arenas then hold the sizes g needs.
func (a *GraphAllocator) plan(g *Graph, nodeSlots, leafSlots []int) (*allocPlan, error) {
	for _, pool := range a.pools {
		pool.arena.reset()
	}
	n := len(g.Nodes) + len(g.Leafs)
	if a.info == nil {
		a.info = make(map[*Tensor]*tensorPlan, n)
	}
	clear(a.info) // reused: planning runs for every graph
	p := &allocPlan{a: a, info: a.info, slab: make([]tensorPlan, 0, n), order: make([]*Tensor, 0, n)}

	// Leafs first, then graph inputs, so that nothing computed overlaps them.
	for i, leaf := range g.Leafs {
		if err := p.allocate(leaf, slotAt(leafSlots, i)); err != nil {
			return nil, err
		}
	}
	for i, n := range g.Nodes {
		slot := slotAt(nodeSlots, i)
		// An OpNone view is a dependency marker (the scheduler's), not a
		// view anyone reads through.
		if n.ViewSrc != nil && n.Op != OpNone {
			p.get(n.ViewSrc).views++
			p.get(n).countedView = true
		}
		if n.Flags&FlagInput != 0 {
			if err := p.allocate(n, slot); err != nil {
				return nil, err
			}
		}
		for _, src := range n.Src {
			if src == nil {
				continue
			}
			p.get(src).consumers++
			if src.Flags&FlagInput != 0 {
				if err := p.allocate(src, slot); err != nil {
					return nil, err
				}
			}
		}
	}

	for i, n := range g.Nodes {
		slot := slotAt(nodeSlots, i)
		// Sources are normally placed already; this catches ones outside g.
		for _, src := range n.Src {
			if src != nil {
				if err := p.allocate(src, slot); err != nil {
					return nil, err
				}
			}
		}
		if err := p.allocate(n, slot); err != nil {
			return nil, err
		}
		for _, src := range n.Src {
			if src != nil {
				p.release(src)
			}
		}
	}
	return p, nil
}

func slotAt(slots []int, i int) int {
	if slots == nil {
		return 0
	}
	return slots[i]
}

// allocate plans memory for t in slot, unless t already has a buffer or a plan.
func (p *allocPlan) allocate(t *Tensor, slot int) error {
	s := p.get(t)
	if s.placed || t.Buffer != nil {
		return nil
	}
	if t.ViewSrc != nil {
		if err := p.allocate(t.ViewSrc, slot); err != nil {
			return err
		}
		if t.Flags&(FlagInput|FlagOutput) != 0 {
			// The user reads or writes the view: keep its memory for good.
			p.get(t.ViewSrc).freeable = false
		}
		s.placed = true
		p.order = append(p.order, t)
		return nil
	}

	bt := p.a.pools[p.a.slotPool[slot]].bt
	size := bt.AllocSize(t)
	if maxSize := bt.MaxSize(); maxSize > 0 && size > maxSize {
		return fmt.Errorf("graph allocator: tensor %v needs %d bytes, more than the maximum buffer size %d of %s", t, size, maxSize, bt.Name())
	}
	s.placed, s.slot = true, slot
	p.order = append(p.order, t)
	if size <= 0 {
		return nil // takes no memory: placed at offset 0 of the first chunk
	}
	if p.inplace(t, s, slot, size) {
		return nil
	}
	at, err := p.a.pools[p.a.slotPool[slot]].arena.alloc(size)
	if err != nil {
		return fmt.Errorf("graph allocator: tensor %v in %s: %w", t, bt.Name(), err)
	}
	s.at, s.size = at, size
	s.freeable = t.Flags&(FlagInput|FlagOutput) == 0
	return nil
}

// inplace gives t the block of its first source when the op may write over
// it and nothing else will read it: the source (or, for a view at offset 0,
// the view's source) dies at t, is no input or output, lies in the same
// slot and has the same layout.
func (p *allocPlan) inplace(t *Tensor, s *tensorPlan, slot, size int) bool {
	src := t.Src[0]
	if !t.Op.CanInplace() || src == nil || src.Flags&(FlagInput|FlagOutput) != 0 || !sameLayout(t, src) {
		return false
	}
	ss := p.get(src)
	if ss.consumers != 1 || ss.views != 0 {
		return false
	}
	owner := ss
	if src.ViewSrc != nil {
		owner = p.get(src.ViewSrc)
		if !ss.countedView || src.ViewOffs != 0 || owner.views != 1 || owner.consumers != 0 {
			return false
		}
	}
	if !owner.freeable || owner.slot != slot || owner.size < size {
		return false
	}
	s.at, s.size = owner.at, owner.size
	s.freeable = t.Flags&(FlagInput|FlagOutput) == 0
	owner.freeable = false // the block now belongs to t
	return true
}

// release notes that one consumer of t has run and frees t's memory (or its
// view source's) when nothing later needs it.
func (p *allocPlan) release(t *Tensor) {
	s := p.get(t)
	s.consumers--
	if s.consumers > 0 || s.views > 0 {
		return
	}
	if t.ViewSrc == nil {
		p.free(s)
		return
	}
	if !s.countedView {
		return
	}
	s.countedView = false
	vs := p.get(t.ViewSrc)
	vs.views--
	if vs.views <= 0 && vs.consumers <= 0 {
		p.free(vs)
	}
}

func (p *allocPlan) free(s *tensorPlan) {
	if !s.freeable {
		return
	}
	p.a.pools[p.a.slotPool[s.slot]].arena.free(s.at, s.size)
	s.freeable = false
}

// apply places the planned tensors in the buffers. On error it undoes what
// it placed.
func (p *allocPlan) apply() error {
	for i, t := range p.order {
		var err error
		if t.ViewSrc != nil {
			err = InitView(t)
		} else {
			s := p.info[t]
			err = AllocTensor(p.a.pools[p.a.slotPool[s.slot]].parts[s.at.chunk], t, s.at.off)
		}
		if err != nil {
			for _, u := range p.order[:i+1] {
				u.Buffer, u.Offset = nil, 0
			}
			return fmt.Errorf("graph allocator: %w", err)
		}
	}
	return nil
}

func sameLayout(a, b *Tensor) bool {
	return a.Type == b.Type && a.Ne == b.Ne && a.Nb == b.Nb
}
