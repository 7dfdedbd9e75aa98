package sched

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gpurt/gpurt/cpu"
	"github.com/gpurt/gpurt/runtime"
)

// A configurable fake device for scheduler tests: host memory behind its own
// buffer type, a chosen set of ops, optional events and an asynchronous
// queue, and an OffloadOp rule. With kernels, its graphs run on the CPU
// backend's kernels (host memory is what they read), so results are real.

type fakeOpts struct {
	name       string
	cpu        bool         // device type CPU instead of GPU
	host       bool         // buffer type reports IsHost
	acceptHost bool         // the device also uses any host buffer type, as the CPU does
	ops        []runtime.Op // supported ops; nil means every op
	events     bool
	failEvents bool // reports events but cannot create them
	async      bool // work runs in order on a goroutine; async copies between async fakes
	kernels    bool // compute with the CPU kernels (else computing only logs)
	offload    func(t *runtime.Tensor) bool
	log        *computeLog
	delay      time.Duration // added to every compute, so an async fake lags behind
}

// computeLog records what the fakes computed, in order.
type computeLog struct {
	mu      sync.Mutex
	entries []string
}

func (l *computeLog) add(s string) {
	if l == nil {
		return
	}
	l.mu.Lock()
	l.entries = append(l.entries, s)
	l.mu.Unlock()
}

func (l *computeLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.entries, " ")
}

type fakeDevice struct {
	opts      fakeOpts
	bt        *fakeBufferType
	supported map[runtime.Op]bool
}

func newFakeDevice(o fakeOpts) *fakeDevice {
	d := &fakeDevice{opts: o}
	d.bt = &fakeBufferType{dev: d}
	if o.ops != nil {
		d.supported = map[runtime.Op]bool{}
		for _, op := range o.ops {
			d.supported[op] = true
		}
	}
	return d
}

func (d *fakeDevice) Name() string { return d.opts.name }

func (d *fakeDevice) Props() runtime.DeviceProps {
	t := runtime.DeviceGPU
	if d.opts.cpu {
		t = runtime.DeviceCPU
	}
	return runtime.DeviceProps{
		Name: d.opts.name, Description: "fake " + d.opts.name, Type: t,
		Caps: runtime.DeviceCaps{Async: d.opts.async, Events: d.opts.events || d.opts.failEvents},
	}
}

func (d *fakeDevice) NewBackend() (runtime.Backend, error) { return newFakeBackend(d), nil }
func (d *fakeDevice) BufferType() runtime.BufferType       { return d.bt }
func (d *fakeDevice) HostBufferType() runtime.BufferType   { return nil }

func (d *fakeDevice) BufferFromHost([]byte, int) (runtime.Buffer, error) {
	return nil, errors.New("fake: no buffers from host memory")
}

func (d *fakeDevice) SupportsOp(t *runtime.Tensor) bool {
	if t.Op == runtime.OpNone || t.Op.IsView() {
		return true
	}
	if d.opts.kernels && !cpu.Device().SupportsOp(t) {
		return false // the kernels decide what can run at all
	}
	return d.supported == nil || d.supported[t.Op]
}

func (d *fakeDevice) SupportsBufferType(bt runtime.BufferType) bool {
	return bt == runtime.BufferType(d.bt) || (d.opts.acceptHost && bt.IsHost())
}

func (d *fakeDevice) OffloadOp(t *runtime.Tensor) bool {
	return d.opts.offload != nil && d.opts.offload(t)
}

func (d *fakeDevice) NewEvent() (runtime.Event, error) {
	if !d.opts.events {
		return nil, errors.New("fake: no events")
	}
	if d.opts.failEvents {
		return nil, errors.New("fake: out of events")
	}
	done := make(chan struct{})
	close(done)
	return &fakeEvent{done: done}, nil
}

type fakeBufferType struct{ dev *fakeDevice }

func (bt *fakeBufferType) Name() string                    { return bt.dev.opts.name }
func (bt *fakeBufferType) Alignment() int                  { return 64 }
func (bt *fakeBufferType) MaxSize() int                    { return 1 << 40 }
func (bt *fakeBufferType) AllocSize(t *runtime.Tensor) int { return t.Nbytes() }
func (bt *fakeBufferType) IsHost() bool                    { return bt.dev.opts.host }
func (bt *fakeBufferType) Device() runtime.Device          { return bt.dev }

func (bt *fakeBufferType) Alloc(size int) (runtime.Buffer, error) {
	if size < 0 {
		return nil, fmt.Errorf("fake: negative size %d", size)
	}
	return runtime.NewHostMemoryBuffer(bt, make([]byte, size), nil), nil
}

// fakeBackend runs work at once, or in order on a goroutine when async.
type fakeBackend struct {
	dev     *fakeDevice
	kernels *cpu.Backend
	work    chan func()
	stopped chan struct{}

	errMu sync.Mutex
	err   error // first error of queued work, returned by Synchronize

	computes, syncs, asyncCopies, records, waits atomic.Int64
}

func newFakeBackend(d *fakeDevice) *fakeBackend {
	b := &fakeBackend{dev: d}
	if d.opts.kernels {
		b.kernels, _ = cpu.NewBackend(1)
	}
	if d.opts.async {
		b.work = make(chan func(), 256)
		b.stopped = make(chan struct{})
		go func() {
			for f := range b.work {
				f()
			}
			close(b.stopped)
		}()
	}
	return b
}

