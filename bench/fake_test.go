package bench

import (
	"errors"

	"github.com/gpurt/gpurt/cpu"
	rt "github.com/gpurt/gpurt/runtime"
)

// fakeDevice is a device that supports only F32 ADD, computed with plain
// loops in host memory, so the runner can be tested on its own.
type fakeDevice struct{ failCompute bool }

func (d *fakeDevice) Name() string { return "Fake0" }
func (d *fakeDevice) Props() rt.DeviceProps {
	return rt.DeviceProps{Name: "Fake0", Type: rt.DeviceGPU, Software: true}
}
func (d *fakeDevice) NewBackend() (rt.Backend, error)               { return &fakeBackend{dev: d}, nil }
func (d *fakeDevice) BufferType() rt.BufferType                     { return cpu.BufferType() }
func (d *fakeDevice) HostBufferType() rt.BufferType                 { return cpu.BufferType() }
func (d *fakeDevice) BufferFromHost([]byte, int) (rt.Buffer, error) { return nil, errors.New("no") }
func (d *fakeDevice) SupportsBufferType(bt rt.BufferType) bool      { return bt.IsHost() }
func (d *fakeDevice) OffloadOp(*rt.Tensor) bool                     { return false }
func (d *fakeDevice) NewEvent() (rt.Event, error)                   { return nil, errors.New("no events") }
func (d *fakeDevice) SupportsOp(t *rt.Tensor) bool {
	return t.Op == rt.OpAdd && t.Type == rt.F32 && t.Src[0].Type == rt.F32 && t.Src[1].Type == rt.F32
}

type fakeBackend struct {
	dev     *fakeDevice
	compute int // graphs computed
}

func (b *fakeBackend) Name() string       { return "fake" }
func (b *fakeBackend) Device() rt.Device  { return b.dev }
func (b *fakeBackend) Synchronize() error { return nil }
func (b *fakeBackend) Close() error       { return nil }

func (b *fakeBackend) GraphCompute(g *rt.Graph) error {
	if b.dev.failCompute {
		return errors.New("fake: compute failed")
	}
	b.compute++
	for _, n := range g.Nodes {
		x, err := rt.TensorGetF32(n.Src[0])
		if err != nil {
			return err
		}
		y, err := rt.TensorGetF32(n.Src[1])
		if err != nil {
			return err
		}
		for i := range x {
			x[i] += y[i%len(y)]
		}
		if err := rt.TensorSetF32(n, x); err != nil {
			return err
		}
	}
	return nil
}
