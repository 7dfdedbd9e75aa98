package cpu

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	rt "github.com/gpurt/gpurt/runtime"
)

func TestThreadsSetting(t *testing.T) {
	b, err := NewBackend(0)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if b.Threads() != runtime.GOMAXPROCS(0) {
		t.Errorf("default threads %d, want GOMAXPROCS %d", b.Threads(), runtime.GOMAXPROCS(0))
	}
	b.SetThreads(3)
	if b.Threads() != 3 {
		t.Errorf("threads %d after SetThreads(3)", b.Threads())
	}
	b.SetThreads(-1)
	if b.Threads() != runtime.GOMAXPROCS(0) {
		t.Errorf("SetThreads(-1) gave %d", b.Threads())
	}
}

// settledGoroutines waits for goroutines of earlier tests to exit and
// returns the steady count.
func settledGoroutines() int {
	n, same := runtime.NumGoroutine(), 0
	for same < 5 {
		time.Sleep(2 * time.Millisecond)
		if m := runtime.NumGoroutine(); m == n {
			same++
		} else {
			n, same = m, 0
		}
	}
	return n
}

// waitGoroutines polls until the goroutine count is want (workers exit
// asynchronously) and returns the last count seen.
func waitGoroutines(want int) int {
	n := runtime.NumGoroutine()
	for i := 0; i < 200 && n != want; i++ {
		time.Sleep(5 * time.Millisecond)
		n = runtime.NumGoroutine()
	}
	return n
}

// smallGraph builds silu(a+b) over 64×8 values and allocates it.
func smallGraph(t *testing.T) (*rt.Graph, *rt.Tensor, func()) {
	t.Helper()
	ctx := rt.NewContext()
	a := ctx.NewTensor(rt.F32, 64, 8).SetName("a")
	c := ctx.NewTensor(rt.F32, 64, 8).SetName("c")
	out := ctx.Silu(ctx.Add(a, c).SetName("sum")).SetName("out")
	g, err := ctx.BuildGraph(out)
	if err != nil {
		t.Fatal(err)
	}
	buf, err := rt.AllocContextTensors(ctx, BufferType())
	if err != nil {
		t.Fatal(err)
	}
	vals := make([]float32, 64*8)
	for i := range vals {
		vals[i] = float32(i%7) - 3
	}
	if err := rt.TensorSetF32(a, vals); err != nil {
		t.Fatal(err)
	}
	if err := rt.TensorSetF32(c, vals); err != nil {
		t.Fatal(err)
	}
	return g, out, func() { buf.Free() }
}

// TestWorkerPoolIsPersistent checks that workers start once, are reused by
// every op of every graph, and stop on Close and SetThreads.
func TestWorkerPoolIsPersistent(t *testing.T) {
	g, _, free := smallGraph(t)
	defer free()
	base := settledGoroutines()
	b, _ := NewBackend(4)
	b.grain = 1
	if got := runtime.NumGoroutine(); got != base {
		t.Errorf("workers started before any compute: %d goroutines, want %d", got, base)
	}
	for i := 0; i < 3; i++ {
		if err := b.GraphCompute(g); err != nil {
			t.Fatal(err)
		}
		if got := runtime.NumGoroutine(); got != base+3 {
			t.Fatalf("after compute %d: %d goroutines, want %d (3 workers)", i, got, base+3)
		}
	}
	b.SetThreads(2)
	if err := b.GraphCompute(g); err != nil {
		t.Fatal(err)
	}
	if got := waitGoroutines(base + 1); got != base+1 {
		t.Errorf("after SetThreads(2): %d goroutines, want %d", got, base+1)
	}
	b.Close()
	if got := waitGoroutines(base); got != base {
		t.Errorf("after Close: %d goroutines, want %d", got, base)
	}
	if err := b.GraphCompute(g); err == nil || !strings.Contains(err.Error(), "closed") {
		t.Errorf("compute after Close: %v", err)
	}
}

