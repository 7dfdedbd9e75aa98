package cpu

import (
	"fmt"
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
)

// benchGraph allocates ctx, fills every leaf with small values and returns
// a backend with the default thread count.
func benchGraph(b testing.TB, ctx *rt.Context, outs ...*rt.Tensor) (*rt.Graph, *Backend) {
	b.Helper()
	g, err := ctx.BuildGraph(outs...)
	if err != nil {
		b.Fatal(err)
	}
	// MUL_MAT weights get buffers of their own, marked as weights, as a
	// model's do (so Q4_0 GEMVs run on their repacked copies).
	for _, n := range g.Nodes {
		if w := n.Src[0]; n.Op == rt.OpMulMat && w.Op == rt.OpNone && w.Buffer == nil && w.ViewSrc == nil {
			wb, err := BufferType().Alloc(w.Nbytes())
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { wb.Free() })
			wb.SetUsage(rt.UsageWeights)
			if err := rt.AllocTensor(wb, w, 0); err != nil {
				b.Fatal(err)
			}
		}
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

// BenchmarkMulMatQuantPanel compares, shape by shape, the quantized panel
// kernels (at every N) with the path each N takes without them: the dot
// kernels below gemmMinN, the packed F32 GEMM from there.
func BenchmarkMulMatQuantPanel(b *testing.B) {
	if simdKernels == nil || simdKernels.dotQ8x8x4 == nil {
		b.Skip("no panel kernels on this machine")
	}
	noPanel := *simdKernels
	noPanel.dotQ8x8x4, noPanel.dotQ4x8x4 = nil, nil
	for _, typ := range []rt.DType{rt.Q8_0, rt.Q4_0} {
		for _, n := range []int{4, 8, 16, 32, 64, 512} {
			for _, path := range []string{"panel", "other"} {
				const k, m = 4096, 4096
				b.Run(fmt.Sprintf("%v/n=%d/%s", typ, n, path), func(b *testing.B) {
					ctx := rt.NewContext()
					out := ctx.MulMat(ctx.NewTensor(typ, k, m), ctx.NewTensor(rt.F32, k, n))
					g, be := benchGraph(b, ctx, out)
					if path == "other" {
						be.kern = &noPanel
					} else {
						defer func(f func(rt.DType) int) { panelMinN = f }(panelMinN)
						panelMinN = func(rt.DType) int { return 0 }
					}
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
}

// BenchmarkQuantKernels runs the quantized dot kernels on one thread over
// data in L1/L2: the panel kernel (8 weight rows × 4 x rows) against four
// calls of the four-row kernel on two sets of rows. GMAC/s counts
// weight·activation products.
func BenchmarkQuantKernels(b *testing.B) {
	if simdKernels == nil || simdKernels.dotQ8x8x4 == nil {
		b.Skip("no panel kernels on this machine")
	}
	k := simdKernels
	const nb = 32 // K = 1024
	n := nb * rt.QK
	var q q8Rows
	q.resize(4, nb)
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(i%13)/13 - 0.5
	}
	for r := 0; r < 4; r++ {
		k.quantizeQ8(x, q.row(r), make([]byte, rt.Q8_0.RowSize(n)))
	}
	for _, typ := range []rt.DType{rt.Q8_0, rt.Q4_0} {
		stride := typ.RowSize(n)
		w := make([]byte, 8*stride)
		for r := 0; r < 8; r++ {
			if err := rt.QuantizeRow(typ, x, w[r*stride:]); err != nil {
				b.Fatal(err)
			}
		}
		panel, repack, dot4 := k.dotQ8x8x4, k.repackQ8, k.dotQ8x4
		if typ == rt.Q4_0 {
			panel, repack, dot4 = k.dotQ4x8x4, k.repackQ4, k.dotQ4x4
		}
		p := make([]byte, nb*panelBlock)
		repack(w, stride, nb, p)
		out := make([]float32, 32)
		b.Run(fmt.Sprintf("%v/panel8x4", typ), func(b *testing.B) {
			for b.Loop() {
				panel(p, &q, 0, out, 8)
			}
			b.ReportMetric(float64(32*n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GMAC/s")
		})
		b.Run(fmt.Sprintf("%v/x4", typ), func(b *testing.B) {
			for b.Loop() {
				for c := 0; c < 4; c++ {
					dot4(w, stride, q.row(c), (*[4]float32)(out[8*c:]))
					dot4(w[4*stride:], stride, q.row(c), (*[4]float32)(out[8*c+4:]))
				}
			}
			b.ReportMetric(float64(32*n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GMAC/s")
		})
		b.Run(fmt.Sprintf("%v/repack", typ), func(b *testing.B) {
			for b.Loop() {
				repack(w, stride, nb, p)
			}
		})
	}
}

// BenchmarkMulMatF16Tile compares, at each thin N, F16 MUL_MAT on the
// 4-row tile kernel with one dotF16 call per result.
func BenchmarkMulMatF16Tile(b *testing.B) {
	if simdKernels == nil || simdKernels.dotF16x4 == nil {
		b.Skip("no f16 tile kernel on this machine")
	}
	noTile := *simdKernels
	noTile.dotF16x4 = nil
	for _, n := range []int{2, 4, 8, 12, 15} {
		for _, path := range []string{"tile", "dot"} {
			const k, m = 4096, 4096
			b.Run(fmt.Sprintf("n=%d/%s", n, path), func(b *testing.B) {
				ctx := rt.NewContext()
				out := ctx.MulMat(ctx.NewTensor(rt.F16, k, m), ctx.NewTensor(rt.F32, k, n))
				g, be := benchGraph(b, ctx, out)
				if path == "dot" {
					be.kern = &noTile
				}
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

// BenchmarkMulMatStreamed runs one x row through 80 MiB of GEMVs, so the
// weights come from DRAM as in a model's token step rather than from the
// caches as in BenchmarkMulMat; it reports the weight read rate.
func BenchmarkMulMatStreamed(b *testing.B) {
	for _, typ := range []rt.DType{rt.F16, rt.Q8_0, rt.Q4_0, rt.Q4_K, rt.Q6_K} {
		for _, km := range [][2]int{{1024, 1024}, {1024, 2816}, {4096, 4096}, {1024, 32000}} {
			k, m := km[0], km[1]
			b.Run(fmt.Sprintf("%v/%dx%d", typ, k, m), func(b *testing.B) {
				benchStreamedGEMV(b, typ, k, m, max(2, 80<<20/(k*m)))
			})
		}
	}
}

// benchStreamedGEMV runs one x row through nmat k×m weights of type typ
// per op and reports the weight read rate.
func benchStreamedGEMV(b *testing.B, typ rt.DType, k, m, nmat int) {
	ctx := rt.NewContext()
	x := ctx.NewTensor(rt.F32, k, 1)
	var outs []*rt.Tensor
	for range nmat {
		outs = append(outs, ctx.MulMat(ctx.NewTensor(typ, k, m), x))
	}
	g, be := benchGraph(b, ctx, outs...)
	// The first run repacks the weights of the repacked types: once per
	// weight, not per op, so outside the timing.
	if err := be.GraphCompute(g); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := be.GraphCompute(g); err != nil {
			b.Fatal(err)
		}
	}
	bytes := float64(nmat) * float64(typ.RowSize(k)*m)
	b.ReportMetric(bytes*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
}
