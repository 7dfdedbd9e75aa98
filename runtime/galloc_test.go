package runtime_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
)

// fakeBufferType hands out host memory and counts allocations, so the tests
// can see placement and growth without a backend.
type fakeBufferType struct {
	name   string
	align  int
	max    int   // 0: unlimited
	fail   error // returned by Alloc when set
	allocs int
}

func (b *fakeBufferType) Name() string   { return b.name }
func (b *fakeBufferType) Alignment() int { return b.align }
func (b *fakeBufferType) MaxSize() int {
	if b.max == 0 {
		return 1 << 40
	}
	return b.max
}
func (b *fakeBufferType) AllocSize(t *rt.Tensor) int { return t.Nbytes() }
func (b *fakeBufferType) IsHost() bool               { return true }
func (b *fakeBufferType) Device() rt.Device          { return nil }
func (b *fakeBufferType) Alloc(n int) (rt.Buffer, error) {
	if b.fail != nil {
		return nil, b.fail
	}
	b.allocs++
	return rt.NewHostMemoryBuffer(b, make([]byte, n), nil), nil
}

func newFakeBT(name string) *fakeBufferType { return &fakeBufferType{name: name, align: 64} }

// kib4 is the size of a [1024]f32 tensor, the unit of most tests.
const kib4 = 4096

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func build(t *testing.T, ctx *rt.Context, outs ...*rt.Tensor) *rt.Graph {
	t.Helper()
	g, err := ctx.BuildGraph(outs...)
	must(t, err)
	return g
}

// elementwiseChain builds n in-place-able ops on an input of 1024 floats.
func elementwiseChain(n int) (*rt.Context, *rt.Tensor) {
	ctx := rt.NewContext()
	return ctx, elementwiseChainIn(ctx, n)
}

// elementwiseChainIn builds the chain in ctx.
func elementwiseChainIn(ctx *rt.Context, n int) *rt.Tensor {
	x := ctx.NewTensor(rt.F32, 1024).SetName("x")
	x.SetInput()
	y := x
	for i := 0; i < n; i++ {
		switch i % 4 {
		case 0:
			y = ctx.Scale(y, 0.5, 1)
		case 1:
			y = ctx.Silu(y)
		case 2:
			y = ctx.Neg(y)
		case 3:
			y = ctx.Add(y, x)
		}
		y.SetName(fmt.Sprintf("y%d", i))
	}
	return y
}

func TestGraphAllocatorElementwiseChainNeedsTwoTensors(t *testing.T) {
	for _, n := range []int{1, 2, 8, 64} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			ctx, y := elementwiseChain(n)
			g := build(t, ctx, y)
			bt := newFakeBT("fake")
			a, err := rt.AllocGraphOn(g, bt)
			must(t, err)
			defer a.Free()
			// The input is kept; the first op needs new memory and every
			// later one runs in place on its predecessor.
			if got := a.BufferSize(0); got != 2*kib4 {
				t.Errorf("buffer size %d, want %d (two tensors)", got, 2*kib4)
			}
			for _, node := range g.Nodes[1:] {
				if node.Offset != g.Nodes[0].Offset {
					t.Errorf("%s at offset %d, not in place at %d", node.Name, node.Offset, g.Nodes[0].Offset)
				}
			}
			checkNoOverlap(t, g)
			checkCompute(t, g)
		})
	}
}

func TestGraphAllocatorReusesDeadMemory(t *testing.T) {
	// CONT cannot run in place, so each link needs a new tensor while its
	// source is read; the source then dies and its memory is reused.
	for _, n := range []int{2, 8, 64} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			ctx := rt.NewContext()
			x := ctx.NewTensor(rt.F32, 1024).SetName("x")
			x.SetInput()
			y := x
			for i := 0; i < n; i++ {
				y = ctx.Cont(y).SetName(fmt.Sprintf("c%d", i))
			}
			g := build(t, ctx, y)
			a, err := rt.AllocGraphOn(g, newFakeBT("fake"))
			must(t, err)
			defer a.Free()
			if got := a.BufferSize(0); got != 3*kib4 {
				t.Errorf("buffer size %d, want %d (input and two live links)", got, 3*kib4)
			}
			checkNoOverlap(t, g)
			checkCompute(t, g)
		})
	}
}

