//go:build cgo

package wgpu

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
)

// liveCounts is wgpu-native's count of live objects, by kind.
func liveCounts() map[string]uint64 {
	m := map[string]uint64{}
	for _, c := range hubCounts(discovery.inst) {
		m[c.kind] = c.n
	}
	return m
}

// cacheCounts is what the device keeps between calls, by wgpu-native kind.
func (d *Device) cacheCounts() map[string]uint64 {
	d.mu.Lock()
	defer d.mu.Unlock()
	m := map[string]uint64{"bind group": uint64(len(d.binds.groups))}
	for _, p := range d.pipes {
		if p.cp != nil {
			m["compute pipeline"]++
		}
	}
	for _, l := range d.layouts {
		if l != nil {
			m["bind group layout"]++
			m["pipeline layout"]++
		}
	}
	if d.arena != nil {
		m["buffer"]++
	}
	if d.staging != nil {
		m["buffer"]++
	}
	return m
}

// diffCounts lists the kinds whose counts differ, as "kind got/want".
func diffCounts(got, want map[string]uint64) []string {
	var diff []string
	for _, c := range hubCounts(discovery.inst) {
		if got[c.kind] != want[c.kind] {
			diff = append(diff, fmt.Sprintf("%s %d/%d", c.kind, got[c.kind], want[c.kind]))
		}
	}
	return diff
}

