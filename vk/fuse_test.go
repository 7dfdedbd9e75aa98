package vk

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/gpurt/gpurt/cpu"
	rt "github.com/gpurt/gpurt/runtime"
	"github.com/gpurt/gpurt/runtime/optest"
)

// fusionCase is a small graph with chains the backend may fuse: fused is
// how many nodes must run inside another node's dispatch.
type fusionCase struct {
	name  string
	build func(ctx *rt.Context) []*rt.Tensor
	fused int
	nmse  float64
	given map[string][]byte // leaf data by name (others are random)
	exact bool              // fused and unfused outputs must be equal bit for bit
	kv    bool              // the fused chains are KV writes (ROPE+RESHAPE+SET_ROWS)
}

func normMulCase(name string, ne0, rows int, wNe ...int) fusionCase {
	fused := 1
	if len(wNe) > 1 {
		fused = 0 // a weight per row is not the fused kernel's
	}
	return fusionCase{name: name, fused: fused, nmse: 1e-7, build: func(ctx *rt.Context) []*rt.Tensor {
		x := ctx.NewTensor(rt.F32, ne0, rows).SetName("x")
		w := ctx.NewTensor(rt.F32, wNe...).SetName("w")
		return []*rt.Tensor{ctx.Mul(ctx.RmsNorm(x, 1e-5), w)}
	}}
}

// matMulAddCase is MUL_MAT(w [k, m, batch], x [k, n, batch]) plus an
// addend of shape eNe: a bias [m], or a residual [m, n, batch] added as
// src0 when first.
func matMulAddCase(name string, wt rt.DType, k, m, n, batch int, first bool, eNe ...int) fusionCase {
	fused, nmse := 1, 1e-6
	if eNe[0] != m {
		fused = 0 // an addend broadcast along rows is not the fused kernel's
	}
	if wt != rt.F32 {
		nmse = 5e-4
	}
	return fusionCase{name: name, fused: fused, nmse: nmse, build: func(ctx *rt.Context) []*rt.Tensor {
		w := ctx.NewTensor(wt, k, m, batch).SetName("w")
		x := ctx.NewTensor(rt.F32, k, n, batch).SetName("x")
		e := ctx.NewTensor(rt.F32, eNe...).SetName("addend")
		if first {
			return []*rt.Tensor{ctx.Add(e, ctx.MulMat(w, x))}
		}
		return []*rt.Tensor{ctx.Add(ctx.MulMat(w, x), e)}
	}}
}

// ropeRows is a KV write's shape: keys [headDim, heads, tokens, ne3]
// rotated over nDims and stored as rows [headDim*heads, tokens*ne3] into
// the rows of a cache [headDim*heads, cells] that idx names.
type ropeRows struct {
	headDim, heads, tokens, ne3, nDims, mode, cells int
	cache                                           rt.DType
	freqFactors, yarn, ropeOut                      bool
}

// ropeRowsCase is ROPE + RESHAPE + SET_ROWS of shape r, fused unless want
// says otherwise: the positions are spread out, the indices distinct cells
// in shuffled order.
func ropeRowsCase(name string, r ropeRows, fused int) fusionCase {
	rows := r.tokens * r.ne3
	pos, idx := make([]byte, 4*r.tokens), make([]byte, 4*rows)
	for i := range r.tokens {
		binary.LittleEndian.PutUint32(pos[4*i:], uint32(7+13*i))
	}
	for i := range rows {
		binary.LittleEndian.PutUint32(idx[4*i:], uint32((5*i+3)%r.cells))
	}
	nmse := 1e-7
	if r.cache == rt.F16 {
		nmse = 1e-6 // an F16 rounding may flip where GPU and CPU angles differ in the last bit
	}
	return fusionCase{name: name, fused: fused, nmse: nmse, exact: true, kv: true,
		given: map[string][]byte{"pos": pos, "idx": idx},
		build: func(ctx *rt.Context) []*rt.Tensor {
			k := ctx.NewTensor(rt.F32, r.headDim, r.heads, r.tokens, r.ne3).SetName("k")
			p := rt.RopeParams{NDims: r.nDims, Mode: r.mode, FreqBase: 10000, FreqScale: 1, AttnFactor: 1}
			if r.yarn {
				p.FreqScale, p.NCtxOrig, p.ExtFactor, p.BetaFast, p.BetaSlow = 0.25, 64, 1, 32, 1
			}
			var ff *rt.Tensor
			if r.freqFactors {
				ff = ctx.NewTensor(rt.F32, r.nDims/2).SetName("freq_factors")
			}
			rope := ctx.RopeExt(k, ctx.NewTensor(rt.I32, r.tokens).SetName("pos"), ff, p)
			cache := ctx.NewTensor(r.cache, r.headDim*r.heads, r.cells).SetName("cache")
			set := ctx.SetRows(cache, ctx.Reshape(rope, r.headDim*r.heads, rows), ctx.NewTensor(rt.I32, rows).SetName("idx"))
			if r.ropeOut {
				return []*rt.Tensor{set, rope}
			}
			return []*rt.Tensor{set}
		}}
}

