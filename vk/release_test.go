package vk

import (
	"os"
	"strings"
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
	vk "github.com/vulkan-go/vulkan"
)

// addGraph is c = a + b placed in one buffer.
type addGraph struct {
	g   *rt.Graph
	c   *rt.Tensor
	buf rt.Buffer
}

// computeAdd places c = a + b in a new buffer of bt (the caller frees it),
// uploads a through be's stream and b directly, runs the graph on be and
// checks c.
func computeAdd(t *testing.T, be *Backend, bt rt.BufferType) addGraph {
	t.Helper()
	ctx := rt.NewContext()
	a := ctx.NewTensor(rt.F32, 64).SetName("a")
	b := ctx.NewTensor(rt.F32, 64).SetName("b")
	c := ctx.Add(a, b)
	g, err := ctx.BuildGraph(c)
	if err != nil {
		t.Fatal(err)
	}
	buf, err := rt.AllocContextTensors(ctx, bt)
	if err != nil {
		t.Fatal(err)
	}
	av, bv := make([]float32, 64), make([]float32, 64)
	for i := range av {
		av[i], bv[i] = float32(i), float32(100*i)
	}
	ab := make([]byte, 4*len(av))
	if err := rt.QuantizeRow(rt.F32, av, ab); err != nil {
		t.Fatal(err)
	}
	if err := be.SetTensorAsync(a, ab, 0); err != nil {
		t.Fatal(err)
	}
	if err := rt.TensorSetF32(b, bv); err != nil {
		t.Fatal(err)
	}
	got := computeF32(t, be, g, c)
	for i, v := range got {
		if v != av[i]+bv[i] {
			t.Fatalf("%s: c[%d] = %v, want %v", bt.Name(), i, v, av[i]+bv[i])
		}
	}
	return addGraph{g: g, c: c, buf: buf}
}

// TestReleaseFreesEverything uses every kind of object, frees them, releases
// the devices and checks that the validation layer, whose object tracker
// reports each child object alive at vkDestroyDevice and vkDestroyInstance,
// logged nothing; then the devices are discovered again and work.
func TestReleaseFreesEverything(t *testing.T) {
	dev, _ := testDevice(t)
	start := logSize()
	nb, err := dev.NewBackend()
	if err != nil {
		t.Fatal(err)
	}
	be := nb.(*Backend)
	staged := &BufferType{dev: dev, memType: dev.localType, staged: true}
	var bufs []rt.Buffer
	for _, bt := range []rt.BufferType{dev.BufferType(), dev.HostBufferType(), staged} {
		bufs = append(bufs, computeAdd(t, be, bt).buf)
	}
	ev, err := dev.NewEvent()
	if err != nil {
		t.Fatal(err)
	}
	if err := ev.Record(be); err != nil {
		t.Fatal(err)
	}
	if err := ev.Synchronize(); err != nil {
		t.Fatal(err)
	}
	ev.Free()
	if err := be.Close(); err != nil {
		t.Fatal(err)
	}
	for _, b := range bufs {
		if err := b.Free(); err != nil {
			t.Fatal(err)
		}
	}

	if err := releaseShared(); err != nil {
		t.Fatalf("release: %v", err)
	}
	if msgs := validationMessages(start); msgs != "" {
		t.Fatalf("validation layer after release:\n%s", msgs)
	}
	if !dev.released.Load() {
		t.Fatal("the device is not marked released")
	}

	devs := rt.DevicesOf("vulkan")
	if len(devs) == 0 {
		t.Fatal("no Vulkan device after release")
	}
	if devs[0] == rt.Device(dev) {
		t.Fatal("rediscovery returned the released device")
	}
	dev2, be2 := testDevice(t)
	if rt.Device(dev2) != devs[0] {
		t.Fatalf("the shared device %p is not the registry's %p", dev2, devs[0])
	}
	if err := computeAdd(t, be2, dev2.BufferType()).buf.Free(); err != nil {
		t.Fatal(err)
	}
}

