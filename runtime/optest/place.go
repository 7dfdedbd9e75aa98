package optest

import (
	"bytes"
	"errors"
	"fmt"
	"sort"

	rt "github.com/gpurt/gpurt/runtime"
)

// guardByte fills the whole buffer before the inputs are written, so
// outputs start as a known pattern and the gaps between tensors hold it.
const guardByte = 0xA5

// gapBytes separate the tensors, so that a kernel that runs past its output
// writes into a gap (reported as such) rather than into a neighbour.
const gapBytes = 64

// placement is a graph's memory on one backend. Every leaf and every node
// that owns memory gets its own block, followed by a gap. After the inputs
// are written the whole buffer is read back; after the compute it is read
// again, and any byte that changed outside the nodes' outputs (a gap, an
// input, another tensor) fails the case. This simple layout, rather than the
// graph allocator's, keeps the harness independent of allocator bugs and
// makes overruns visible.
type placement struct {
	buf      rt.Buffer
	whole    *rt.Tensor // a probe spanning the buffer, for reading it back
	regions  []region   // sorted by start
	snapshot []byte
}

// region is a span of the buffer that belongs to one tensor.
type region struct {
	start, end int
	t          *rt.Tensor
	writable   bool // a node's output, or the target of CPY or SET_ROWS
}

// place allocates g's tensors in one new buffer of type bt. When inplace is
// not nil, that node shares its first source's memory instead of getting a
// block, as the graph allocator does for ops that may run in place.
func place(g *rt.Graph, bt rt.BufferType, inplace *rt.Tensor) (*placement, error) {
	align := max(bt.Alignment(), 4)
	type slot struct {
		t   *rt.Tensor
		off int
	}
	var slots []slot
	off := rt.AlignUp(gapBytes, align)
	for _, list := range [][]*rt.Tensor{g.Leafs, g.Nodes} {
		for _, t := range list {
			if t.ViewSrc != nil || t.Buffer != nil || t == inplace {
				continue
			}
			slots = append(slots, slot{t, off})
			off = rt.AlignUp(off+bt.AllocSize(t)+gapBytes, align)
		}
	}
	if off > bt.MaxSize() {
		return nil, fmt.Errorf("place: the case needs %d bytes, more than the %d-byte maximum of %s", off, bt.MaxSize(), bt.Name())
	}
	buf, err := bt.Alloc(off)
	if err != nil {
		return nil, fmt.Errorf("place: alloc %d bytes of %s: %w", off, bt.Name(), err)
	}
	p := &placement{buf: buf}
	fail := func(err error) (*placement, error) { return nil, errors.Join(fmt.Errorf("place: %w", err), p.free()) }
	if err := buf.Clear(guardByte); err != nil {
		return fail(err)
	}
	for _, s := range slots {
		if err := rt.AllocTensor(buf, s.t, s.off); err != nil {
			return fail(err)
		}
		p.regions = append(p.regions, region{s.off, s.off + bt.AllocSize(s.t), s.t, s.t.Op != rt.OpNone})
	}
	if inplace != nil {
		src := inplace.Src[0]
		if src == nil || src.ViewSrc != nil || src.Buffer == nil || src.Type != inplace.Type || src.Ne != inplace.Ne || src.Nb != inplace.Nb {
			return fail(fmt.Errorf("%v %q cannot run in place over its source", inplace.Op, inplace.Name))
		}
		if err := rt.AllocTensor(buf, inplace, src.Offset); err != nil {
			return fail(err)
		}
	}
	for _, t := range g.Nodes {
		if t.ViewSrc == nil || t.Buffer != nil {
			continue
		}
		if err := rt.InitView(t); err != nil {
			return fail(err)
		}
		if !t.Op.IsView() {
			// CPY and SET_ROWS write through their view into the target.
			p.regions = append(p.regions, region{t.Offset, t.Offset + t.Nbytes(), t, true})
		}
	}
	sort.SliceStable(p.regions, func(i, j int) bool { return p.regions[i].start < p.regions[j].start })
	// The probe is set up by hand, not with AllocTensor: it is no tensor of
	// the graph, only a handle for reading the buffer back.
	p.whole = &rt.Tensor{Type: rt.F32, Ne: [rt.MaxDims]int{off / 4, 1, 1, 1}, Name: "whole buffer", Buffer: buf}
	p.whole.Nb = [rt.MaxDims]int{4, off, off, off}
	return p, nil
}

// snap records the buffer's contents once the inputs are written.
func (p *placement) snap() error {
	p.snapshot = make([]byte, p.whole.Nbytes())
	return rt.TensorGet(p.whole, p.snapshot, 0)
}

// check reports the first byte that changed outside the writable regions.
func (p *placement) check() error {
	now := make([]byte, len(p.snapshot))
	if err := rt.TensorGet(p.whole, now, 0); err != nil {
		return fmt.Errorf("read back the buffer: %w", err)
	}
	// Compare the spans between writable regions (regions are sorted by start).
	pos := 0
	for _, r := range append(p.regions, region{start: len(now), end: len(now), writable: true}) {
		if !r.writable {
			continue
		}
		if r.start > pos && !bytes.Equal(now[pos:r.start], p.snapshot[pos:r.start]) {
			for i := pos; i < r.start; i++ {
				if now[i] != p.snapshot[i] {
					return p.describeChange(i, now[i])
				}
			}
		}
		pos = max(pos, r.end)
	}
	return nil
}

// describeChange explains why byte i must not have changed.
func (p *placement) describeChange(i int, now byte) error {
	for _, r := range p.regions {
		if i >= r.start && i < r.end && !r.writable {
			return fmt.Errorf("input %q changed at byte %d", r.t.Name, i-r.start)
		}
	}
	return fmt.Errorf("wrote outside its tensors: byte %d (%s) changed from %#x to %#x", i, p.near(i), p.snapshot[i], now)
}

// near names the position of byte i relative to the tensor before it.
func (p *placement) near(i int) string {
	var before *region
	for k := range p.regions {
		if p.regions[k].end <= i && p.regions[k].t.ViewSrc == nil {
			before = &p.regions[k]
		}
	}
	if before == nil {
		return "before the first tensor"
	}
	return fmt.Sprintf("%d bytes past the end of %q (%v)", i-before.end, before.t.Name, before.t.Op)
}

func (p *placement) free() error {
	if p.buf == nil {
		return nil
	}
	err := p.buf.Free()
	p.buf = nil
	return err
}

// cloneGraph copies g's tensors, unallocated, so that the same graph can
// live on a second backend. m maps each original tensor to its copy.
func cloneGraph(g *rt.Graph) (c *rt.Graph, m map[*rt.Tensor]*rt.Tensor) {
	m = map[*rt.Tensor]*rt.Tensor{}
	var clone func(t *rt.Tensor) *rt.Tensor
	clone = func(t *rt.Tensor) *rt.Tensor {
		if t == nil {
			return nil
		}
		if c, ok := m[t]; ok {
			return c
		}
		c := *t
		c.Buffer, c.Offset, c.Extra = nil, 0, nil
		m[t] = &c
		for i, s := range t.Src {
			c.Src[i] = clone(s)
		}
		c.ViewSrc = clone(t.ViewSrc)
		return &c
	}
	c = rt.NewGraph()
	// Adding leafs, then nodes in topological order, reproduces both lists.
	for _, t := range g.Leafs {
		c.Add(clone(t))
	}
	for _, t := range g.Nodes {
		c.Add(clone(t))
	}
	return c, m
}