func TestGraphAllocatorInplace(t *testing.T) {
	cases := []struct {
		name  string
		build func(ctx *rt.Context, x *rt.Tensor) (outs []*rt.Tensor, node, victim *rt.Tensor)
		want  bool
	}{
		{"source dies here", func(ctx *rt.Context, x *rt.Tensor) ([]*rt.Tensor, *rt.Tensor, *rt.Tensor) {
			a := ctx.Cont(x)
			b := ctx.Silu(a)
			return []*rt.Tensor{b}, b, a
		}, true},
		{"source read later", func(ctx *rt.Context, x *rt.Tensor) ([]*rt.Tensor, *rt.Tensor, *rt.Tensor) {
			a := ctx.Cont(x)
			b := ctx.Silu(a)
			return []*rt.Tensor{ctx.Add(b, a)}, b, a
		}, false},
		{"source is an input", func(ctx *rt.Context, x *rt.Tensor) ([]*rt.Tensor, *rt.Tensor, *rt.Tensor) {
			b := ctx.Silu(x)
			return []*rt.Tensor{b}, b, x
		}, false},
		{"source is an output", func(ctx *rt.Context, x *rt.Tensor) ([]*rt.Tensor, *rt.Tensor, *rt.Tensor) {
			a := ctx.Cont(x)
			b := ctx.Silu(a)
			return []*rt.Tensor{a, b}, b, a
		}, false},
		{"op cannot run in place", func(ctx *rt.Context, x *rt.Tensor) ([]*rt.Tensor, *rt.Tensor, *rt.Tensor) {
			a := ctx.Cont(x)
			b := ctx.Cont(a)
			return []*rt.Tensor{b}, b, a
		}, false},
		{"only src0 is taken", func(ctx *rt.Context, x *rt.Tensor) ([]*rt.Tensor, *rt.Tensor, *rt.Tensor) {
			a := ctx.Cont(x)
			b := ctx.Add(x, a) // a dies here, but as src1
			return []*rt.Tensor{b}, b, a
		}, false},
		{"different layout", func(ctx *rt.Context, x *rt.Tensor) ([]*rt.Tensor, *rt.Tensor, *rt.Tensor) {
			a := ctx.Cont(ctx.Reshape(x, 32, 32))
			b := ctx.Scale(ctx.Transpose(a), 2, 0)
			return []*rt.Tensor{b}, b, a
		}, false},
		{"view at offset 0 of a dying tensor", func(ctx *rt.Context, x *rt.Tensor) ([]*rt.Tensor, *rt.Tensor, *rt.Tensor) {
			a := ctx.Cont(x)
			b := ctx.Silu(ctx.Reshape(a, 32, 32))
			return []*rt.Tensor{b}, b, a
		}, true},
		{"view at an offset", func(ctx *rt.Context, x *rt.Tensor) ([]*rt.Tensor, *rt.Tensor, *rt.Tensor) {
			a := ctx.Cont(x)
			b := ctx.Silu(ctx.View1D(a, 512, 2048))
			return []*rt.Tensor{b}, b, a
		}, false},
		{"view of a source with another view", func(ctx *rt.Context, x *rt.Tensor) ([]*rt.Tensor, *rt.Tensor, *rt.Tensor) {
			a := ctx.Cont(x)
			v := ctx.View1D(a, 512, 2048)
			b := ctx.Silu(ctx.View1D(a, 512, 0))
			return []*rt.Tensor{ctx.Add(b, v)}, b, a
		}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := rt.NewContext()
			x := ctx.NewTensor(rt.F32, 1024).SetName("x")
			x.SetInput()
			outs, node, victim := c.build(ctx, x)
			node.SetName("node")
			victim.SetName("victim")
			g := build(t, ctx, outs...)
			a, err := rt.AllocGraphOn(g, newFakeBT("fake"))
			must(t, err)
			defer a.Free()
			if got := node.Offset == victim.Offset; got != c.want {
				t.Errorf("node at %d, victim at %d: in place = %v, want %v", node.Offset, victim.Offset, got, c.want)
			}
			checkNoOverlap(t, g)
			checkCompute(t, g)
		})
	}
}

func TestGraphAllocatorViewKeepsSourceAlive(t *testing.T) {
	ctx := rt.NewContext()
	x := ctx.NewTensor(rt.F32, 1024).SetName("x")
	x.SetInput()
	a := ctx.Scale(x, 3, 0).SetName("a")
	v := ctx.Reshape(a, 32, 32).SetName("v") // a's only direct consumer
	tmp := ctx.Cont(ctx.Reshape(x, 32, 32))
	for i := 0; i < 4; i++ {
		tmp = ctx.Cont(tmp).SetName(fmt.Sprintf("t%d", i))
	}
	y := ctx.Add(tmp, ctx.Cont(v)).SetName("y") // v is read only here
	// Order the nodes so that a and v come first and v is read last.
	g := rt.NewGraph()
	g.Add(v)
	g.Add(tmp)
	g.BuildForward(y)
	al, err := rt.AllocGraphOn(g, newFakeBT("fake"))
	must(t, err)
	defer al.Free()
	if v.Buffer != a.Buffer || v.Offset != a.Offset {
		t.Errorf("view at %d, source at %d", v.Offset, a.Offset)
	}
	for _, n := range g.Nodes {
		if strings.HasPrefix(n.Name, "t") && overlaps(n, a) {
			t.Errorf("%s reuses the memory of %s while the view %s is still to be read", n.Name, a.Name, v.Name)
		}
	}
	checkNoOverlap(t, g)
	checkCompute(t, g)
}