// TestUnclosedBackendReleasesWorkers checks the cleanup that stops the
// workers of a backend dropped without Close.
func TestUnclosedBackendReleasesWorkers(t *testing.T) {
	g, _, free := smallGraph(t)
	defer free()
	base := settledGoroutines()
	func() {
		b, _ := NewBackend(3)
		b.grain = 1
		if err := b.GraphCompute(g); err != nil {
			t.Fatal(err)
		}
	}()
	n := runtime.NumGoroutine()
	for i := 0; i < 100 && n != base; i++ {
		runtime.GC()
		time.Sleep(5 * time.Millisecond)
		n = runtime.NumGoroutine()
	}
	if n != base {
		t.Errorf("%d goroutines after the backend became garbage, want %d", n, base)
	}
}

func TestPoolErrorsAndPanics(t *testing.T) {
	p := newPool(4)
	defer p.stop()
	err := p.run(4, func(ith, nth int, _ *workspace) error {
		switch ith {
		case 3:
			return errors.New("three")
		case 2:
			var s []int
			_ = s[ith] // a kernel bug
		}
		return nil
	})
	if err == nil || !strings.Contains(err.Error(), "worker 2") {
		t.Errorf("want the panic of worker 2 as an error, got %v", err)
	}
	seen := make([]bool, 4)
	if err := p.run(4, func(ith, nth int, _ *workspace) error { seen[ith] = nth == 4; return nil }); err != nil {
		t.Fatal(err)
	}
	for i, s := range seen {
		if !s {
			t.Errorf("worker %d did not run", i)
		}
	}
}

// TestPoolSpinsAndParks runs jobs back to back (the helpers catch them
// while spinning) and with gaps past the spin window (the helpers park and
// must be woken), with every share counted exactly once, and with fewer
// workers than the pool has.
func TestPoolSpinsAndParks(t *testing.T) {
	for _, tc := range []struct {
		name string
		gap  time.Duration
		nth  int
	}{
		{"back to back", 0, 4},
		{"parked between jobs", spinWindow + time.Millisecond, 4},
		{"fewer workers, parked", spinWindow + time.Millisecond, 2},
		{"one worker", 0, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newPool(4)
			defer p.stop()
			for job := range 20 {
				var counts [4]atomic.Int32
				if err := p.run(tc.nth, func(ith, nth int, _ *workspace) error {
					counts[ith].Add(1)
					return nil
				}); err != nil {
					t.Fatal(err)
				}
				for i := range counts {
					want := int32(0)
					if i < tc.nth {
						want = 1
					}
					if got := counts[i].Load(); got != want {
						t.Fatalf("job %d: worker %d ran %d times, want %d", job, i, got, want)
					}
				}
				time.Sleep(tc.gap)
			}
		})
	}
}

// TestPoolTakesOverLateShares checks that worker 0 runs the shares of
// helpers that have not started (with one P, no helper can start while
// worker 0 runs), and leaves alone the shares that helpers have claimed
// (worker 0's own share waits until every helper has started); either way
// every share runs exactly once.
func TestPoolTakesOverLateShares(t *testing.T) {
	for _, tc := range []struct {
		name       string
		procs      int
		waitOthers bool // worker 0's share waits for the helpers' shares to start
		wantTaken  int  // per job
	}{
		{"helpers cannot start", 1, false, 3},
		{"helpers start", 0, true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.procs > 0 {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(tc.procs))
			} else if runtime.GOMAXPROCS(0) < 2 {
				t.Skip("needs GOMAXPROCS >= 2")
			}
			p := newPool(4)
			defer p.stop()
			p.profile, p.base = true, time.Now()
			const jobs = 5
			for job := range jobs {
				var counts [4]atomic.Int32
				if err := p.run(4, func(ith, nth int, _ *workspace) error {
					counts[ith].Add(1)
					for deadline := time.Now().Add(10 * time.Second); ith == 0 && tc.waitOthers; time.Sleep(time.Millisecond) {
						if counts[1].Load()+counts[2].Load()+counts[3].Load() == 3 {
							break
						}
						if time.Now().After(deadline) {
							return errors.New("the helpers did not start their shares within 10 s")
						}
					}
					return nil
				}); err != nil {
					t.Fatal(err)
				}
				for i := range counts {
					if got := counts[i].Load(); got != 1 {
						t.Fatalf("job %d: share %d ran %d times, want 1", job, i, got)
					}
				}
			}
			if got := p.takeStats().Taken; got != jobs*tc.wantTaken {
				t.Errorf("worker 0 ran %d helpers' shares, want %d", got, jobs*tc.wantTaken)
			}
		})
	}
}

