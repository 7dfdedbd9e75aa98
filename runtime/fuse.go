package runtime

import "reflect"

// Op fusion: a backend may compute a chain of consecutive nodes (RMS_NORM
// then MUL by the norm weight, MUL_MAT then ADD of a bias) as one kernel,
// as ggml's backends do at graph_compute (ggml_can_fuse). The rule of when
// that is safe lives here, once; which chains a backend fuses, and the
// shapes its fused kernels take, are the backend's.
//
// A chain may run as one kernel when every tensor but the last is an
// intermediate nobody else sees:
//   - the nodes are consecutive in the graph and each is a source of the next;
//   - each intermediate is read exactly once (by the next node) among all
//     nodes of the whole graph, views included — for a split's view of a
//     graph, the nodes of every other split count too;
//   - no intermediate is flagged input, output or parameter (the caller
//     reads outputs after compute), marked read outside the graph
//     (MarkReadOutside: the scheduler's copies to other backends), or a view
//     of a tensor outside the chain.
//
// View nodes (RESHAPE, VIEW, PERMUTE, TRANSPOSE) may sit inside a chain,
// never first or last (ROPE, RESHAPE, SET_ROWS: the rotated keys written
// into the cache). Each must view the computed node before it in the
// chain, directly or through the chain's views before it; that node's
// readers are then those views alone (the first reads it as source and
// view base, each later one as view base), and each view is read once, by
// the next node. How a view maps elements is the backend's to check, as
// are shapes.
//
// The fused kernel writes the last node only: the intermediates' memory is
// left as it was.

// Fusion answers CanFuse for the nodes of one graph during one compute.
// Build it with NewFusion when the compute starts (the scheduler may have
// rewired sources since the last one).
type Fusion struct {
	g    *Graph
	uses map[*Tensor]int // readers of each tensor among the root graph's nodes
}

// NewFusion prepares the fusion rule for the nodes of g, which may be a
// view of a larger graph (Graph.View).
func NewFusion(g *Graph) *Fusion { return &Fusion{g: g} }

// CanFuse reports whether nodes i, i+1, …, i+len(ops)-1 of the graph have
// the ops given, in order, and may be computed as one kernel by the rule
// above. It says nothing of shapes or dtypes: the backend checks those
// against what its fused kernel handles.
func (f *Fusion) CanFuse(i int, ops ...Op) bool {
	nodes := f.g.Nodes
	if len(ops) < 2 || i < 0 || i+len(ops) > len(nodes) || ops[0].IsView() || ops[len(ops)-1].IsView() {
		return false
	}
	for k, op := range ops {
		if n := nodes[i+k]; n == nil || n.Op != op || n.IsEmpty() {
			return false
		}
	}
	chain := nodes[i : i+len(ops)]
	var base *Tensor // the last computed node: what the views that follow it view
	for k := 0; k+1 < len(chain); k++ {
		t, next := chain[k], chain[k+1]
		if !readsSource(next, t) {
			return false
		}
		if t.Op.IsView() {
			if t.ViewSrc != base || !f.privateView(t) {
				return false
			}
			continue
		}
		base = t
		views := 0
		for chain[k+1+views].Op.IsView() {
			views++ // stops at the last node, which is no view
		}
		if !f.private(t, views) {
			return false
		}
	}
	return true
}

// private reports whether intermediate t is invisible outside the chain:
// no flags, no outside reads, not a view, and read only by the next node,
// or, when views of it follow in the chain, by those views.
func (f *Fusion) private(t *Tensor, views int) bool {
	if t.Flags&(FlagInput|FlagOutput|FlagParam) != 0 || t.Op.IsView() || t.ViewSrc != nil {
		return false
	}
	want := 1
	if views > 0 {
		want = views + 1 // the first view refers to t twice: source and view base
	}
	return f.unseen(t) && f.countOf(t) == want
}

// privateView reports whether view v, inside a chain, is invisible
// outside it: no flags, no outside reads, and read once (by the next node).
func (f *Fusion) privateView(v *Tensor) bool {
	return v.Flags&(FlagInput|FlagOutput|FlagParam) == 0 && f.unseen(v) && f.countOf(v) == 1
}

// unseen reports whether nothing outside the graph's nodes reads t.
func (f *Fusion) unseen(t *Tensor) bool { return !f.g.rootGraph().readOutside[t] }