func TestGraphAllocatorDependencyNode(t *testing.T) {
	// The scheduler keeps a tensor alive with an OpNone view of it added as
	// a late node; the view takes no memory and counts as a consumer.
	ctx := rt.NewContext()
	x := ctx.NewTensor(rt.F32, 1024).SetName("x")
	x.SetInput()
	a := ctx.Cont(x).SetName("a")
	b := ctx.Silu(a).SetName("b")
	c := ctx.Cont(b).SetName("c")
	d := ctx.Cont(c).SetName("d")
	g := build(t, ctx, d)
	dep := &rt.Tensor{Type: a.Type, Ne: a.Ne, Nb: a.Nb, ViewSrc: a, Name: "dep"}
	dep.Src[0] = a
	g.Nodes = append(g.Nodes, dep)
	al, err := rt.AllocGraphOn(g, newFakeBT("fake"))
	must(t, err)
	defer al.Free()
	if b.Offset == a.Offset {
		t.Error("b ran in place on a, which the dependency keeps alive")
	}
	for _, n := range []*rt.Tensor{b, c, d} {
		if overlaps(n, a) {
			t.Errorf("%s overlaps a, which the dependency keeps alive", n.Name)
		}
	}
	if dep.Buffer != a.Buffer || dep.Offset != a.Offset {
		t.Error("the dependency view is not placed at its source")
	}
	checkNoOverlap(t, g)
	checkCompute(t, g)
}

func TestGraphAllocatorInputsAndOutputsIntact(t *testing.T) {
	ctx := rt.NewContext()
	x := ctx.NewTensor(rt.F32, 256, 4).SetName("x")
	w := ctx.NewTensor(rt.F32, 256, 4).SetName("w")
	x.SetInput()
	w.SetInput()
	h := ctx.Mul(ctx.Silu(x), w).SetName("h")
	mid := ctx.Scale(h, 2, 0).SetName("mid") // in place on h
	mid.SetOutput()                          // read by the user and by later ops
	cp := ctx.Cont(mid).SetName("cp")        // in new memory
	cp.SetOutput()
	s := ctx.Add(ctx.Neg(cp), x).SetName("s")
	r := ctx.SumRows(ctx.Sqr(ctx.Add(s, mid))).SetName("r")
	g := build(t, ctx, r)
	a, err := rt.AllocGraphOn(g, newFakeBT("fake"))
	must(t, err)
	defer a.Free()
	checkNoOverlap(t, g)
	checkCompute(t, g) // checks inputs unchanged and every output
}

func TestGraphAllocatorInputsOutsideLeafs(t *testing.T) {
	// A graph view has no leafs; its inputs must still be placed before any
	// node runs, not at their first use.
	ctx := rt.NewContext()
	x1 := ctx.NewTensor(rt.F32, 1024).SetName("x1")
	x2 := ctx.NewTensor(rt.F32, 1024).SetName("x2")
	x1.SetInput()
	x2.SetInput()
	a := ctx.Cont(x1).SetName("a")
	b := ctx.Cont(a).SetName("b")
	c := ctx.Cont(b).SetName("c")
	d := ctx.Add(c, x2).SetName("d")
	g := build(t, ctx, d)
	v := g.View(0, len(g.Nodes))
	al, err := rt.AllocGraphOn(v, newFakeBT("fake"))
	must(t, err)
	defer al.Free()
	for _, n := range []*rt.Tensor{a, b, c, d} {
		for _, x := range []*rt.Tensor{x1, x2} {
			if overlaps(n, x) {
				t.Errorf("%s overlaps the input %s", n.Name, x.Name)
			}
		}
	}
	checkNoOverlap(t, v)
}

// mlp holds the weights of a 2-layer MLP, allocated once like a model's.
type mlp struct {
	ctx            *rt.Context
	w1, b1, w2, b2 *rt.Tensor
	buf            rt.Buffer
}

func newMLP(t *testing.T, in, hidden, out int) *mlp {
	m := &mlp{ctx: rt.NewContext()}
	m.w1 = m.ctx.NewTensor(rt.F32, in, hidden).SetName("w1")
	m.b1 = m.ctx.NewTensor(rt.F32, hidden).SetName("b1")
	m.w2 = m.ctx.NewTensor(rt.F32, hidden, out).SetName("w2")
	m.b2 = m.ctx.NewTensor(rt.F32, out).SetName("b2")
	buf, err := rt.AllocContextTensors(m.ctx, newFakeBT("weights"))
	must(t, err)
	buf.SetUsage(rt.UsageWeights)
	m.buf = buf
	r := rand.New(rand.NewPCG(1, 2))
	for _, w := range []*rt.Tensor{m.w1, m.b1, m.w2, m.b2} {
		must(t, rt.TensorSetF32(w, randomValues(r, w.Nelements())))
	}
	return m
}

// graph builds y = W2·relu(W1·x + b1) + b2 for a batch of inputs, followed
// by a second pass through the same layers with a residual connection.
func (m *mlp) graph(t *testing.T, batch int) *rt.Graph {
	ctx := rt.NewContext()
	x := ctx.NewTensor(rt.F32, m.w1.Ne[0], batch).SetName("x")
	x.SetInput()
	h := x
	for layer := 0; layer < 2; layer++ {
		z := ctx.Relu(ctx.Add(ctx.MulMat(m.w1, h), m.b1))
		y := ctx.Add(ctx.MulMat(m.w2, z), m.b2)
		h = ctx.Add(y, h).SetName(fmt.Sprintf("h%d", layer))
	}
	return build(t, ctx, h)
}

