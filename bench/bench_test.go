package bench

import (
	"testing"

	"github.com/gpurt/gpurt/cpu"
	rt "github.com/gpurt/gpurt/runtime"
)

// The `go test -bench` form of the suite, on the CPU backend, with the same
// case definitions as `gpurt bench`. -short uses TinyShapes. For example:
//
//	go test -run '^$' -bench 'MulMat/q4_0' ./bench

func benchShapes() Shapes {
	if testing.Short() {
		return TinyShapes
	}
	return FullShapes
}

func cpuBackend(b *testing.B) rt.Backend {
	be, err := cpu.Device().NewBackend()
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { be.Close() })
	return be
}

// benchCase runs one op case per iteration and reports GFLOPS and GB/s.
func benchCase(b *testing.B, be rt.Backend, c Case) {
	p, err := prepareCase(c, be, 1)
	if err != nil {
		b.Skip(err) // an unsupported op is not a failure of the benchmark
	}
	defer p.free()
	if err := p.run(); err != nil { // warm-up
		b.Fatal(err)
	}
	b.SetBytes(int64(c.Bytes))
	for b.Loop() {
		if err := p.run(); err != nil {
			b.Fatal(err)
		}
	}
	secs := b.Elapsed().Seconds() / float64(b.N)
	if c.Flops > 0 {
		b.ReportMetric(c.Flops/secs/1e9, "GFLOPS")
	}
}

func BenchmarkMulMat(b *testing.B) {
	be := cpuBackend(b)
	for _, c := range OpCases(benchShapes()) {
		if c.Op == "MUL_MAT" {
			b.Run(c.benchName(), func(b *testing.B) { benchCase(b, be, c) })
		}
	}
}

func BenchmarkOps(b *testing.B) {
	be := cpuBackend(b)
	for _, c := range OpCases(benchShapes()) {
		if c.Op != "MUL_MAT" {
			b.Run(c.benchName(), func(b *testing.B) { benchCase(b, be, c) })
		}
	}
}

// BenchmarkGonumGemm is the gonum baseline at the MUL_MAT shapes.
func BenchmarkGonumGemm(b *testing.B) {
	s := benchShapes()
	for _, n := range s.Ns {
		b.Run(mnk(s.MK, n, s.MK), func(b *testing.B) {
			var rec Record
			var err error
			for b.Loop() {
				if rec, err = GonumGemm(s.MK, n, s.MK, Policy{MaxRuns: 1}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(rec.GFLOPS, "GFLOPS")
		})
	}
}

// BenchmarkDispatch reports µs per op of a graph of 1,000 tiny ADDs.
func BenchmarkDispatch(b *testing.B) {
	be := cpuBackend(b)
	bl, out := buildDispatch(DefaultDispatchOps, DefaultDispatchLen)
	p, err := prepare(bl, out, be, 1)
	if err != nil {
		b.Fatal(err)
	}
	defer p.free()
	for b.Loop() {
		if err := p.run(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*DefaultDispatchOps), "µs/op")
}

// BenchmarkSched reports the scheduler's split-plus-allocate time per node.
func BenchmarkSched(b *testing.B) {
	be := cpuBackend(b)
	var rec Record
	var err error
	for b.Loop() {
		if rec, err = SchedOverhead([]rt.Backend{be}, DefaultSchedNodes, DefaultLlamaDims, Policy{MaxRuns: 1}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(rec.Us, "µs/node")
}

// BenchmarkMemBW reports the streaming-read and copy bandwidth.
func BenchmarkMemBW(b *testing.B) {
	size := DefaultProbeBytes
	if testing.Short() {
		size = 1 << 20
	}
	var recs []Record
	var err error
	for b.Loop() {
		if recs, err = MemBW(size, Policy{MaxRuns: 1}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(recs[0].GBps, "read-GB/s")
	b.ReportMetric(recs[1].GBps, "copy-GB/s")
}
