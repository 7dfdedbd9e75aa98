package runtime_test

import (
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
)

// TestCanFuse checks the fusion rule on chains that must and must not fuse.
func TestCanFuse(t *testing.T) {
	type built struct {
		g   *rt.Graph
		at  int // the node index the chain starts at
		ops []rt.Op
	}
	// normMul builds x → RMS_NORM → MUL(w) → out and lets extra add readers.
	normMul := func(extra func(ctx *rt.Context, norm, out *rt.Tensor) []*rt.Tensor) built {
		ctx := rt.NewContext()
		x := ctx.NewTensor(rt.F32, 8, 4).SetName("x")
		w := ctx.NewTensor(rt.F32, 8).SetName("w")
		norm := ctx.RmsNorm(x, 1e-5)
		out := ctx.Mul(norm, w)
		outs := []*rt.Tensor{out}
		if extra != nil {
			outs = append(outs, extra(ctx, norm, out)...)
		}
		g, err := ctx.BuildGraph(outs...)
		if err != nil {
			t.Fatal(err)
		}
		return built{g, indexOf(g, norm), []rt.Op{rt.OpRmsNorm, rt.OpMul}}
	}
	// ropeRows builds the KV write k → ROPE → RESHAPE → SET_ROWS(cache) and
	// lets extra add readers; the chain may hold more views (reshapes).
	ropeRows := func(reshapes int, extra func(ctx *rt.Context, rope, flat *rt.Tensor) []*rt.Tensor) built {
		ctx := rt.NewContext()
		k := ctx.NewTensor(rt.F32, 8, 2, 3).SetName("k")
		pos := ctx.NewTensor(rt.I32, 3).SetName("pos")
		idx := ctx.NewTensor(rt.I32, 3).SetName("idx")
		cache := ctx.NewTensor(rt.F16, 16, 10).SetName("cache")
		rope := ctx.Rope(k, pos, 8, rt.RopeNormal, 10000, 1)
		flat := ctx.Reshape(rope, 16, 3)
		ops := []rt.Op{rt.OpRope, rt.OpReshape}
		for range reshapes - 1 {
			flat = ctx.Reshape(flat, 16, 3)
			ops = append(ops, rt.OpReshape)
		}
		outs := []*rt.Tensor{ctx.SetRows(cache, flat, idx)}
		if extra != nil {
			outs = append(outs, extra(ctx, rope, flat)...)
		}
		g, err := ctx.BuildGraph(outs...)
		if err != nil {
			t.Fatal(err)
		}
		return built{g, indexOf(g, rope), append(ops, rt.OpSetRows)}
	}
	cases := []struct {
		name string
		b    func() built
		want bool
	}{
		{"rope, reshape, set_rows", func() built { return ropeRows(1, nil) }, true},
		{"rope, two reshapes, set_rows", func() built { return ropeRows(2, nil) }, true},
		{"rope read by another node too", func() built {
			return ropeRows(1, func(ctx *rt.Context, rope, _ *rt.Tensor) []*rt.Tensor {
				return []*rt.Tensor{ctx.Scale(rope, 2, 0)}
			})
		}, false},
		{"rope viewed once more outside the chain", func() built {
			return ropeRows(1, func(ctx *rt.Context, rope, _ *rt.Tensor) []*rt.Tensor {
				return []*rt.Tensor{ctx.Cont(ctx.Reshape(rope, 48))}
			})
		}, false},
		{"the reshape read by another node too", func() built {
			return ropeRows(1, func(ctx *rt.Context, _, flat *rt.Tensor) []*rt.Tensor {
				return []*rt.Tensor{ctx.Scale(flat, 2, 0)}
			})
		}, false},
		{"the reshape viewed outside the chain", func() built {
			return ropeRows(1, func(ctx *rt.Context, _, flat *rt.Tensor) []*rt.Tensor {
				return []*rt.Tensor{ctx.Cont(ctx.Reshape(flat, 48))}
			})
		}, false},
		{"the first of two reshapes read outside the chain", func() built {
			ctx := rt.NewContext()
			k := ctx.NewTensor(rt.F32, 8, 2, 3)
			pos := ctx.NewTensor(rt.I32, 3)
			idx := ctx.NewTensor(rt.I32, 3)
			cache := ctx.NewTensor(rt.F32, 16, 10)
			rope := ctx.Rope(k, pos, 8, rt.RopeNormal, 10000, 1)
			r1 := ctx.Reshape(rope, 16, 3)
			g, _ := ctx.BuildGraph(ctx.SetRows(cache, ctx.Reshape(r1, 16, 3), idx), ctx.Scale(r1, 2, 0))
			return built{g, indexOf(g, rope), []rt.Op{rt.OpRope, rt.OpReshape, rt.OpReshape, rt.OpSetRows}}
		}, false},
		{"the reshape is an output", func() built {
			return ropeRows(1, func(_ *rt.Context, _, flat *rt.Tensor) []*rt.Tensor { return []*rt.Tensor{flat} })
		}, false},
		{"the reshape marked read outside", func() built {
			b := ropeRows(1, nil)
			b.g.MarkReadOutside(b.g.Nodes[b.at+1])
			return b
		}, false},
		{"rope marked read outside", func() built {
			b := ropeRows(1, nil)
			b.g.MarkReadOutside(b.g.Nodes[b.at])
			return b
		}, false},
		{"chain starts with a view", func() built {
			b := ropeRows(1, nil)
			b.at, b.ops = b.at+1, b.ops[1:]
			return b
		}, false},
		{"chain ends with a view", func() built {
			b := ropeRows(1, nil)
			b.ops = b.ops[:2]
			return b
		}, false},
		{"view of a tensor outside the chain", func() built {
			// SET_ROWS is a view of its cache: a VIEW of it views the cache.
			ctx := rt.NewContext()
			rows := ctx.NewTensor(rt.F32, 16, 3)
			idx := ctx.NewTensor(rt.I32, 3)
			cache := ctx.NewTensor(rt.F32, 16, 10)
			set := ctx.SetRows(cache, rows, idx)
			g, _ := ctx.BuildGraph(ctx.Cont(ctx.View2D(set, 16, 2, set.Nb[1], 0)))
			return built{g, indexOf(g, set), []rt.Op{rt.OpSetRows, rt.OpView, rt.OpCont}}
		}, false},
		{"split view: rope chain private", func() built {
			b := ropeRows(1, nil)
			return built{b.g.View(b.at, b.at+3), 0, b.ops}
		}, true},
		{"rms_norm then mul", func() built { return normMul(nil) }, true},
		{"matmul then bias add", func() built {
			ctx := rt.NewContext()
			w := ctx.NewTensor(rt.F32, 8, 6)
			x := ctx.NewTensor(rt.F32, 8, 3)
			bias := ctx.NewTensor(rt.F32, 6)
			mm := ctx.MulMat(w, x)
			g, _ := ctx.BuildGraph(ctx.Add(mm, bias))
			return built{g, indexOf(g, mm), []rt.Op{rt.OpMulMat, rt.OpAdd}}
		}, true},
		{"wrong op order", func() built {
			b := normMul(nil)
			b.ops = []rt.Op{rt.OpMul, rt.OpRmsNorm}
			return b
		}, false},
		{"a single op", func() built {
			b := normMul(nil)
			b.ops = b.ops[:1]
			return b
		}, false},
		{"chain past the end", func() built {
			b := normMul(nil)
			b.at = len(b.g.Nodes) - 1
			return b
		}, false},
		{"intermediate read twice", func() built {
			return normMul(func(ctx *rt.Context, norm, _ *rt.Tensor) []*rt.Tensor {
				return []*rt.Tensor{ctx.Scale(norm, 2, 0)}
			})
		}, false},
		{"intermediate read by a view", func() built {
			return normMul(func(ctx *rt.Context, norm, _ *rt.Tensor) []*rt.Tensor {
				return []*rt.Tensor{ctx.Cont(ctx.Reshape(norm, 32))}
			})
		}, false},
		{"intermediate is an output", func() built {
			return normMul(func(_ *rt.Context, norm, _ *rt.Tensor) []*rt.Tensor { return []*rt.Tensor{norm} })
		}, false},
		{"intermediate marked read outside", func() built {
			b := normMul(nil)
			b.g.MarkReadOutside(b.g.Nodes[b.at])
			return b
		}, false},
		{"mark cleared", func() built {
			b := normMul(nil)
			b.g.MarkReadOutside(b.g.Nodes[b.at])
			b.g.ClearReadOutside()
			return b
		}, true},
		{"next node does not read it", func() built {
			ctx := rt.NewContext()
			x := ctx.NewTensor(rt.F32, 8, 4)
			w := ctx.NewTensor(rt.F32, 8)
			norm := ctx.RmsNorm(x, 1e-5)
			other := ctx.Mul(x, w) // adjacent, but reads x
			g, _ := ctx.BuildGraph(norm, other)
			return built{g, indexOf(g, norm), []rt.Op{rt.OpRmsNorm, rt.OpMul}}
		}, false},
		{"a view node in between", func() built {
			ctx := rt.NewContext()
			x := ctx.NewTensor(rt.F32, 8, 4)
			w := ctx.NewTensor(rt.F32, 32)
			norm := ctx.RmsNorm(x, 1e-5)
			g, _ := ctx.BuildGraph(ctx.Mul(ctx.Reshape(norm, 32), w))
			return built{g, indexOf(g, norm), []rt.Op{rt.OpRmsNorm, rt.OpMul}}
		}, false},
		{"split view: read by a node of a later split", func() built {
			b := normMul(func(ctx *rt.Context, norm, out *rt.Tensor) []*rt.Tensor {
				return []*rt.Tensor{ctx.Add(out, norm)}
			})
			// The view holds the chain only; the ADD reading norm is outside.
			return built{b.g.View(b.at, b.at+2), 0, b.ops}
		}, false},
		{"split view: private chain", func() built {
			b := normMul(nil)
			return built{b.g.View(b.at, b.at+2), 0, b.ops}
		}, true},
		{"split view: mark on the root", func() built {
			b := normMul(nil)
			v := b.g.View(b.at, b.at+2)
			b.g.MarkReadOutside(b.g.Nodes[b.at])
			return built{v, 0, b.ops}
		}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := c.b()
			if b.at < 0 {
				t.Fatal("chain start not in the graph")
			}
			if got := rt.NewFusion(b.g).CanFuse(b.at, b.ops...); got != c.want {
				t.Errorf("CanFuse(%d, %v) = %v, want %v", b.at, b.ops, got, c.want)
			}
		})
	}
}