// useDevice does one round of everything that makes wgpu objects: a
// backend, a graph in a buffer of each type, an async read (which stages
// through a buffer of its own) and an event, and frees them all.
func useDevice(t *testing.T, d *Device) {
	t.Helper()
	b, err := d.NewBackend()
	if err != nil {
		t.Fatal(err)
	}
	spec := graphSpec{build: func(ctx *rt.Context) *rt.Tensor {
		a := ctx.NewTensor(rt.F32, 64, 3).SetName("a")
		return ctx.Silu(ctx.Add(a, ctx.NewTensor(rt.F32, 64).SetName("b")))
	}}
	for _, bt := range bufferTypes(d) {
		spec.run(t, b, bt)
	}
	buf, err := d.BufferType().Alloc(256)
	if err != nil {
		t.Fatal(err)
	}
	x := byteTensor(t, buf, 0, 256)
	data := make([]byte, 256)
	for i := range data {
		data[i] = byte(i)
	}
	got := make([]byte, 250)
	ev, err := d.NewEvent()
	if err != nil {
		t.Fatal(err)
	}
	for _, err := range []error{rt.TensorSetAsync(b, x, data, 0), rt.TensorGetAsync(b, x, got, 3), ev.Record(b), ev.Synchronize(), b.Synchronize()} {
		if err != nil {
			t.Fatal(err)
		}
	}
	if string(got) != string(data[3:253]) {
		t.Fatal("async read returned wrong bytes")
	}
	ev.Free()
	if err := buf.Free(); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestReleaseFreesEverything checks with wgpu-native's own report that
// freed buffers and closed backends leave nothing behind but the device's
// caches, that runtime.Release then frees those and the device (Close
// fails if the report still counts anything), and that the registry
// discovers a working device afresh.
func TestReleaseFreesEverything(t *testing.T) {
	device(t)
	// Start from a fresh device; earlier tests must have closed everything.
	if err := rt.Release(); err != nil {
		t.Fatalf("release before the test: %v", err)
	}
	d := device(t)
	base := liveCounts()
	if base["device"] != 1 || base["buffer"] != 0 {
		t.Fatalf("fresh device: wgpu-native counts %v", base)
	}
	want := func() map[string]uint64 {
		m := d.cacheCounts()
		for k, n := range base {
			m[k] += n
		}
		return m
	}
	useDevice(t, d)
	if diff := diffCounts(liveCounts(), want()); diff != nil {
		t.Errorf("after freeing everything, wgpu-native counts (got/want) %v", diff)
	}
	// The check sees a buffer that is still allocated.
	buf, err := d.BufferType().Alloc(16)
	if err != nil {
		t.Fatal(err)
	}
	w := want()
	wantDiff := fmt.Sprintf("buffer %d/%d", w["buffer"]+1, w["buffer"])
	if diff := diffCounts(liveCounts(), w); len(diff) != 1 || diff[0] != wantDiff {
		t.Errorf("with one buffer open: differences %v, want [%s]", diff, wantDiff)
	}
	if err := buf.Free(); err != nil {
		t.Fatal(err)
	}

	if err := rt.Release(); err != nil {
		t.Fatalf("release: %v", err)
	}
	if discovery.done || discovery.inst != nil {
		t.Fatal("release kept the discovery")
	}
	if _, err := d.NewBackend(); err == nil {
		t.Error("NewBackend on a released device succeeded")
	}
	nd := device(t)
	if nd == d {
		t.Fatal("the registry returned the released device")
	}
	useDevice(t, nd)
	compare(t, smallSpec, 1e-10)
}

// TestReleaseWithOpenObjects releases a device while a backend with
// queued work and a pending read, two buffers and an event are open: the
// error names them, wgpu-native holds nothing afterwards (Close would say),
// and every later use fails without calling into wgpu, except Free and
// Close, which do nothing.
func TestReleaseWithOpenObjects(t *testing.T) {
	d := device(t)
	nb, err := d.NewBackend()
	if err != nil {
		t.Fatal(err)
	}
	b := nb.(*Backend)
	ctx := rt.NewContext()
	a := ctx.NewTensor(rt.F32, 64).SetName("a")
	out := ctx.Neg(a)
	g, err := ctx.BuildGraph(out)
	if err != nil {
		t.Fatal(err)
	}
	buf, err := rt.AllocContextTensors(ctx, d.BufferType())
	if err != nil {
		t.Fatal(err)
	}
	bt2 := bufferTypes(d)[len(bufferTypes(d))-1]
	buf2, err := bt2.Alloc(256)
	if err != nil {
		t.Fatal(err)
	}
	y := byteTensor(t, buf2, 0, 256)
	ev, err := d.NewEvent()
	if err != nil {
		t.Fatal(err)
	}
	pending := make([]byte, 256)
	for _, err := range []error{rt.TensorSetF32(a, make([]float32, 64)), b.GraphCompute(g), ev.Record(b), rt.TensorGetAsync(b, out, pending, 0)} {
		if err != nil {
			t.Fatal(err)
		}
	}

	err = rt.Release()
	if err == nil || !strings.Contains(err.Error(), "webgpu: WebGPU0: 2 buffers, 1 backend, 1 event still open") {
		t.Fatalf("release with open objects: %v", err)
	}
	if strings.Contains(err.Error(), "wgpu-native still holds") {
		t.Fatalf("open objects were not released with the device: %v", err)
	}
	t.Log(err)

	data := make([]byte, 16)
	for _, c := range []struct {
		name string
		err  error
	}{
		{"SetTensor", buf.SetTensor(a, data, 0)},
		{"GetTensor", buf.GetTensor(a, data, 0)},
		{"MemsetTensor", buf.MemsetTensor(a, 1, 0, 16)},
		{"Clear", buf.Clear(0)},
		{"InitTensor", buf.InitTensor(a)},
		{"CopyTensor", second(buf2.CopyTensor(a, y))},
		{"host-type SetTensor", buf2.SetTensor(y, data, 0)},
		{"GraphCompute", b.GraphCompute(g)},
		{"Synchronize", b.Synchronize()},
		{"SetTensorAsync", b.SetTensorAsync(a, data, 0)},
		{"GetTensorAsync", b.GetTensorAsync(a, data, 0)},
		{"CopyTensorAsync", second(b.CopyTensorAsync(b, a, y))},
		{"event Record", ev.Record(b)},
		{"event Wait", ev.Wait(b)},
		{"event Synchronize", ev.Synchronize()},
		{"NewBackend", second(d.NewBackend())},
		{"NewEvent", second(d.NewEvent())},
		{"Alloc", second(d.BufferType().Alloc(16))},
		{"Alloc of the second type", second(bt2.Alloc(16))},
	} {
		if !errors.Is(c.err, rt.ErrReleased) {
			t.Errorf("%s after release: %v", c.name, c.err)
		}
	}
	ev.Free()
	for _, err := range []error{buf.Free(), buf2.Free(), b.Close(), buf.Free(), b.Close()} {
		if err != nil {
			t.Errorf("free or close after release: %v", err)
		}
	}
	if device(t) == d {
		t.Fatal("the registry returned the released device")
	}
	compare(t, smallSpec, 1e-10)
}

// smallSpec is a graph to check that a rediscovered device works.
var smallSpec = graphSpec{build: func(ctx *rt.Context) *rt.Tensor {
	return ctx.Mul(ctx.NewTensor(rt.F32, 37, 5).SetName("a"), ctx.NewTensor(rt.F32, 37).SetName("b"))
}}

// second is the error of a two-result call.
func second[T any](_ T, err error) error { return err }
