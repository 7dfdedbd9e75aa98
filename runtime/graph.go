package runtime

// Graph is a computation in topological order: Nodes are computed tensors
// (views included), Leafs are tensors with no op (weights, inputs, constants).
type Graph struct {
	Nodes []*Tensor
	Leafs []*Tensor
	seen  map[*Tensor]bool

	// root is the graph a View was taken of (nil for a whole graph); uses
	// and readOutside are the root's (see fuse.go).
	root        *Graph
	readOutside map[*Tensor]bool
}

// NewGraph returns an empty graph.
func NewGraph() *Graph { return &Graph{seen: map[*Tensor]bool{}} }

// BuildForward adds t and everything it depends on, sources first, and marks
// t as an output.
func (g *Graph) BuildForward(t *Tensor) {
	t.SetOutput()
	g.visit(t)
}

// Add appends t and its unvisited dependencies without marking an output.
func (g *Graph) Add(t *Tensor) { g.visit(t) }

func (g *Graph) visit(t *Tensor) {
	if t == nil || g.seen[t] {
		return
	}
	g.seen[t] = true
	for _, s := range t.Src {
		g.visit(s)
	}
	if t.ViewSrc != nil {
		g.visit(t.ViewSrc)
	}
	if t.Op == OpNone && t.Flags&FlagParam == 0 {
		g.Leafs = append(g.Leafs, t)
	} else {
		g.Nodes = append(g.Nodes, t)
	}
}

// Contains reports whether t has been added to the graph.
func (g *Graph) Contains(t *Tensor) bool { return g.seen[t] }

// View returns a graph of nodes[i0:i1] (sharing the tensors), as ggml_graph_view.
func (g *Graph) View(i0, i1 int) *Graph {
	v := &Graph{Nodes: g.Nodes[i0:i1:i1], seen: make(map[*Tensor]bool, i1-i0), root: g.rootGraph()}
	for _, n := range v.Nodes {
		v.seen[n] = true
	}
	return v
}

// Tensor finds a node or leaf by name, or nil.
func (g *Graph) Tensor(name string) *Tensor {
	for _, t := range g.Nodes {
		if t.Name == name {
			return t
		}
	}
	for _, t := range g.Leafs {
		if t.Name == name {
			return t
		}
	}
	return nil
}