func TestGraphAllocatorMLPPeakMemory(t *testing.T) {
	m := newMLP(t, 64, 256, 64)
	defer m.buf.Free()
	g := m.graph(t, 8)
	bt := newFakeBT("compute")
	a, err := rt.AllocGraphOn(g, bt)
	must(t, err)
	defer a.Free()
	naive := 0
	for _, n := range append(slices.Clone(g.Leafs), g.Nodes...) {
		if n.Buffer != m.buf && n.ViewSrc == nil {
			naive += rt.AlignUp(n.Nbytes(), bt.align)
		}
	}
	peak := a.BufferSize(0)
	t.Logf("peak %d bytes, naive sum %d bytes", peak, naive)
	if peak*2 > naive {
		t.Errorf("peak %d is not under half the naive sum %d", peak, naive)
	}
	for _, w := range []*rt.Tensor{m.w1, m.b1, m.w2, m.b2} {
		if w.Buffer != m.buf {
			t.Errorf("weight %s was moved out of its buffer", w.Name)
		}
	}
	if u := a.Buffer(0).Usage(); u != rt.UsageCompute {
		t.Errorf("buffer usage %v, want compute", u)
	}
	checkNoOverlap(t, g)
	checkCompute(t, g)
}

func TestGraphAllocatorReserveThenSmallerGraph(t *testing.T) {
	m := newMLP(t, 64, 128, 64)
	defer m.buf.Free()
	bt := newFakeBT("compute")
	a := rt.NewGraphAllocator([]rt.BufferType{bt})
	defer a.Free()
	must(t, a.Reserve(m.graph(t, 16), nil, nil))
	size, allocs := a.BufferSize(0), bt.allocs
	for _, batch := range []int{1, 4, 16} {
		t.Run(fmt.Sprint(batch), func(t *testing.T) {
			g := m.graph(t, batch)
			ok, err := a.AllocGraph(g)
			must(t, err)
			if !ok {
				t.Fatal("AllocGraph of a graph no larger than the reserved one failed")
			}
			if a.BufferSize(0) != size || bt.allocs != allocs {
				t.Errorf("buffer grew: %d bytes after %d allocations, reserved %d bytes in %d", a.BufferSize(0), bt.allocs, size, allocs)
			}
			checkNoOverlap(t, g)
			checkCompute(t, g)
		})
	}
}

func TestGraphAllocatorReserveAssignsNothing(t *testing.T) {
	ctx, y := elementwiseChain(3)
	g := build(t, ctx, y)
	a := rt.NewGraphAllocator([]rt.BufferType{newFakeBT("fake")})
	defer a.Free()
	must(t, a.Reserve(g, nil, nil))
	for _, n := range append(slices.Clone(g.Leafs), g.Nodes...) {
		if n.Buffer != nil {
			t.Errorf("Reserve placed %s", n.Name)
		}
	}
	if a.Buffer(0) == nil || a.BufferSize(0) != 2*kib4 {
		t.Errorf("reserved buffer %v of %d bytes, want %d", a.Buffer(0), a.BufferSize(0), 2*kib4)
	}
}

func TestGraphAllocatorLargerGraph(t *testing.T) {
	m := newMLP(t, 64, 128, 64)
	defer m.buf.Free()
	small := m.graph(t, 2)
	alternate := func(g *rt.Graph) []int {
		s := make([]int, len(g.Nodes))
		for i := range s {
			s[i] = i / 3 % 2
		}
		return s
	}

	t.Run("two slots need a new reserve", func(t *testing.T) {
		a := rt.NewGraphAllocator([]rt.BufferType{newFakeBT("A"), newFakeBT("B")})
		defer a.Free()
		must(t, a.Reserve(small, alternate(small), nil))
		big := m.graph(t, 16)
		ok, err := a.AllocGraph(big)
		if ok || err != nil {
			t.Fatalf("AllocGraph of a larger graph = %v, %v; want false, nil", ok, err)
		}
		for _, n := range big.Nodes {
			if n.Buffer != nil {
				t.Fatalf("a failed AllocGraph placed %s", n.Name)
			}
		}
		must(t, a.Reserve(big, alternate(big), nil))
		ok, err = a.AllocGraph(big)
		if !ok || err != nil {
			t.Fatalf("AllocGraph after Reserve = %v, %v", ok, err)
		}
		checkNoOverlap(t, big)
		checkCompute(t, big)

		// A graph with another node count has no reserved assignment.
		ctx, y := elementwiseChain(2)
		if ok, err := a.AllocGraph(build(t, ctx, y)); ok || err != nil {
			t.Errorf("AllocGraph of a differently shaped graph = %v, %v; want false, nil", ok, err)
		}
	})

	t.Run("one slot grows itself", func(t *testing.T) {
		a := rt.NewGraphAllocator([]rt.BufferType{newFakeBT("A")})
		defer a.Free()
		must(t, a.Reserve(small, nil, nil))
		before := a.BufferSize(0)
		big := m.graph(t, 16)
		ok, err := a.AllocGraph(big)
		if !ok || err != nil {
			t.Fatalf("AllocGraph = %v, %v; want true, nil", ok, err)
		}
		if a.BufferSize(0) <= before {
			t.Errorf("buffer stayed at %d bytes", a.BufferSize(0))
		}
		checkNoOverlap(t, big)
		checkCompute(t, big)
	})
}

