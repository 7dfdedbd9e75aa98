// Package sched runs one graph across several backends, in the manner of
// ggml_backend_sched: every node is assigned a backend in five passes (see
// assign.go), the graph is cut into splits where the backend changes, split
// inputs living in memory the split's backend cannot use are copied into
// per-backend tensors, and each backend's intermediates are placed by the
// graph allocator in one compute buffer per backend.
//
// Backends are given in priority order: the first is preferred, and the last
// must be a CPU, the fallback that runs whatever no other backend supports.
// With pipeline parallelism every split input has NumCopies copies used in
// turn, guarded by one event per backend per copy, so that a new graph can be
// queued while earlier ones still run.
//
// A Scheduler is not safe for concurrent use.
package sched

import (
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"strconv"

	"github.com/gpurt/gpurt/runtime"
)

const (
	// MaxBackends is the most backends one scheduler handles.
	MaxBackends = 16
	// MaxCopies is the number of copies of every split input with pipeline
	// parallelism.
	MaxCopies = 4
	// MaxSplitInputs bounds the inputs of one split; a node that would exceed
	// it starts a new split (ggml uses GGML_MAX_SRC, 10).
	MaxSplitInputs = 10
)

// ErrAllocFailed is returned (wrapped) when the graph cannot be allocated even
// after reserving new buffers.
var ErrAllocFailed = errors.New("sched: graph allocation failed")

// EvalCallback observes nodes during GraphCompute. It is first called with
// ask true to learn whether the caller wants to see t; if so, t is computed
// (with every node before it) and the callback is called again with ask
// false, when t's data can be read. Returning false then stops the whole
// graph compute, as ggml documents its callback ("the scheduler will cancel
// the graph compute"); the seed's loop only leaves the current split and
// runs the later ones, on inputs the stopped split never produced.
type EvalCallback func(t *runtime.Tensor, ask bool) bool

// graphAllocator is the part of *runtime.GraphAllocator the scheduler uses;
// tests wrap it to count reservations.
type graphAllocator interface {
	Reserve(g *runtime.Graph, nodeSlots, leafSlots []int) error
	AllocGraph(g *runtime.Graph) (bool, error)
	BufferSize(slot int) int
	Buffer(slot int) runtime.Buffer
	Free() error
}

// tensorInfo is the scheduler's per-tensor state for the current graph.
type tensorInfo struct {
	backend int    // index into backends, -1 when unassigned
	cause   string // why the backend was chosen (for debugging)
}

// copyKey names the copies of a tensor on one backend.
type copyKey struct {
	t       *runtime.Tensor
	backend int
}

// split is a run of graph nodes computed on one backend.
type split struct {
	backend    int
	start, end int               // node range in the user's graph
	inputs     []*runtime.Tensor // tensors copied to this backend before the split runs
	graph      *runtime.Graph    // view of nodes[start:end]
}

