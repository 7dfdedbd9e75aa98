package sched

import (
	"errors"
	"fmt"
	"slices"

	"github.com/gpurt/gpurt/runtime"
)

var errClosed = fmt.Errorf("sched: scheduler is closed: %w", runtime.ErrClosed)

// Reserve sizes the compute buffers for measureGraph, typically the largest
// graph that will be run, so later graphs allocate without growing them. The
// graph's nodes get input copies as for a real run; build a fresh graph to
// compute afterwards.
func (s *Scheduler) Reserve(measureGraph *runtime.Graph) error {
	if s.galloc == nil {
		return errClosed
	}
	if err := s.splitGraph(measureGraph); err != nil {
		return err
	}
	if err := s.Synchronize(); err != nil {
		return err
	}
	if err := s.reserve(); err != nil {
		return err
	}
	s.Reset()
	return nil
}

func (s *Scheduler) reserve() error {
	s.nReserve++
	if err := s.galloc.Reserve(s.graph, s.nodeBackends, s.leafBackends); err != nil {
		return fmt.Errorf("sched: reserve compute buffers: %w", err)
	}
	return nil
}

// AllocGraph assigns, splits and allocates g. Its tensors then have memory
// and inputs can be set. It stays allocated until Reset.
func (s *Scheduler) AllocGraph(g *runtime.Graph) error {
	if s.galloc == nil {
		return errClosed
	}
	if s.allocated {
		// The first graph's pins and copies would leak into the second.
		return fmt.Errorf("sched: allocate graph: a graph is already allocated; call Reset first: %w", runtime.ErrInvalidArgument)
	}
	if err := s.splitGraph(g); err != nil {
		return err
	}
	if err := s.allocSplits(); err != nil {
		return err
	}
	if err := s.waitInputCopies(); err != nil {
		return err
	}
	s.allocated = true
	s.allocatedGraph = g
	return nil
}

// allocSplits allocates the graph copy, reserving new buffers first when a
// tensor moved to a backend with another buffer type or when the allocator
// says the current buffers do not fit.
func (s *Scheduler) allocSplits() error {
	changed := differentClass(s.nodeBackends, s.prevNodeBackends, s.bufferClass) ||
		differentClass(s.leafBackends, s.prevLeafBackends, s.bufferClass)
	if !changed {
		ok, err := s.galloc.AllocGraph(s.graph)
		if err != nil {
			return fmt.Errorf("sched: allocate graph: %w", err)
		}
		if ok {
			return nil
		}
	}
	// Reserving may move split inputs that queued copies still write to.
	// Synchronize without Synchronize(), which would reset the current copy.
	for _, b := range s.backends {
		if err := b.Synchronize(); err != nil {
			return fmt.Errorf("sched: synchronize %s before reserving: %w", b.Name(), err)
		}
	}
	if err := s.reserve(); err != nil {
		return err
	}
	ok, err := s.galloc.AllocGraph(s.graph)
	if err != nil {
		return fmt.Errorf("sched: allocate graph: %w", err)
	}
	if !ok {
		return fmt.Errorf("%w: the allocator still needs a reservation after reserving", ErrAllocFailed)
	}
	return nil
}

// differentClass reports whether any position present in both lists moved
// to a backend with a different buffer type. Positions beyond the shorter
// list are the allocator's to judge: it knows whether the graph changed shape.
func differentClass(cur, prev, class []int) bool {
	n := min(len(cur), len(prev))
	for i := 0; i < n; i++ {
		if cur[i] != prev[i] && class[cur[i]] != class[prev[i]] {
			return true
		}
	}
	return false
}

// GraphCompute runs g and waits for it.
func (s *Scheduler) GraphCompute(g *runtime.Graph) error {
	err := s.GraphComputeAsync(g)
	return errors.Join(err, s.Synchronize())
}

// GraphComputeAsync runs g, allocating it first unless AllocGraph was called
// since the last Reset. Backends may still be working when it returns; call
// Synchronize before reading results that are not read asynchronously.
func (s *Scheduler) GraphComputeAsync(g *runtime.Graph) error {
	if s.galloc == nil {
		return errClosed
	}
	if s.allocated && g != s.allocatedGraph {
		return errors.New("sched: compute: the graph is not the one allocated; call Reset first")
	}
	// State left by a failed allocation is stale. (The seed also resets after
	// SetTensorBackend here, which would drop the user's pins.)
	if s.splitDone && !s.allocated {
		s.Reset()
	}
	if !s.allocated {
		if err := s.AllocGraph(g); err != nil {
			return err
		}
	}
	return s.computeSplits()
}

// Synchronize waits for every backend. When no graph is allocated it also
// returns to copy 0, so that steady single-graph runs always use the same
// copy (and the same tensors).
func (s *Scheduler) Synchronize() error {
	var errs []error
	for _, b := range s.backends {
		if err := b.Synchronize(); err != nil {
			errs = append(errs, fmt.Errorf("sched: synchronize %s: %w", b.Name(), err))
		}
	}
	if !s.allocated {
		s.curCopy = 0
	}
	return errors.Join(errs...)
}

// event is backend b's event for the copy the split graph uses, or nil.
func (s *Scheduler) event(b int) runtime.Event {
	if s.events == nil {
		return nil
	}
	return s.events[b][s.splitCopy]
}