func TestGraphAllocatorSlots(t *testing.T) {
	ctx, y := elementwiseChain(6)
	g := build(t, ctx, y)
	slots := []int{0, 0, 1, 1, 0, 0}
	ba, bb := newFakeBT("A"), &fakeBufferType{name: "B", align: 256}
	a := rt.NewGraphAllocator([]rt.BufferType{ba, bb})
	defer a.Free()
	must(t, a.Reserve(g, slots, nil))
	ok, err := a.AllocGraph(g)
	if !ok || err != nil {
		t.Fatalf("AllocGraph = %v, %v", ok, err)
	}
	bts := []rt.BufferType{ba, bb}
	for i, n := range g.Nodes {
		if n.Buffer != a.Buffer(slots[i]) || n.Buffer.Type() != bts[slots[i]] {
			t.Errorf("%s is in %s, want slot %d", n.Name, n.Buffer.Type().Name(), slots[i])
		}
	}
	// Node 0 copies the input into slot 0; nodes 1, 3 and 5 run in place,
	// nodes 2 and 4 start in a new slot.
	if a.BufferSize(0) != 2*kib4 || a.BufferSize(1) != kib4 {
		t.Errorf("sizes %d and %d, want %d and %d", a.BufferSize(0), a.BufferSize(1), 2*kib4, kib4)
	}
	checkNoOverlap(t, g)
	checkCompute(t, g)

	t.Run("same buffer type shares a buffer", func(t *testing.T) {
		ctx, y := elementwiseChain(6)
		g := build(t, ctx, y)
		bt := newFakeBT("A")
		a := rt.NewGraphAllocator([]rt.BufferType{bt, bt})
		defer a.Free()
		must(t, a.Reserve(g, slots, nil))
		if ok, err := a.AllocGraph(g); !ok || err != nil {
			t.Fatalf("AllocGraph = %v, %v", ok, err)
		}
		if a.Buffer(0) == nil || a.Buffer(0) != a.Buffer(1) || bt.allocs != 1 {
			t.Errorf("slots got separate buffers (%d allocations)", bt.allocs)
		}
		// Memory is shared, in-place runs are not: node 2 gets a new block
		// and node 4 reuses node 1's.
		if g.Nodes[2].Offset == g.Nodes[1].Offset {
			t.Error("node 2 ran in place across slots")
		}
		if g.Nodes[4].Offset != g.Nodes[1].Offset {
			t.Errorf("node 4 at %d does not reuse node 1's block at %d", g.Nodes[4].Offset, g.Nodes[1].Offset)
		}
		if a.BufferSize(0) != 3*kib4 || a.BufferSize(1) != 0 {
			t.Errorf("sizes %d and %d, want %d and 0: the shared buffer counts once", a.BufferSize(0), a.BufferSize(1), 3*kib4)
		}
		checkNoOverlap(t, g)
		checkCompute(t, g)
	})
}

func TestGraphAllocatorZeroSizeTensors(t *testing.T) {
	ctx := rt.NewContext()
	x := ctx.NewTensor(rt.F32, 1024).SetName("x")
	e := ctx.NewTensor(rt.F32, 0, 4).SetName("empty")
	x.SetInput()
	e.SetInput()
	y := ctx.Silu(x)
	z := ctx.Scale(e, 2, 0)
	g := build(t, ctx, y, z)
	a, err := rt.AllocGraphOn(g, newFakeBT("fake"))
	must(t, err)
	defer a.Free()
	if a.BufferSize(0) != 2*kib4 {
		t.Errorf("buffer size %d, want %d: empty tensors take no memory", a.BufferSize(0), 2*kib4)
	}
	for _, n := range []*rt.Tensor{e, z} {
		if n.Buffer == nil {
			t.Errorf("empty tensor %s was not placed", n.Name)
		}
	}
}

func TestGraphAllocatorChunksBeyondMaxSize(t *testing.T) {
	ctx := rt.NewContext()
	var ins []*rt.Tensor
	for i := 0; i < 5; i++ {
		x := ctx.NewTensor(rt.F32, 1024).SetName(fmt.Sprintf("x%d", i))
		x.SetInput()
		ins = append(ins, x)
	}
	y := ins[0]
	for _, x := range ins[1:] {
		y = ctx.Add(y, x)
	}
	g := build(t, ctx, y)
	bt := &fakeBufferType{name: "small", align: 64, max: 3 * kib4}
	a, err := rt.AllocGraphOn(g, bt)
	must(t, err)
	defer a.Free()
	mb, ok := a.Buffer(0).(*rt.MultiBuffer)
	if !ok {
		t.Fatalf("buffer is %T, want a multi-buffer", a.Buffer(0))
	}
	for _, p := range mb.Parts {
		if p.Size() > bt.max {
			t.Errorf("part of %d bytes exceeds the maximum %d", p.Size(), bt.max)
		}
	}
	if a.BufferSize(0) != 6*kib4 {
		t.Errorf("total %d bytes, want %d", a.BufferSize(0), 6*kib4)
	}
	checkNoOverlap(t, g)
	checkCompute(t, g)
}

