package cpu

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"unsafe"

	rt "github.com/gpurt/gpurt/runtime"
)

// refMulMat is dst[m,n,i2,i3] = Σ_k w[k,m,i2/r2,i3/r3]·x[k,n,i2,i3] in float64.
func refMulMat(w, x arr) arr {
	out := newArr([4]int{w.ne[1], x.ne[1], x.ne[2], x.ne[3]})
	r2, r3 := x.ne[2]/w.ne[2], x.ne[3]/w.ne[3]
	out.each(func(m, n, i2, i3 int) {
		s := 0.0
		for k := 0; k < w.ne[0]; k++ {
			s += w.at(k, m, i2/r2, i3/r3) * x.at(k, n, i2, i3)
		}
		out.set(m, n, i2, i3, s)
	})
	return out
}

// fastX is x's values as the backend under test multiplies them: the fast
// paths' integer kernels quantize x to Q8_0 (also serving as Q8_1) or
// Q8_K first, as ggml does.
func fastX(b *tb, w rt.DType, x *rt.Tensor) arr {
	v := read(x)
	if b.kern == nil {
		return v
	}
	switch b.kern.activationType(w, x.Ne[1]) {
	case rt.Q8_0, rt.Q8_1: // Q8_1 quantizes as Q8_0 does
		return roundTrip(rt.QuantizeRow, rt.Q8_0, v) // the activation quantizer rounds as the reference does
	case rt.Q8_K:
		return q8KRoundTrip(v)
	}
	return v
}

// weight makes MUL_MAT's src0 of logical shape [K,M,ne2,ne3] in a layout:
// a leaf, a view at an offset with strided rows, dims 1 and 2 swapped, or
// (plain dtypes) dim 0 strided.
func weight(b *tb, layout string, typ rt.DType, ne ...int) *rt.Tensor {
	s := [4]int{1, 1, 1, 1}
	copy(s[:], ne)
	switch layout {
	case "view":
		return b.offsetView(typ, ne...)
	case "permuted":
		return b.ctx.Permute(b.rand(typ, s[0], s[2], s[1], s[3]), 0, 2, 1, 3)
	case "strided k":
		// Leaf [ne2, K, M]: result dim 0 (K) steps over ne2 elements.
		return b.ctx.Permute(b.rand(typ, s[2], s[0], s[1], s[3]), 2, 0, 1, 3)
	}
	return b.rand(typ, ne...)
}