// waitIdle blocks until the split backend no longer uses the current copy:
// its event if it has one, else the whole backend.
func waitIdle(ev runtime.Event, b runtime.Backend) error {
	if ev != nil {
		return ev.Synchronize()
	}
	return b.Synchronize()
}

// computeSplits copies each split's inputs and runs it, then moves to the
// next copy. It uses the copy the graph was split with, which is the
// current one except when an allocated graph is computed again; its nodes
// still read that copy. (The seed would fill the next copy then.)
func (s *Scheduler) computeSplits() error {
	for k := range s.splits {
		sp := &s.splits[k]
		b := s.backends[sp.backend]
		ev := s.event(sp.backend)
		for _, in := range sp.inputs {
			if err := s.copyInput(sp, b, ev, in); err != nil {
				return fmt.Errorf("sched: split %d on %s: copy input %q: %w", k, b.Name(), in.Name, err)
			}
		}
		stop, err := s.runSplit(sp, b)
		if err != nil {
			return fmt.Errorf("sched: split %d on %s: %w", k, b.Name(), err)
		}
		if len(sp.inputs) > 0 && ev != nil {
			if err := ev.Record(b); err != nil {
				return fmt.Errorf("sched: split %d on %s: record event: %w", k, b.Name(), err)
			}
		}
		if stop {
			break
		}
	}
	if err := s.markInputCopies(); err != nil {
		return err
	}
	s.curCopy = (s.splitCopy + 1) % s.nCopies
	return nil
}

// markInputCopies records, on every asynchronous backend holding user inputs with
// per-copy tensors, an event for the copy this graph used: its splits read
// those tensors without an input copy, so no split event covers them. The
// graph that uses the copy next waits for it in waitInputCopies.
func (s *Scheduler) markInputCopies() error {
	if s.nCopies == 1 || len(s.graphInputs) == 0 {
		return nil
	}
	busy := s.inputBusy[s.splitCopy][:0]
	for _, in := range s.graphInputs {
		b := s.backendOf(in)
		if slices.Contains(busy, b) || !s.async[b] {
			continue // a synchronous backend has finished reading already
		}
		busy = append(busy, b)
		if ev := s.events[b][s.splitCopy]; ev != nil {
			if err := ev.Record(s.backends[b]); err != nil {
				return fmt.Errorf("sched: record the input event of %s: %w", s.backends[b].Name(), err)
			}
		}
	}
	s.inputBusy[s.splitCopy] = busy
	return nil
}

// waitInputCopies blocks until the graph that last used the current copy
// no longer reads its user-input tensors, which the caller is about to
// overwrite.
func (s *Scheduler) waitInputCopies() error {
	if s.nCopies == 1 {
		return nil
	}
	busy := s.inputBusy[s.splitCopy]
	for _, b := range busy {
		if err := waitIdle(s.events[b][s.splitCopy], s.backends[b]); err != nil {
			return fmt.Errorf("sched: wait for %s to finish with copy %d of the inputs: %w", s.backends[b].Name(), s.splitCopy, err)
		}
	}
	s.inputBusy[s.splitCopy] = busy[:0]
	return nil
}

// copyInput fills in's copy on the split's backend b.
func (s *Scheduler) copyInput(sp *split, b runtime.Backend, ev runtime.Event, in *runtime.Tensor) error {
	from := s.backends[s.backendOf(in)]
	dst := s.copies[copyKey{in, sp.backend}][s.splitCopy]

	if in.Flags&runtime.FlagInput != 0 {
		// Copy user inputs at once, before the user can overwrite them.
		if err := waitIdle(ev, b); err != nil {
			return err
		}
		return runtime.TensorCopy(in, dst)
	}

	// Make b wait until it no longer reads this copy before overwriting it.
	if ev != nil {
		if err := ev.Wait(b); err != nil {
			return err
		}
	} else if err := b.Synchronize(); err != nil {
		return err
	}
	if ab, ok := b.(runtime.AsyncBackend); ok {
		done, err := ab.CopyTensorAsync(from, in, dst)
		if err != nil || done {
			return err
		}
	}
	// No async path: a synchronous copy once both sides are idle. b need not
	// be synchronized beyond this copy's event: the copies and events order
	// the rest.
	if err := from.Synchronize(); err != nil {
		return err
	}
	if err := waitIdle(ev, b); err != nil {
		return err
	}
	return runtime.TensorCopy(in, dst)
}

// runSplit computes the split's nodes, in runs up to each node the eval
// callback wants to see. stop is true when the callback asked to stop.
func (s *Scheduler) runSplit(sp *split, b runtime.Backend) (stop bool, err error) {
	cb := s.evalCallback
	if cb == nil {
		return false, b.GraphCompute(sp.graph)
	}
	nodes := sp.graph.Nodes
	for j0 := 0; j0 < len(nodes); j0++ {
		t := nodes[j0]
		need := cb(t, true)
		j1 := j0
		for !need && j1 < len(nodes)-1 {
			j1++
			t = nodes[j1]
			need = cb(t, true)
		}
		if err := b.GraphCompute(sp.graph.View(j0, j1+1)); err != nil {
			return false, err
		}
		if err := b.Synchronize(); err != nil {
			return false, err
		}
		if need && !cb(t, false) {
			return true, nil
		}
		j0 = j1
	}
	return false, nil
}
