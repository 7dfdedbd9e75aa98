package rpc_test

import (
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gpurt/gpurt/cpu"
	"github.com/gpurt/gpurt/rpc"
	rt "github.com/gpurt/gpurt/runtime"
)

// stallingBackend holds every graph until released while stall is set.
type stallingBackend struct {
	rt.Backend
	stall   *atomic.Bool
	started chan struct{}
	release chan struct{}
}

func (b *stallingBackend) GraphCompute(g *rt.Graph) error {
	if b.stall.Load() {
		b.started <- struct{}{}
		<-b.release
	}
	return b.Backend.GraphCompute(g)
}

func stallingServer(t *testing.T) (*rpc.Server, string, *atomic.Bool, chan struct{}, chan struct{}) {
	stall := &atomic.Bool{}
	stall.Store(true)
	started, release := make(chan struct{}, 1), make(chan struct{})
	srv, addr := startServer(t, rpc.ServerOptions{NewBackend: func(rt.Device) (rt.Backend, error) {
		b, err := cpu.NewBackend(1)
		return &stallingBackend{Backend: b, stall: stall, started: started, release: release}, err
	}})
	return srv, addr, stall, started, release
}

// addGraph allocates a+b on dev and returns the graph and backend.
func addGraph(t *testing.T, dev rt.Device) (*rt.Graph, rt.Backend, *rt.Tensor) {
	t.Helper()
	ctx := rt.NewContext()
	a, b := ctx.NewTensor(rt.F32, 4), ctx.NewTensor(rt.F32, 4)
	sum := ctx.Add(a, b)
	g, err := ctx.BuildGraph(sum)
	if err != nil {
		t.Fatal(err)
	}
	buf, err := rt.AllocContextTensors(ctx, dev.BufferType())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { buf.Free() })
	if err := rt.TensorSetF32(a, []float32{1, 2, 3, 4}); err != nil {
		t.Fatal(err)
	}
	if err := rt.TensorSetF32(b, []float32{10, 10, 10, 10}); err != nil {
		t.Fatal(err)
	}
	be, _ := dev.NewBackend()
	return g, be, sum
}

// TestServerKilledMidGraph: the server goes away while a graph runs; the
// client's Synchronize reports the lost connection at once.
func TestServerKilledMidGraph(t *testing.T) {
	srv, addr, _, started, release := stallingServer(t)
	c := connect(t, addr, rpc.ClientOptions{Timeout: 30 * time.Second})
	g, be, sum := addGraph(t, c.Devices()[0])
	if err := be.GraphCompute(g); err != nil {
		t.Fatal(err)
	}
	<-started
	go srv.Close() // drops every connection, then waits for the session
	t0 := time.Now()
	_, err := rt.TensorGetF32(sum)
	close(release)
	if !errors.Is(err, rpc.ErrDisconnected) {
		t.Fatalf("reading the result after the server died: %v, want ErrDisconnected", err)
	}
	if err := be.Synchronize(); !errors.Is(err, rpc.ErrDisconnected) {
		t.Fatalf("Synchronize after the loss: %v, want ErrDisconnected", err)
	}
	if d := time.Since(t0); d > 5*time.Second {
		t.Fatalf("the error took %v", d)
	}
}

// TestServerHangTimesOut: a server that stops answering gives an error
// after the client's timeout, and the client reconnects afterwards.
func TestServerHangTimesOut(t *testing.T) {
	srv, addr, stall, started, release := stallingServer(t)
	c := connect(t, addr, rpc.ClientOptions{Timeout: time.Second})
	g, be, _ := addGraph(t, c.Devices()[0])
	if err := be.GraphCompute(g); err != nil {
		t.Fatal(err)
	}
	<-started
	t0 := time.Now()
	err := c.Ping()
	if !errors.Is(err, rpc.ErrDisconnected) {
		t.Fatalf("Ping of a hung server: %v, want ErrDisconnected", err)
	}
	if d := time.Since(t0); d > 5*time.Second {
		t.Fatalf("the timeout took %v", d)
	}
	// Later calls report the loss too, without waiting again.
	if err := be.GraphCompute(g); !errors.Is(err, rpc.ErrDisconnected) {
		t.Fatalf("GraphCompute after the loss: %v", err)
	}
	stall.Store(false)
	close(release)
	waitBuffers(t, srv, 0) // the dropped connection's buffers are freed

	if err := c.Reconnect(); err != nil {
		t.Fatal(err)
	}
	g, be, sum := addGraph(t, c.Devices()[0])
	if err := be.GraphCompute(g); err != nil {
		t.Fatal(err)
	}
	if err := be.Synchronize(); err != nil {
		t.Fatal(err)
	}
	got, err := rt.TensorGetF32(sum)
	if err != nil {
		t.Fatal(err)
	}
	if got[0] != 11 || got[3] != 14 {
		t.Fatalf("after reconnecting: %v", got)
	}
}
