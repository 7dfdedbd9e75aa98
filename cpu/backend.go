package cpu

import (
	"fmt"
	"runtime"

	rt "github.com/gpurt/gpurt/runtime"
)

// Backend runs graphs on the CPU with a fixed number of worker threads. It
// finishes all work before GraphCompute returns, so Synchronize is free.
type Backend struct {
	threads int
	closed  bool
}

// NewBackend starts a CPU backend; threads <= 0 means GOMAXPROCS.
func NewBackend(threads int) (*Backend, error) {
	b := &Backend{}
	b.SetThreads(threads)
	return b, nil
}

// SetThreads sets the worker count; n <= 0 means GOMAXPROCS.
func (b *Backend) SetThreads(n int) {
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	b.threads = n
}

// Threads is the worker count.
func (b *Backend) Threads() int { return b.threads }

func (b *Backend) Name() string       { return "CPU" }
func (b *Backend) Device() rt.Device  { return theDevice }
func (b *Backend) Synchronize() error { return nil }
func (b *Backend) Close() error       { b.closed = true; return nil }

// GraphCompute runs every node in order.
func (b *Backend) GraphCompute(g *rt.Graph) error {
	if b.closed {
		return fmt.Errorf("cpu: backend is closed")
	}
	for _, n := range g.Nodes {
		if n.Op == rt.OpNone || n.Op.IsView() || n.IsEmpty() {
			continue
		}
		if err := b.computeNode(n); err != nil {
			return fmt.Errorf("cpu: %v %q: %w", n.Op, n.Name, err)
		}
	}
	return nil
}