// TestFusedNodes checks the count of nodes a fused chain saves: views
// are no dispatch, fused or not.
func TestFusedNodes(t *testing.T) {
	ctx := rt.NewContext()
	k := ctx.NewTensor(rt.F32, 8, 2, 3)
	pos := ctx.NewTensor(rt.I32, 3)
	rope := ctx.Rope(k, pos, 8, rt.RopeNormal, 10000, 1)
	flat := ctx.Reshape(rope, 16, 3)
	norm := ctx.RmsNorm(flat, 1e-5)
	cases := []struct {
		chain []*rt.Tensor
		want  int
	}{
		{nil, 0},
		{[]*rt.Tensor{rope}, 0},
		{[]*rt.Tensor{rope, flat, norm}, 1},
		{[]*rt.Tensor{flat, norm}, 1},
		{[]*rt.Tensor{rope, norm}, 1},
	}
	for i, c := range cases {
		if got := rt.FusedNodes(c.chain); got != c.want {
			t.Errorf("case %d: FusedNodes = %d, want %d", i, got, c.want)
		}
	}
}

func indexOf(g *rt.Graph, t *rt.Tensor) int {
	for i, n := range g.Nodes {
		if n == t {
			return i
		}
	}
	return -1
}

// TestOverlaps checks the memory tests fused kernels use against aliasing.
func TestOverlaps(t *testing.T) {
	ctx := rt.NewContext()
	a := ctx.NewTensor(rt.F32, 16)
	b := ctx.NewTensor(rt.F32, 16)
	buf := rt.NewHostMemoryBuffer(nil, make([]byte, 1024), nil)
	other := rt.NewHostMemoryBuffer(nil, make([]byte, 1024), nil)
	place := func(x *rt.Tensor, bu rt.Buffer, off int) { x.Buffer, x.Offset = bu, off }
	cases := []struct {
		name          string
		offA, offB    int
		bufB          rt.Buffer
		overlap, same bool
	}{
		{"same place", 0, 0, buf, true, true},
		{"disjoint", 0, 64, buf, false, false},
		{"partial", 0, 32, buf, true, false},
		{"other buffer", 0, 0, other, false, false},
	}
	for _, c := range cases {
		place(a, buf, c.offA)
		place(b, c.bufB, c.offB)
		if got := rt.Overlaps(a, b); got != c.overlap {
			t.Errorf("%s: Overlaps = %v, want %v", c.name, got, c.overlap)
		}
		if got := rt.SameMemory(a, b); got != c.same {
			t.Errorf("%s: SameMemory = %v, want %v", c.name, got, c.same)
		}
	}
}
