package cpu

import (
	"fmt"
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
)

// BenchmarkSmallGEMV measures the tiny models' decode matmuls: one x row
// (four, with four sequences) against F32 weights a few hundred rows of 64
// to 384 wide, where the cost of an op around its kernel shows.
func BenchmarkSmallGEMV(b *testing.B) {
	for _, s := range []struct{ k, m, n int }{{64, 64, 1}, {64, 64, 4}, {64, 172, 1}, {64, 172, 4}, {172, 64, 1}, {172, 64, 4}, {128, 128, 1}, {128, 384, 1}, {384, 128, 1}, {128, 512, 1}, {128, 384, 4}, {384, 128, 4}} {
		b.Run(fmt.Sprintf("%dx%dx%d", s.k, s.m, s.n), func(b *testing.B) {
			ctx := rt.NewContext()
			out := ctx.MulMat(ctx.NewTensor(rt.F32, s.k, s.m), ctx.NewTensor(rt.F32, s.k, s.n))
			g, be := benchGraph(b, ctx, out)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if err := be.GraphCompute(g); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(4*s.k*s.m)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
		})
	}
}
