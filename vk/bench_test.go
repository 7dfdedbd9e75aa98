package vk

import (
	"testing"
	"time"

	rt "github.com/gpurt/gpurt/runtime"
)

// benchGraph times graph computes of build's graph on the shared backend.
func benchGraph(b *testing.B, build func(ctx *rt.Context) []*rt.Tensor) {
	t := &testing.T{}
	dev, be := benchDevice(b)
	_ = t
	ctx := rt.NewContext()
	outs := build(ctx)
	g, err := ctx.BuildGraph(outs...)
	if err != nil {
		b.Fatal(err)
	}
	buf, err := rt.AllocContextTensors(ctx, dev.BufferType())
	if err != nil {
		b.Fatal(err)
	}
	defer buf.Free()
	// Warm up: pipelines compile on first use.
	for i := 0; i < 2; i++ {
		if err := be.GraphCompute(g); err != nil {
			b.Fatal(err)
		}
		if err := be.Synchronize(); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	cpu0 := cpuTime()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		if err := be.GraphCompute(g); err != nil {
			b.Fatal(err)
		}
	}
	if err := be.Synchronize(); err != nil {
		b.Fatal(err)
	}
	nodes := 0
	for _, n := range g.Nodes {
		if !n.Op.IsView() {
			nodes++
		}
	}
	b.ReportMetric(float64(time.Since(start).Microseconds())/float64(b.N*nodes), "µs/op")
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/float64(b.N*nodes), "cpu-µs/op")
}

func benchDevice(b *testing.B) (*Device, *Backend) {
	devs, err := Devices()
	if err != nil {
		b.Skip(err)
	}
	be, err := devs[0].NewBackend()
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { be.Close() })
	return devs[0], be.(*Backend)
}

func BenchmarkAdd4096x64(b *testing.B) {
	benchGraph(b, func(ctx *rt.Context) []*rt.Tensor {
		x := ctx.NewTensor(rt.F32, 4096, 64)
		y := ctx.NewTensor(rt.F32, 4096, 64)
		return []*rt.Tensor{ctx.Add(x, y)}
	})
}

// BenchmarkAddChain4096 is the "4096-element ADD in a graph of many ops".
func BenchmarkAddChain4096(b *testing.B) {
	benchGraph(b, func(ctx *rt.Context) []*rt.Tensor {
		x := ctx.NewTensor(rt.F32, 4096)
		y := ctx.NewTensor(rt.F32, 4096)
		for i := 0; i < 100; i++ {
			x = ctx.Add(x, y)
		}
		return []*rt.Tensor{x}
	})
}

func BenchmarkRmsNormChain4096(b *testing.B) {
	benchGraph(b, func(ctx *rt.Context) []*rt.Tensor {
		x := ctx.NewTensor(rt.F32, 4096)
		for i := 0; i < 100; i++ {
			x = ctx.RmsNorm(x, 1e-5)
		}
		return []*rt.Tensor{x}
	})
}

func BenchmarkRmsNorm4096x64(b *testing.B) {
	benchGraph(b, func(ctx *rt.Context) []*rt.Tensor {
		return []*rt.Tensor{ctx.RmsNorm(ctx.NewTensor(rt.F32, 4096, 64), 1e-5)}
	})
}

func benchMulMat(b *testing.B, wt rt.DType, m, n, k int) {
	benchGraph(b, func(ctx *rt.Context) []*rt.Tensor {
		return []*rt.Tensor{ctx.MulMat(ctx.NewTensor(wt, k, m), ctx.NewTensor(rt.F32, k, n))}
	})
	b.ReportMetric(2*float64(m)*float64(n)*float64(k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOPS")
}

func BenchmarkMulMatF32_1024x64x1024(b *testing.B) { benchMulMat(b, rt.F32, 1024, 64, 1024) }
func BenchmarkMulMatQ8_1024x64x1024(b *testing.B)  { benchMulMat(b, rt.Q8_0, 1024, 64, 1024) }
func BenchmarkGemvF32_4096(b *testing.B)           { benchMulMat(b, rt.F32, 4096, 1, 4096) }
func BenchmarkGemvQ4_4096(b *testing.B)            { benchMulMat(b, rt.Q4_0, 4096, 1, 4096) }

func BenchmarkAddChain1(b *testing.B) {
	benchGraph(b, func(ctx *rt.Context) []*rt.Tensor {
		x := ctx.NewTensor(rt.F32, 1)
		y := ctx.NewTensor(rt.F32, 1)
		for i := 0; i < 100; i++ {
			x = ctx.Add(x, y)
		}
		return []*rt.Tensor{x}
	})
}

// BenchmarkAddIndependent4096 has no dependencies, hence no barriers.
func BenchmarkAddIndependent4096(b *testing.B) {
	benchGraph(b, func(ctx *rt.Context) []*rt.Tensor {
		x := ctx.NewTensor(rt.F32, 4096)
		y := ctx.NewTensor(rt.F32, 4096)
		var outs []*rt.Tensor
		for i := 0; i < 100; i++ {
			outs = append(outs, ctx.Add(x, y))
		}
		return outs
	})
}

// The K-quants of Q4_K_M files, through the run-time typed (A_ANY) kernels.
func BenchmarkGemvQ4K_4096(b *testing.B)           { benchMulMat(b, rt.Q4_K, 4096, 1, 4096) }
func BenchmarkGemvQ6K_4096(b *testing.B)           { benchMulMat(b, rt.Q6_K, 4096, 1, 4096) }
func BenchmarkMulMatQ4K_1024x64x1024(b *testing.B) { benchMulMat(b, rt.Q4_K, 1024, 64, 1024) }