func TestGraphAllocatorLeavesAllocatedTensorsAlone(t *testing.T) {
	ctx := rt.NewContext()
	x := ctx.NewTensor(rt.F32, 1024).SetName("x")
	x.SetInput()
	pre := rt.NewContext()
	kv := pre.NewTensor(rt.F32, 2048).SetName("kv")
	kvBuf, err := rt.AllocContextTensors(pre, newFakeBT("kv"))
	must(t, err)
	defer kvBuf.Free()
	// Write into the first half of a pre-allocated cache, as a KV store does.
	dst := ctx.View1D(kv, 1024, 0)
	cpy := ctx.Cpy(ctx.Silu(x), dst)
	g := build(t, ctx, cpy)
	a, err := rt.AllocGraphOn(g, newFakeBT("fake"))
	must(t, err)
	defer a.Free()
	if kv.Buffer != kvBuf || kv.Offset != 0 {
		t.Error("the pre-allocated tensor moved")
	}
	if cpy.Buffer != kvBuf || dst.Buffer != kvBuf {
		t.Error("views of the pre-allocated tensor are not in its buffer")
	}
	if a.BufferSize(0) != 2*kib4 {
		t.Errorf("buffer size %d, want %d", a.BufferSize(0), 2*kib4)
	}
}

func TestGraphAllocatorErrors(t *testing.T) {
	errBoom := errors.New("device out of memory")
	ctx, y := elementwiseChain(3)
	g := build(t, ctx, y)
	cases := []struct {
		name      string
		bts       []rt.BufferType
		run       func(a *rt.GraphAllocator) error
		want      string
		wantIsErr error
	}{
		{"no buffer types", nil, func(a *rt.GraphAllocator) error { return a.Reserve(g, nil, nil) }, "no buffer types", nil},
		{"nil buffer type", []rt.BufferType{newFakeBT("A"), nil}, func(a *rt.GraphAllocator) error { return a.Reserve(g, nil, nil) }, "slot 1 has no buffer type", nil},
		{"nil graph", []rt.BufferType{newFakeBT("A")}, func(a *rt.GraphAllocator) error { _, err := a.AllocGraph(nil); return err }, "nil graph", nil},
		{"slot out of range", []rt.BufferType{newFakeBT("A"), newFakeBT("B")}, func(a *rt.GraphAllocator) error {
			return a.Reserve(g, []int{0, 2, 1}, nil)
		}, "node 1 (y1", nil},
		{"negative leaf slot", []rt.BufferType{newFakeBT("A")}, func(a *rt.GraphAllocator) error {
			return a.Reserve(g, nil, []int{-1})
		}, "has slot -1", nil},
		{"slot count", []rt.BufferType{newFakeBT("A")}, func(a *rt.GraphAllocator) error {
			return a.Reserve(g, []int{0}, nil)
		}, "1 node slots for 3 nodes", nil},
		{"allocation fails in Reserve", []rt.BufferType{&fakeBufferType{name: "A", align: 64, fail: errBoom}}, func(a *rt.GraphAllocator) error {
			return a.Reserve(g, nil, nil)
		}, "8192-byte A compute buffer", errBoom},
		{"allocation fails in AllocGraph", []rt.BufferType{&fakeBufferType{name: "A", align: 64, fail: errBoom}}, func(a *rt.GraphAllocator) error {
			_, err := a.AllocGraph(g)
			return err
		}, "device out of memory", errBoom},
		{"tensor beyond MaxSize", []rt.BufferType{&fakeBufferType{name: "A", align: 64, max: 1000}}, func(a *rt.GraphAllocator) error {
			return a.Reserve(g, nil, nil)
		}, "needs 4096 bytes, more than the maximum buffer size 1000 of A", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := rt.NewGraphAllocator(c.bts)
			defer a.Free()
			err := c.run(a)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one containing %q", err, c.want)
			}
			if c.wantIsErr != nil && !errors.Is(err, c.wantIsErr) {
				t.Errorf("error %v does not wrap %v", err, c.wantIsErr)
			}
			if len(c.bts) > 0 && a.Buffer(0) != nil && c.wantIsErr != nil {
				t.Error("a failed allocation left a buffer behind")
			}
		})
	}
	if a := rt.NewGraphAllocator([]rt.BufferType{newFakeBT("A")}); a.Buffer(3) != nil || a.BufferSize(-1) != 0 || a.Buffer(0) != nil {
		t.Error("unknown slots or an unreserved allocator must report no buffer")
	}
}

func TestAllocGraphOnFree(t *testing.T) {
	ctx, y := elementwiseChain(2)
	g := build(t, ctx, y)
	a, err := rt.AllocGraphOn(g, newFakeBT("fake"))
	must(t, err)
	must(t, rt.TensorSetF32(g.Leafs[0], make([]float32, 1024)))
	must(t, a.Free())
	if a.Buffer(0) != nil {
		t.Error("Free kept the buffer")
	}
	if err := rt.TensorSetF32(g.Leafs[0], make([]float32, 1024)); err == nil {
		t.Error("writing a tensor of a freed buffer must fail")
	}
}

