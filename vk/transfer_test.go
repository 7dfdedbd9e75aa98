package vk

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/gpurt/gpurt/bench"
	rt "github.com/gpurt/gpurt/runtime"
	vk "github.com/vulkan-go/vulkan"
)

// transferTypes are the device-local buffer types whose transfers go
// through the device's transfer stream: all staged (a discrete GPU's
// device memory) and BAR-style (writes mapped, reads staged).
func transferTypes(dev *Device) map[string]*BufferType {
	return map[string]*BufferType{
		"staged": {dev: dev, memType: dev.localType, staged: true},
		"rebar":  {dev: dev, memType: dev.localType, stagedReads: true},
	}
}

// batchPending reports whether transfers are recorded on the device's
// transfer stream and not yet submitted.
func batchPending(dev *Device) bool {
	dev.xferMu.Lock()
	defer dev.xferMu.Unlock()
	return dev.xfer != nil && dev.xfer.cur != nil
}

func f32Bytes(t *testing.T, v []float32) []byte {
	t.Helper()
	b := make([]byte, 4*len(v))
	if err := rt.QuantizeRow(rt.F32, v, b); err != nil {
		t.Fatal(err)
	}
	return b
}

// TestUploadsDoNotWait checks that staged uploads return before the GPU has
// run them (the commands stay batched on the transfer stream) and that
// every reader is ordered after them: a graph computed on a backend right
// after (its submission flushes the batch first), a download of the same
// bytes written twice, a device-side copy and memset, and a free of the
// buffer a batched upload writes. The validation layer (synchronization
// validation included) must stay silent.
func TestUploadsDoNotWait(t *testing.T) {
	dev, be := testDevice(t)
	for name, bt := range transferTypes(dev) {
		t.Run(name, func(t *testing.T) {
			checkValidation(t)
			ctx := rt.NewContext()
			a := ctx.NewTensor(rt.F32, 64).SetName("a")
			b := ctx.NewTensor(rt.F32, 64).SetName("b")
			c := ctx.Add(a, b)
			x := ctx.NewTensor(rt.I32, 8).SetName("x")
			y := ctx.NewTensor(rt.I32, 8).SetName("y")
			g, err := ctx.BuildGraph(c)
			if err != nil {
				t.Fatal(err)
			}
			alloc(t, ctx, bt)
			av, bv := make([]float32, 64), make([]float32, 64)
			for i := range av {
				av[i], bv[i] = float32(i), float32(-3*i)
			}

			// Set without a wait, then compute, then get.
			for _, s := range []struct {
				t *rt.Tensor
				v []float32
			}{{a, av}, {b, bv}} {
				if err := rt.TensorSet(s.t, f32Bytes(t, s.v), 0); err != nil {
					t.Fatal(err)
				}
			}
			if name == "staged" && !batchPending(dev) {
				t.Error("a staged upload was submitted at once; want it batched")
			}
			if err := be.GraphCompute(g); err != nil {
				t.Fatal(err)
			}
			if batchPending(dev) {
				t.Error("the backend submitted its graph before the batched uploads")
			}
			got, err := rt.TensorGetF32(c) // no Synchronize: the download is queued after
			if err != nil {
				t.Fatal(err)
			}
			for i, v := range got {
				if want := av[i] + bv[i]; v != want {
					t.Fatalf("c[%d] = %v, want %v", i, v, want)
				}
			}
			if err := be.Synchronize(); err != nil {
				t.Fatal(err)
			}

			// Set, set (overlapping, and unaligned), get the same bytes.
			first := i32Bytes(1, 2, 3, 4, 5, 6, 7, 8)
			want := bytes.Clone(first)
			if err := rt.TensorSet(x, first, 0); err != nil {
				t.Fatal(err)
			}
			if err := rt.TensorSet(x, i32Bytes(40, 50), 12); err != nil {
				t.Fatal(err)
			}
			copy(want[12:], i32Bytes(40, 50))
			if err := rt.TensorSet(x, []byte{0xee, 0xdd, 0xcc}, 1); err != nil {
				t.Fatal(err)
			}
			copy(want[1:], []byte{0xee, 0xdd, 0xcc})
			gotX := make([]byte, len(want))
			if err := rt.TensorGet(x, gotX, 0); err != nil || !bytes.Equal(gotX, want) {
				t.Fatalf("set, set, get: %v\n got %v\nwant %v", err, gotX, want)
			}

			// Set, device copy, memset the source, get both.
			if err := rt.TensorSet(x, first, 0); err != nil {
				t.Fatal(err)
			}
			if err := rt.TensorCopy(x, y); err != nil {
				t.Fatal(err)
			}
			if err := rt.TensorMemset(x, 0x7f, 0, 32); err != nil {
				t.Fatal(err)
			}
			if err := rt.TensorGet(y, gotX, 0); err != nil || !bytes.Equal(gotX, first) {
				t.Fatalf("set, copy, memset source, get copy: %v\n got %v\nwant %v", err, gotX, first)
			}
			if err := rt.TensorGet(x, gotX, 0); err != nil || !bytes.Equal(gotX, bytes.Repeat([]byte{0x7f}, 32)) {
				t.Fatalf("memset: %v: got %v", err, gotX)
			}
		})
	}
}

