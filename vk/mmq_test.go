package vk

import (
	"errors"
	"io/fs"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gpurt/gpurt/cpu"
	rt "github.com/gpurt/gpurt/runtime"
	"github.com/gpurt/gpurt/runtime/optest"
)

// forceMMQ makes dev's MUL_MATs with Q8_0, Q4_0, Q4_K and Q6_K weights take the
// integer-dot path for the rest of the test, or skips the test where the
// device has no integer dot products.
func forceMMQ(t *testing.T, dev *Device) {
	t.Helper()
	if !dev.feat.integerDot {
		t.Skipf("%s has no shaderIntegerDotProduct", dev.name)
	}
	old := dev.mmq
	dev.mmq = mmqOn
	t.Cleanup(func() { dev.mmq = old })
}

// mmqPipelines counts the device's pipelines of the MMQ variants.
func mmqPipelines(dev *Device) map[string]int {
	dev.pipes.mu.Lock()
	defer dev.pipes.mu.Unlock()
	n := map[string]int{}
	for k := range dev.pipes.m {
		switch k.variant {
		case "quantize_q8_1", "mmq", "mmq_vec", "mmq_vec_nosg":
			n[k.variant]++
		}
	}
	return n
}

// TestMMQSelection checks when useMMQ picks the integer-dot path.
func TestMMQSelection(t *testing.T) {
	dev, _ := testDevice(t)
	old := dev.mmq
	defer func() { dev.mmq = old }()
	q8 := &rt.Tensor{Type: rt.Q8_0}
	q4 := &rt.Tensor{Type: rt.Q4_0}
	f16 := &rt.Tensor{Type: rt.F16}
	q4k := &rt.Tensor{Type: rt.Q4_K}
	q5k := &rt.Tensor{Type: rt.Q5_K}
	dot := dev.feat.integerDot
	for _, c := range []struct {
		name string
		mode mmqMode
		a    *rt.Tensor
		want bool
	}{
		{"forced q8_0", mmqOn, q8, dot},
		{"forced q4_0", mmqOn, q4, dot},
		{"forced f16", mmqOn, f16, false},
		{"forced q4_k", mmqOn, q4k, dot},
		{"forced q5_k", mmqOn, q5k, false},
		{"off q8_0", mmqOff, q8, false},
		{"auto q8_0", mmqAuto, q8, dot && (mmqEnv == mmqOn || (mmqEnv == mmqAuto && dev.tune.mmq))},
	} {
		dev.mmq = c.mode
		if got := dev.useMMQ(c.a, 4); got != c.want {
			t.Errorf("%s: useMMQ = %v, want %v", c.name, got, c.want)
		}
	}
	if dev.software && mmqEnv == mmqAuto {
		dev.mmq = mmqAuto
		if dev.useMMQ(q8, 1) {
			t.Errorf("software device %s takes MMQ by default", dev.name)
		}
	}
}

// TestMMQOpHarness runs the catalogue's Q8_0, Q4_0, Q4_K and Q6_K MUL_MAT cases
// through the integer-dot kernels against the CPU.
func TestMMQOpHarness(t *testing.T) {
	dev, be := testDevice(t)
	forceMMQ(t, dev)
	f := optest.Filter{Ops: []rt.Op{rt.OpMulMat}, Name: regexp.MustCompile(`type_a=(q8_0|q4_0|q4_K|q6_K),`)}
	sum := optest.Run(be, f, func(r optest.Result) {
		if r.Status != optest.OK {
			t.Errorf("%s: %v: %v (nmse %.3g)", r.Case, r.Status, r.Err, r.NMSE)
		}
	})
	t.Logf("MMQ op harness: %v", sum)
	if p := mmqPipelines(dev); p["quantize_q8_1"] == 0 || p["mmq"] == 0 || p[dev.variant("mmq_vec")] == 0 {
		t.Errorf("the MMQ kernels did not run: pipelines %v", p)
	}
}

// mmqCase is MUL_MAT(w [k, m, bs...], x [k, n, bs*nr...]), optionally
// with x transposed in memory and an F32 addend of shape add (fused).
type mmqCase struct {
	name       string
	m, n, k    int
	bs, nr     [2]int
	transposed bool
	add        []int
}