var fusionCases = []fusionCase{
	ropeRowsCase("rope+set_rows normal f16 cache", ropeRows{headDim: 16, heads: 2, tokens: 5, ne3: 1, nDims: 16, mode: rt.RopeNormal, cells: 12, cache: rt.F16}, 1),
	ropeRowsCase("rope+set_rows neox f32 cache", ropeRows{headDim: 16, heads: 3, tokens: 4, ne3: 1, nDims: 16, mode: rt.RopeNeox, cells: 9, cache: rt.F32}, 1),
	ropeRowsCase("rope+set_rows neox f16 cache partial dims", ropeRows{headDim: 32, heads: 2, tokens: 3, ne3: 1, nDims: 8, mode: rt.RopeNeox, cells: 7, cache: rt.F16}, 1),
	ropeRowsCase("rope+set_rows normal f32 cache partial dims", ropeRows{headDim: 12, heads: 2, tokens: 6, ne3: 1, nDims: 4, mode: rt.RopeNormal, cells: 8, cache: rt.F32}, 1),
	ropeRowsCase("rope+set_rows one token f16 cache", ropeRows{headDim: 64, heads: 4, tokens: 1, ne3: 1, nDims: 64, mode: rt.RopeNormal, cells: 30, cache: rt.F16}, 1),
	ropeRowsCase("rope+set_rows 4-d keys", ropeRows{headDim: 8, heads: 2, tokens: 3, ne3: 2, nDims: 8, mode: rt.RopeNeox, cells: 11, cache: rt.F16}, 1),
	ropeRowsCase("rope+set_rows yarn", ropeRows{headDim: 16, heads: 2, tokens: 4, ne3: 1, nDims: 16, mode: rt.RopeNeox, cells: 6, cache: rt.F16, yarn: true}, 1),
	ropeRowsCase("rope+set_rows frequency factors (not fused)", ropeRows{headDim: 16, heads: 2, tokens: 4, ne3: 1, nDims: 16, mode: rt.RopeNormal, cells: 6, cache: rt.F16, freqFactors: true}, 0),
	ropeRowsCase("rope+set_rows bf16 cache (not fused)", ropeRows{headDim: 16, heads: 2, tokens: 4, ne3: 1, nDims: 16, mode: rt.RopeNormal, cells: 6, cache: rt.BF16}, 0),
	ropeRowsCase("rope+set_rows rope also an output (not fused)", ropeRows{headDim: 16, heads: 2, tokens: 4, ne3: 1, nDims: 16, mode: rt.RopeNormal, cells: 6, cache: rt.F16, ropeOut: true}, 0),
	normMulCase("rms_norm*w short rows", 48, 5, 48),
	normMulCase("rms_norm*w vec4 rows", 256, 3, 256),
	normMulCase("rms_norm*w odd rows", 130, 2, 130),
	normMulCase("rms_norm*w per-row weight (not fused)", 48, 5, 48, 5),
	matMulAddCase("q8_0 mat-vec+bias", rt.Q8_0, 64, 40, 1, 1, false, 40),
	matMulAddCase("f32 tiled+bias", rt.F32, 32, 20, 12, 1, false, 20),
	matMulAddCase("f32 tiled+residual", rt.F32, 32, 20, 12, 1, true, 20, 12),
	matMulAddCase("f32 batched mat-vec+residual per batch", rt.F32, 32, 8, 2, 3, true, 8, 2, 3),
	matMulAddCase("f32 batched mat-vec+bias per batch", rt.F32, 32, 8, 2, 3, false, 8, 1, 3),
	matMulAddCase("f32 mat-vec+addend broadcast along rows (not fused)", rt.F32, 32, 20, 2, 1, false, 1, 2),
	{name: "norm also an output (not fused)", nmse: 1e-7, build: func(ctx *rt.Context) []*rt.Tensor {
		x := ctx.NewTensor(rt.F32, 64, 2).SetName("x")
		w := ctx.NewTensor(rt.F32, 64).SetName("w")
		norm := ctx.RmsNorm(x, 1e-5)
		return []*rt.Tensor{ctx.Mul(norm, w), norm}
	}},
	{name: "product read twice (not fused)", nmse: 1e-6, build: func(ctx *rt.Context) []*rt.Tensor {
		w := ctx.NewTensor(rt.F32, 32, 8).SetName("w")
		x := ctx.NewTensor(rt.F32, 32, 1).SetName("x")
		b := ctx.NewTensor(rt.F32, 8).SetName("bias")
		mm := ctx.MulMat(w, x)
		return []*rt.Tensor{ctx.Scale(ctx.Add(mm, b), 1, 0), ctx.Scale(mm, 2, 0)}
	}},
}

