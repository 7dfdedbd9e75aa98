package bench

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	rt "github.com/gpurt/gpurt/runtime"
	"github.com/gpurt/gpurt/sched"
)

// DefaultPipelineBatches is how many prompt batches one PIPELINE run queues
// before it synchronizes: twice the scheduler's copies.
const DefaultPipelineBatches = 2 * sched.MaxCopies

// PipelineThroughput measures multi-backend prompt processing over
// backends ([device, CPU]) as llama.cpp runs a model split by
// --gpu-layers: the embeddings and the first half of the blocks in CPU
// memory, the rest and the head in the device's. A run queues batches
// prompt graphs of d.Tokens tokens through the scheduler, each with new
// inputs and its logits read asynchronously, and synchronizes once. It
// gives two records, without and with pipeline parallelism (Type "serial"
// and "parallel"), in tokens per second; the parallel one's note has the
// ratio.
func PipelineThroughput(backends []rt.Backend, d LlamaDims, layers, batches int, p Policy) ([]Record, error) {
	if len(backends) != 2 || backends[1].Device().Props().Type != rt.DeviceCPU {
		return nil, errors.New("pipeline bench: want [device, CPU] backends")
	}
	w := newLlamaWeights(d, layers)
	bufs, err := placeLlamaWeights(w, backends[0].Device().BufferType(), backends[1].Device().BufferType())
	defer func() {
		for _, b := range bufs {
			b.Free()
		}
	}()
	if err != nil {
		return nil, fmt.Errorf("pipeline bench: weights: %w", err)
	}
	var recs []Record
	var serial float64
	for _, parallel := range []bool{false, true} {
		tps, splits, err := pipelineRun(backends, w, d, batches, parallel, p)
		mode := map[bool]string{false: "serial", true: "parallel"}[parallel]
		rec := Record{Op: "PIPELINE", Type: mode, Ne: [4]int{d.Vocab, d.Tokens, 1, 1}, N: d.Tokens}
		if err != nil {
			return recs, fmt.Errorf("pipeline bench (%s): %w", mode, err)
		}
		rec.TokS, rec.Status = tps.tokS, StatusOK
		rec.Us, rec.Runs = tps.usPerBatch, tps.runs
		rec.Note = fmt.Sprintf("%d layers (half on the CPU), %d batches of %d tokens per run, %d splits", layers, batches, d.Tokens, splits)
		if parallel {
			rec.Note += fmt.Sprintf(", %.2f× serial", tps.tokS/serial)
		} else {
			serial = tps.tokS
		}
		recs = append(recs, rec)
	}
	return recs, nil
}

// placeLlamaWeights allocates each weight where a split model has it:
// token embeddings and blocks [0, n/2) in cpuBT, the rest in devBT.
func placeLlamaWeights(w *llamaWeights, devBT, cpuBT rt.BufferType) ([]rt.Buffer, error) {
	var bufs []rt.Buffer
	put := func(bt rt.BufferType, ts ...*rt.Tensor) error {
		for _, t := range ts {
			b, err := bt.Alloc(bt.AllocSize(t))
			if err != nil {
				return err
			}
			bufs = append(bufs, b)
			b.SetUsage(rt.UsageWeights)
			if err := rt.AllocTensor(b, t, 0); err != nil {
				return err
			}
			v := make([]float32, t.Nelements())
			for i := range v {
				v[i] = float32(math.Sin(float64(i))) / float32(math.Sqrt(float64(t.Ne[0])))
			}
			if err := rt.TensorSetF32(t, v); err != nil {
				return err
			}
		}
		return nil
	}
	if err := put(cpuBT, w.embd); err != nil {
		return bufs, err
	}
	for i, l := range w.layers {
		bt := cpuBT
		if i >= len(w.layers)/2 {
			bt = devBT
		}
		if err := put(bt, l.attnNorm, l.wq, l.wk, l.wv, l.wo, l.ffnNorm, l.wGate, l.wUp, l.wDown); err != nil {
			return bufs, err
		}
	}
	return bufs, put(devBT, w.norm, w.output)
}

type pipelineTiming struct {
	tokS, usPerBatch float64
	runs             int
}

func pipelineRun(backends []rt.Backend, w *llamaWeights, d LlamaDims, batches int, parallel bool, p Policy) (pipelineTiming, int, error) {
	var pt pipelineTiming
	g0, err := buildLlamaGraph(w, d)
	if err != nil {
		return pt, 0, err
	}
	s, err := sched.New(backends, nil, 2*(len(g0.Nodes)+len(g0.Leafs)), parallel, false)
	if err != nil {
		return pt, 0, err
	}
	defer s.Close()
	r := rand.New(rand.NewPCG(1, 2))
	raw := make([][]byte, batches)
	splits := 0
	run := func() error {
		for i := 0; i < batches; i++ {
			s.Reset()
			g, err := buildLlamaGraph(w, d)
			if err != nil {
				return err
			}
			if err := s.AllocGraph(g); err != nil {
				return err
			}
			splits = s.NSplits()
			if err := fillLlamaInputs(g, d, r); err != nil {
				return err
			}
			if err := s.GraphComputeAsync(g); err != nil {
				return err
			}
			logits := g.Nodes[len(g.Nodes)-1]
			b := s.TensorBackend(logits)
			if raw[i] == nil {
				raw[i] = make([]byte, logits.Nbytes())
			}
			if err := rt.TensorGetAsync(b, logits, raw[i], 0); err != nil {
				return err
			}
		}
		return s.Synchronize()
	}
	t, err := Measure(p, run)
	if err != nil {
		return pt, splits, err
	}
	secs := t.Median.Seconds()
	pt.tokS = float64(batches*d.Tokens) / secs
	pt.usPerBatch = us(t.Median) / float64(batches)
	pt.runs = t.Runs
	return pt, splits, nil
}

// fillLlamaInputs sets the graph's token ids, positions and causal mask.
func fillLlamaInputs(g *rt.Graph, d LlamaDims, r *rand.Rand) error {
	tokens, pos := make([]int32, d.Tokens), make([]int32, d.Tokens)
	for i := range tokens {
		tokens[i], pos[i] = int32(r.IntN(d.Vocab)), int32(i)
	}
	mask := make([]float32, d.Tokens*d.Tokens)
	for q := 0; q < d.Tokens; q++ {
		for k := q + 1; k < d.Tokens; k++ {
			mask[q*d.Tokens+k] = float32(math.Inf(-1))
		}
	}
	var errs []error
	for _, l := range g.Leafs {
		switch l.Name {
		case "tokens":
			errs = append(errs, rt.TensorSetI32(l, tokens))
		case "pos":
			errs = append(errs, rt.TensorSetI32(l, pos))
		case "mask":
			errs = append(errs, rt.TensorSetF32(l, mask))
		}
	}
	return errors.Join(errs...)
}