func (c mmqCase) build(wt rt.DType) buildFn {
	if bk := wt.BlockSize(); c.k%bk != 0 {
		c.k = (c.k + bk - 1) / bk * bk // 256 for the K-quants
	}
	return func(ctx *rt.Context) *rt.Tensor {
		bs, nr := c.bs, c.nr
		if bs == [2]int{} {
			bs = [2]int{1, 1}
		}
		if nr == [2]int{} {
			nr = [2]int{1, 1}
		}
		w := ctx.NewTensor(wt, c.k, c.m, bs[0], bs[1]).SetName("w")
		var x *rt.Tensor
		if c.transposed {
			x = ctx.Transpose(ctx.NewTensor(rt.F32, c.n, c.k, bs[0]*nr[0], bs[1]*nr[1]).SetName("x"))
		} else {
			x = ctx.NewTensor(rt.F32, c.k, c.n, bs[0]*nr[0], bs[1]*nr[1]).SetName("x")
		}
		mm := ctx.MulMat(w, x)
		if c.add != nil {
			return ctx.Add(mm, ctx.NewTensor(rt.F32, c.add...).SetName("addend"))
		}
		return mm
	}
}

// mmqCases cover N from 1 to 33 (every mat-vec width and the tiled
// kernel's tails), N = 512, odd M, broadcast batches, a strided src1 and
// the fused bias and residual.
func mmqCases() []mmqCase {
	var cs []mmqCase
	for _, n := range []int{1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 31, 32, 33} {
		cs = append(cs, mmqCase{name: "n", m: 37, n: n, k: 256})
	}
	return append(cs,
		mmqCase{name: "n=512", m: 67, n: 512, k: 256},
		mmqCase{name: "one block", m: 5, n: 70, k: 32},
		mmqCase{name: "m=1", m: 1, n: 3, k: 96},
		mmqCase{name: "mat-vec batches", m: 19, n: 2, k: 128, bs: [2]int{3, 2}, nr: [2]int{2, 1}},
		mmqCase{name: "tiled batches", m: 33, n: 17, k: 64, bs: [2]int{2, 1}, nr: [2]int{2, 3}},
		mmqCase{name: "mat-vec strided x", m: 21, n: 3, k: 128, transposed: true},
		mmqCase{name: "tiled strided x", m: 21, n: 40, k: 128, bs: [2]int{2, 1}, transposed: true},
		mmqCase{name: "mat-vec+bias", m: 40, n: 1, k: 128, add: []int{40}},
		mmqCase{name: "mat-vec+residual", m: 40, n: 5, k: 128, bs: [2]int{3, 1}, add: []int{40, 5, 3}},
		mmqCase{name: "tiled+bias per batch", m: 70, n: 65, k: 64, bs: [2]int{2, 1}, add: []int{70, 1, 2}},
		mmqCase{name: "tiled+residual", m: 70, n: 65, k: 64, add: []int{70, 65}},
	)
}

// TestMMQMatMul runs mmqCases with Q8_0, Q4_0, Q4_K and Q6_K weights through the
// integer-dot kernels (with and without subgroup arithmetic in the
// mat-vec reduction) against the CPU at ggml's MUL_MAT NMSE bound, and
// checks that each fused ADD ran inside the product's dispatch.
func TestMMQMatMul(t *testing.T) {
	dev, be := testDevice(t)
	forceMMQ(t, dev)
	cpuBe := cpuBackend(t)
	arith := dev.subgroupArith
	defer func() { dev.subgroupArith = arith }()
	for _, wt := range []rt.DType{rt.Q8_0, rt.Q4_0, rt.Q4_K, rt.Q6_K} {
		for _, c := range mmqCases() {
			builds := []bool{arith}
			if arith && c.n <= matVecMaxN && (c.n == 1 || c.n == 5 || c.add != nil) {
				// The _nosg build differs in the mat-vec reduction only:
				// one column, eight (a pipeline each) and the fused ADD.
				builds = append(builds, false)
			}
			for _, sg := range builds {
				dev.subgroupArith = sg
				name := wt.String() + " " + c.name
				if c.name == "n" {
					name += "=" + strconv.Itoa(c.n)
				}
				if !sg {
					name += " nosg"
				}
				t.Run(name, func(t *testing.T) {
					want := runGraph(t, cpuBe, cpu.BufferType(), c.build(wt), nil)
					before := be.Stats()
					got := runGraph(t, be, dev.BufferType(), c.build(wt), nil)
					after := be.Stats()
					e := optest.NMSE(got, want)
					if !(e <= 5e-4) {
						t.Errorf("NMSE %.3g against the CPU exceeds 5e-4", e)
					}
					wantDispatches := 2 // quantize, product (the ADD fused)
					if n := after.Dispatches - before.Dispatches; n != wantDispatches {
						t.Errorf("%d dispatches, want %d", n, wantDispatches)
					}
					t.Logf("NMSE %.3g", e)
				})
			}
		}
	}
}

