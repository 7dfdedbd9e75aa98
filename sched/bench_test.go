package sched

import (
	"fmt"
	"testing"

	"github.com/gpurt/gpurt/cpu"
	"github.com/gpurt/gpurt/runtime"
)

// BenchmarkSchedule measures splitting plus allocation (Reset and
// AllocGraph of an already reserved graph) of a llama-like graph over two
// GPUs, layers split between them, and the CPU with the token embeddings,
// with pipeline parallelism on. ns/node should stay flat as the graph
// grows from 500 to 8000 nodes.
func BenchmarkSchedule(b *testing.B) {
	// Nodes per layer, from graphs of one and two layers.
	count := func(layers int) int {
		bt := cpu.BufferType()
		w := newLlamaWeights(b, layers, bt, func(int) runtime.BufferType { return bt }, bt)
		g, _, _ := buildLlama(b, w)
		return len(g.Nodes)
	}
	n1 := count(1)
	perLayer := count(2) - n1

	for _, nodes := range []int{500, 1000, 2000, 4000, 8000} {
		b.Run(fmt.Sprintf("nodes=%d", nodes), func(b *testing.B) {
			layers := max(1, (nodes-n1)/perLayer+1)
			gpu0 := newFake(b, fakeOpts{name: "GPU0", events: true})
			gpu1 := newFake(b, fakeOpts{name: "GPU1", events: true})
			cb := newCPU(b)
			w := newLlamaWeights(b, layers, cpu.BufferType(), func(l int) runtime.BufferType {
				if l < layers/2 {
					return gpu0.dev.bt
				}
				return gpu1.dev.bt
			}, gpu1.dev.bt)
			g, _, _ := buildLlama(b, w)
			s, err := New(backends(gpu0, gpu1, cb), nil, len(g.Nodes)+len(g.Leafs), true, false)
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			if err := s.AllocGraph(g); err != nil { // reserves the buffers
				b.Fatal(err)
			}
			reserves := s.nReserve
			cpu0 := processCPUTime()
			for b.Loop() {
				s.Reset()
				if err := s.AllocGraph(g); err != nil {
					b.Fatal(err)
				}
			}
			if s.nReserve != reserves {
				b.Fatalf("%d reservations while measuring", s.nReserve-reserves)
			}
			perNode := float64(b.N) * float64(len(g.Nodes))
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/perNode, "ns/node")
			// CPU time per node is steadier than wall time on a shared machine.
			b.ReportMetric(float64((processCPUTime()-cpu0).Nanoseconds())/perNode, "cpu-ns/node")
			b.ReportMetric(float64(len(g.Nodes)), "nodes")
			b.ReportMetric(float64(s.NSplits()), "splits")
		})
	}
}
