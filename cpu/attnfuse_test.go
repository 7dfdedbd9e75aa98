package cpu

import (
	"bytes"
	"fmt"
	"math"
	"syscall"
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
)

// attnCase is one decode-step attention as llama builds it: keys a strided
// view of a [D·heads, cells] cache, values a view of the transposed value
// cache, the query heads of one kv head as the columns of q (or, with
// permuted, one query head per kv head from a permuted q), and a mask that
// leaves live[s] leading cells of stream s (with a hole at cell 1 when
// hole is set).
type attnCase struct {
	name                   string
	kv                     rt.DType
	D, Dv, nKV, N, hkv, nS int
	live                   []int // nil: no mask
	hole                   bool
	softcap                float32
	permuted               bool
	computedQ              bool // q a node (freed after the scores), not a leaf
}

func (c attnCase) build(b *tb) (kq, sm, kqv *rt.Tensor) {
	ctx := b.ctx
	kc := b.rand(c.kv, c.D*c.hkv, c.nKV*c.nS)
	es := c.kv.TypeSize()
	keys := ctx.View4D(kc, c.D, c.nKV, c.hkv, c.nS, kc.Nb[1], c.D*es, c.nKV*kc.Nb[1], 0)
	vc := b.rand(c.kv, c.nKV, c.Dv*c.hkv*c.nS)
	vals := ctx.View4D(vc, c.nKV, c.Dv, c.hkv, c.nS, vc.Nb[1], c.Dv*vc.Nb[1], c.Dv*c.hkv*vc.Nb[1], 0)
	var q *rt.Tensor
	if c.permuted {
		q = b.rand(rt.F32, c.D, c.hkv, c.N, c.nS)
	} else {
		q = b.rand(rt.F32, c.D, c.N, c.hkv, c.nS)
	}
	if c.computedQ {
		q = ctx.Scale(q, 1, 0)
	}
	if c.permuted {
		q = ctx.Permute(q, 0, 2, 1, 3) // [D, N, hkv, nS]
	}
	var mask *rt.Tensor
	if c.live != nil {
		m := make([]float32, c.nKV*c.N*c.nS)
		for s := range c.nS {
			for n := range c.N {
				row := m[(s*c.N+n)*c.nKV:][:c.nKV]
				for i := range row {
					if i >= c.live[s] || c.hole && i == 1 {
						row[i] = float32(math.Inf(-1))
					}
				}
			}
		}
		mask = b.values(rt.F32, m, c.nKV, c.N, 1, c.nS)
	}
	kq = ctx.MulMat(keys, q)
	sm = ctx.SoftMaxExt(kq, mask, 1/float32(math.Sqrt(float64(c.D))), c.softcap)
	return kq, sm, ctx.MulMat(vals, sm)
}

