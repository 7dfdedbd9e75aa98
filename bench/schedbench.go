package bench

import (
	"fmt"

	rt "github.com/gpurt/gpurt/runtime"
)

// DefaultSchedNodes is the size of the scheduler benchmark's graph.
const DefaultSchedNodes = 2000

// Scheduler is what the scheduler benchmark drives (a *sched.Scheduler).
type Scheduler interface {
	Reset()
	AllocGraph(g *rt.Graph) error
	Close() error
}

// NewScheduler makes the scheduler under test over backends in priority
// order (the CPU last), for graphs of up to graphSize nodes plus leafs.
var NewScheduler func(backends []rt.Backend, graphSize int) (Scheduler, error) = newSched

// SchedOverhead measures split-plus-allocate time per node: a llama-like
// graph of at least minNodes nodes, with its weights in backends[0]'s
// default buffer type (usage WEIGHTS), is rebuilt before every run (untimed),
// as llama.cpp builds one per batch; a run is Reset plus AllocGraph.
func SchedOverhead(backends []rt.Backend, minNodes int, d LlamaDims, p Policy) (Record, error) {
	rec := Record{Op: "SCHED", Type: "f32", Ne: [4]int{d.Vocab, d.Tokens, 1, 1}}
	if len(backends) == 0 {
		return rec, fmt.Errorf("sched bench: no backends")
	}
	w := newLlamaWeights(d, llamaLayersFor(minNodes))
	buf, err := rt.AllocContextTensors(w.ctx, backends[0].Device().BufferType())
	if err != nil {
		return rec, fmt.Errorf("sched bench: weights: %w", err)
	}
	defer buf.Free()
	buf.SetUsage(rt.UsageWeights)
	g, err := buildLlamaGraph(w, d)
	if err != nil {
		return rec, fmt.Errorf("sched bench: %w", err)
	}
	// Room for the graph and the scheduler's input copies and dependencies.
	s, err := NewScheduler(backends, 2*(len(g.Nodes)+len(g.Leafs)))
	if err != nil {
		return rec, fmt.Errorf("sched bench: %w", err)
	}
	defer s.Close()
	t, err := MeasureSetup(p, func() (err error) {
		g, err = buildLlamaGraph(w, d)
		return err
	}, func() error {
		s.Reset()
		return s.AllocGraph(g)
	})
	if err != nil {
		return rec, fmt.Errorf("sched bench: %w", err)
	}
	rec.Nodes = len(g.Nodes)
	rec.Us = us(t.Median) / float64(len(g.Nodes))
	rec.Runs = t.Runs
	rec.Status = StatusOK
	rec.Note = fmt.Sprintf("%d layers, %d backends", len(w.layers), len(backends))
	if ns, ok := s.(interface{ NSplits() int }); ok {
		rec.Note += fmt.Sprintf(", %d splits", ns.NSplits())
	}
	return rec, nil
}
