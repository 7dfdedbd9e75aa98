package main

import (
	"testing"

	"github.com/gpurt/gpurt/cpu"
	"github.com/gpurt/gpurt/llama"
	rt "github.com/gpurt/gpurt/runtime"
)

// BenchmarkPromptMultiBackend measures prompt processing (one 128-token
// batch from an empty cache) of a model split between a GPU and the CPU,
// with and without pipeline parallelism (llama.PipelineParallel). One op is
// one prompt.
func BenchmarkPromptMultiBackend(b *testing.B) {
	needSynthB(b)
	for _, fam := range gpuFamilies {
		for _, parallel := range []bool{false, true} {
			name := fam + "/sequential"
			if parallel {
				name = fam + "/pipelined"
			}
			b.Run(name, func(b *testing.B) {
				devs := rt.DevicesOf(fam)
				if len(devs) == 0 {
					b.Skipf("no %s device", fam)
				}
				gpu, err := devs[0].NewBackend()
				if err != nil {
					b.Fatal(err)
				}
				defer gpu.Close()
				cpuB, _ := cpu.NewBackend(0)
				defer cpuB.Close()
				defer func(p bool) { llama.PipelineParallel = p }(llama.PipelineParallel)
				llama.PipelineParallel = parallel
				f := openSynthModelB(b, "llama-f16.gguf")
				m, err := llama.Load(f, llama.Options{Backends: []rt.Backend{gpu, cpuB}, GPULayers: 1, NCtx: 128})
				if err != nil {
					b.Fatal(err)
				}
				defer m.Close()
				prompt := make([]int32, 128)
				for i := range prompt {
					prompt[i] = int32(3 + i*7%500)
				}
				run := func() {
					m.ResetCache()
					if _, err := m.Eval(prompt, false); err != nil {
						b.Fatal(err)
					}
				}
				run() // build, schedule and compile pipelines
				b.ResetTimer()
				for range b.N {
					run()
				}
				b.ReportMetric(float64(b.N*len(prompt))/b.Elapsed().Seconds(), "tok/s")
			})
		}
	}
}