// TestAttentionFusion runs decode attentions fused and node by node on
// every SIMD and the portable kernel set and thread count: the results
// must be the same bytes, and the fused path must have run.
func TestAttentionFusion(t *testing.T) {
	cases := []attnCase{
		{name: "f16 grouped, 4 streams", kv: rt.F16, D: 8, Dv: 8, nKV: 64, N: 2, hkv: 4, nS: 4, live: []int{21, 40, 1, 64}},
		{name: "f16 grouped, 32-wide heads", kv: rt.F16, D: 32, Dv: 32, nKV: 96, N: 2, hkv: 2, nS: 2, live: []int{33, 70}, hole: true},
		{name: "f32 three heads, softcap", kv: rt.F32, D: 16, Dv: 24, nKV: 40, N: 3, hkv: 2, nS: 2, live: []int{17, 33}, softcap: 30},
		{name: "f16 one head per kv head", kv: rt.F16, D: 16, Dv: 16, nKV: 300, N: 1, hkv: 3, nS: 2, live: []int{5, 290}, permuted: true},
		{name: "f16 48-wide, one stream", kv: rt.F16, D: 48, Dv: 48, nKV: 32, N: 2, hkv: 1, nS: 1, live: []int{2}},
		{name: "f16 no mask", kv: rt.F16, D: 8, Dv: 8, nKV: 32, N: 2, hkv: 2, nS: 1},
		{name: "f16 fully masked stream", kv: rt.F16, D: 8, Dv: 8, nKV: 32, N: 2, hkv: 1, nS: 2, live: []int{0, 9}},
		// Scores of 40 cells: 32 on the 16-row kernel, 8 on the 4-row one.
		{name: "f16 8-wide, 40 cells", kv: rt.F16, D: 8, Dv: 16, nKV: 40, N: 2, hkv: 2, nS: 2, live: []int{40, 13}},
		{name: "f16 16-wide, 4 heads a kv head", kv: rt.F16, D: 16, Dv: 16, nKV: 48, N: 4, hkv: 2, nS: 2, live: []int{48, 30}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := newTB(c.name)
			_, _, out := c.build(b)
			if err := b.ctx.Err(); err != nil {
				t.Fatal(err)
			}
			g, err := b.ctx.BuildGraph(out)
			if err != nil {
				t.Fatal(err)
			}
			free, err := allocTight(b.ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer free()
			for _, k := range kernelSets() {
				run := func(threads int, fuse bool) []byte {
					if err := b.fill(); err != nil {
						t.Fatal(err)
					}
					be := newBackend(threads, k)
					defer be.Close()
					be.grain, be.noFusion = 1, !fuse
					// Scratch left by earlier ops: NaN bits, which a
					// score the fused op reads but never wrote would show.
					for i := range be.pool.ws {
						scratch := be.pool.ws[i].bytes(1 << 16)
						for j := range scratch {
							scratch[j] = 0xff
						}
					}
					if err := be.GraphCompute(g); err != nil {
						t.Fatalf("%s: %v", k.name, err)
					}
					if fused := be.fusedAttentions == 1; fused != fuse {
						t.Fatalf("%s, %d threads: fused %d attentions", k.name, threads, be.fusedAttentions)
					}
					return rawBytes(out)
				}
				want := run(1, false)
				for _, threads := range []int{1, 2, 3} {
					if got := run(threads, true); !bytes.Equal(got, want) {
						checkClose(t, bytesF32(got), bytesF32(want), 0)
						t.Fatalf("%s, %d threads: the fused attention differs from its three ops", k.name, threads)
					}
				}
			}
		})
	}
}