// TestReleaseWithOpenObjects releases a device while a backend (with work
// recorded but not submitted), buffers and an event are still open: the
// error names them, the layer reports no leak, and every use of the stale
// objects fails with an error or does nothing.
func TestReleaseWithOpenObjects(t *testing.T) {
	dev, _ := testDevice(t)
	start := logSize()
	nb, err := dev.NewBackend()
	if err != nil {
		t.Fatal(err)
	}
	be := nb.(*Backend)
	staged := &BufferType{dev: dev, memType: dev.localType, staged: true}
	add := computeAdd(t, be, staged)
	host, err := dev.HostBufferType().Alloc(256)
	if err != nil {
		t.Fatal(err)
	}
	ev, err := dev.NewEvent()
	if err != nil {
		t.Fatal(err)
	}
	if err := ev.Record(be); err != nil {
		t.Fatal(err)
	}
	// A staged upload stays recorded in the backend's command buffer.
	if err := be.SetTensorAsync(add.c, make([]byte, 64), 0); err != nil {
		t.Fatal(err)
	}
	if be.s.cur == nil || len(be.s.cur.staging) == 0 {
		t.Fatal("the async upload was not staged")
	}

	err = releaseShared()
	const want = "vulkan Vulkan0: 2 buffers, 1 backend, 1 event still open"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("release error %v, want one containing %q", err, want)
	}
	if msgs := validationMessages(start); msgs != "" {
		t.Fatalf("validation layer after release:\n%s", msgs)
	}

	data := make([]byte, 16)
	for _, tc := range []struct {
		name string
		err  error
	}{
		{"buffer set", add.buf.(*Buffer).SetTensor(add.c, data, 0)},
		{"buffer get", add.buf.(*Buffer).GetTensor(add.c, data, 0)},
		{"buffer memset", add.buf.(*Buffer).MemsetTensor(add.c, 0, 0, 16)},
		{"buffer clear", add.buf.Clear(0)},
		{"buffer init tensor", add.buf.(*Buffer).InitTensor(add.c)},
		{"host buffer clear", host.Clear(0)},
		{"graph compute", be.GraphCompute(add.g)},
		{"synchronize", be.Synchronize()},
		{"set tensor async", be.SetTensorAsync(add.c, data, 0)},
		{"get tensor async", be.GetTensorAsync(add.c, data, 0)},
		{"copy tensor async", func() error { _, err := be.CopyTensorAsync(be, add.c, add.c); return err }()},
		{"event record", ev.Record(be)},
		{"event wait", ev.Wait(be)},
		{"event synchronize", ev.Synchronize()},
		{"new backend", func() error { _, err := dev.NewBackend(); return err }()},
		{"alloc", func() error { _, err := dev.BufferType().Alloc(64); return err }()},
		{"alloc host", func() error { _, err := dev.HostBufferType().Alloc(0); return err }()},
		{"new event", func() error { _, err := dev.NewEvent(); return err }()},
	} {
		if tc.err == nil || !strings.Contains(tc.err.Error(), "device released") {
			t.Errorf("%s after release: error %v, want one saying the device was released", tc.name, tc.err)
		}
	}
	if b := host.(*HostBuffer).Bytes(); b != nil {
		t.Errorf("host buffer bytes after release: %d bytes, want nil", len(b))
	}
	ev.Free()
	for name, err := range map[string]error{"backend close": be.Close(), "buffer free": add.buf.Free(), "host buffer free": host.Free()} {
		if err != nil {
			t.Errorf("%s after release: %v", name, err)
		}
	}
	if msgs := validationMessages(start); msgs != "" {
		t.Fatalf("validation layer after using stale objects:\n%s", msgs)
	}
}

// TestReleaseReportsLeaks leaks a VkBuffer past the package's bookkeeping
// and checks that releasing the device makes the validation layer report
// it, so that a silent log after a release means nothing leaked.
func TestReleaseReportsLeaks(t *testing.T) {
	if vlog == nil {
		t.Skip("validation disabled by GPURT_VK_NO_VALIDATION")
	}
	dev, _ := testDevice(t)
	if err := dev.open(); err != nil {
		t.Fatal(err)
	}
	info := &vk.BufferCreateInfo{
		SType:       vk.StructureTypeBufferCreateInfo,
		Size:        256,
		Usage:       bufferUsage,
		SharingMode: vk.SharingModeExclusive,
	}
	var buf vk.Buffer
	res := vk.CreateBuffer(dev.dev, info, nil, &buf)
	info.Free()
	if res != vk.Success {
		t.Fatal(vk.Error(res))
	}
	start := logSize()
	if err := releaseShared(); err != nil {
		t.Fatal(err)
	}
	end := logSize()
	vlog.Ignore(start, end)
	b, err := os.ReadFile(vlog.Path())
	if err != nil {
		t.Fatal(err)
	}
	if msgs := string(b[start:end]); !strings.Contains(msgs, "vkDestroyDevice") || !strings.Contains(msgs, "VkBuffer") {
		t.Fatalf("the validation layer did not report the leaked VkBuffer at vkDestroyDevice; log:\n%s", msgs)
	}
}