// TestMMQScratchGrows runs a small product and then one needing a larger
// scratch in one graph (the backend submits, replaces the scratch and
// frees the old one after the queue is done with it) and again, each
// against the CPU.
func TestMMQScratchGrows(t *testing.T) {
	dev, be := testDevice(t)
	forceMMQ(t, dev)
	build := func(ctx *rt.Context) *rt.Tensor {
		w1 := ctx.NewTensor(rt.Q8_0, 64, 16).SetName("w1")
		x1 := ctx.NewTensor(rt.F32, 64, 3).SetName("x1")
		small := ctx.MulMat(w1, x1) // [16, 3]
		w2 := ctx.NewTensor(rt.Q4_0, 2048, 3).SetName("w2")
		x2 := ctx.NewTensor(rt.F32, 2048, 700).SetName("x2") // 1.75 MB of scratch
		big := ctx.MulMat(w2, x2)                            // [3, 700]
		return ctx.Add(ctx.MulMat(ctx.Cont(ctx.Transpose(small)), big), ctx.NewTensor(rt.F32, 16, 700).SetName("r"))
	}
	want := runGraph(t, cpuBackend(t), cpu.BufferType(), build, nil)
	be.destroyScratch() // start from none
	for i := 0; i < 2; i++ {
		got := runGraph(t, be, dev.BufferType(), build, nil)
		if e := optest.NMSE(got, want); !(e <= 5e-4) {
			t.Errorf("run %d: NMSE %.3g against the CPU exceeds 5e-4", i, e)
		}
	}
	if be.mmq.buf == nil || be.mmq.buf.size < 2048/32*700*40 {
		t.Errorf("scratch %v not grown to the large product's", be.mmq.buf)
	}
}

