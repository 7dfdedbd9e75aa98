package cpu

import (
	"fmt"
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
)

// benchGraph allocates ctx, fills every leaf with small values and returns
// a backend with the default thread count.
func benchGraph(b *testing.B, ctx *rt.Context, out *rt.Tensor) (*rt.Graph, *Backend) {
	b.Helper()
	g, err := ctx.BuildGraph(out)
	if err != nil {
		b.Fatal(err)
	}
	buf, err := rt.AllocContextTensors(ctx, BufferType())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { buf.Free() })
	for _, l := range g.Leafs {
		v := make([]float32, l.Nelements())
		for i := range v {
			v[i] = float32(i%13)/13 - 0.5
		}
		if err := rt.TensorSetF32(l, v); err != nil {
			b.Fatal(err)
		}
	}
	be, _ := NewBackend(0)
	b.Cleanup(func() { be.Close() })
	return g, be
}

func BenchmarkMulMat(b *testing.B) {
	for _, typ := range []rt.DType{rt.F32, rt.F16, rt.Q8_0, rt.Q4_0} {
		for _, n := range []int{1, 64} {
			const k, m = 1024, 1024
			b.Run(fmt.Sprintf("%v/n=%d", typ, n), func(b *testing.B) {
				ctx := rt.NewContext()
				out := ctx.MulMat(ctx.NewTensor(typ, k, m), ctx.NewTensor(rt.F32, k, n))
				g, be := benchGraph(b, ctx, out)
				b.ResetTimer()
				for b.Loop() {
					if err := be.GraphCompute(g); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(2*k*m*n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOPS")
			})
		}
	}
}

// BenchmarkDispatch measures the per-op cost of a graph of tiny ADDs.
func BenchmarkDispatch(b *testing.B) {
	const ops = 1000
	ctx := rt.NewContext()
	x := ctx.NewTensor(rt.F32, 16)
	y := ctx.NewTensor(rt.F32, 16)
	for i := 0; i < ops; i++ {
		x = ctx.Add(x, y)
	}
	g, be := benchGraph(b, ctx, x)
	b.ResetTimer()
	for b.Loop() {
		if err := be.GraphCompute(g); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*ops), "µs/op")
}

func BenchmarkRowOps(b *testing.B) {
	shapes := []struct {
		name  string
		build func(c *rt.Context) *rt.Tensor
	}{
		{"rms_norm 4096x32", func(c *rt.Context) *rt.Tensor { return c.RmsNorm(c.NewTensor(rt.F32, 4096, 32), 1e-5) }},
		{"soft_max 512x512", func(c *rt.Context) *rt.Tensor { return c.SoftMax(c.NewTensor(rt.F32, 512, 512), nil, 0.1) }},
		{"add 4096x32", func(c *rt.Context) *rt.Tensor {
			return c.Add(c.NewTensor(rt.F32, 4096, 32), c.NewTensor(rt.F32, 4096))
		}},
		{"cpy f32 to q8_0 4096x32", func(c *rt.Context) *rt.Tensor { return c.Cast(c.NewTensor(rt.F32, 4096, 32), rt.Q8_0) }},
	}
	for _, s := range shapes {
		b.Run(s.name, func(b *testing.B) {
			ctx := rt.NewContext()
			g, be := benchGraph(b, ctx, s.build(ctx))
			b.ResetTimer()
			for b.Loop() {
				if err := be.GraphCompute(g); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