func TestMulMat(t *testing.T) {
	type shape struct{ k, m, n, w2, w3, x2, x3 int }
	shapes := []shape{
		{64, 17, 1, 1, 1, 1, 1},
		// F32: the one-call GEMV and the thin products of 2 to 4 x rows,
		// split in 4-row groups, and their last 3 rows.
		{96, 23, 1, 1, 1, 1, 1},
		{96, 23, 2, 1, 1, 1, 1},
		{96, 23, 3, 1, 1, 1, 1},
		{96, 23, 4, 1, 1, 1, 1},
		{64, 3, 33, 1, 1, 1, 1},
		{32, 1, 3, 1, 1, 1, 1},
		{64, 5, 3, 2, 1, 4, 2}, // broadcast: r2 = 2, r3 = 2
		{96, 3, 2, 1, 2, 3, 2},
		// The GEMM path: whole and edge tiles, two k blocks (gemmKC = 256),
		// several weight-row blocks (gemmNC = 64), broadcast weights.
		{320, 37, 17, 1, 1, 1, 1},
		{64, 150, 17, 1, 1, 2, 1},
		{64, 20, 16, 1, 1, 1, 1},
		// 4-row panels after the 6-row ones: N = 6·4+2 (two), with an
		// edge in the weight rows.
		{96, 40, 26, 1, 1, 1, 1},
		// The quantized panel path: whole 8×4 panels with row and column
		// edges, broadcast weights.
		{96, 22, 20, 2, 1, 4, 1},
		{64, 29, 37, 2, 1, 2, 1},
		// One x row per batch broadcast over grouped weights (attention
		// while generating): f16 runs the batches of a weight matrix as
		// tile columns. r2 = 4 with a row edge, 5 with r3 = 1, 2, 3.
		{64, 17, 1, 2, 1, 8, 1},
		{64, 9, 1, 1, 2, 5, 2},
		{64, 8, 1, 1, 1, 2, 1},
		{32, 4, 1, 1, 1, 3, 1},
		// Few float weight rows against many x rows (attention's values
		// at small head sizes) run on the tiles, 32 columns at a time:
		// 36 = 32 (ending in a two-column group) + 4 (two of them).
		{64, 8, 36, 1, 1, 2, 1},
	}
	var cases []opCase
	for _, typ := range []rt.DType{rt.F32, rt.F16, rt.BF16, rt.Q8_0, rt.Q4_0} {
		layouts := []string{"leaf", "view", "permuted"}
		if !typ.IsQuantized() {
			layouts = append(layouts, "strided k")
		}
		for _, s := range shapes {
			for li, wl := range layouts {
				xl := []string{"leaf", "view", "transposed"}[li%3]
				cases = append(cases, opCase{
					name: fmt.Sprintf("%v %+v w %s x %s", typ, s, wl, xl),
					tol:  3e-6 * float64(s.k),
					build: func(b *tb) (*rt.Tensor, func() arr) {
						w := weight(b, wl, typ, s.k, s.m, s.w2, s.w3)
						x := source(b, xl, rt.F32, s.k, s.n, s.x2, s.x3)
						out := b.ctx.MulMat(w, x)
						return out, func() arr { return refMulMat(read(w), fastX(b, typ, x)) }
					},
				})
			}
		}
		for n := 1; typ == rt.F32 && n <= 4; n++ {
			// The thin products' one-call kernels on whole vectors, and
			// the 4 elements past them (stories260K's 172-wide rows).
			cases = append(cases, opCase{name: fmt.Sprintf("f32 172-wide rows, %d x rows", n), tol: 3e-6 * 172,
				build: func(b *tb) (*rt.Tensor, func() arr) {
					w := b.rand(typ, 172, 23)
					x := b.rand(rt.F32, 172, n)
					return b.ctx.MulMat(w, x), func() arr { return refMulMat(read(w), read(x)) }
				}})
		}
		if !typ.IsQuantized() {
			// The GEMM with a k block off the SIMD width (519 = 2·256 + 7,
			// or 512 + 7 for f16 panels): the packing kernels' tails, and
			// a partial weight panel.
			cases = append(cases, opCase{name: fmt.Sprintf("%v GEMM odd k", typ), tol: 3e-6 * 519,
				build: func(b *tb) (*rt.Tensor, func() arr) {
					w := b.rand(typ, 519, 21)
					x := b.rand(rt.F32, 519, 19)
					return b.ctx.MulMat(w, x), func() arr { return refMulMat(read(w), read(x)) }
				}})
			cases = append(cases, opCase{name: fmt.Sprintf("%v odd k", typ), tol: 1e-5,
				build: func(b *tb) (*rt.Tensor, func() arr) {
					w := b.rand(typ, 17, 33, 3)
					x := b.transposed(rt.F32, 17, 3, 3)
					out := b.ctx.MulMat(w, x)
					return out, func() arr { return refMulMat(read(w), read(x)) }
				}})
		}
	}
	// The weight types on their integer dots (N < 16) and the packed GEMM
	// (N >= 16), with K a multiple of 256 for the super-block types.
	for ti, typ := range kquantTypes {
		shapes := []shape{{256, 9, 1, 1, 1, 1, 1}, {512, 5, 3, 2, 1, 4, 1}, {256, 6, 9, 1, 1, 1, 1}, {256, 7, 17, 1, 1, 1, 1}}
		for si, s := range shapes {
			li := (si + ti) % 3 // each type meets every layout
			wl, xl := []string{"leaf", "view", "permuted"}[li], []string{"leaf", "view", "transposed"}[li]
			cases = append(cases, opCase{
				name: fmt.Sprintf("%v %+v w %s x %s", typ, s, wl, xl),
				tol:  3e-6 * float64(s.k),
				build: func(b *tb) (*rt.Tensor, func() arr) {
					w := weight(b, wl, typ, s.k, s.m, s.w2, s.w3)
					x := source(b, xl, rt.F32, s.k, s.n, s.x2, s.x3)
					out := b.ctx.MulMat(w, x)
					return out, func() arr { return refMulMat(read(w), fastX(b, typ, x)) }
				},
			})
		}
	}
	// Other quantized types through the packed GEMM (N >= 16) with two k
	// blocks: each weight row's second chunk starts a superblock in.
	for _, typ := range []rt.DType{rt.Q4_K, rt.Q6_K, rt.Q5_K, rt.IQ4_XS} {
		cases = append(cases, opCase{name: fmt.Sprintf("%v two k blocks, GEMM", typ), tol: 3e-6 * 512,
			build: func(b *tb) (*rt.Tensor, func() arr) {
				w := b.rand(typ, 512, 9)
				x := b.rand(rt.F32, 512, 17)
				out := b.ctx.MulMat(w, x)
				return out, func() arr { return refMulMat(read(w), fastX(b, typ, x)) }
			}})
	}
	cases = append(cases, opCase{name: "known 2x3", tol: 1e-7, build: func(b *tb) (*rt.Tensor, func() arr) {
		w := b.values(rt.F32, []float32{1, 2, 3, 4, 5, 6}, 3, 2)        // rows (1,2,3), (4,5,6)
		x := b.values(rt.F32, []float32{1, 0, -1, 0.5, 0.5, 0.5}, 3, 2) // columns
		out := b.ctx.MulMat(w, x)
		return out, func() arr { return arr{ne: out.Ne, v: []float64{-2, -2, 3, 7.5}} }
	}})
	runOpCases(t, cases)
}

