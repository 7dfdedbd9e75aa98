//go:build cgo

package wgpu

import (
	"math/rand/v2"
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

var fusionCases = []fusionCase{
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
		t.Run(c.name, func(t *testing.T) {
			want := runOuts(t, cb, cpu.Device().BufferType(), c)
			for _, fuse := range []bool{true, false} {
				be.SetFusion(fuse)
				before := be.FusedNodes()
				got := runOuts(t, be, d.BufferType(), c)
				wantFused := c.fused
				if !fuse {
					wantFused = 0
				}
				if n := be.FusedNodes() - before; n != wantFused {
					t.Errorf("fusion %v: %d nodes fused, want %d", fuse, n, wantFused)
				}
				for i := range want {
					if e := nmse(got[i], want[i]); !(e <= c.nmse) {
						t.Errorf("fusion %v: output %d: NMSE %g against the CPU, want <= %g", fuse, i, e, c.nmse)
					}
				}
			}
		})
	}
}