// TestSetThenFree frees a buffer right after a batched upload into it: the
// free must submit the batch and defer the VkBuffer's destruction until it
// has run (the validation layer reports a buffer destroyed in use), and a
// large upload (several staging chunks, some in flight) then a free must
// not wait either.
func TestSetThenFree(t *testing.T) {
	dev, _ := testDevice(t)
	for name, bt := range transferTypes(dev) {
		for _, n := range []int{16, stagingChunk + 4096} {
			ctx := rt.NewContext()
			x := ctx.NewTensor(rt.I32, n/4).SetName("x")
			buf, err := rt.AllocContextTensors(ctx, bt)
			if err != nil {
				t.Fatal(err)
			}
			if err := rt.TensorSet(x, bytes.Repeat([]byte{3}, n), 0); err != nil {
				t.Fatal(err)
			}
			if err := buf.Free(); err != nil {
				t.Fatalf("%s, %d bytes: free: %v", name, n, err)
			}
			if batchPending(dev) {
				t.Errorf("%s, %d bytes: Free left the upload unsubmitted", name, n)
			}
		}
	}
	// The deferred frees complete with the next covering fence.
	ctx := rt.NewContext()
	z := ctx.NewTensor(rt.I32, 1).SetName("z")
	alloc(t, ctx, transferTypes(dev)["staged"])
	if err := rt.TensorGet(z, make([]byte, 4), 0); err != nil {
		t.Fatal(err)
	}
	dev.graveMu.Lock()
	left := len(dev.grave)
	dev.graveMu.Unlock()
	if left != 0 {
		t.Errorf("%d deferred frees left after a download waited for the queue", left)
	}
}