// TestMulMatSharedInput runs two MUL_MATs on one x in a graph, as q, k and
// v (or gate and up) are: the second reuses the x the first packed or
// quantized. Where a SET_ROWS rewrites x between them, the second must see
// the new values.
func TestMulMatSharedInput(t *testing.T) {
	var cases []opCase
	for _, s := range []struct {
		typ  rt.DType
		k, n int
	}{
		{rt.F32, 64, 17},  // packed GEMM panels
		{rt.F16, 64, 3},   // x read in place
		{rt.Q8_0, 64, 3},  // Q8 rows
		{rt.Q8_0, 64, 20}, // Q8 rows, panel kernels
		{rt.Q4_K, 256, 5}, // Q8_K rows
	} {
		for _, rewritten := range []bool{false, true} {
			name := fmt.Sprintf("%v k=%d n=%d", s.typ, s.k, s.n)
			if rewritten {
				name += " rewritten"
			}
			cases = append(cases, opCase{name: name, tol: 3e-6 * float64(s.k),
				build: func(b *tb) (*rt.Tensor, func() arr) {
					w1, w2 := b.rand(s.typ, s.k, 19), b.rand(s.typ, s.k, 19)
					x := b.rand(rt.F32, s.k, s.n)
					first := b.ctx.MulMat(w1, x)
					x2, xv := x, x
					if rewritten {
						rows := b.rand(rt.F32, s.k, s.n)
						idx := make([]int32, s.n)
						for i := range idx {
							idx[i] = int32(i)
						}
						x2, xv = b.ctx.SetRows(x, rows, b.ints(idx, s.n)), rows
					}
					out := b.ctx.Add(first, b.ctx.MulMat(w2, x2))
					return out, func() arr {
						a, c := refMulMat(read(w1), fastX(b, s.typ, x)), refMulMat(read(w2), fastX(b, s.typ, xv))
						for i := range a.v {
							a.v[i] += c.v[i]
						}
						return a
					}
				}})
		}
	}
	runOpCases(t, cases)
}

// TestMulMatStreamedQ8 runs the Q8_0 GEMVs as they run on weights beyond
// the caches, a row at a time, against the reference.
func TestMulMatStreamedQ8(t *testing.T) {
	old := streamedWeightBytes
	streamedWeightBytes = -1
	t.Cleanup(func() { streamedWeightBytes = old })
	var cases []opCase
	for _, s := range [][2]int{{64, 17}, {256, 9}, {96, 4}, {64, 200}} { // 200 rows: claims of several blocks
		cases = append(cases, opCase{name: fmt.Sprintf("q8_0 %dx%d", s[0], s[1]), tol: 3e-6 * float64(s[0]),
			build: func(b *tb) (*rt.Tensor, func() arr) {
				w := b.rand(rt.Q8_0, s[0], s[1])
				x := b.rand(rt.F32, s[0], 1)
				return b.ctx.MulMat(w, x), func() arr { return refMulMat(read(w), fastX(b, rt.Q8_0, x)) }
			}})
	}
	runOpCases(t, cases)
}

// TestMulMatStreamedGemm runs the packed GEMM as it runs on weights
// beyond the caches, prefetching each next block (the next k block of a
// task's rows and the next task's first), against the reference: several
// k blocks and tasks, f16 and f32 panels, a quantized type converted.
func TestMulMatStreamedGemm(t *testing.T) {
	old := streamedWeightBytes
	streamedWeightBytes = -1
	t.Cleanup(func() { streamedWeightBytes = old })
	var cases []opCase
	for _, typ := range []rt.DType{rt.F32, rt.F16, rt.Q6_K} {
		cases = append(cases, opCase{name: fmt.Sprintf("%v 1280x300x20", typ), tol: 3e-6 * 1280,
			build: func(b *tb) (*rt.Tensor, func() arr) {
				w := b.rand(typ, 1280, 300)
				x := b.rand(rt.F32, 1280, 20)
				return b.ctx.MulMat(w, x), func() arr { return refMulMat(read(w), fastX(b, typ, x)) }
			}})
	}
	runOpCases(t, cases)
}