// countOf is how many source slots and view links of the root graph's
// nodes refer to t.
func (f *Fusion) countOf(t *Tensor) int {
	if f.uses == nil {
		f.uses = countUses(f.g.rootGraph().Nodes)
	}
	return f.uses[t]
}

// FusedNodes is how many nodes of a fused chain run inside its first
// node's kernel: all but the first, less the views, which compute nothing
// fused or not. Backends count it so that fused nodes match the dispatches
// saved.
func FusedNodes(chain []*Tensor) int {
	n := 0
	for _, t := range chain[min(1, len(chain)):] {
		if !t.Op.IsView() {
			n++
		}
	}
	return n
}

// countUses counts, for each tensor, the source slots and view links of
// nodes that refer to it.
func countUses(nodes []*Tensor) map[*Tensor]int {
	uses := make(map[*Tensor]int, len(nodes))
	for _, n := range nodes {
		for _, s := range n.Src {
			if s != nil {
				uses[s]++
			}
		}
		if n.ViewSrc != nil {
			uses[n.ViewSrc]++
		}
	}
	return uses
}

func readsSource(n, t *Tensor) bool {
	for _, s := range n.Src {
		if s == t {
			return true
		}
	}
	return false
}

// MarkReadOutside records that t is read by something outside the graph's
// nodes, such as a copy the scheduler makes for another backend's split,
// so no backend fuses it away. Marks belong to the whole graph (views
// share them) and last until ClearReadOutside.
func (g *Graph) MarkReadOutside(t *Tensor) {
	r := g.rootGraph()
	if r.readOutside == nil {
		r.readOutside = map[*Tensor]bool{}
	}
	r.readOutside[t] = true
}

// ReadOutside reports whether MarkReadOutside marked t (in the whole
// graph). The RPC client sends such tensors flagged as outputs, so that
// the server's backend does not fuse them away either.
func (g *Graph) ReadOutside(t *Tensor) bool { return g.rootGraph().readOutside[t] }

// ClearReadOutside drops every MarkReadOutside mark of the graph.
func (g *Graph) ClearReadOutside() { clear(g.rootGraph().readOutside) }

func (g *Graph) rootGraph() *Graph {
	if g.root != nil {
		return g.root
	}
	return g
}

// AddendFits reports whether a fused MUL_MAT+ADD can take e onto the F32
// product mm: e F32 with unit element stride, its rows as long as mm's,
// and each other dim mm's or 1 (a bias [M] broadcasts over columns and
// batches). The GPU backends' fused kernels all read the addend so.
func AddendFits(e, mm *Tensor) bool {
	if mm.Type != F32 || e.Type != F32 || e.Nb[0] != 4 || e.Ne[0] != mm.Ne[0] {
		return false
	}
	for i := 1; i < MaxDims; i++ {
		if e.Ne[i] != mm.Ne[i] && e.Ne[i] != 1 {
			return false
		}
	}
	return true
}

// Overlaps reports whether a and b may share bytes: both allocated in the
// same buffer with intersecting byte spans. A fused kernel that reads one
// tensor while writing another checks this, since the graph allocator may
// give a fused node's output memory that one of the chain's inputs used.
func Overlaps(a, b *Tensor) bool {
	if a.Buffer == nil || b.Buffer == nil || !sameBuffer(a.Buffer, b.Buffer) {
		return false
	}
	na, nb := a.Nbytes(), b.Nbytes()
	if na < 0 || nb < 0 {
		return true // unknown spans: assume the worst
	}
	return a.Offset < b.Offset+nb && b.Offset < a.Offset+na
}

// SameMemory reports whether a and b are the same elements of the same
// memory: one buffer, offset, dtype, shape and strides (an op run in place).
func SameMemory(a, b *Tensor) bool {
	return a.Buffer != nil && b.Buffer != nil && sameBuffer(a.Buffer, b.Buffer) &&
		a.Offset == b.Offset && a.Type == b.Type && a.Ne == b.Ne && a.Nb == b.Nb
}

func sameBuffer(a, b Buffer) bool {
	ta, tb := reflect.TypeOf(a), reflect.TypeOf(b)
	return ta == tb && ta.Comparable() && a == b
}