func (b *fakeBackend) Name() string           { return b.dev.opts.name }
func (b *fakeBackend) Device() runtime.Device { return b.dev }

// submit runs f now, or queues it.
func (b *fakeBackend) submit(f func() error) error {
	if b.work == nil {
		return f()
	}
	b.work <- func() {
		if err := f(); err != nil {
			b.errMu.Lock()
			if b.err == nil {
				b.err = err
			}
			b.errMu.Unlock()
		}
	}
	return nil
}

func (b *fakeBackend) GraphCompute(g *runtime.Graph) error {
	b.computes.Add(1)
	if b.work != nil {
		// Backends read a graph during GraphCompute only (real ones record
		// commands): snapshot the nodes, which the scheduler may rewrite.
		snap := &runtime.Graph{Leafs: g.Leafs}
		for _, n := range g.Nodes {
			c := *n
			snap.Nodes = append(snap.Nodes, &c)
		}
		g = snap
	}
	return b.submit(func() error {
		var names []string
		for _, n := range g.Nodes {
			if n.Op != runtime.OpNone && !n.Op.IsView() {
				names = append(names, n.Name)
			}
		}
		b.dev.opts.log.add(b.Name() + ":" + strings.Join(names, ","))
		time.Sleep(b.dev.opts.delay)
		if b.kernels != nil {
			return b.kernels.GraphCompute(g)
		}
		return nil
	})
}

func (b *fakeBackend) Synchronize() error {
	b.syncs.Add(1)
	if b.work != nil {
		done := make(chan struct{})
		b.work <- func() { close(done) }
		<-done
	}
	b.errMu.Lock()
	defer b.errMu.Unlock()
	err := b.err
	b.err = nil
	return err
}

func (b *fakeBackend) Close() error {
	if b.work != nil {
		close(b.work)
		<-b.stopped
		b.work = nil
	}
	if b.kernels != nil {
		return b.kernels.Close()
	}
	return nil
}

// allOpsBut lists every op except the given ones.
func allOpsBut(except ...runtime.Op) []runtime.Op {
	var ops []runtime.Op
	for _, op := range runtime.AllOps() {
		if !slices.Contains(except, op) {
			ops = append(ops, op)
		}
	}
	return ops
}

func (b *fakeBackend) SetTensorAsync(t *runtime.Tensor, data []byte, offset int) error {
	return b.submit(func() error { return runtime.TensorSet(t, data, offset) })
}

func (b *fakeBackend) GetTensorAsync(t *runtime.Tensor, data []byte, offset int) error {
	return b.submit(func() error { return runtime.TensorGet(t, data, offset) })
}

// CopyTensorAsync copies between two asynchronous fakes, like a peer copy:
// the copy runs on the source's queue once this backend's queued work is
// done with dst, and this backend's later work waits for it.
func (b *fakeBackend) CopyTensorAsync(from runtime.Backend, src, dst *runtime.Tensor) (bool, error) {
	fb, ok := from.(*fakeBackend)
	if !ok || b.work == nil || fb.work == nil || fb == b {
		return false, nil
	}
	b.asyncCopies.Add(1)
	dstFree, copied := make(chan struct{}), make(chan struct{})
	b.submit(func() error { close(dstFree); return nil })
	fb.submit(func() error {
		<-dstFree
		defer close(copied)
		return runtime.TensorCopy(src, dst)
	})
	b.submit(func() error { <-copied; return nil })
	return true, nil
}

// fakeEvent completes when the point recorded in a backend's queue is reached.
type fakeEvent struct {
	mu    sync.Mutex
	done  chan struct{}
	freed bool
}

func (e *fakeEvent) current() (chan struct{}, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.freed {
		return nil, errors.New("fake event: used after free")
	}
	return e.done, nil
}

func (e *fakeEvent) Record(b runtime.Backend) error {
	fb, ok := b.(*fakeBackend)
	if !ok {
		return fmt.Errorf("fake event: cannot record on %s", b.Name())
	}
	if _, err := e.current(); err != nil {
		return err
	}
	fb.records.Add(1)
	done := make(chan struct{})
	e.mu.Lock()
	e.done = done
	e.mu.Unlock()
	return fb.submit(func() error { close(done); return nil })
}

func (e *fakeEvent) Wait(b runtime.Backend) error {
	fb, ok := b.(*fakeBackend)
	if !ok {
		return fmt.Errorf("fake event: cannot wait on %s", b.Name())
	}
	done, err := e.current()
	if err != nil {
		return err
	}
	fb.waits.Add(1)
	return fb.submit(func() error { <-done; return nil })
}

func (e *fakeEvent) Synchronize() error {
	done, err := e.current()
	if err != nil {
		return err
	}
	<-done
	return nil
}

func (e *fakeEvent) Free() {
	e.mu.Lock()
	e.freed = true
	e.mu.Unlock()
}

var (
	_ runtime.AsyncBackend = (*fakeBackend)(nil)
	_ runtime.Device       = (*fakeDevice)(nil)
)
