package runtime

import (
	"errors"
	"fmt"
	"reflect"
)

// GraphAllocator plans and allocates the memory of graphs, one buffer per
// buffer type slot, in the way of ggml's gallocr: tensors whose consumers
// have all run give their memory back for reuse, ops that allow it run in
// place, and graph inputs and outputs are never overwritten.
//
// The usual cycle is Reserve with a worst-case graph, which sizes the
// buffers, then AllocGraph for each graph actually computed. Tensors that
// already have a buffer are left alone. Slots whose buffer types are equal
// share one buffer.
type GraphAllocator struct {
	slotPool []int // slot -> index into pools
	pools    []*allocPool

	// What the last Reserve planned for. With several slots, AllocGraph
	// reuses these slots by node and leaf index, so it needs graphs of the
	// same node and leaf counts.
	reserved             bool
	nNodes, nLeafs       int
	nodeSlots, leafSlots []int

	info map[*Tensor]*tensorPlan // planning scratch, reused between graphs
}

// allocPool is the memory of one distinct buffer type: the planning arena
// and the buffers backing its chunks.
type allocPool struct {
	bt    BufferType
	arena *arena
	parts []Buffer // one buffer per arena chunk
	buf   Buffer   // parts[0], or a MultiBuffer over parts
}

// NewGraphAllocator returns an allocator with one slot per buffer type. The
// same buffer type may appear in several slots; those slots then share one
// buffer, as in ggml.
func NewGraphAllocator(bufferTypes []BufferType) *GraphAllocator {
	a := &GraphAllocator{slotPool: make([]int, len(bufferTypes))}
	for i, bt := range bufferTypes {
		a.slotPool[i] = -1
		for j := 0; j < i; j++ {
			if sameBufferType(bt, bufferTypes[j]) {
				a.slotPool[i] = a.slotPool[j]
				break
			}
		}
		if a.slotPool[i] >= 0 {
			continue
		}
		pool := &allocPool{bt: bt, arena: newArena(1, 0)}
		if bt != nil {
			pool.arena = newArena(bt.Alignment(), bt.MaxSize())
		}
		a.slotPool[i] = len(a.pools)
		a.pools = append(a.pools, pool)
	}
	return a
}

// sameBufferType compares buffer types without panicking on types that Go
// cannot compare.
func sameBufferType(a, b BufferType) bool {
	if a == nil || b == nil {
		return false
	}
	ta := reflect.TypeOf(a)
	return ta == reflect.TypeOf(b) && ta.Comparable() && a == b
}

// Reserve plans g, a worst-case graph, and grows the slot buffers to the
// sizes it needs (buffers never shrink). nodeSlots[i] and leafSlots[i] give
// the slot of g.Nodes[i] and g.Leafs[i]; nil means slot 0 for all. Reserve
// assigns no memory to g's tensors.
func (a *GraphAllocator) Reserve(g *Graph, nodeSlots, leafSlots []int) error {
	if err := a.check(g); err != nil {
		return err
	}
	if err := a.checkSlots(g.Nodes, nodeSlots, "node"); err != nil {
		return err
	}
	if err := a.checkSlots(g.Leafs, leafSlots, "leaf"); err != nil {
		return err
	}
	if _, err := a.plan(g, nodeSlots, leafSlots); err != nil {
		return err
	}
	if err := a.grow(); err != nil {
		return err
	}
	a.reserved = true
	a.nNodes, a.nLeafs = len(g.Nodes), len(g.Leafs)
	a.nodeSlots = append([]int(nil), nodeSlots...) // nil stays nil: slot 0
	a.leafSlots = append([]int(nil), leafSlots...)
	return nil
}

// AllocGraph assigns memory to every unallocated tensor of g without
// growing the buffers. The plan is made afresh for g, with the slots of the
// last Reserve. It returns false and no error when g needs more memory than
// was reserved, or when there are several slots and g's node or leaf count
// differs from the reserved graph's (a different assignment): the caller
// must Reserve again. With one slot it grows the buffer itself instead.
func (a *GraphAllocator) AllocGraph(g *Graph) (bool, error) {
	if err := a.check(g); err != nil {
		return false, err
	}
	var nodeSlots, leafSlots []int
	if len(a.slotPool) > 1 {
		if !a.reserved || len(g.Nodes) != a.nNodes || len(g.Leafs) != a.nLeafs {
			return false, nil
		}
		nodeSlots, leafSlots = a.nodeSlots, a.leafSlots
	}
	p, err := a.plan(g, nodeSlots, leafSlots)
	if err != nil {
		return false, err
	}
	if !a.fits() {
		if len(a.slotPool) > 1 {
			return false, nil
		}
		if err := a.grow(); err != nil {
			return false, err
		}
	}
	for _, pool := range a.pools {
		for _, b := range pool.parts {
			b.Reset()
		}
	}
	if err := p.apply(); err != nil {
		return false, err
	}
	return true, nil
}

