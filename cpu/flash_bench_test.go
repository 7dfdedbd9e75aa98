package cpu

import (
	"fmt"
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
)

// BenchmarkFlashAttn measures FLASH_ATTN_EXT in a model's shapes: one
// generated token over a long cache (the generation hot path) and a prompt
// batch, Llama-style 32 query heads over 8 kv heads of 128 (and the 155M
// synth model's 16 over 4 of 64), on the fast
// path and, for the same shapes, the naive MUL_MAT + SOFT_MAX + MUL_MAT
// attention it replaces.
func BenchmarkFlashAttn(b *testing.B) {
	for _, s := range []struct{ d, h, hkv, nq, nkv int }{
		{128, 32, 8, 1, 4096}, {128, 32, 8, 64, 1024},
		{64, 16, 4, 1, 200}, // the 155M synth model generating after a 128-token prompt
	} {
		d, h, hkv := s.d, s.h, s.hkv
		for _, kv := range []rt.DType{rt.F16, rt.Q8_0, rt.I32, rt.BF16} { // I32: the naive graph over f16; BF16: f16 on the per-key path
			name := kv.String()
			switch kv {
			case rt.I32:
				name = "naive-f16"
			case rt.BF16:
				name = "perkey-f16"
			}
			b.Run(fmt.Sprintf("%s/d=%d/h=%d/nq=%d/nkv=%d", name, d, h, s.nq, s.nkv), func(b *testing.B) {
				ctx := rt.NewContext()
				q := ctx.NewTensor(rt.F32, d, s.nq, h)
				mask := ctx.NewTensor(rt.F16, s.nkv, s.nq)
				var out *rt.Tensor
				if kv == rt.I32 {
					k := ctx.NewTensor(rt.F16, d, s.nkv, hkv)
					vt := ctx.NewTensor(rt.F16, s.nkv, d, hkv)
					kq := ctx.SoftMax(ctx.MulMat(k, q), mask, 0.088)
					out = ctx.MulMat(vt, kq)
				} else {
					if kv == rt.BF16 {
						kv = rt.F16
						saved := faBlockedRows
						faBlockedRows = 1 << 30
						b.Cleanup(func() { faBlockedRows = saved })
					}
					k := ctx.NewTensor(kv, d, s.nkv, hkv)
					v := ctx.NewTensor(kv, d, s.nkv, hkv)
					out = ctx.FlashAttnExt(q, k, v, mask, 0.088, 0)
				}
				g, be := benchGraph(b, ctx, out)
				b.ResetTimer()
				for b.Loop() {
					if err := be.GraphCompute(g); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "µs/op")
			})
		}
	}
}