// TestAttentionFusionNeedsPrivateScores checks that a triple whose scores
// or weights something else reads (another node, a graph output) runs
// node by node.
func TestAttentionFusionNeedsPrivateScores(t *testing.T) {
	c := attnCase{name: "shared", kv: rt.F16, D: 8, Dv: 8, nKV: 32, N: 2, hkv: 2, nS: 2, live: []int{5, 20}}
	for _, share := range []string{"scores read", "weights output"} {
		t.Run(share, func(t *testing.T) {
			b := newTB(c.name)
			kq, sm, out := c.build(b)
			outs := []*rt.Tensor{out}
			if share == "scores read" {
				outs = append(outs, b.ctx.SumRows(kq))
			} else {
				outs = append(outs, sm)
			}
			g, err := b.ctx.BuildGraph(outs...)
			if err != nil {
				t.Fatal(err)
			}
			free, err := allocTight(b.ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer free()
			if err := b.fill(); err != nil {
				t.Fatal(err)
			}
			be := newBackend(1, defaultKernels())
			defer be.Close()
			if err := be.GraphCompute(g); err != nil {
				t.Fatal(err)
			}
			if be.fusedAttentions != 0 {
				t.Fatalf("fused %d attentions whose scores are read elsewhere", be.fusedAttentions)
			}
		})
	}
}

// bytesF32 reads little-endian float32s as an arr for checkClose.
func bytesF32(raw []byte) arr {
	a := newArr([4]int{len(raw) / 4, 1, 1, 1})
	for i := range a.v {
		a.v[i] = float64(math.Float32frombits(uint32(raw[4*i]) | uint32(raw[4*i+1])<<8 | uint32(raw[4*i+2])<<16 | uint32(raw[4*i+3])<<24))
	}
	return a
}

// BenchmarkAttentionFusion times stories260K's and the default model's
// 4-stream decode attention (8- and 32-wide heads, 2 query heads per kv
// head, 64 cells of which 36 live) fused and node by node, on 1 and 2
// threads.
func BenchmarkAttentionFusion(b *testing.B) {
	for _, c := range []attnCase{
		// stories260K's 4-slot step: 8-wide heads over a short cache.
		{name: "tiny", kv: rt.F16, D: 8, Dv: 8, nKV: 64, N: 2, hkv: 4, nS: 4, live: []int{36, 36, 36, 36}},
		// The default model's: 32-wide heads, 2 query heads per kv head.
		{name: "default", kv: rt.F16, D: 32, Dv: 32, nKV: 64, N: 2, hkv: 2, nS: 4, live: []int{36, 36, 36, 36}},
		// The 155M model's one-token step at depth 320: 16 heads of 64
		// over 4 kv heads.
		{name: "155m", kv: rt.F16, D: 64, Dv: 64, nKV: 352, N: 4, hkv: 4, nS: 1, live: []int{321}},
	} {
		b.Run(c.name, func(b *testing.B) { benchAttention(b, c) })
	}
}

func benchAttention(b *testing.B, c attnCase) {
	tb := newTB(c.name)
	_, _, out := c.build(tb)
	g, err := tb.ctx.BuildGraph(out)
	if err != nil {
		b.Fatal(err)
	}
	free, err := allocTight(tb.ctx)
	if err != nil {
		b.Fatal(err)
	}
	defer free()
	if err := tb.fill(); err != nil {
		b.Fatal(err)
	}
	for _, threads := range []int{1, 2} {
		for _, fuse := range []bool{false, true} {
			b.Run(fmt.Sprintf("threads=%d/fused=%v", threads, fuse), func(b *testing.B) {
				be := newBackend(threads, defaultKernels())
				defer be.Close()
				be.noFusion = !fuse
				cpu0 := threadCPU()
				for b.Loop() {
					if err := be.GraphCompute(g); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(threadCPU()-cpu0)/float64(b.N), "cpu-ns/op")
			})
		}
	}
}

// threadCPU is the process's CPU time in ns, which other processes on a
// busy machine disturb less than wall time.
func threadCPU() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// TestAttentionFusionReusedMemory runs a fused attention whose result
// has the memory of its (permuted) queries, as a graph allocator may
// place it (the scores' product is their last reader): every task must
// still read its own queries, not another task's results.
func TestAttentionFusionReusedMemory(t *testing.T) {
	c := attnCase{name: "reused", kv: rt.F16, D: 8, Dv: 8, nKV: 32, N: 2, hkv: 4, nS: 2, live: []int{7, 30}, computedQ: true, permuted: true}
	b := newTB(c.name)
	kq, _, out := c.build(b)
	g, err := b.ctx.BuildGraph(out)
	if err != nil {
		t.Fatal(err)
	}
	free, err := allocTight(b.ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer free()
	q := kq.Src[1].ViewSrc // the queries in head-major order, not the result's
	if q.Nbytes() != out.Nbytes() {
		t.Fatalf("q has %d bytes, the result %d", q.Nbytes(), out.Nbytes())
	}
	out.Buffer, out.Offset = q.Buffer, q.Offset
	var want []byte
	for _, fuse := range []bool{false, true} {
		if err := b.fill(); err != nil {
			t.Fatal(err)
		}
		be := newBackend(2, defaultKernels())
		be.noFusion = !fuse
		err := be.GraphCompute(g)
		be.Close()
		if err != nil {
			t.Fatal(err)
		}
		if got := rawBytes(out); want == nil {
			want = got
		} else if !bytes.Equal(got, want) {
			t.Fatal("the fused attention differs from its three ops when its result has the queries' memory")
		}
	}
}