// TestPickMemoryTypes checks the memory type choice on the tables of
// common devices: pure device memory for device buffers, cached coherent
// host memory for host buffers, and the BAR type with what goes there.
func TestPickMemoryTypes(t *testing.T) {
	const (
		dl = vk.MemoryPropertyFlags(vk.MemoryPropertyDeviceLocalBit)
		hv = vk.MemoryPropertyFlags(vk.MemoryPropertyHostVisibleBit)
		hc = vk.MemoryPropertyFlags(vk.MemoryPropertyHostCoherentBit)
		ca = vk.MemoryPropertyFlags(vk.MemoryPropertyHostCachedBit)
		mi = uint64(1 << 20)
		gi = uint64(1 << 30)
	)
	window := barPlacement{maxBuffer: barWindowBuffer, budget: 128 * mi}
	for _, tc := range []struct {
		name             string
		types            []memType
		heaps            []uint64
		local, host, bar int
		place            barPlacement
	}{
		{"lavapipe: one type for everything", []memType{{dl | hv | hc | ca, 0}}, []uint64{2 * gi},
			0, 0, -1, barPlacement{}},
		{"nvidia without ReBAR: a 256 MiB window", []memType{{dl, 0}, {hv | hc, 1}, {hv | hc | ca, 1}, {dl | hv | hc, 2}}, []uint64{24 * gi, 64 * gi, 256 * mi},
			0, 2, 3, window},
		{"nvidia with ReBAR", []memType{{dl, 0}, {hv | hc, 1}, {hv | hc | ca, 1}, {dl | hv | hc, 0}}, []uint64{24 * gi, 64 * gi},
			0, 2, 3, barPlacement{all: true}},
		{"amd with Smart Access Memory", []memType{{dl, 0}, {hv | hc, 1}, {dl | hv | hc, 0}, {hv | hc | ca, 1}}, []uint64{16 * gi, 32 * gi},
			0, 3, 2, barPlacement{all: true}},
		{"amd without: the window heap", []memType{{dl, 0}, {hv | hc, 1}, {dl | hv | hc, 2}, {hv | hc | ca, 1}}, []uint64{8 * gi, 16 * gi, 256 * mi},
			0, 3, 2, window},
		{"a window in the main heap is still small", []memType{{dl, 0}, {hv | hc | ca, 1}, {dl | hv | hc, 0}}, []uint64{256 * mi, 8 * gi},
			0, 1, 2, window},
		{"two windows: the main heap's first", []memType{{dl, 0}, {dl | hv | hc, 2}, {hv | hc, 1}, {dl | hv | hc, 0}}, []uint64{12 * gi, 16 * gi, 256 * mi},
			0, 2, 3, barPlacement{all: true}},
		{"intel integrated: cached BAR", []memType{{dl, 0}, {dl | hv | hc, 0}, {dl | hv | hc | ca, 0}}, []uint64{16 * gi},
			0, 2, 2, barPlacement{all: true}},
		{"amd APU: device memory is mapped anyway", []memType{{dl | hv | hc, 0}, {hv | hc | ca, 1}}, []uint64{512 * mi, 16 * gi},
			0, 1, -1, barPlacement{}},
		{"no BAR: non-coherent only", []memType{{dl, 0}, {hv | ca, 1}, {hv | hc, 1}, {dl | hv, 0}}, []uint64{8 * gi, 16 * gi},
			0, 2, -1, barPlacement{}},
	} {
		local, host := pickMemoryTypes(tc.types)
		bar, place := pickBAR(tc.types, tc.heaps, local)
		if local != tc.local || host != tc.host || bar != tc.bar || place != tc.place {
			t.Errorf("%s: local %d host %d bar %d %+v; want %d %d %d %+v", tc.name, local, host, bar, place, tc.local, tc.host, tc.bar, tc.place)
		}
	}
}

// TestBARPlacementHolds checks which buffers a BAR placement takes.
func TestBARPlacementHolds(t *testing.T) {
	window := barPlacement{maxBuffer: 4 << 20, budget: 128 << 20}
	for _, tc := range []struct {
		name       string
		p          barPlacement
		size, used uint64
		want       bool
	}{
		{"rebar takes everything", barPlacement{all: true}, 8 << 30, 20 << 30, true},
		{"window: a small input", window, 4096, 0, true},
		{"window: at the size limit", window, 4 << 20, 0, true},
		{"window: too large", window, 4<<20 + 1, 0, false},
		{"window: budget spent", window, 4096, 128 << 20, false},
		{"window: last bytes of the budget", window, 1 << 20, 127 << 20, true},
		{"no BAR", barPlacement{}, 16, 0, false},
	} {
		if got := tc.p.holds(tc.size, tc.used); got != tc.want {
			t.Errorf("%s: holds(%d, %d) = %v, want %v", tc.name, tc.size, tc.used, got, tc.want)
		}
	}
}