// overlaps reports whether a and b share bytes of one buffer.
func overlaps(a, b *rt.Tensor) bool {
	return a.Buffer != nil && a.Buffer == b.Buffer &&
		a.Offset < b.Offset+b.Nbytes() && b.Offset < a.Offset+a.Nbytes()
}

// checkNoOverlap checks g's placement by liveness, independently of the
// allocator: two tensors that are alive at once must not share memory,
// except a node that runs in place on its first source as the source dies.
// Inputs live from the start and inputs and outputs to the end.
func checkNoOverlap(t *testing.T, g *rt.Graph) {
	t.Helper()
	const forever = math.MaxInt
	base := func(x *rt.Tensor) *rt.Tensor {
		if x.ViewSrc != nil {
			return x.ViewSrc
		}
		return x
	}
	def, last := map[*rt.Tensor]int{}, map[*rt.Tensor]int{}
	var tensors []*rt.Tensor
	note := func(x *rt.Tensor, at int) {
		b := base(x)
		if _, ok := def[b]; !ok {
			def[b], last[b] = at, at
			tensors = append(tensors, b)
		}
	}
	use := func(x *rt.Tensor, at int) { last[base(x)] = max(last[base(x)], at) }
	keep := func(x *rt.Tensor) {
		if x.Flags&rt.FlagInput != 0 {
			def[base(x)] = -1
		}
		if x.Flags&(rt.FlagInput|rt.FlagOutput) != 0 {
			last[base(x)] = forever
		}
	}
	for _, l := range g.Leafs {
		note(l, -1)
	}
	for i, n := range g.Nodes {
		for _, s := range n.Src {
			if s != nil {
				note(s, -1)
				use(s, i)
			}
		}
		note(n, i)
		if n.ViewSrc != nil {
			use(n, i)
		}
	}
	for _, l := range g.Leafs {
		keep(l)
	}
	for _, n := range g.Nodes {
		keep(n)
		for _, s := range n.Src {
			if s != nil {
				keep(s)
			}
		}
	}
	for i, a := range tensors {
		for _, b := range tensors[i+1:] {
			if !overlaps(a, b) || a.Nbytes() == 0 || b.Nbytes() == 0 {
				continue
			}
			x, y := a, b
			if def[x] > def[y] {
				x, y = y, x
			}
			if def[y] > last[x] {
				continue
			}
			inplace := def[y] == last[x] && def[y] >= 0 && y.Offset == x.Offset &&
				y.Op.CanInplace() && y.Src[0] != nil && base(y.Src[0]) == x
			if !inplace {
				t.Errorf("%s [%d,+%d) alive over nodes %d..%d overlaps %s [%d,+%d) made at node %d",
					x.Name, x.Offset, x.Nbytes(), def[x], last[x], y.Name, y.Offset, y.Nbytes(), def[y])
			}
		}
	}
}

func randomValues(r *rand.Rand, n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = r.Float32()*2 - 1
	}
	return v
}

// checkCompute runs g through the test's own kernels twice: once reading
// and writing every tensor in its allocated memory, node by node, and once
// on private copies. Any memory shared wrongly changes a result. It also
// checks that the inputs are unchanged afterwards.
func checkCompute(t *testing.T, g *rt.Graph) {
	t.Helper()
	r := rand.New(rand.NewPCG(3, 4))
	ref := map[*rt.Tensor][]float32{}
	inputs := map[*rt.Tensor][]float32{}
	for _, l := range g.Leafs {
		if l.ViewSrc != nil || l.Type != rt.F32 {
			continue
		}
		v := randomValues(r, l.Nelements())
		if l.Buffer.Usage() == rt.UsageWeights {
			got, err := rt.TensorGetF32(l)
			must(t, err)
			v = got
		}
		must(t, rt.TensorSetF32(l, v))
		ref[l] = v
		if l.Flags&rt.FlagInput != 0 {
			inputs[l] = v
		}
	}
	var refOf func(x *rt.Tensor) []float32
	refOf = func(x *rt.Tensor) []float32 {
		if v, ok := ref[x]; ok {
			return v
		}
		if x.ViewSrc == nil {
			t.Fatalf("no reference value for %s", x.Name)
		}
		raw := make([]byte, 4*x.ViewSrc.Nelements())
		must(t, rt.QuantizeRow(rt.F32, refOf(x.ViewSrc), raw))
		v, err := rt.DecodeF32(x, raw[x.ViewOffs:])
		must(t, err)
		ref[x] = v
		return v
	}
	for _, n := range g.Nodes {
		if n.Op == rt.OpNone || n.Op.IsView() || n.IsEmpty() {
			continue
		}
		var mem, priv [][]float32
		for _, s := range n.Src {
			if s == nil {
				continue
			}
			v, err := rt.TensorGetF32(s)
			must(t, err)
			mem = append(mem, v)
			priv = append(priv, refOf(s))
		}
		must(t, rt.TensorSetF32(n, kernel(t, n, mem)))
		ref[n] = kernel(t, n, priv)
	}
	for x, want := range inputs {
		got, err := rt.TensorGetF32(x)
		must(t, err)
		if !slices.Equal(got, want) {
			t.Errorf("input %s was overwritten", x.Name)
		}
	}
	for _, n := range g.Nodes {
		if n.Flags&rt.FlagOutput == 0 || n.IsEmpty() {
			continue
		}
		got, err := rt.TensorGetF32(n)
		must(t, err)
		if !slices.Equal(got, refOf(n)) {
			t.Errorf("output %s differs from the reference", n.Name)
		}
	}
}

