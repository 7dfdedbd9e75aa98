package cpu

import (
	"fmt"
	"runtime"
	"slices"
	"sync"
	"time"

	rt "github.com/gpurt/gpurt/runtime"
)

// defaultGrain is the fewest elements of work worth handing to one more
// worker: below it, waking a worker costs more than it saves.
const defaultGrain = 16 << 10

// Backend runs graphs on the CPU with a fixed number of worker threads. It
// finishes all work before GraphCompute returns, so Synchronize is free.
// Its methods are safe for concurrent use; graphs run one at a time.
type Backend struct {
	mu      sync.Mutex
	threads int
	closed  bool
	pool    *pool
	grain   int       // fewest elements per worker; tests lower it to split tiny ops
	pack    []float32 // MUL_MAT's float32 copy of a non-contiguous src1
	halves  []byte    // SET_ROWS's f16 copy of the values it scatters

	// kern runs the fast paths; nil selects the plain reference loops.
	kern *kernels
	// MUL_MAT scratch, kept between ops: src1 packed into GEMM panels, and
	// src1 quantized to Q8 (Q8_0 and Q8_1 activations) and to Q8_K.
	xpack []float32
	q8    q8Rows
	q8k   q8KRows
	iq4   []iq4Act // q8k's rows rearranged for repacked IQ4_XS weights
	// prepared says which x each of those holds.
	prepared preparedInputs
	// FLASH_ATTN_EXT scratch per worker, and the partial results of split
	// keys.
	fa     []faScratch
	faPart []float32
	faMS   []float64

	args    opArgs     // the operands of the fast op being run
	thin    thinArgs   // the operands of the thin product being run
	tasks   tasks      // the fast ops' task functions, bound to this backend
	ropeTab ropeTables // the last ROPE node's angles (op_ropecache.go)

	// plans are the fused attentions of the last two graphs
	// (op_attnfuse.go), and how many have run; noFusion runs every node
	// on its own (tests).
	plans           [2]fusionPlan
	attnOut         []byte  // a fused attention's results until its last task
	attnLive        []int32 // a fused attention's live cells per mask row
	attnTasks       []*attnTask
	fusedAttentions int
	noFusion        bool

	profile *rt.Profile // times each node when set (SetProfile)
}

// SetProfile makes GraphCompute time every node, and the worker pool
// account its busy, wake-up and barrier time, into p; nil turns it off.
// Timing costs two clock reads per node and four per worker share.
func (b *Backend) SetProfile(p *rt.Profile) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.profile = p
	b.pool.profile = p != nil
	b.pool.base = time.Now()
	b.pool.takeStats()
}

// NewBackend starts a CPU backend; threads <= 0 means GOMAXPROCS. It runs
// SIMD kernels where the CPU has them (AVX2, FMA and F16C on amd64; NEON,
// with SDOT where present, on arm64) and portable Go kernels elsewhere.
func NewBackend(threads int) (*Backend, error) {
	return newBackend(threads, defaultKernels()), nil
}

// defaultKernels is the fastest kernel set this CPU runs.
func defaultKernels() *kernels {
	if simdKernels != nil {
		return simdKernels
	}
	return goKernels
}

// NewReferenceBackend starts a CPU backend that runs only the plain
// reference loops: float32 dot products in index order, float64
// reductions, no SIMD and no quantized activations. Tests check the fast
// backend against it.
func NewReferenceBackend(threads int) (*Backend, error) {
	return newBackend(threads, nil), nil
}

// newBackend starts a backend on kernel set k (nil: reference loops).
func newBackend(threads int, k *kernels) *Backend {
	b := &Backend{grain: defaultGrain, pool: newPool(1), kern: k, noFusion: !fusionEnabled}
	b.bindTasks()
	b.SetThreads(threads)
	// A backend that is never closed still releases its workers once it
	// is garbage: the pool does not point back at the backend.
	runtime.AddCleanup(b, func(p *pool) { p.stop() }, b.pool)
	return b
}

// SetThreads sets the worker count; n <= 0 means GOMAXPROCS.
func (b *Backend) SetThreads(n int) {
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.threads = n
	b.pool.resize(n)
}

// Threads is the worker count.
func (b *Backend) Threads() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.threads
}

func (b *Backend) Name() string      { return "CPU" }
func (b *Backend) Device() rt.Device { return theDevice }

// Synchronize has nothing to wait for (compute is synchronous); after
// Close it fails like every backend's.
func (b *Backend) Synchronize() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return fmt.Errorf("cpu: synchronize: %w", rt.ErrClosed)
	}
	return nil
}

// Close stops the worker goroutines; later GraphCompute calls fail.
func (b *Backend) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed = true
	b.pool.stop()
	b.pack, b.xpack, b.q8, b.q8k, b.iq4 = nil, nil, q8Rows{}, q8KRows{}, nil
	b.prepared = preparedInputs{}
	b.fa, b.faPart, b.faMS = nil, nil, nil
	return nil
}

// GraphCompute runs every node in order.
func (b *Backend) GraphCompute(g *rt.Graph) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return fmt.Errorf("cpu: graph compute: %w", rt.ErrClosed)
	}
	if g == nil {
		return fmt.Errorf("cpu: nil graph")
	}
	if slices.Contains(g.Nodes, nil) {
		return fmt.Errorf("cpu: graph has a nil node")
	}
	// Inputs may have been written since the last compute.
	b.prepared = preparedInputs{}
	fused := b.fusedAttentionAt(g)
	for i := 0; i < len(g.Nodes); i++ {
		n := g.Nodes[i]
		if n.Op == rt.OpNone || n.Op.IsView() || n.IsEmpty() {
			continue
		}
		var t0 time.Time
		if b.profile != nil {
			t0 = time.Now()
		}
		if fused != nil && fused[i] {
			// An attention's three nodes as one op; its time is the
			// SOFT_MAX node's in a profile.
			done, err := b.attention(n, g.Nodes[i+1], g.Nodes[i+2])
			if err != nil {
				return fmt.Errorf("cpu: fused attention %q: %w", g.Nodes[i+1].Name, err)
			}
			if done {
				if b.profile != nil {
					b.profile.AddOp(g.Nodes[i+1], time.Since(t0))
				}
				i += 2
				continue
			}
		}
		if err := b.computeNode(n); err != nil {
			return fmt.Errorf("cpu: %v %q: %w", n.Op, n.Name, err)
		}
		if b.profile != nil {
			b.profile.AddOp(n, time.Since(t0))
		}
	}
	if b.profile != nil {
		b.profile.AddPool(b.pool.takeStats())
	}
	return nil
}

// workers is how many workers an op with the given number of independent
// tasks and total work (in elements) should use.
func (b *Backend) workers(tasks, work int) int {
	n := min(b.threads, tasks)
	if b.grain > 0 {
		n = min(n, work/b.grain)
	}
	return max(n, 1)
}

// forRows splits rows [0,nr) into contiguous ranges, one per worker. work is
// the op's size in elements.
func (b *Backend) forRows(nr, work int, fn func(r0, r1 int, ws *workspace) error) error {
	return b.pool.run(b.workers(nr, work), func(ith, nth int, ws *workspace) error {
		r0, r1 := nr*ith/nth, nr*(ith+1)/nth
		if r0 >= r1 {
			return nil
		}
		return fn(r0, r1, ws)
	})
}

var _ rt.Profiled = (*Backend)(nil)
