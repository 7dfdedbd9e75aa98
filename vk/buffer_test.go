package vk

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
)

func TestBufferErrors(t *testing.T) {
	dev, _ := testDevice(t)
	bt := dev.BufferType()
	if _, err := bt.Alloc(-1); err == nil {
		t.Error("negative size accepted")
	}
	_, err := bt.Alloc(bt.MaxSize() + 1)
	if err == nil || !strings.Contains(err.Error(), "Vulkan0") {
		t.Errorf("oversized alloc: %v (want an error naming the device)", err)
	}
	empty, err := bt.Alloc(0)
	if err != nil || empty.Size() != 0 {
		t.Fatalf("zero-size buffer: %v", err)
	}
	if err := empty.Free(); err != nil {
		t.Error(err)
	}

	ctx := rt.NewContext()
	a := ctx.NewTensor(rt.F32, 8).SetName("a")
	buf := alloc(t, ctx, bt)
	if err := rt.TensorSet(a, make([]byte, 36), 0); err == nil {
		t.Error("write past the tensor accepted")
	}
	if err := a.Buffer.SetTensor(a, make([]byte, 8), buf.Size()); err == nil {
		t.Error("buffer accepted a write past its end")
	}
	if err := a.Buffer.GetTensor(a, make([]byte, 8), -4); err == nil {
		t.Error("buffer accepted a negative offset")
	}
	if err := a.Buffer.MemsetTensor(a, 0, 0, buf.Size()+1); err == nil {
		t.Error("buffer accepted an oversized memset")
	}
	other := &rt.Tensor{Type: rt.F32, Ne: [4]int{1, 1, 1, 1}, Nb: [4]int{4, 4, 4, 4}, Name: "stray"}
	if err := a.Buffer.SetTensor(other, make([]byte, 4), 0); err == nil {
		t.Error("buffer accepted a tensor placed elsewhere")
	}

	b2, err := bt.Alloc(64)
	if err != nil {
		t.Fatal(err)
	}
	if err := b2.Free(); err != nil {
		t.Fatal(err)
	}
	if err := b2.Free(); err != nil {
		t.Errorf("second free: %v, want a no-op as on every backend", err)
	}
	if err := b2.Clear(0); !errors.Is(err, rt.ErrClosed) {
		t.Errorf("clear after free: %v, want ErrClosed", err)
	}
}

// TestBufferTransfers covers set, get, memset, clear and copy on every
// buffer type, including device-local buffers forced through staging
// (the path of discrete GPUs, whose device memory the host cannot map) and
// BAR-style buffers (host writes mapped, reads staged).
func TestBufferTransfers(t *testing.T) {
	dev, _ := testDevice(t)
	staged := &BufferType{dev: dev, memType: dev.localType, staged: true}
	rebar := &BufferType{dev: dev, memType: dev.localType, stagedReads: true}
	for _, bt := range []*BufferType{dev.localBT, dev.hostBT, staged, rebar} {
		t.Run(bt.Name()+map[bool]string{true: "_staged"}[bt.staged]+map[bool]string{true: "_rebar"}[bt.stagedReads], func(t *testing.T) {
			ctx := rt.NewContext()
			a := ctx.NewTensor(rt.I32, 37).SetName("a")
			b := ctx.NewTensor(rt.I32, 37).SetName("b")
			buf := alloc(t, ctx, bt)
			data := make([]byte, a.Nbytes())
			for i := range data {
				data[i] = byte(i*7 + 1)
			}
			if err := rt.TensorSet(a, data, 0); err != nil {
				t.Fatal(err)
			}
			if err := rt.TensorSet(a, []byte{9, 8, 7}, 5); err != nil { // unaligned
				t.Fatal(err)
			}
			copy(data[5:], []byte{9, 8, 7})
			got := make([]byte, len(data))
			if err := rt.TensorGet(a, got, 0); err != nil || !bytes.Equal(got, data) {
				t.Fatalf("get: %v\n got %v\nwant %v", err, got, data)
			}
			part := make([]byte, 3)
			if err := rt.TensorGet(a, part, 5); err != nil || !bytes.Equal(part, []byte{9, 8, 7}) {
				t.Fatalf("unaligned get: %v %v", err, part)
			}
			if err := rt.TensorCopy(a, b); err != nil {
				t.Fatal(err)
			}
			if err := rt.TensorGet(b, got, 0); err != nil || !bytes.Equal(got, data) {
				t.Fatalf("copy: %v", err)
			}
			for _, r := range [][2]int{{0, 148}, {3, 9}, {4, 8}} {
				if err := rt.TensorMemset(b, 0x5a, r[0], r[1]); err != nil {
					t.Fatal(err)
				}
				copy(data[r[0]:r[0]+r[1]], bytes.Repeat([]byte{0x5a}, r[1]))
			}
			if err := rt.TensorGet(b, got, 0); err != nil || !bytes.Equal(got, data) {
				t.Fatalf("memset: %v\n got %v\nwant %v", err, got, data)
			}
			if err := buf.Clear(0x11); err != nil {
				t.Fatal(err)
			}
			if err := rt.TensorGet(a, got, 0); err != nil || !bytes.Equal(got, bytes.Repeat([]byte{0x11}, len(got))) {
				t.Fatalf("clear: %v %v", err, got)
			}
			hb, ok := buf.(rt.HostBuffer)
			if ok != bt.host {
				t.Fatalf("buffer implements HostBuffer: %v, type is host: %v", ok, bt.host)
			}
			if ok {
				if mem := hb.Bytes(); len(mem) != buf.Size() || mem[0] != 0x11 {
					t.Errorf("host buffer bytes: %d bytes, want %d", len(mem), buf.Size())
				}
			}
		})
	}
}

