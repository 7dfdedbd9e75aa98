//go:build cgo

package wgpu

import (
	"os"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
	"github.com/gpurt/gpurt/runtime/optest"
	"github.com/gpurt/gpurt/shaders"
)

// TestWGSLErrorNamesShaderAndLine compiles a variant whose code calls a
// helper that its bindings do not generate (copy.wgsl's I32 path over F32
// bindings) and checks the error names the file and the line of the call.
func TestWGSLErrorNamesShaderAndLine(t *testing.T) {
	d := device(t)
	src, err := shaders.WGSL("copy.wgsl")
	if err != nil {
		t.Fatal(err)
	}
	line := 0
	for i, l := range strings.Split(src, "\n") {
		if strings.Contains(l, "ldei_a") {
			line = i + 1
		}
	}
	k := kern("copy.wgsl", 64, rt.F32, rt.F32).with("INT")
	d.mu.Lock()
	_, err = d.pipelineLocked(k)
	d.mu.Unlock()
	if err == nil {
		t.Fatal("broken variant compiled")
	}
	want := "copy.wgsl:" + strconv.Itoa(line) + ":"
	if !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "WebGPU0") {
		t.Fatalf("error %q does not name %s", err, want)
	}
	t.Log(err)
}

func TestPreprocess(t *testing.T) {
	src := "a\n#if X\nb\n#else\nc\n#endif\n#if !X\nd\n#endif\ne"
	for _, c := range []struct {
		flags []string
		want  string
	}{
		{nil, "a\n\n\n\nc\n\n\nd\n\ne"},
		{[]string{"X"}, "a\n\nb\n\n\n\n\n\n\ne"},
	} {
		got, err := preprocess("t", src, c.flags)
		if err != nil || got != c.want {
			t.Errorf("flags %v: got %q, %v; want %q", c.flags, got, err, c.want)
		}
	}
	for _, bad := range []string{"#if X\n", "#endif\n", "#else\n", "#define X\n"} {
		if _, err := preprocess("t", bad, nil); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// rss is the resident set size in bytes (Linux), or 0 where unknown.
func rss() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, _ := strconv.ParseInt(f[1], 10, 64)
	return pages * int64(os.Getpagesize())
}

// TestCreateFreeLoop allocates, uses and frees buffers and backends many
// times; wgpu's live-object counts and the process's memory must stay flat.
func TestCreateFreeLoop(t *testing.T) {
	d := device(t)
	round := func() {
		b, err := d.NewBackend()
		if err != nil {
			t.Fatal(err)
		}
		spec := graphSpec{build: func(ctx *rt.Context) *rt.Tensor {
			a := ctx.NewTensor(rt.F32, 256, 256).SetName("a")
			return ctx.Silu(ctx.Scale(a, 2, 0))
		}}
		spec.run(t, b, d.BufferType())
		if err := b.Close(); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < 5; i++ {
		round()
	}
	runtime.GC()
	rep0 := discovery.inst.GenerateReport().Hub
	rss0 := rss()
	const n = 150
	for i := 0; i < n; i++ {
		round()
	}
	runtime.GC()
	rep1 := discovery.inst.GenerateReport().Hub
	rss1 := rss()
	t.Logf("after %d rounds: buffers %d -> %d, bind groups %d -> %d, command buffers %d -> %d, rss %.1f -> %.1f MiB",
		n, rep0.Buffers.NumAllocated, rep1.Buffers.NumAllocated, rep0.BindGroups.NumAllocated, rep1.BindGroups.NumAllocated,
		rep0.CommandBuffers.NumAllocated, rep1.CommandBuffers.NumAllocated, float64(rss0)/(1<<20), float64(rss1)/(1<<20))
	if rep1.Buffers.NumAllocated > rep0.Buffers.NumAllocated+2 || rep1.CommandBuffers.NumAllocated > rep0.CommandBuffers.NumAllocated+2 {
		t.Errorf("wgpu objects grow: buffers %d -> %d, command buffers %d -> %d", rep0.Buffers.NumAllocated, rep1.Buffers.NumAllocated,
			rep0.CommandBuffers.NumAllocated, rep1.CommandBuffers.NumAllocated)
	}
	// Each round allocates 512 KiB of tensors; a leak of them would add
	// 75 MiB.
	if rss0 > 0 && rss1-rss0 > 16<<20 {
		t.Errorf("memory grows by %.1f MiB over %d rounds", float64(rss1-rss0)/(1<<20), n)
	}
}

// TestManySubmissions runs a graph longer than one submission's batch, so
// the params arena is rewritten between submissions.
func TestManySubmissions(t *testing.T) {
	perBatch := device(t).tune.batchDispatches
	compare(t, graphSpec{build: func(ctx *rt.Context) *rt.Tensor {
		x := ctx.NewTensor(rt.F32, 33, 3).SetName("x")
		b := ctx.NewTensor(rt.F32, 33).SetName("b")
		for i := 0; i < 3*perBatch+5; i++ {
			x = ctx.Scale(ctx.Add(x, b), 0.5, float32(i%3))
		}
		return x
	}}, 1e-10)
}

// TestF16Fallback opens a second device on the same adapter without
// shader-f16, so F16 goes through packed u32 words, and runs the harness's
// F16 and BF16 cases on it.
func TestF16Fallback(t *testing.T) {
	d := device(t)
	nd, err := openDevice(d.adapter, 1, openOptions{noF16: true})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := nd.close(); err != nil {
			t.Error(err)
		}
	}()
	if nd.f16 {
		t.Fatal("device has shader-f16")
	}
	b, err := nd.NewBackend()
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	// Every third case that reads or writes F16, BF16 or quantized data;
	// for MUL_MAT only the small-N ones (the large-N kernels' compile time
	// would dominate, and they load F16 with the same helpers).
	var ops []rt.Op
	for _, op := range rt.AllOps() {
		if op != rt.OpMulMat {
			ops = append(ops, op)
		}
	}
	sum := optest.RunT(t, b, optest.Filter{Ops: ops, Name: regexp.MustCompile(`f16|q8_0|q4_0`), Sample: 3})
	sum.Merge(optest.RunT(t, b, optest.Filter{Ops: []rt.Op{rt.OpMulMat}, Name: regexp.MustCompile(`type_a=(f16|q8_0|q4_0),m=\d+,n=[1-4],`)}))
	if sum.Failed > 0 || sum.Passed == 0 {
		t.Errorf("packed-f16 device: %s", sum)
	}
}

// TestLongRows covers rows long enough that one invocation per row would
// exceed llvmpipe's loop limit, so the kernels fall back to a workgroup per
// row there.
func TestLongRows(t *testing.T) {
	for _, n := range []int{1000, 23000, 70000} {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			compare(t, graphSpec{build: func(ctx *rt.Context) *rt.Tensor {
				a := ctx.NewTensor(rt.F32, n, 2).SetName("a")
				return ctx.Add(ctx.SoftMax(ctx.Norm(a, 1e-5), nil, 1), ctx.SumRows(a))
			}}, 1e-6)
		})
	}
}