// Scheduler assigns graph nodes to backends, splits graphs and runs them.
type Scheduler struct {
	backends    []runtime.Backend
	bufferTypes []runtime.BufferType
	// bufferClass[b] is the lowest index with the same buffer type as b, so
	// buffer types are compared as integers.
	bufferClass []int
	// classSupported[b][j]: backend b can use memory of bufferTypes[j].
	classSupported [][]bool
	// async[b]: backend b's device queues work (Caps.Async), read once at
	// New because Props may cost system calls (the CPU's reads cgroup
	// limits, an RPC device's asks its server).
	async     []bool
	galloc    graphAllocator
	graphSize int
	opOffload bool

	// per-tensor state, cleared by Reset
	ids     map[*runtime.Tensor]int32
	infos   []tensorInfo
	nodeIDs []int32                       // ids of the nodes of the graph being split, by node index
	copies  map[copyKey][]*runtime.Tensor // [copy] per tensor and backend

	// rewrites lists the node sources the split of rewrittenGraph replaced
	// by input copies, and computeBufs the compute buffers, so a graph can
	// be split again (see undoPrevious).
	rewrites       []rewrite
	rewrittenGraph *runtime.Graph
	computeBufs    []runtime.Buffer

	// dirty is true when ids holds state that Reset must clear; splitDone is
	// true when that state comes from splitting a graph (and is then stale for a
	// new graph); allocated is true between AllocGraph and Reset.
	dirty, splitDone, allocated bool
	allocatedGraph              *runtime.Graph

	splits      []split
	graphInputs []*runtime.Tensor // user inputs with per-copy tensors (copies > 1)

	// graph is the copy handed to the allocator: the split nodes with, before
	// each split, a dependency node and the copy of every input.
	graph                              *runtime.Graph
	nodeBackends, leafBackends         []int
	prevNodeBackends, prevLeafBackends []int

	nCopies   int
	curCopy   int               // the copy the next split uses
	splitCopy int               // the copy the current split graph uses
	events    [][]runtime.Event // [backend][copy], nil entries without events
	// inputBusy[c] lists the backends whose queued work may still read
	// copy c of the user inputs (see markInputCopies).
	inputBusy [MaxCopies][]int

	evalCallback EvalCallback

	debug    int
	debugOut io.Writer

	// nReserve counts allocator reservations (observed by tests).
	nReserve int
}

// New creates a scheduler over backends in priority order; the last must be
// a CPU device. bufferTypes gives the compute buffer type of each backend
// (nil means each device's default). graphSize is the most nodes plus leafs
// of a graph the scheduler will be given. parallel enables pipeline
// parallelism with MaxCopies copies of every split input; opOffload lets a
// higher-priority backend take ops on weights held in CPU memory when its
// device's OffloadOp says so.
func New(backends []runtime.Backend, bufferTypes []runtime.BufferType, graphSize int, parallel, opOffload bool) (*Scheduler, error) {
	if len(backends) == 0 {
		return nil, fmt.Errorf("sched: no backends: %w", runtime.ErrInvalidArgument)
	}
	if len(backends) > MaxBackends {
		return nil, fmt.Errorf("sched: %d backends, at most %d are supported: %w", len(backends), MaxBackends, runtime.ErrInvalidArgument)
	}
	if bufferTypes != nil && len(bufferTypes) != len(backends) {
		return nil, fmt.Errorf("sched: %d buffer types for %d backends: %w", len(bufferTypes), len(backends), runtime.ErrInvalidArgument)
	}
	if graphSize < 1 {
		return nil, fmt.Errorf("sched: graph size %d must be positive: %w", graphSize, runtime.ErrInvalidArgument)
	}
	for i, b := range backends {
		if b == nil {
			return nil, fmt.Errorf("sched: backend %d is nil: %w", i, runtime.ErrInvalidArgument)
		}
		// The seed accepts a backend twice; every tensor would then be
		// assigned to the first, and the second's copies and events would
		// alias the same stream.
		for j := 0; j < i; j++ {
			if same(backends[j], b) {
				return nil, fmt.Errorf("sched: backend %s is given twice (positions %d and %d): %w", b.Name(), j, i, runtime.ErrInvalidArgument)
			}
		}
	}
	last := backends[len(backends)-1]
	if t := last.Device().Props().Type; t != runtime.DeviceCPU {
		return nil, fmt.Errorf("sched: the last backend must be a CPU device, %s is a %v device: %w", last.Name(), t, runtime.ErrInvalidArgument)
	}

	s := &Scheduler{
		backends:    append([]runtime.Backend(nil), backends...),
		bufferTypes: make([]runtime.BufferType, len(backends)),
		bufferClass: make([]int, len(backends)),
		graphSize:   graphSize,
		opOffload:   opOffload,
		ids:         make(map[*runtime.Tensor]int32, graphSize),
		copies:      map[copyKey][]*runtime.Tensor{},
		graph:       runtime.NewGraph(),
		nCopies:     1,
		debugOut:    os.Stderr,
	}
	if parallel {
		s.nCopies = MaxCopies
	}
	if v := os.Getenv("GPURT_SCHED_DEBUG"); v != "" {
		if n, err := strconv.Atoi(v); err == nil {
			s.debug = n
		}
	}

	for i, b := range backends {
		bt := b.Device().BufferType()
		if bufferTypes != nil {
			bt = bufferTypes[i]
		}
		if bt == nil {
			return nil, fmt.Errorf("sched: backend %s has no buffer type: %w", b.Name(), runtime.ErrInvalidArgument)
		}
		if !b.Device().SupportsBufferType(bt) {
			return nil, fmt.Errorf("sched: backend %s does not support buffer type %s: %w", b.Name(), bt.Name(), runtime.ErrUnsupported)
		}
		s.bufferTypes[i] = bt
		s.bufferClass[i] = i
		for j := 0; j < i; j++ {
			if sameBufferType(s.bufferTypes[j], bt) {
				s.bufferClass[i] = j
				break
			}
		}
	}

	s.classSupported = make([][]bool, len(backends))
	s.async = make([]bool, len(backends))
	for i, b := range backends {
		s.async[i] = b.Device().Props().Caps.Async
		s.classSupported[i] = make([]bool, len(backends))
		for j, bt := range s.bufferTypes {
			s.classSupported[i][j] = b.Device().SupportsBufferType(bt)
		}
	}

	if s.nCopies > 1 {
		s.events = make([][]runtime.Event, len(backends))
		for i, b := range backends {
			s.events[i] = make([]runtime.Event, s.nCopies)
			if !b.Device().Props().Caps.Events {
				continue // without events, the scheduler synchronizes the backend instead
			}
			for c := range s.events[i] {
				ev, err := b.Device().NewEvent()
				if err != nil {
					// Same fallback as a device without events.
					for _, e := range s.events[i][:c] {
						e.Free()
					}
					clear(s.events[i])
					break
				}
				s.events[i][c] = ev
			}
		}
	}

	s.galloc = runtime.NewGraphAllocator(s.bufferTypes)
	s.Reset()
	return s, nil
}