func TestDeviceRunsGraphs(t *testing.T) {
	g, out, free := smallGraph(t)
	defer free()
	be, err := Device().NewBackend()
	if err != nil {
		t.Fatal(err)
	}
	defer be.Close()
	if err := be.GraphCompute(g); err != nil {
		t.Fatal(err)
	}
	got, err := rt.TensorGetF32(out)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range got {
		x := 2 * (float64(i%7) - 3)
		if want := x / (1 + math.Exp(-x)); math.Abs(float64(v)-want) > 1e-6 {
			t.Fatalf("out[%d] = %v, want %v", i, v, want)
		}
	}
}

// TestMultiBufferTensors computes with tensors spread over the parts of a
// multi-buffer.
func TestMultiBufferTensors(t *testing.T) {
	ctx := rt.NewContext()
	w := ctx.NewTensor(rt.Q8_0, 64, 3)
	x := ctx.NewTensor(rt.F32, 64, 2)
	out := ctx.MulMat(w, x)
	g, err := ctx.BuildGraph(out)
	if err != nil {
		t.Fatal(err)
	}
	buf, err := rt.AllocContextTensors(ctx, smallBufferType{BufferType(), 512})
	if err != nil {
		t.Fatal(err)
	}
	defer buf.Free()
	if _, ok := buf.(*rt.MultiBuffer); !ok {
		t.Fatalf("want a multi-buffer, got %T", buf)
	}
	vals := make([]float32, 64*3)
	for i := range vals {
		vals[i] = 127 // Q8_0 holds 127 exactly (scale 1)
	}
	if err := rt.TensorSetF32(w, vals); err != nil {
		t.Fatal(err)
	}
	// x is 127 too, so that quantizing it to Q8 (scale 1) is exact.
	if err := rt.TensorSetF32(x, vals[:128]); err != nil {
		t.Fatal(err)
	}
	be, _ := NewBackend(2)
	defer be.Close()
	if err := be.GraphCompute(g); err != nil {
		t.Fatal(err)
	}
	got, _ := rt.TensorGetF32(out)
	for i, v := range got {
		if v != 64*127*127 {
			t.Fatalf("out[%d] = %v, want %d", i, v, 64*127*127)
		}
	}
}

type smallBufferType struct {
	rt.BufferType
	max int
}

func (s smallBufferType) MaxSize() int { return s.max }