// runOuts builds c on a fresh context in bt, computes it on be and returns
// every output.
func runOuts(t *testing.T, be rt.Backend, bt rt.BufferType, c fusionCase) [][]float32 {
	t.Helper()
	ctx := rt.NewContext()
	outs := c.build(ctx)
	g, err := ctx.BuildGraph(outs...)
	if err != nil {
		t.Fatal(err)
	}
	alloc(t, ctx, bt)
	fillLeaves(t, g, c.given)
	if err := be.GraphCompute(g); err != nil {
		t.Fatalf("%s: %v", be.Name(), err)
	}
	if err := be.Synchronize(); err != nil {
		t.Fatal(err)
	}
	var vals [][]float32
	for _, o := range outs {
		v, err := rt.TensorGetF32(o)
		if err != nil {
			t.Fatal(err)
		}
		vals = append(vals, v)
	}
	return vals
}

// TestFusedOps runs each fusion case fused and unfused on Vulkan against
// the CPU, and checks that exactly the fusable chains were fused.
func TestFusedOps(t *testing.T) {
	dev, be := testDevice(t)
	cpuBe := cpuBackend(t)
	defer be.SetFusion(fusionDefault())
	for _, c := range fusionCases {
		t.Run(c.name, func(t *testing.T) {
			want := runOuts(t, cpuBe, cpu.BufferType(), c)
			var prev [][]float32
			for _, fuse := range []bool{true, false} {
				be.SetFusion(fuse)
				before := be.Stats()
				got := runOuts(t, be, dev.BufferType(), c)
				after := be.Stats()
				wantFused := c.fused
				if !fuse {
					wantFused = 0
				}
				if n := after.Fused - before.Fused; n != wantFused {
					t.Errorf("fusion %v: %d nodes fused, want %d", fuse, n, wantFused)
				}
				if n := after.FusedKVWrites - before.FusedKVWrites; n != wantFused && c.kv || n != 0 && !c.kv {
					t.Errorf("fusion %v: %d KV writes fused", fuse, n)
				}
				for i := range want {
					if e := optest.NMSE(got[i], want[i]); !(e <= c.nmse) {
						t.Errorf("fusion %v: output %d: NMSE %g against the CPU, want <= %g", fuse, i, e, c.nmse)
					}
				}
				if c.exact && prev != nil {
					for i := range got {
						if !slices.Equal(got[i], prev[i]) {
							t.Errorf("output %d differs fused and unfused", i)
						}
					}
				}
				prev = got
			}
		})
	}
}