// sameBufferType compares two buffer types for identity.
func sameBufferType(a, b runtime.BufferType) bool { return same(a, b) }

// same compares two interface values for identity without panicking on
// implementations that Go cannot compare (those are never the same).
func same(a, b any) bool {
	ta := reflect.TypeOf(a)
	if ta == nil || ta != reflect.TypeOf(b) || !ta.Comparable() {
		return false
	}
	return a == b
}

func (s *Scheduler) freeEvents() {
	for _, evs := range s.events {
		for c, ev := range evs {
			if ev != nil {
				ev.Free()
				evs[c] = nil
			}
		}
	}
}

// Close frees the events and the compute buffers. The backends stay open.
func (s *Scheduler) Close() error {
	s.freeEvents()
	s.events = nil
	if s.galloc == nil {
		return nil
	}
	err := s.galloc.Free()
	s.galloc = nil
	return err
}

// Reset forgets every assignment, pin and input copy, so a new graph can be
// allocated. Call it before building a graph whose nodes will be pinned.
func (s *Scheduler) Reset() {
	if s.dirty {
		clear(s.ids)
		s.infos = s.infos[:0]
		clear(s.copies)
		s.dirty = false
		s.splitDone = false
	}
	s.allocated = false
	s.allocatedGraph = nil
}

// SetEvalCallback installs (or with nil removes) the node observer.
func (s *Scheduler) SetEvalCallback(cb EvalCallback) { s.evalCallback = cb }

// SetDebugOutput sets where GPURT_SCHED_DEBUG output goes (standard error by default).
func (s *Scheduler) SetDebugOutput(w io.Writer) { s.debugOut = w }