// BufferSize is the size of slot's buffer. A slot that shares its buffer
// with an earlier slot reports 0, so that the sizes add up to the memory
// used (as ggml). An unknown slot reports 0.
func (a *GraphAllocator) BufferSize(slot int) int {
	if slot < 0 || slot >= len(a.slotPool) {
		return 0
	}
	for j := 0; j < slot; j++ {
		if a.slotPool[j] == a.slotPool[slot] {
			return 0
		}
	}
	if b := a.pools[a.slotPool[slot]].buf; b != nil {
		return b.Size()
	}
	return 0
}

// Buffer is slot's buffer (a MultiBuffer when the graph needs more than the
// buffer type's MaxSize), or nil before Reserve or for an unknown slot.
func (a *GraphAllocator) Buffer(slot int) Buffer {
	if slot < 0 || slot >= len(a.slotPool) {
		return nil
	}
	return a.pools[a.slotPool[slot]].buf
}

// Free frees the buffers. Tensors allocated in them must not be used
// afterwards; a later Reserve or AllocGraph allocates new buffers.
func (a *GraphAllocator) Free() error {
	var errs []error
	for _, pool := range a.pools {
		errs = append(errs, pool.release())
	}
	a.reserved = false
	return errors.Join(errs...)
}

// AllocGraphOn allocates every unallocated tensor of g in one new buffer of
// type bt using a GraphAllocator and returns it; the caller frees it with
// Free.
func AllocGraphOn(g *Graph, bt BufferType) (*GraphAllocator, error) {
	a := NewGraphAllocator([]BufferType{bt})
	ok, err := a.AllocGraph(g)
	if err == nil && !ok {
		err = errors.New("graph allocator: a single-slot allocation did not fit") // grow makes it fit
	}
	if err != nil {
		return nil, errors.Join(err, a.Free())
	}
	return a, nil
}

func (a *GraphAllocator) check(g *Graph) error {
	if len(a.pools) == 0 {
		return errors.New("graph allocator: no buffer types")
	}
	for slot, pi := range a.slotPool {
		if a.pools[pi].bt == nil {
			return fmt.Errorf("graph allocator: slot %d has no buffer type", slot)
		}
	}
	if g == nil {
		return errors.New("graph allocator: nil graph")
	}
	for i, t := range g.Nodes {
		if t == nil {
			return fmt.Errorf("graph allocator: node %d is nil", i)
		}
	}
	for i, t := range g.Leafs {
		if t == nil {
			return fmt.Errorf("graph allocator: leaf %d is nil", i)
		}
	}
	return nil
}

func (a *GraphAllocator) checkSlots(ts []*Tensor, slots []int, what string) error {
	if slots == nil {
		return nil
	}
	if len(slots) != len(ts) {
		return fmt.Errorf("graph allocator: %d %s slots for %d %ss", len(slots), what, len(ts), what)
	}
	for i, s := range slots {
		if s < 0 || s >= len(a.slotPool) {
			return fmt.Errorf("graph allocator: %s %d (%v) has slot %d, but there are %d buffer type slots", what, i, ts[i], s, len(a.slotPool))
		}
	}
	return nil
}

// fits reports whether the last plan fits the current buffers.
func (a *GraphAllocator) fits() bool {
	for _, pool := range a.pools {
		if len(pool.parts) == 0 {
			return false
		}
		for i, n := range pool.arena.sizes() {
			if i >= len(pool.parts) || pool.parts[i].Size() < n {
				return false
			}
		}
	}
	return true
}

// grow reallocates every buffer smaller than the last plan needs. Every
// pool gets at least an empty buffer, so that Buffer is never nil after a
// successful Reserve.
func (a *GraphAllocator) grow() error {
	for _, pool := range a.pools {
		need := pool.arena.sizes()
		if len(need) == 0 {
			need = []int{0}
		}
		changed := false
		for i, n := range need {
			if i < len(pool.parts) && pool.parts[i].Size() >= n {
				continue
			}
			if i < len(pool.parts) {
				// Free first: device memory may not hold both.
				old := pool.parts[i]
				pool.parts[i] = nil
				if err := old.Free(); err != nil {
					return errors.Join(fmt.Errorf("graph allocator: freeing a %s compute buffer: %w", pool.bt.Name(), err), pool.release())
				}
			}
			b, err := pool.bt.Alloc(n)
			if err != nil {
				return errors.Join(fmt.Errorf("graph allocator: allocating a %d-byte %s compute buffer: %w", n, pool.bt.Name(), err), pool.release())
			}
			b.SetUsage(UsageCompute)
			if i < len(pool.parts) {
				pool.parts[i] = b
			} else {
				pool.parts = append(pool.parts, b)
			}
			changed = true
		}
		if changed || pool.buf == nil {
			pool.buf = pool.parts[0]
			if len(pool.parts) > 1 {
				pool.buf = NewMultiBuffer(pool.parts)
			}
		}
	}
	return nil
}

// release frees the pool's buffers.
func (p *allocPool) release() error {
	var errs []error
	for _, b := range p.parts {
		if b != nil {
			errs = append(errs, b.Free())
		}
	}
	p.parts, p.buf = nil, nil
	return errors.Join(errs...)
}