// TestLiveWeightBytes checks the count of weight bytes that decides
// whether GEMVs stream: a buffer counts while it is marked as weights.
func TestLiveWeightBytes(t *testing.T) {
	before := liveWeightBytes.Load()
	buf, err := BufferType().Alloc(4096)
	if err != nil {
		t.Fatal(err)
	}
	for _, step := range []struct {
		name string
		do   func()
		want int64
	}{
		{"allocated", func() {}, 0},
		{"marked as weights", func() { buf.SetUsage(rt.UsageWeights) }, 4096},
		{"marked again", func() { buf.SetUsage(rt.UsageWeights) }, 4096},
		{"marked as compute", func() { buf.SetUsage(rt.UsageCompute) }, 0},
		{"weights again", func() { buf.SetUsage(rt.UsageWeights) }, 4096},
		{"freed", func() { buf.Free() }, 0},
		{"freed twice", func() { buf.Free() }, 0},
	} {
		step.do()
		if got := liveWeightBytes.Load() - before; got != step.want {
			t.Errorf("%s: %d live weight bytes, want %d", step.name, got, step.want)
		}
	}
}

// A rowPrefetch covers every row of its block, once and in order, spread
// over its steps (taken one or several at a time); the kernel takes addresses past any buffer without
// faulting.
func TestRowPrefetch(t *testing.T) {
	mem := make([]byte, 64)
	for _, c := range []struct{ rows, steps int }{{128, 176}, {128, 24}, {5, 2}, {3, 1}, {16, 0}} {
		var fetched []int
		f := newRowPrefetch(&kernels{}, mem, 1000, 300, c.rows, 512, c.steps)
		base := f.p
		f.fetch = func(p uintptr, stride, rows, n int) {
			if stride != 300 || n != 512 {
				t.Fatalf("rows %d steps %d: fetch(stride %d, n %d)", c.rows, c.steps, stride, n)
			}
			for r := range rows {
				fetched = append(fetched, int(p-base)/stride+r)
			}
		}
		for i := range max(c.steps, 1) + 3 {
			f.steps(1 + i%2) // a tile's step, or a run's of 2
		}
		if len(fetched) != c.rows || !slices.IsSorted(fetched) || fetched[0] != 0 || fetched[len(fetched)-1] != c.rows-1 {
			t.Errorf("rows %d steps %d: fetched rows %v", c.rows, c.steps, fetched)
		}
	}
	if k := simdKernels; k != nil && k.prefetchRows != nil {
		k.prefetchRows(uintptr(unsafe.Pointer(&mem[0]))+1<<40, 4096, 4, 256)
	}
}

// The F16 GEMM's three weight packings give the same products: f16
// panels for the kernels' f16 tile (packF16, gemmF16), f32 panels
// converted as they are transposed (transpose8F16, the AVX-512 set's
// path), and f32 panels converted first (f16ToF32, where neither kernel
// exists). The f32 panels agree bit for bit; the f16 ones, summed in k
// blocks of gemmKCF16, within rounding.
func TestF16GemmPackings(t *testing.T) {
	const K, M, N = 2*gemmKCF16 + 40, 150, 23
	rng := rand.New(rand.NewPCG(91, 92))
	wb := make([]byte, 2*K*M)
	goKernels.f32ToF16(randF32(rng, K*M, -1, 1), wb)
	w := hostOf(rt.F16, [4]int{K, M, 1, 1}, wb)
	x := hostOf(rt.F32, [4]int{K, N, 1, 1}, f32Bytes(randF32(rng, K*N, -1, 1)))
	for _, k := range kernelSets() {
		if k == goKernels {
			continue
		}
		convertFirst := *k
		convertFirst.packF16, convertFirst.gemmF16, convertFirst.transpose8F16 = nil, nil, nil
		inTranspose := *k
		inTranspose.packF16, inTranspose.gemmF16 = nil, nil
		var outs [3][]float32
		for i, ks := range []*kernels{&convertFirst, &inTranspose, k} {
			dst := hostOf(rt.F32, [4]int{M, N, 1, 1}, make([]byte, 4*M*N))
			be := newBackend(2, ks)
			if err := be.mulMatFast(w, x, dst); err != nil {
				t.Fatal(err)
			}
			be.Close()
			outs[i], _ = f32View(dst.mem, 0, M*N)
		}
		if !slices.Equal(outs[0], outs[1]) {
			t.Errorf("%s: f32 panels converted in the transpose differ from those converted first", k.name)
		}
		for i, v := range outs[2] {
			if d := math.Abs(float64(v - outs[0][i])); d > 1e-4*(1+math.Abs(float64(v))) {
				t.Fatalf("%s: f16 panels give %v at %d, f32 panels %v", k.name, v, i, outs[0][i])
			}
		}
	}
}