// TestFusedRopeRowsBadIndex checks that the fused KV write reports an
// index outside the cache as SET_ROWS does, and leaves the backend usable.
func TestFusedRopeRowsBadIndex(t *testing.T) {
	dev, be := testDevice(t)
	defer be.SetFusion(fusionDefault())
	be.SetFusion(true)
	for _, bad := range []int32{6, -1} {
		c := ropeRowsCase("bad index", ropeRows{headDim: 8, heads: 2, tokens: 3, ne3: 1, nDims: 8, mode: rt.RopeNormal, cells: 6, cache: rt.F16}, 1)
		binary.LittleEndian.PutUint32(c.given["idx"][4:], uint32(bad))
		ctx := rt.NewContext()
		outs := c.build(ctx)
		g, err := ctx.BuildGraph(outs...)
		if err != nil {
			t.Fatal(err)
		}
		alloc(t, ctx, dev.BufferType())
		fillLeaves(t, g, c.given)
		before := be.Stats()
		err = be.GraphCompute(g)
		if err == nil {
			err = be.Synchronize()
		}
		if !errors.Is(err, rt.ErrOutOfRange) {
			t.Errorf("index %d: got %v, want ErrOutOfRange", bad, err)
		}
		if after := be.Stats(); after.Fused-before.Fused != 1 || after.FusedKVWrites-before.FusedKVWrites != 1 {
			t.Errorf("index %d: %d nodes fused, %d KV writes, want 1", bad, after.Fused-before.Fused, after.FusedKVWrites-before.FusedKVWrites)
		}
	}
	// The flag is cleared: a good write succeeds afterwards.
	good := ropeRowsCase("good", ropeRows{headDim: 8, heads: 2, tokens: 3, ne3: 1, nDims: 8, mode: rt.RopeNormal, cells: 6, cache: rt.F16}, 1)
	runOuts(t, be, dev.BufferType(), good)
}

// BenchmarkKVWrite times the KV write of a 7B-shaped layer (keys [128, 8,
// tokens] into an F16 cache of 4096 cells) fused and unfused, per graph.
func BenchmarkKVWrite(b *testing.B) {
	for _, tokens := range []int{1, 64} {
		for _, fuse := range []bool{true, false} {
			name := fmt.Sprintf("tokens=%d/fused=%v", tokens, fuse)
			b.Run(name, func(b *testing.B) {
				dev, be := benchDevice(b)
				be.SetFusion(fuse)
				c := ropeRowsCase(name, ropeRows{headDim: 128, heads: 8, tokens: tokens, ne3: 1, nDims: 128, mode: rt.RopeNeox, cells: 4096, cache: rt.F16}, 1)
				ctx := rt.NewContext()
				g, err := ctx.BuildGraph(c.build(ctx)...)
				if err != nil {
					b.Fatal(err)
				}
				buf, err := rt.AllocContextTensors(ctx, dev.BufferType())
				if err != nil {
					b.Fatal(err)
				}
				defer buf.Free()
				for _, l := range g.Leafs {
					d, err := leafData(l, c.given)
					if err != nil {
						b.Fatal(err)
					}
					if err := rt.TensorSet(l, d, 0); err != nil {
						b.Fatal(err)
					}
				}
				run := func() {
					if err := be.GraphCompute(g); err != nil {
						b.Fatal(err)
					}
					if err := be.Synchronize(); err != nil {
						b.Fatal(err)
					}
				}
				run() // pipelines compile on first use
				before := be.Stats()
				b.ResetTimer()
				for range b.N {
					run()
				}
				b.StopTimer()
				after := be.Stats()
				b.ReportMetric(float64(after.Dispatches-before.Dispatches)/float64(b.N), "dispatches/op")
			})
		}
	}
}
