package cpu

import (
	"fmt"
	"math/rand/v2"
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
)

// The benchmarks here run every SIMD kernel set of this machine (AVX-512
// and AVX2 on such an amd64 CPU) on the same data in one process, so
// their ratio is a same-run figure; GPURT_CPU_LEVEL compares whole
// matmuls instead.

// BenchmarkGemmSets times each set's GEMM tile kernel on panels of
// K = 256 that stay in L1, as the packed GEMM runs it.
func BenchmarkGemmSets(b *testing.B) {
	const kk, tiles = 256, 16
	rng := rand.New(rand.NewPCG(73, 74))
	a := randF32(rng, kk*gemmMR, -1, 1)
	w := randF32(rng, kk*gemmNR, -1, 1)
	c := make([]float32, gemmMR*gemmNR)
	for _, k := range kernelSets() {
		if k == goKernels {
			continue
		}
		b.Run(k.name, func(b *testing.B) {
			for b.Loop() {
				for t := 0; t < tiles; t++ {
					k.gemm(kk, a, w, c, gemmNR, t > 0)
				}
			}
			b.ReportMetric(float64(2*kk*gemmMR*gemmNR*tiles)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOPS")
		})
	}
}

// BenchmarkTypeDotSets times each kernel set's one-row dot (and four-row
// dot, where the set has one) of every added type on 64 weight rows of
// K = 4096 that stay in L2, so it measures the kernels' compute rate, not
// memory: run it with -count and compare the sets of one run.
func BenchmarkTypeDotSets(b *testing.B) {
	const K, rows = 4096, 64
	rng := rand.New(rand.NewPCG(71, 72))
	x := randF32(rng, 4*K, -1, 1)
	for _, typ := range kquantTypes {
		rowBytes := typ.RowSize(K)
		w := randomBlocks(rng, typ, rows*K/typ.BlockSize())
		for _, k := range kernelSets() {
			if k == goKernels {
				continue
			}
			td, _ := k.typeDotFor(typ)
			b.Run(fmt.Sprintf("%v/%s", typ, k.name), func(b *testing.B) {
				var sink float32
				if td.vec == rt.Q8_K {
					var q q8KRows
					q.resize(4, K/rt.QKK)
					for r := 0; r < 4; r++ {
						k.quantizeQ8K(x[r*K:(r+1)*K], q.row(r))
					}
					y := q.row(0)
					for b.Loop() {
						for r := 0; r < rows; r++ {
							sink += td.dotK(w[r*rowBytes:], y)
						}
					}
				} else {
					var q q8Rows
					q.resize(1, K/rt.QK)
					k.quantizeQ8(x[:K], q.row(0), make([]byte, rt.Q8_0.RowSize(K)))
					y := q.row(0)
					for b.Loop() {
						for r := 0; r < rows; r++ {
							sink += td.dot(w[r*rowBytes:], y)
						}
					}
				}
				b.SetBytes(int64(rows * rowBytes))
				_ = sink
			})
			if td.dotK4 == nil {
				continue
			}
			b.Run(fmt.Sprintf("%v/%s-x4", typ, k.name), func(b *testing.B) {
				var q q8KRows
				q.resize(4, K/rt.QKK)
				for r := 0; r < 4; r++ {
					k.quantizeQ8K(x[r*K:(r+1)*K], q.row(r))
				}
				var out [4]float32
				for b.Loop() {
					for r := 0; r < rows; r++ {
						td.dotK4(w[r*rowBytes:], &q, 0, &out)
					}
				}
				b.SetBytes(int64(rows * rowBytes))
			})
		}
	}
}

// BenchmarkQ8x4Sets times each set's four-row Q8_0 dot, as the Q8_0 GEMV
// runs it, on 64 rows of K = 4096 that stay in L2.
func BenchmarkQ8x4Sets(b *testing.B) {
	const K, rows = 4096, 64
	rng := rand.New(rand.NewPCG(75, 76))
	stride := rt.Q8_0.RowSize(K)
	w := make([]byte, rows*stride)
	for r := 0; r < rows; r++ {
		if err := rt.QuantizeRow(rt.Q8_0, randF32(rng, K, -1, 1), w[r*stride:]); err != nil {
			b.Fatal(err)
		}
	}
	var q q8Rows
	q.resize(1, K/rt.QK)
	goKernels.quantizeQ8(randF32(rng, K, -1, 1), q.row(0), make([]byte, stride))
	for _, k := range kernelSets() {
		if k == goKernels {
			continue
		}
		b.Run(k.name, func(b *testing.B) {
			var out [4]float32
			for b.Loop() {
				for r := 0; r < rows; r += 4 {
					k.dotQ8x4(w[r*stride:], stride, q.row(0), &out)
				}
			}
			b.SetBytes(int64(rows * stride))
		})
	}
}

// BenchmarkMulMatGemmSets times the packed GEMM of F32 and F16 weights
// (2048×2048, N = 256) on each SIMD set, two workers.
func BenchmarkMulMatGemmSets(b *testing.B) {
	const K, M, N = 2048, 2048, 256
	rng := rand.New(rand.NewPCG(77, 78))
	xb := f32Bytes(randF32(rng, K*N, -1, 1))
	for _, typ := range []rt.DType{rt.F32, rt.F16} {
		wf := randF32(rng, K*M, -1, 1)
		wb := f32Bytes(wf)
		if typ == rt.F16 {
			wb = make([]byte, 2*K*M)
			goKernels.f32ToF16(wf, wb)
		}
		w := hostOf(typ, [4]int{K, M, 1, 1}, wb)
		x := hostOf(rt.F32, [4]int{K, N, 1, 1}, xb)
		dst := hostOf(rt.F32, [4]int{M, N, 1, 1}, make([]byte, 4*M*N))
		for _, k := range kernelSets() {
			if k == goKernels {
				continue
			}
			b.Run(fmt.Sprintf("%v/%s", typ, k.name), func(b *testing.B) {
				be := newBackend(2, k)
				defer be.Close()
				for b.Loop() {
					if err := be.mulMatFast(w, x, dst); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(2*K*M*N)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOPS")
			})
		}
	}
}

// BenchmarkTileSets times each set's 4-row f16 and f32 tile kernels with
// three columns (the N = 2..15 path) on 64 weight rows of K = 4096.
func BenchmarkTileSets(b *testing.B) {
	const K, rows = 4096, 64
	rng := rand.New(rand.NewPCG(79, 80))
	xs := randF32(rng, 3*K, -1, 1)
	for _, typ := range []rt.DType{rt.F16, rt.F32} {
		ldw := typ.RowSize(K)
		w := make([]byte, rows*ldw)
		wf := randF32(rng, rows*K, -1, 1)
		if typ == rt.F16 {
			goKernels.f32ToF16(wf, w)
		} else {
			copy(w, f32Bytes(wf))
		}
		for _, k := range kernelSets() {
			if k == goKernels {
				continue
			}
			kind := rowF32
			if typ == rt.F16 {
				kind = rowF16
			}
			tile := k.tileKernel(kind)
			b.Run(fmt.Sprintf("%v/%s", typ, k.name), func(b *testing.B) {
				out := make([]float32, 3*4)
				for b.Loop() {
					for r := 0; r < rows; r += 4 {
						tile.x4(w[r*ldw:], ldw, xs[:K], xs[K:2*K], xs[2*K:], out, 4)
					}
				}
				b.SetBytes(int64(rows * ldw))
			})
		}
	}
}

// BenchmarkGEMVStreamedTypes is BenchmarkMulMatStreamed for every added
// weight type at 4096×4096: one x row through 80 MiB or more of weights,
// so that they come from DRAM; it reports the weight read rate, to set
// against the streaming-read bandwidth (issue 13's 80 % target). Compare
// the sets with GPURT_CPU_LEVEL.
func BenchmarkGEMVStreamedTypes(b *testing.B) {
	const k, m = 4096, 4096
	for _, typ := range kquantTypes {
		b.Run(typ.String(), func(b *testing.B) {
			benchStreamedGEMV(b, typ, k, m, max(2, 80<<20/typ.RowSize(k)/m+1))
		})
	}
}