// kernel computes node n from its sources' values in logical order. Its
// arithmetic only needs to be deterministic: both runs use it.
func kernel(t *testing.T, n *rt.Tensor, src [][]float32) []float32 {
	t.Helper()
	out := make([]float32, n.Nelements())
	switch {
	case n.Op == rt.OpCont || n.Op == rt.OpDup || n.Op == rt.OpCpy:
		copy(out, src[0])
	case n.Op.IsBinary():
		b := n.Src[1]
		for i := range out {
			i0, i1, i2, i3 := i%n.Ne[0], i/n.Ne[0]%n.Ne[1], i/(n.Ne[0]*n.Ne[1])%n.Ne[2], i/(n.Ne[0]*n.Ne[1]*n.Ne[2])
			j := i0%b.Ne[0] + b.Ne[0]*(i1%b.Ne[1]+b.Ne[1]*(i2%b.Ne[2]+b.Ne[2]*(i3%b.Ne[3])))
			x, y := src[0][i], src[1][j]
			switch n.Op {
			case rt.OpAdd:
				out[i] = x + y
			case rt.OpSub:
				out[i] = x - y
			case rt.OpMul:
				out[i] = x * y
			case rt.OpDiv:
				out[i] = x / y
			}
		}
	case n.Op == rt.OpScale:
		for i, x := range src[0] {
			out[i] = x*n.ParamF(0) + n.ParamF(1)
		}
	case n.Op == rt.OpSilu:
		for i, x := range src[0] {
			out[i] = x / (1 + float32(math.Exp(float64(-x))))
		}
	case n.Op == rt.OpRelu:
		for i, x := range src[0] {
			out[i] = max(x, 0)
		}
	case n.Op == rt.OpNeg:
		for i, x := range src[0] {
			out[i] = -x
		}
	case n.Op == rt.OpSqr:
		for i, x := range src[0] {
			out[i] = x * x
		}
	case n.Op == rt.OpSumRows:
		k := n.Src[0].Ne[0]
		for i := range out {
			for _, x := range src[0][i*k : (i+1)*k] {
				out[i] += x
			}
		}
	case n.Op == rt.OpMulMat:
		k, m := n.Src[0].Ne[0], n.Ne[0]
		for i := range out {
			row, col := src[0][(i%m)*k:], src[1][(i/m)*k:]
			for j := 0; j < k; j++ {
				out[i] += row[j] * col[j]
			}
		}
	default:
		t.Fatalf("test kernel: op %v not implemented", n.Op)
	}
	return out
}

// BenchmarkGraphAllocator measures planning and placing a transformer-like
// graph per node; the time per node should stay flat as the graph grows.
func BenchmarkGraphAllocator(b *testing.B) {
	for _, layers := range []int{25, 100, 400} {
		ctx := rt.NewContext()
		const d, seq = 64, 8
		x := ctx.NewTensor(rt.F32, d, seq)
		x.SetInput()
		h := x
		for l := 0; l < layers; l++ {
			wq, wk, wv, wo := ctx.NewTensor(rt.F32, d, d), ctx.NewTensor(rt.F32, d, d), ctx.NewTensor(rt.F32, d, d), ctx.NewTensor(rt.F32, d, d)
			n := ctx.RmsNorm(h, 1e-5)
			q, k, v := ctx.MulMat(wq, n), ctx.MulMat(wk, n), ctx.MulMat(wv, n)
			att := ctx.SoftMax(ctx.MulMat(k, q), nil, 0.125)
			o := ctx.MulMat(wo, ctx.MulMat(ctx.Cont(ctx.Transpose(v)), att))
			h = ctx.Add(h, o)
			w1, w2 := ctx.NewTensor(rt.F32, d, 4*d), ctx.NewTensor(rt.F32, 4*d, d)
			h = ctx.Add(h, ctx.MulMat(w2, ctx.Silu(ctx.MulMat(w1, ctx.RmsNorm(h, 1e-5)))))
		}
		g, err := ctx.BuildGraph(h)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("nodes=%d", len(g.Nodes)), func(b *testing.B) {
			a := rt.NewGraphAllocator([]rt.BufferType{newFakeBT("fake")})
			defer a.Free()
			if err := a.Reserve(g, nil, nil); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				for _, t := range append(slices.Clone(g.Leafs), g.Nodes...) {
					t.Buffer = nil
				}
				if ok, err := a.AllocGraph(g); !ok || err != nil {
					b.Fatal(ok, err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(g.Nodes)), "ns/node")
		})
	}
}