// TestMMQGGMLOracle runs upstream ggml's Q8_0, Q4_0, Q4_K and Q6_K MUL_MAT vectors
// through the integer-dot kernels.
func TestMMQGGMLOracle(t *testing.T) {
	dev, be := testDevice(t)
	forceMMQ(t, dev)
	cases, err := optest.LoadGGMLOracle(oracleDir)
	if errors.Is(err, fs.ErrNotExist) {
		t.Skipf("ggml oracle data absent: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, c := range cases {
		if dt, err := rt.ParseDType(c.WType); c.Kind != "mul_mat" || err != nil || !mmqWeight(dt) {
			continue
		}
		optest.CheckGGMLOracleCase(t, be, oracleDir, c)
		ran++
	}
	if ran == 0 {
		t.Fatal("no MUL_MAT case of the MMQ weight types in the oracle data")
	}
	t.Logf("%d ggml cases", ran)
}

// TestMMQScratchReleased leaves a backend whose scratch was replaced once
// (the old one waiting on the queue) open when the device is released:
// the validation layer, which reports every object still alive, must
// stay silent.
func TestMMQScratchReleased(t *testing.T) {
	dev, _ := testDevice(t)
	forceMMQ(t, dev)
	start := logSize()
	nb, err := dev.NewBackend()
	if err != nil {
		t.Fatal(err)
	}
	be := nb.(*Backend)
	for _, n := range []int{1, 900} { // 1 MiB of scratch, then 1.1 MiB
		c := mmqCase{m: 8, n: n, k: 1024}
		runGraph(t, be, dev.BufferType(), c.build(rt.Q8_0), nil)
	}
	if be.mmq.buf == nil {
		t.Fatal("no scratch")
	}
	err = releaseShared()
	if err == nil || !strings.Contains(err.Error(), "1 backend") {
		t.Fatalf("release error %v, want one naming the open backend", err)
	}
	if msgs := validationMessages(start); msgs != "" {
		t.Fatalf("validation layer after release:\n%s", msgs)
	}
	if be.mmq.buf != nil {
		t.Error("the released backend kept its scratch")
	}
	if err := be.Close(); err != nil {
		t.Errorf("close after release: %v", err)
	}
}

// TestMMQFallsBack checks that forcing MMQ does nothing on a device
// without integer dot products, and that a product whose scratch would
// exceed maxStorageBufferRange runs through the float kernels (one
// dispatch), still right.
func TestMMQFallsBack(t *testing.T) {
	dev, be := testDevice(t)
	forceMMQ(t, dev)
	dev.feat.integerDot = false
	if dev.useMMQ(&rt.Tensor{Type: rt.Q8_0}, 1) {
		t.Error("MMQ chosen without integer dot products")
	}
	dev.feat.integerDot = true

	c := mmqCase{m: 8, n: 1300, k: 1024} // 1.6 MiB of scratch
	want := runGraph(t, cpuBackend(t), cpu.BufferType(), c.build(rt.Q8_0), nil)
	ctx := rt.NewContext()
	out := c.build(rt.Q8_0)(ctx)
	g, err := ctx.BuildGraph(out)
	if err != nil {
		t.Fatal(err)
	}
	alloc(t, ctx, dev.BufferType())
	fillLeaves(t, g, nil)
	limit := dev.lim.maxStorageRange
	dev.lim.maxStorageRange = 1 << 20 // what the planner sees; the real limit is larger
	defer func() { dev.lim.maxStorageRange = limit }()
	before := be.Stats()
	got := computeF32(t, be, g, out)
	if n := be.Stats().Dispatches - before.Dispatches; n != 1 {
		t.Errorf("%d dispatches, want the float kernel's 1", n)
	}
	if e := optest.NMSE(got, want); !(e <= 5e-4) {
		t.Errorf("NMSE %.3g against the CPU exceeds 5e-4", e)
	}
}

// TestMMQSharedSrc1 checks that products sharing src1 quantize it once
// per graph compute, and again after a node rewrites it or the host does
// between computes, each against the CPU (fusion off, so that dispatches
// count nodes).
func TestMMQSharedSrc1(t *testing.T) {
	dev, be := testDevice(t)
	forceMMQ(t, dev)
	be.SetFusion(false)
	defer be.SetFusion(fusionDefault())
	cpuBe := cpuBackend(t)
	for _, c := range []struct {
		name       string
		build      buildFn
		dispatches int
	}{
		{"three products of x", func(ctx *rt.Context) *rt.Tensor {
			x := ctx.NewTensor(rt.F32, 128, 3).SetName("x")
			mm := func(name string, wt rt.DType) *rt.Tensor {
				return ctx.MulMat(ctx.NewTensor(wt, 128, 24).SetName(name), x)
			}
			return ctx.Add(ctx.Add(mm("wq", rt.Q8_0), mm("wk", rt.Q4_0)), mm("wv", rt.Q8_0))
		}, 1 + 3 + 2},
		{"x rewritten between products", func(ctx *rt.Context) *rt.Tensor {
			x := ctx.NewTensor(rt.F32, 128, 3).SetName("x")
			mm1 := ctx.MulMat(ctx.NewTensor(rt.Q8_0, 128, 24).SetName("w1"), x)
			x2 := ctx.Cpy(ctx.NewTensor(rt.F32, 128, 3).SetName("y"), x) // writes x's memory
			mm2 := ctx.MulMat(ctx.NewTensor(rt.Q8_0, 128, 24).SetName("w2"), x2)
			return ctx.Add(mm1, mm2)
		}, 2 + 1 + 2 + 1},
		{"same x, other columns", func(ctx *rt.Context) *rt.Tensor {
			x := ctx.NewTensor(rt.F32, 128, 4).SetName("x")
			w := ctx.NewTensor(rt.Q4_0, 128, 24).SetName("w")
			return ctx.Add(ctx.MulMat(w, ctx.View2D(x, 128, 2, x.Nb[1], 0)), ctx.MulMat(w, ctx.View2D(x, 128, 2, x.Nb[1], 2*x.Nb[1])))
		}, 2 + 2 + 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			want := runGraph(t, cpuBe, cpu.BufferType(), c.build, nil)
			before := be.Stats()
			got := runGraph(t, be, dev.BufferType(), c.build, nil)
			if n := be.Stats().Dispatches - before.Dispatches; n != c.dispatches {
				t.Errorf("%d dispatches, want %d", n, c.dispatches)
			}
			if e := optest.NMSE(got, want); !(e <= 5e-4) {
				t.Errorf("NMSE %.3g against the CPU exceeds 5e-4", e)
			}
		})
	}

	// The host rewrites x between two computes of one graph.
	ctx := rt.NewContext()
	x := ctx.NewTensor(rt.F32, 64, 2).SetName("x")
	out := ctx.MulMat(ctx.NewTensor(rt.Q8_0, 64, 8).SetName("w"), x)
	g, err := ctx.BuildGraph(out)
	if err != nil {
		t.Fatal(err)
	}
	alloc(t, ctx, dev.BufferType())
	fillLeaves(t, g, nil)
	first := computeF32(t, be, g, out)
	xs := make([]float32, 128)
	for i := range xs {
		xs[i] = 2 * float32(i%7)
	}
	if err := rt.TensorSetF32(x, xs); err != nil {
		t.Fatal(err)
	}
	second := computeF32(t, be, g, out)
	if optest.NMSE(second, first) < 1e-2 {
		t.Error("the second compute did not see the host's new x")
	}
}