// forWeightSpans hands every weight row of every matrix to exactly one
// call, in whole blocks that stay within one matrix, for any thread
// count, and merges the blocks of a claim.
func TestForWeightSpans(t *testing.T) {
	for _, tc := range []struct {
		M, ne12, batches, work, threads int
		merged                          bool // fewer calls than blocks
	}{
		{16, 1, 1, 1 << 20, 2, false},
		{100, 3, 3, 1 << 20, 1, true},
		{100, 3, 6, 100 * 64 * 6, 2, true},
		{100, 3, 6, 1 << 24, 2, false}, // heavy blocks go one a claim
		{2816, 1, 1, 2816 * 1024, 2, true},
		{40, 2, 2, 0, 2, false},
	} {
		be := newBackend(tc.threads, simdKernels)
		var mu sync.Mutex
		seen := make([]int, tc.batches*tc.M)
		calls, rows := 0, 0
		err := be.forWeightSpans(tc.M, tc.ne12, tc.batches, tc.work, func(_ *workspace, i12, i13, m0, m1 int) error {
			mu.Lock()
			defer mu.Unlock()
			calls++
			if m0%mmRows != 0 || m1 <= m0 || m1 > tc.M || m1 != tc.M && m1%mmRows != 0 {
				t.Errorf("%+v: span [%d,%d) is not whole blocks of one matrix", tc, m0, m1)
				return nil
			}
			for m := m0; m < m1; m++ {
				seen[(i13*tc.ne12+i12)*tc.M+m]++
				rows++
			}
			return nil
		})
		be.Close()
		if err != nil {
			t.Fatal(err)
		}
		for i, n := range seen {
			if n != 1 {
				t.Fatalf("%+v: row %d of matrix %d computed %d times", tc, i%tc.M, i/tc.M, n)
			}
		}
		if blocks := tc.batches * ((tc.M + mmRows - 1) / mmRows); (calls < blocks) != tc.merged {
			t.Errorf("%+v: %d calls for %d blocks", tc, calls, blocks)
		}
	}
}

// The GEMVs whose kernels take a claim's rows a call (forWeightSpans: Q4_0's
// repacked groups and the rows past them, repacked K-quant rows, Q6_K's
// rows in place) multiply every row of every matrix, split between two
// workers in claims of several blocks, on every kernel set.
func TestGemvSpans(t *testing.T) {
	for _, tc := range []struct {
		typ, vec  rt.DType
		k, m, ne2 int
	}{
		{rt.Q4_0, rt.Q8_0, 64, 204, 2}, // 25 whole groups and 4 rows a matrix
		{rt.Q4_K, rt.Q8_K, 256, 200, 2},
		{rt.Q6_K, rt.Q8_K, 256, 200, 2},
	} {
		t.Run(tc.typ.String(), func(t *testing.T) {
			ctx := rt.NewContext()
			w := ctx.NewTensor(tc.typ, tc.k, tc.m, tc.ne2)
			x := ctx.NewTensor(rt.F32, tc.k, 1, tc.ne2)
			out := ctx.MulMat(w, x)
			g, err := ctx.BuildGraph(out)
			if err != nil {
				t.Fatal(err)
			}
			free, err := allocTight(ctx) // w gets a weights buffer
			if err != nil {
				t.Fatal(err)
			}
			defer free()
			rng := rand.New(rand.NewPCG(9, 10))
			for _, l := range []*rt.Tensor{w, x} {
				if err := rt.TensorSetF32(l, randF32(rng, int(l.Nelements()), -1, 1)); err != nil {
					t.Fatal(err)
				}
			}
			want := refMulMat(read(w), roundTrip(rt.QuantizeRow, tc.vec, read(x)))
			for _, k := range kernelSets() {
				be := newBackend(2, k)
				be.grain = 1 // both workers, several blocks a claim
				if err := be.GraphCompute(g); err != nil {
					t.Fatal(err)
				}
				be.Close()
				if !checkClose(t, read(out), want, 1e-5) {
					t.Errorf("kernel set %s", k.name)
				}
			}
		})
	}
}