// TestHostBufferShared checks that a host-visible buffer's memory, written
// by the CPU through Bytes, is what shaders read, and that results land
// there without copies.
func TestHostBufferShared(t *testing.T) {
	dev, be := testDevice(t)
	ctx := rt.NewContext()
	a := ctx.NewTensor(rt.F32, 16).SetName("a")
	c := ctx.Scale(a, 2, 1)
	g, err := ctx.BuildGraph(c)
	if err != nil {
		t.Fatal(err)
	}
	buf := alloc(t, ctx, dev.HostBufferType())
	mem := buf.(rt.HostBuffer).Bytes()
	vals := make([]float32, 16)
	for i := range vals {
		vals[i] = float32(i)
	}
	raw := make([]byte, 64)
	if err := rt.QuantizeRow(rt.F32, vals, raw); err != nil {
		t.Fatal(err)
	}
	copy(mem[a.Offset:], raw)
	if err := be.GraphCompute(g); err != nil {
		t.Fatal(err)
	}
	if err := be.Synchronize(); err != nil {
		t.Fatal(err)
	}
	out, err := rt.DecodeF32(c, mem[c.Offset:c.Offset+c.Nbytes()])
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range out {
		if v != 2*vals[i]+1 {
			t.Fatalf("out[%d] = %v, want %v", i, v, 2*vals[i]+1)
		}
	}
}

