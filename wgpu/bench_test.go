//go:build cgo

package wgpu

import (
	"fmt"
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
)

// BenchmarkMulMat times MUL_MAT per weight dtype at a lavapipe-sized shape
// (M = K = 1024); GFLOPS are reported as a metric.
func BenchmarkMulMat(b *testing.B) {
	d := device(b)
	for _, typ := range []rt.DType{rt.F32, rt.F16, rt.Q8_0, rt.Q4_0, rt.Q4_K, rt.Q6_K} {
		for _, n := range []int{1, 8, 64} {
			b.Run(fmt.Sprintf("%v/%dx%dx%d", typ, 1024, n, 1024), func(b *testing.B) {
				benchGraph(b, d, func(ctx *rt.Context) *rt.Tensor {
					w := ctx.NewTensor(typ, 1024, 1024).SetName("w")
					x := ctx.NewTensor(rt.F32, 1024, n).SetName("x")
					return ctx.MulMat(w, x)
				}, 2*1024*1024*float64(n))
			})
		}
	}
}

// BenchmarkDispatch times a graph of 100 tiny ADD nodes: the per-dispatch
// overhead.
func BenchmarkDispatch(b *testing.B) {
	d := device(b)
	benchGraph(b, d, func(ctx *rt.Context) *rt.Tensor {
		x := ctx.NewTensor(rt.F32, 32).SetName("x")
		y := ctx.NewTensor(rt.F32, 32).SetName("y")
		for i := 0; i < 100; i++ {
			x = ctx.Add(x, y)
		}
		return x
	}, 0)
}

func benchGraph(b *testing.B, d *Device, build func(*rt.Context) *rt.Tensor, flops float64) {
	ctx := rt.NewContext()
	out := build(ctx)
	g, err := ctx.BuildGraph(out)
	if err != nil {
		b.Fatal(err)
	}
	buf, err := rt.AllocContextTensors(ctx, d.BufferType())
	if err != nil {
		b.Fatal(err)
	}
	defer buf.Free()
	for _, l := range g.Leafs {
		vals := make([]float32, l.Nelements())
		for i := range vals {
			vals[i] = float32(i%7) * 0.1
		}
		if err := rt.TensorSetF32(l, vals); err != nil {
			b.Fatal(err)
		}
	}
	be := newBackend(b, d)
	run := func() {
		if err := be.GraphCompute(g); err != nil {
			b.Fatal(err)
		}
		if err := be.Synchronize(); err != nil {
			b.Fatal(err)
		}
	}
	run() // compile pipelines
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		run()
	}
	if flops > 0 {
		b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOPS")
	}
}

// BenchmarkOps times single-op graphs at the bench package's quick shapes
// for software devices.
func BenchmarkOps(b *testing.B) {
	d := device(b)
	cases := []struct {
		name  string
		build func(ctx *rt.Context) *rt.Tensor
	}{
		{"ADD", func(ctx *rt.Context) *rt.Tensor {
			return ctx.Add(ctx.NewTensor(rt.F32, 4096, 64), ctx.NewTensor(rt.F32, 4096, 64))
		}},
		{"MUL_row", func(ctx *rt.Context) *rt.Tensor {
			return ctx.Mul(ctx.NewTensor(rt.F32, 4096, 64), ctx.NewTensor(rt.F32, 4096))
		}},
		{"SILU", func(ctx *rt.Context) *rt.Tensor { return ctx.Silu(ctx.NewTensor(rt.F32, 4096, 64)) }},
		{"RMS_NORM", func(ctx *rt.Context) *rt.Tensor { return ctx.RmsNorm(ctx.NewTensor(rt.F32, 4096, 64), 1e-5) }},
		{"SOFT_MAX", func(ctx *rt.Context) *rt.Tensor {
			return ctx.SoftMax(ctx.NewTensor(rt.F32, 64, 64, 32), ctx.NewTensor(rt.F32, 64, 64), 0.125)
		}},
		{"ROPE", func(ctx *rt.Context) *rt.Tensor {
			return ctx.Rope(ctx.NewTensor(rt.F32, 128, 32, 64), ctx.NewTensor(rt.I32, 64), 128, rt.RopeNeox, 10000, 1)
		}},
		{"GET_ROWS_q8_0", func(ctx *rt.Context) *rt.Tensor {
			return ctx.GetRows(ctx.NewTensor(rt.Q8_0, 4096, 1024), ctx.NewTensor(rt.I32, 64))
		}},
		{"CPY_f16", func(ctx *rt.Context) *rt.Tensor { return ctx.Cast(ctx.NewTensor(rt.F32, 4096, 64), rt.F16) }},
		{"CPY_q8_0", func(ctx *rt.Context) *rt.Tensor { return ctx.Cast(ctx.NewTensor(rt.F32, 4096, 64), rt.Q8_0) }},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) { benchGraph(b, d, c.build, 0) })
	}
}