func TestSupportsOpRejects(t *testing.T) {
	ctx := rt.NewContext()
	f32 := ctx.NewTensor(rt.F32, 32, 4)
	f16 := ctx.NewTensor(rt.F16, 32, 4)
	bf16 := ctx.NewTensor(rt.BF16, 32, 4)
	q8 := ctx.NewTensor(rt.Q8_0, 32, 4)
	i32 := ctx.NewTensor(rt.I32, 32, 4)
	node := func(op rt.Op, typ rt.DType, ne [4]int, src ...*rt.Tensor) *rt.Tensor {
		n := &rt.Tensor{Op: op, Type: typ, Ne: ne}
		copy(n.Src[:], src)
		return n
	}
	m := [4]int{32, 4, 1, 1}
	tests := []struct {
		name string
		n    *rt.Tensor
	}{
		{"add bf16", node(rt.OpAdd, rt.BF16, m, bf16, bf16)},
		{"add i32", node(rt.OpAdd, rt.I32, m, i32, i32)},
		{"add missing source", node(rt.OpAdd, rt.F32, m, f32)},
		{"add no broadcast", node(rt.OpAdd, rt.F32, m, f32, ctx.NewTensor(rt.F32, 3))},
		{"add result shape", node(rt.OpAdd, rt.F32, [4]int{32, 2, 1, 1}, f32, f32)},
		{"silu q8_0", node(rt.OpSilu, rt.Q8_0, m, q8)},
		{"silu result dtype", node(rt.OpSilu, rt.F16, m, f32)},
		{"sum f16", node(rt.OpSum, rt.F32, [4]int{1, 1, 1, 1}, f16)},
		{"concat q8_0", func() *rt.Tensor { n := node(rt.OpConcat, rt.Q8_0, [4]int{64, 4, 1, 1}, q8, q8); return n }()},
		{"mul_mat i32 weight", node(rt.OpMulMat, rt.F32, [4]int{4, 4, 1, 1}, i32, f32)},
		{"mul_mat f16 src1", node(rt.OpMulMat, rt.F32, [4]int{4, 4, 1, 1}, f32, f16)},
		{"soft_max f16", node(rt.OpSoftMax, rt.F32, m, f16)},
		{"soft_max bf16 mask", node(rt.OpSoftMax, rt.F32, m, f32, bf16)},
		{"get_rows f32 indices", node(rt.OpGetRows, rt.F32, [4]int{32, 32, 4, 1}, f32, f32)},
		{"cpy i32 to q8_0", node(rt.OpCpy, rt.Q8_0, m, i32, q8)},
		{"set_rows into i32", node(rt.OpSetRows, rt.I32, m, f32, i32)},
		{"rope mode 1", func() *rt.Tensor {
			n := node(rt.OpRope, rt.F32, m, f32, ctx.NewTensor(rt.I32, 1))
			n.Params[0], n.Params[1] = 32, 1
			return n
		}()},
		{"diag_mask_inf negative n_past", func() *rt.Tensor {
			n := node(rt.OpDiagMaskInf, rt.F32, m, f32)
			n.Params[0] = -1
			return n
		}()},
		{"q8_0 reshaped into partial blocks", node(rt.OpCont, rt.Q8_0, [4]int{16, 8, 1, 1}, q8)},
		{"unknown op", node(rt.OpCount+3, rt.F32, m, f32)},
		{"bad dtype", node(rt.OpNeg, rt.DType(77), m, f32)},
	}
	for _, tc := range tests {
		if Device().SupportsOp(tc.n) {
			t.Errorf("%s: supported", tc.name)
		}
	}
	for _, ok := range []*rt.Tensor{f32, ctx.Transpose(f32), ctx.Reshape(f32, 128)} {
		if !Device().SupportsOp(ok) {
			t.Errorf("%v: leaf or view not supported", ok)
		}
	}
}

// fakeBufferType hands out buffers that are not host memory.
type fakeBufferType struct{ rt.BufferType }

func (fakeBufferType) Name() string { return "FAKE" }
func (fakeBufferType) IsHost() bool { return false }

type fakeBuffer struct{ rt.Buffer }

func (fakeBuffer) Type() rt.BufferType { return fakeBufferType{BufferType()} }