// TestBenchTransferStaged runs the bench suite's transfer figures on the
// device: the default (mapped) type and the staged one in the same run,
// each staged record with its ratio to the mapped one.
func TestBenchTransferStaged(t *testing.T) {
	dev, _ := testDevice(t)
	if dev.StagedBufferType() == nil {
		t.Skip("the device's default buffer type stages already (GPURT_VK_DISCRETE)")
	}
	recs, err := bench.Transfer(dev, 1<<16, bench.Policy{Warmup: 1, MinRuns: 2, MaxRuns: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 6 {
		t.Fatalf("%d records, want 3 mapped and 3 staged", len(recs))
	}
	for i, r := range recs {
		staged := i >= 3
		if !r.OK() || r.Us <= 0 || (r.VsMapped > 0) != staged || staged != strings.Contains(r.Note, "staged") {
			t.Errorf("record %d: %+v", i, r)
		}
	}
}

// TestTransfersConcurrentWithCompute runs staged round trips on one
// goroutine while another computes on a backend from staged inputs: the
// backend's submissions flush the transfer batch under its own lock, so this
// checks the lock order (no deadlock) and that both see their own bytes.
func TestTransfersConcurrentWithCompute(t *testing.T) {
	dev, be := testDevice(t)
	bt := transferTypes(dev)["staged"]
	ctx := rt.NewContext()
	a := ctx.NewTensor(rt.F32, 64).SetName("a")
	b := ctx.NewTensor(rt.F32, 64).SetName("b")
	c := ctx.Add(a, b)
	x := ctx.NewTensor(rt.I32, 4).SetName("x")
	g, err := ctx.BuildGraph(c)
	if err != nil {
		t.Fatal(err)
	}
	alloc(t, ctx, bt)
	ones := make([]float32, 64)
	for i := range ones {
		ones[i] = 1
	}
	if err := rt.TensorSet(a, f32Bytes(t, ones), 0); err != nil {
		t.Fatal(err)
	}
	if err := rt.TensorSet(b, f32Bytes(t, ones), 0); err != nil {
		t.Fatal(err)
	}
	const rounds = 10
	errs := make(chan error, 1)
	go func() {
		got := make([]byte, 16)
		for i := 0; i < rounds; i++ {
			want := i32Bytes(int32(i), int32(-i), 7, 9)
			if err := rt.TensorSet(x, want, 0); err != nil {
				errs <- err
				return
			}
			if err := rt.TensorGet(x, got, 0); err != nil {
				errs <- err
				return
			}
			if !bytes.Equal(got, want) {
				errs <- fmt.Errorf("round trip %d: got %v, want %v", i, got, want)
				return
			}
		}
		errs <- nil
	}()
	for i := 0; i < rounds; i++ {
		got := computeF32(t, be, g, c)
		if got[0] != 2 || got[63] != 2 {
			t.Fatalf("compute %d: c = %v, want all 2", i, got)
		}
	}
	if err := <-errs; err != nil {
		t.Fatal(err)
	}
}

// TestBatchBounded makes many small unaligned uploads (each staged through
// a whole pooled staging buffer) and many aligned ones (inline): the batch
// must be submitted as its staging memory and commands grow, not hold
// them all until a download.
func TestBatchBounded(t *testing.T) {
	dev, _ := testDevice(t)
	ctx := rt.NewContext()
	x := ctx.NewTensor(rt.I32, 1024).SetName("x")
	buf := alloc(t, ctx, transferTypes(dev)["staged"])
	if err := buf.Clear(0); err != nil { // pooled memory keeps old bytes
		t.Fatal(err)
	}
	want := make([]byte, x.Nbytes())
	_, idle0 := dev.stagingStats()
	created0, _ := dev.stagingStats()
	for i := 0; i < 200; i++ {
		v := []byte{byte(i), byte(i + 1), byte(i + 2)}
		if err := rt.TensorSet(x, v, 4*i+1); err != nil {
			t.Fatal(err)
		}
		copy(want[4*i+1:], v)
	}
	for i := 200; i < 200+2*batchCommands; i++ {
		v := i32Bytes(int32(i))
		if err := rt.TensorSet(x, v, 4*(i%1024)); err != nil {
			t.Fatal(err)
		}
		copy(want[4*(i%1024):], v)
	}
	dev.xferMu.Lock()
	work := dev.xfer.work
	if dev.xfer.cur == nil {
		work = 0
	}
	dev.xferMu.Unlock()
	if work >= batchCommands {
		t.Errorf("the batch holds %d commands, want fewer than %d", work, batchCommands)
	}
	created, idle := dev.stagingStats()
	// 200 staged uploads hold at most a batch's worth of 64 KiB buffers
	// per slot of the ring.
	if n := created - created0 + idle0 - idle; n > (streamDepth+1)*int(batchBytes/stagingMin) {
		t.Errorf("200 small staged uploads hold %d staging buffers", n)
	}
	got := make([]byte, len(want))
	if err := rt.TensorGet(x, got, 0); err != nil {
		t.Fatal(err)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("after many small uploads, byte %d is %d, want %d", i, got[i], want[i])
		}
	}
}
