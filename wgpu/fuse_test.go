//go:build cgo

package wgpu

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gpurt/gpurt/cpu"
	rt "github.com/gpurt/gpurt/runtime"
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
	normMulCase("rms_norm*w", 64, 5, 64),
	normMulCase("rms_norm*w odd rows", 130, 2, 130),
	normMulCase("rms_norm*w per-row weight (not fused)", 48, 5, 48, 5),
	matMulAddCase("q8_0 one column+bias", rt.Q8_0, 64, 40, 1, 1, false, 40),
	matMulAddCase("f32 columns+bias", rt.F32, 32, 20, 5, 1, false, 20),
	matMulAddCase("f32 columns+residual", rt.F32, 32, 20, 5, 1, true, 20, 5),
	matMulAddCase("f32 batched+bias per batch", rt.F32, 32, 8, 2, 3, false, 8, 1, 3),
	matMulAddCase("f32 odd K+residual (general kernel)", rt.F32, 30, 20, 2, 2, true, 20, 2, 2),
	matMulAddCase("f32 addend broadcast along rows (not fused)", rt.F32, 32, 20, 2, 1, false, 1, 2),
	{name: "norm also an output (not fused)", nmse: 1e-7, build: func(ctx *rt.Context) []*rt.Tensor {
		x := ctx.NewTensor(rt.F32, 64, 2).SetName("x")
		w := ctx.NewTensor(rt.F32, 64).SetName("w")
		norm := ctx.RmsNorm(x, 1e-5)
		return []*rt.Tensor{ctx.Mul(norm, w), norm}
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
	buf, err := rt.AllocContextTensors(ctx, bt)
	if err != nil {
		t.Fatal(err)
	}
	defer buf.Free()
	r := rand.New(rand.NewPCG(1, 7))
	for _, l := range g.Leafs {
		if b, ok := c.given[l.Name]; ok {
			if err := rt.TensorSet(l, b, 0); err != nil {
				t.Fatalf("set %q: %v", l.Name, err)
			}
			continue
		}
		vals := make([]float32, l.Nelements())
		for i := range vals {
			vals[i] = 2*r.Float32() - 1
		}
		if err := rt.TensorSetF32(l, vals); err != nil {
			t.Fatalf("fill %q: %v", l.Name, err)
		}
	}
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

// TestFusedOps runs each fusion case fused and unfused on WebGPU against
// the CPU, and checks that exactly the fusable chains were fused.
func TestFusedOps(t *testing.T) {
	d := device(t)
	be := newBackend(t, d)
	cb, err := cpu.NewBackend(1)
	if err != nil {
		t.Fatal(err)
	}
	defer cb.Close()
	for _, c := range fusionCases {
		t.Run(c.name, func(t *testing.T) { checkFusion(t, be, d.BufferType(), cb, c) })
	}
}

// TestFusedOpsPackedF16 runs the fused KV writes into F16 caches on a
// device without shader-f16, where F16 is stored through atomic words.
func TestFusedOpsPackedF16(t *testing.T) {
	d := device(t)
	nd, err := openDevice(d.adapter, 1, openOptions{noF16: true})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := nd.close(); err != nil {
			t.Error(err)
		}
	}()
	if nd.f16 {
		t.Fatal("device has shader-f16")
	}
	bi, err := nd.NewBackend()
	if err != nil {
		t.Fatal(err)
	}
	defer bi.Close()
	cb, err := cpu.NewBackend(1)
	if err != nil {
		t.Fatal(err)
	}
	defer cb.Close()
	for _, r := range []ropeRows{
		{headDim: 16, heads: 2, tokens: 5, ne3: 1, nDims: 16, mode: rt.RopeNormal, cells: 12, cache: rt.F16},
		{headDim: 32, heads: 2, tokens: 3, ne3: 1, nDims: 8, mode: rt.RopeNeox, cells: 7, cache: rt.F16},
	} {
		c := ropeRowsCase("rope+set_rows packed f16", r, 1)
		checkFusion(t, bi.(*Backend), nd.BufferType(), cb, c)
	}
}

// checkFusion runs c on be fused and unfused and on the CPU backend cb,
// and compares.
func checkFusion(t *testing.T, be *Backend, bt rt.BufferType, cb rt.Backend, c fusionCase) {
	t.Helper()
	defer be.SetFusion(fusionDefault())
	want := runOuts(t, cb, cpu.Device().BufferType(), c)
	var prev [][]float32
	for _, fuse := range []bool{true, false} {
		be.SetFusion(fuse)
		before, beforeKV := be.FusedNodes(), be.FusedKVWrites()
		got := runOuts(t, be, bt, c)
		wantFused := c.fused
		if !fuse {
			wantFused = 0
		}
		if n := be.FusedNodes() - before; n != wantFused {
			t.Errorf("%s: fusion %v: %d nodes fused, want %d", c.name, fuse, n, wantFused)
		}
		if n := be.FusedKVWrites() - beforeKV; n != wantFused && c.kv || n != 0 && !c.kv {
			t.Errorf("%s: fusion %v: %d KV writes fused", c.name, fuse, n)
		}
		for i := range want {
			if e := nmse(got[i], want[i]); !(e <= c.nmse) {
				t.Errorf("%s: fusion %v: output %d: NMSE %g against the CPU, want <= %g", c.name, fuse, i, e, c.nmse)
			}
		}
		if c.exact && prev != nil {
			for i := range got {
				if !slices.Equal(got[i], prev[i]) {
					t.Errorf("%s: output %d differs fused and unfused", c.name, i)
				}
			}
		}
		prev = got
	}
}

// TestFusedRopeRowsBadIndex checks that the fused KV write reports an
// index outside the cache as SET_ROWS does, and leaves the backend usable.
func TestFusedRopeRowsBadIndex(t *testing.T) {
	d := device(t)
	be := newBackend(t, d)
	shape := ropeRows{headDim: 8, heads: 2, tokens: 3, ne3: 1, nDims: 8, mode: rt.RopeNormal, cells: 6, cache: rt.F16}
	for _, bad := range []int32{6, -1} {
		c := ropeRowsCase("bad index", shape, 1)
		binary.LittleEndian.PutUint32(c.given["idx"][4:], uint32(bad))
		ctx := rt.NewContext()
		outs := c.build(ctx)
		g, err := ctx.BuildGraph(outs...)
		if err != nil {
			t.Fatal(err)
		}
		buf, err := rt.AllocContextTensors(ctx, d.BufferType())
		if err != nil {
			t.Fatal(err)
		}
		defer buf.Free()
		for _, l := range g.Leafs {
			b, ok := c.given[l.Name]
			if !ok {
				b = make([]byte, l.Nbytes())
			}
			if err := rt.TensorSet(l, b, 0); err != nil {
				t.Fatal(err)
			}
		}
		before, beforeKV := be.FusedNodes(), be.FusedKVWrites()
		err = be.GraphCompute(g)
		if err == nil {
			err = be.Synchronize()
		}
		if !errors.Is(err, rt.ErrOutOfRange) {
			t.Errorf("index %d: got %v, want ErrOutOfRange", bad, err)
		}
		if n, kv := be.FusedNodes()-before, be.FusedKVWrites()-beforeKV; n != 1 || kv != 1 {
			t.Errorf("index %d: %d nodes fused, %d KV writes, want 1", bad, n, kv)
		}
	}
	// The flag is cleared: a good write succeeds afterwards.
	runOuts(t, be, d.BufferType(), ropeRowsCase("good", shape, 1))
}

// BenchmarkKVWrite times the KV write of a 7B-shaped layer (keys [128, 8,
// tokens] into an F16 cache of 4096 cells) fused and unfused, per graph.
func BenchmarkKVWrite(b *testing.B) {
	d := device(b)
	for _, tokens := range []int{1, 64} {
		for _, fuse := range []bool{true, false} {
			name := fmt.Sprintf("tokens=%d/fused=%v", tokens, fuse)
			b.Run(name, func(b *testing.B) {
				be := newBackend(b, d)
				be.SetFusion(fuse)
				c := ropeRowsCase(name, ropeRows{headDim: 128, heads: 8, tokens: tokens, ne3: 1, nDims: 128, mode: rt.RopeNeox, cells: 4096, cache: rt.F16}, 1)
				ctx := rt.NewContext()
				g, err := ctx.BuildGraph(c.build(ctx)...)
				if err != nil {
					b.Fatal(err)
				}
				buf, err := rt.AllocContextTensors(ctx, d.BufferType())
				if err != nil {
					b.Fatal(err)
				}
				defer buf.Free()
				for _, l := range g.Leafs {
					data, ok := c.given[l.Name]
					if !ok {
						data = make([]byte, l.Nbytes())
					}
					if err := rt.TensorSet(l, data, 0); err != nil {
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
				before := be.FusedNodes()
				b.ResetTimer()
				for range b.N {
					run()
				}
				b.StopTimer()
				if fused := be.FusedNodes() - before; fuse != (fused == b.N) {
					b.Errorf("fusion %v: %d nodes fused in %d graphs", fuse, fused, b.N)
				}
			})
		}
	}
}