func TestComputeErrorsNameTheNode(t *testing.T) {
	tests := []struct {
		name string
		// build returns the graph after breaking something.
		build func(ctx *rt.Context) *rt.Tensor
		after func(out *rt.Tensor) // runs after allocation
		want  []string
	}{
		{"index out of range", func(ctx *rt.Context) *rt.Tensor {
			idx := ctx.NewTensor(rt.I32, 2).SetName("idx")
			return ctx.GetRows(ctx.NewTensor(rt.F16, 8, 5), idx).SetName("emb")
		}, func(out *rt.Tensor) { rt.TensorSetI32(out.Src[1], []int32{1, 5}) },
			[]string{"GET_ROWS", `"emb"`, "row index 5", "[0,5)"}},
		{"negative set_rows index", func(ctx *rt.Context) *rt.Tensor {
			idx := ctx.NewTensor(rt.I32, 1)
			return ctx.SetRows(ctx.NewTensor(rt.Q8_0, 32, 4), ctx.NewTensor(rt.F32, 32, 1), idx).SetName("kv")
		}, func(out *rt.Tensor) { rt.TensorSetI32(out.Src[1], []int32{-1}) },
			[]string{"SET_ROWS", `"kv"`, "row index -1"}},
		{"result shape changed", func(ctx *rt.Context) *rt.Tensor {
			return ctx.Add(ctx.NewTensor(rt.F32, 4, 3), ctx.NewTensor(rt.F32, 4)).SetName("bad")
		}, func(out *rt.Tensor) { out.Ne[1] = 2 },
			[]string{"ADD", `"bad"`, "does not match"}},
		{"offset beyond buffer", func(ctx *rt.Context) *rt.Tensor {
			return ctx.Neg(ctx.NewTensor(rt.F32, 4)).SetName("far")
		}, func(out *rt.Tensor) { out.Offset = 1 << 20 },
			[]string{"NEG", `"far"`, "outside"}},
		{"unallocated source", func(ctx *rt.Context) *rt.Tensor {
			return ctx.Neg(ctx.NewTensor(rt.F32, 4).SetName("x")).SetName("y")
		}, func(out *rt.Tensor) { out.Src[0].Buffer = nil },
			[]string{"NEG", `"y"`, `"x" is not allocated`}},
		{"non-host buffer", func(ctx *rt.Context) *rt.Tensor {
			return ctx.Sqr(ctx.NewTensor(rt.F32, 4).SetName("x")).SetName("y")
		}, func(out *rt.Tensor) { out.Src[0].Buffer = fakeBuffer{out.Src[0].Buffer} },
			[]string{"SQR", `"y"`, "FAKE", "not host memory"}},
		{"freed buffer", func(ctx *rt.Context) *rt.Tensor {
			return ctx.Scale(ctx.NewTensor(rt.F32, 4), 2, 0).SetName("s")
		}, func(out *rt.Tensor) { out.Buffer.Free() },
			[]string{"SCALE", `"s"`, "outside its 0-byte buffer"}},
		{"quantized tensor with split blocks", func(ctx *rt.Context) *rt.Tensor {
			return ctx.Dup(ctx.NewTensor(rt.Q4_0, 64, 2).SetName("q")).SetName("d")
		}, func(out *rt.Tensor) { out.Src[0].Nb[0] = 9 },
			[]string{"DUP", `"d"`, "whole contiguous blocks"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := rt.NewContext()
			out := tc.build(ctx)
			g, err := ctx.BuildGraph(out)
			if err != nil {
				t.Fatal(err)
			}
			buf, err := rt.AllocContextTensors(ctx, BufferType())
			if err != nil {
				t.Fatal(err)
			}
			defer buf.Free()
			tc.after(out)
			be, _ := NewBackend(2)
			defer be.Close()
			err = be.GraphCompute(g)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
	be, _ := NewBackend(1)
	defer be.Close()
	if err := be.GraphCompute(nil); err == nil {
		t.Error("nil graph: no error")
	}
	if err := be.GraphCompute(&rt.Graph{Nodes: []*rt.Tensor{nil}}); err == nil {
		t.Error("nil node: no error")
	}
}

// TestRowAccessAnyAlignment stores and loads rows at every byte offset and
// stride, covering the paths that cannot view memory as []float32.
func TestRowAccessAnyAlignment(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	vals := make([]float32, 9)
	for i := range vals {
		vals[i] = rng.Float32()*8 - 4
	}
	for _, typ := range []rt.DType{rt.F32, rt.F16, rt.BF16, rt.I32} {
		es := typ.TypeSize()
		for _, stride := range []int{es, es + 3} {
			for off := 0; off < 8; off++ {
				h := hostTensor{typ: typ, nb: [4]int{stride}, mem: make([]byte, 8+9*stride)}
				if err := h.storeRow(off, vals); err != nil {
					t.Fatal(err)
				}
				got := make([]float32, len(vals))
				h.loadRow(off, got)
				for i, v := range vals {
					raw := h.mem[off+i*stride:]
					var want float32
					switch typ {
					case rt.F32:
						want = v
						if b := binary.LittleEndian.Uint32(raw); b != math.Float32bits(v) {
							t.Fatalf("%v off %d: stored bits %x", typ, off, b)
						}
					case rt.F16:
						want = rt.F16ToF32(rt.F32ToF16(v))
					case rt.BF16:
						want = rt.BF16ToF32(rt.F32ToBF16(v))
					case rt.I32:
						want = float32(int32(v))
					}
					if got[i] != want {
						t.Fatalf("%v stride %d off %d: [%d] = %v, want %v", typ, stride, off, i, got[i], want)
					}
				}
			}
		}
	}
}

// TestDequantizeMatchesRuntime checks the backend's block decoders against
// the runtime's reference ones, bit for bit.
func TestDequantizeMatchesRuntime(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, typ := range []rt.DType{rt.Q8_0, rt.Q4_0} {
		raw := make([]byte, typ.RowSize(96))
		for i := range raw {
			raw[i] = byte(rng.Uint32())
		}
		for b := 0; b < 3; b++ { // finite scales
			binary.LittleEndian.PutUint16(raw[b*typ.TypeSize():], rt.F32ToF16(rng.Float32()-0.5))
		}
		want := make([]float32, 96)
		if err := rt.DequantizeRow(typ, raw, want); err != nil {
			t.Fatal(err)
		}
		got := make([]float32, 96)
		h := hostTensor{typ: typ, nb: [4]int{typ.TypeSize()}, mem: raw}
		h.loadRow(0, got)
		if !bytes.Equal(f32Bytes(got), f32Bytes(want)) {
			t.Errorf("%v: backend %v, runtime %v", typ, got[:8], want[:8])
		}
	}
}

func f32Bytes(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return b
}

// TestEmptySources computes ops whose results have elements but whose
// sources (or some of them) have none.
func TestEmptySources(t *testing.T) {
	runOpCases(t, []opCase{
		{name: "concat with empty", build: func(b *tb) (*rt.Tensor, func() arr) {
			x := b.rand(rt.F32, 3, 2)
			out := b.ctx.Concat(x, b.ctx.NewTensor(rt.F32, 3, 0), 1)
			return out, func() arr { return read(x) }
		}},
		{name: "sum_rows of empty rows", build: func(b *tb) (*rt.Tensor, func() arr) {
			out := b.ctx.SumRows(b.ctx.NewTensor(rt.F32, 0, 3))
			return out, func() arr { return newArr(out.Ne) }
		}},
		// ARGMAX of empty rows is a build error on every backend (see
		// internal/backendcheck).
		{name: "sum of nothing", build: func(b *tb) (*rt.Tensor, func() arr) {
			out := b.ctx.Sum(b.ctx.NewTensor(rt.F32, 4, 0, 2))
			return out, func() arr { return newArr(out.Ne) }
		}},
	})
}

// TestProfileTimesEveryNode checks that SetProfile records one entry per
// computed node, the pool's shares of the parallel ops, and that
// SetProfile(nil) stops recording.
func TestProfileTimesEveryNode(t *testing.T) {
	g, _, free := smallGraph(t)
	defer free()
	for _, tc := range []struct {
		threads, grain int
		parallel       int // parallel ops per graph
	}{
		{threads: 1, grain: 1},
		{threads: 2, grain: 1, parallel: 2}, // ADD and SILU split over both workers
	} {
		b, _ := NewBackend(tc.threads)
		b.grain = tc.grain
		p := rt.NewProfile()
		b.SetProfile(p)
		for range 3 {
			if err := b.GraphCompute(g); err != nil {
				t.Fatal(err)
			}
		}
		r := p.Report()
		counts := map[string]int{}
		for _, row := range r.ByOp {
			counts[row.Name] = row.Count
		}
		if counts["ADD"] != 3 || counts["UNARY"]+counts["SILU"] != 3 || len(r.ByOp) != 2 {
			t.Errorf("%d threads: ops %+v, want ADD and SILU 3 times each", tc.threads, r.ByOp)
		}
		if r.OpTime <= 0 || r.Pool.Busy <= 0 {
			t.Errorf("%d threads: op time %v, pool busy %v; want both > 0", tc.threads, r.OpTime, r.Pool.Busy)
		}
		if r.Pool.Threads != tc.threads || r.Pool.Parallel != 3*tc.parallel {
			t.Errorf("%d threads: pool %+v, want %d threads and %d parallel ops", tc.threads, r.Pool, tc.threads, 3*tc.parallel)
		}
		// Wake-up time counts only shares a helper ran: on ops this small
		// the dispatcher often claims every share before a helper wakes.
		if r.Pool.Wake < 0 || r.Pool.Barrier < 0 {
			t.Errorf("%d threads: negative wait times %+v", tc.threads, r.Pool)
		}
		b.SetProfile(nil)
		p.Reset()
		if err := b.GraphCompute(g); err != nil {
			t.Fatal(err)
		}
		if r := p.Report(); len(r.ByOp) != 0 || r.Pool != (rt.PoolStat{}) {
			t.Errorf("%d threads: recorded after SetProfile(nil): %+v", tc.threads, r)
		}
		b.Close()
	}
}