// TestCreateFreeLoop creates and frees backends, buffers, events and
// graphs in a loop; device memory must return to zero and the process's
// memory must stay flat.
func TestCreateFreeLoop(t *testing.T) {
	if syncValidation {
		// Synchronization validation keeps per-submission history that
		// grows the process; measure in a child without it.
		cmd := exec.Command(os.Args[0], "-test.run=^TestCreateFreeLoop$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), "GPURT_VK_SYNC_VALIDATION=0", "VK_LAYER_ENABLES=")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("child: %v\n%s", err, out)
		}
		for _, l := range strings.Split(string(out), "\n") {
			if strings.Contains(l, "resident memory") {
				t.Log(strings.TrimSpace(l))
			}
		}
		return
	}
	dev, _ := testDevice(t)
	iter := func() {
		be, err := dev.NewBackend()
		if err != nil {
			t.Fatal(err)
		}
		ev, err := dev.NewEvent()
		if err != nil {
			t.Fatal(err)
		}
		for _, bt := range []rt.BufferType{dev.BufferType(), dev.HostBufferType()} {
			ctx := rt.NewContext()
			a := ctx.NewTensor(rt.F32, 1024).SetName("a")
			b := ctx.NewTensor(rt.F32, 1024).SetName("b")
			c := ctx.Mul(ctx.Add(a, b), b)
			g, err := ctx.BuildGraph(c)
			if err != nil {
				t.Fatal(err)
			}
			buf, err := rt.AllocContextTensors(ctx, bt)
			if err != nil {
				t.Fatal(err)
			}
			if err := rt.TensorSetF32(a, make([]float32, 1024)); err != nil {
				t.Fatal(err)
			}
			if err := be.GraphCompute(g); err != nil {
				t.Fatal(err)
			}
			if err := ev.Record(be); err != nil {
				t.Fatal(err)
			}
			if err := ev.Synchronize(); err != nil {
				t.Fatal(err)
			}
			if err := buf.Free(); err != nil {
				t.Fatal(err)
			}
		}
		ev.Free()
		if err := be.Close(); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < 100; i++ { // warm up caches and pools
		iter()
	}
	// A leak grows with every iteration; allocator noise (about ±2 MiB
	// here) does not. Measure four equal stretches and fail only when
	// every one of them grew.
	var rssAt [5]int64
	for s := range rssAt {
		if s > 0 {
			for i := 0; i < loopIters; i++ {
				iter()
			}
		}
		runtime.GC()
		rssAt[s] = rss(t)
	}
	minGrowth := int64(1 << 62)
	for s := 1; s < len(rssAt); s++ {
		minGrowth = min(minGrowth, rssAt[s]-rssAt[s-1])
	}
	t.Logf("resident memory after each stretch of %d iterations: %v KiB", loopIters, func() (k []int64) {
		for _, r := range rssAt {
			k = append(k, r>>10)
		}
		return k
	}())
	if minGrowth > 1<<20 {
		t.Errorf("resident memory grew by over 1 MiB in every stretch: %v", rssAt)
	}
	if n := dev.pool(dev.localType).allocated() + dev.pool(dev.hostType).allocated(); n != 0 {
		// Other tests' buffers may be live only while they run; none are now.
		t.Errorf("%d bytes of device memory still allocated", n)
	}
}

// rss is the process's resident set size in bytes.
func rss(t *testing.T) int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		t.Skip("no /proc/self/statm")
	}
	f := strings.Fields(string(b))
	pages, _ := strconv.ParseInt(f[1], 10, 64)
	return pages * int64(os.Getpagesize())
}

var loopIters = func() int { n, _ := strconv.Atoi(os.Getenv("LOOPS")); return max(n, 200) }()

// TestHostBufferOnCPU computes on the CPU backend over tensors in a Vulkan
// host-visible buffer, then on Vulkan over the CPU's results: the memory is
// shared, with no copies.
func TestHostBufferOnCPU(t *testing.T) {
	dev, be := testDevice(t)
	cb := cpuBackend(t)
	if !cb.Device().SupportsBufferType(dev.HostBufferType()) {
		t.Fatal("the CPU device does not take Vulkan host buffers")
	}
	ctx := rt.NewContext()
	a := ctx.NewTensor(rt.F32, 64).SetName("a")
	onCPU := ctx.Scale(a, 3, 0)
	onVK := ctx.Scale(onCPU, 1, 0.5)
	gCPU, err := ctx.BuildGraph(onCPU)
	if err != nil {
		t.Fatal(err)
	}
	gVK := &rt.Graph{Nodes: []*rt.Tensor{onVK}} // only the last node
	alloc(t, ctx, dev.HostBufferType())
	vals := make([]float32, 64)
	for i := range vals {
		vals[i] = float32(i)
	}
	if err := rt.TensorSetF32(a, vals); err != nil {
		t.Fatal(err)
	}
	if err := cb.GraphCompute(gCPU); err != nil {
		t.Fatal(err)
	}
	got := computeF32(t, be, gVK, onVK)
	for i, v := range got {
		if want := 3*vals[i] + 0.5; v != want {
			t.Fatalf("element %d: %v, want %v", i, v, want)
		}
	}
}