// NSplits is the number of splits of the last scheduled graph.
func (s *Scheduler) NSplits() int { return len(s.splits) }

// NCopies is the number of copies of each split input (MaxCopies with
// pipeline parallelism, else 1).
func (s *Scheduler) NCopies() int { return s.nCopies }

// NBackends is the number of backends.
func (s *Scheduler) NBackends() int { return len(s.backends) }

// Backend returns backend i in priority order, or nil when i is out of range.
func (s *Scheduler) Backend(i int) runtime.Backend {
	if i < 0 || i >= len(s.backends) {
		return nil
	}
	return s.backends[i]
}

// backendIndex is b's position, or -1.
func (s *Scheduler) backendIndex(b runtime.Backend) int {
	for i, x := range s.backends {
		if same(x, b) {
			return i
		}
	}
	return -1
}

// BufferSize is the size of b's compute buffer, 0 when b is not one of the
// scheduler's backends or nothing was allocated.
func (s *Scheduler) BufferSize(b runtime.Backend) int {
	i := s.backendIndex(b)
	if i < 0 || s.galloc == nil {
		return 0
	}
	return s.galloc.BufferSize(i)
}

// SetTensorBackend pins t to b: the passes never move it. Pins last until Reset.
func (s *Scheduler) SetTensorBackend(t *runtime.Tensor, b runtime.Backend) error {
	if t == nil {
		return errors.New("sched: set tensor backend: nil tensor")
	}
	i := s.backendIndex(b)
	if i < 0 {
		name := "<nil>"
		if b != nil {
			name = b.Name()
		}
		return fmt.Errorf("sched: set tensor backend of %q: backend %s is not one of the scheduler's: %w", t.Name, name, runtime.ErrInvalidArgument)
	}
	s.assign(t, i, "usr")
	return nil
}

// TensorBackend is the backend t is assigned to, or nil.
func (s *Scheduler) TensorBackend(t *runtime.Tensor) runtime.Backend {
	if b := s.backendOf(t); b >= 0 {
		return s.backends[b]
	}
	return nil
}

// Cause says why t was assigned its backend: one of the pass codes 1.dst,
// 1.vsrc, 1.inp, 1.wgtN (N is the weight's source index), 1.off, 2.sup,
// 3.upg, 3.best, 4.vsrc, 4.cur, 4.cpy (an input copy) or usr (pinned); ""
// when unassigned.
func (s *Scheduler) Cause(t *runtime.Tensor) string {
	if i, ok := s.ids[t]; ok {
		return s.infos[i].cause
	}
	return ""
}

// backendOf is t's assigned backend index, or -1.
func (s *Scheduler) backendOf(t *runtime.Tensor) int {
	if t == nil {
		return -1
	}
	if i, ok := s.ids[t]; ok {
		return s.infos[i].backend
	}
	return -1
}

// assign records t's backend and the reason.
func (s *Scheduler) assign(t *runtime.Tensor, backend int, cause string) {
	s.infos[s.id(t)] = tensorInfo{backend: backend, cause: cause}
}

// id is t's index into infos, adding an unassigned entry when t is new.
func (s *Scheduler) id(t *runtime.Tensor) int32 {
	s.dirty = true
	if i, ok := s.ids[t]; ok {
		return i
	}
	i := int32(len(s.infos))
	s.ids[t] = i
	s.infos = append(s.infos, tensorInfo{backend: -1})
	return i
}

// indexNodes records the infos index of every node of g, so the passes
// reach a node's state without a map lookup.
func (s *Scheduler) indexNodes(g *runtime.Graph) {
	s.nodeIDs = s.nodeIDs[:0]
	for _, n := range g.Nodes {
		s.nodeIDs = append(s.nodeIDs, s.id(n))
	}
}

// node is the state of node i of the graph being split.
func (s *Scheduler) node(i int) *tensorInfo { return &s.infos[s.nodeIDs[i]] }
