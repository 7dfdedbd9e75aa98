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
	cases := []struct {
		name string
		b    func() built
		want bool
	}{
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