// TestLoopBudget checks that SupportsOp refuses ops whose kernels would
// loop past the device's limit.
func TestLoopBudget(t *testing.T) {
	d := device(t)
	if d.loopBudget == 0 {
		t.Skipf("%s has no loop limit", d.name)
	}
	ctx := rt.NewContext()
	k := 4 * (d.loopBudget + 1)
	mm := ctx.MulMat(ctx.NewTensor(rt.F32, k, 2), ctx.NewTensor(rt.F32, k, 1))
	small := ctx.MulMat(ctx.NewTensor(rt.F32, 4096, 2), ctx.NewTensor(rt.F32, 4096, 1))
	sum := ctx.Sum(ctx.NewTensor(rt.F32, 4096, 4096))
	if err := ctx.Err(); err != nil {
		t.Fatal(err)
	}
	if d.SupportsOp(mm) || d.SupportsOp(sum) || !d.SupportsOp(small) {
		t.Errorf("SupportsOp: K=%d matmul %v, 16M-element sum %v, K=4096 matmul %v", k, d.SupportsOp(mm), d.SupportsOp(sum), d.SupportsOp(small))
	}
}

// TestBufferTypeKind checks that the host-visible type is not described as
// host memory (it is mapped per transfer and the CPU cannot compute on it).
func TestBufferTypeKind(t *testing.T) {
	for _, c := range []struct {
		bt   *bufferType
		want string
	}{
		{&bufferType{name: "WebGPU0"}, "device"},
		{&bufferType{name: "WebGPU0_Host", host: true}, "mappable device, mapped per transfer, not CPU-usable"},
	} {
		if got := c.bt.Kind(); got != c.want {
			t.Errorf("%s: Kind() = %q, want %q", c.bt.name, got, c.want)
		}
		if c.bt.IsHost() {
			t.Errorf("%s: IsHost() = true", c.bt.name)
		}
	}
}
