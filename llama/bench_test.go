package llama

import (
	"testing"

	"github.com/gpurt/gpurt/cpu"
	"github.com/gpurt/gpurt/gguf"
	rt "github.com/gpurt/gpurt/runtime"
)

// BenchmarkGenerateCPU measures greedy generation on the CPU as the
// end-to-end bench does: after a 128-token prompt, 64 tokens one at a time
// (then the cache is reset and the prompt evaluated again, untimed). One
// op is one generated token. The rebuild variants build and schedule a new
// graph for every token, as before graphs were reused.
func BenchmarkGenerateCPU(b *testing.B) {
	const nPrompt, nGen = 128, 64
	for _, tm := range testModels {
		for _, rebuild := range []bool{false, true} {
			name := tm.name
			if rebuild {
				name += "/rebuild"
			}
			b.Run(name, func(b *testing.B) {
				m, prompt := benchModelCPU(b, tm.open, Options{RebuildGraphs: rebuild}, nPrompt)
				var err error
				var logits []float32
				restart := func() {
					m.ResetCache()
					if logits, err = m.Eval(prompt, false); err != nil {
						b.Fatal(err)
					}
				}
				restart()
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if m.NPast() >= nPrompt+nGen {
						b.StopTimer()
						restart()
						b.StartTimer()
					}
					if logits, err = m.Eval([]int32{Argmax(logits)}, false); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "tok/s")
			})
		}
	}
}

// BenchmarkPromptCPU measures prompt evaluation on the CPU as the
// end-to-end bench does: one op is a 128-token prompt from an empty cache.
func BenchmarkPromptCPU(b *testing.B) {
	const nPrompt = 128
	for _, tm := range testModels {
		b.Run(tm.name, func(b *testing.B) {
			m, prompt := benchModelCPU(b, tm.open, Options{}, nPrompt)
			b.ReportAllocs()
			for b.Loop() {
				m.ResetCache()
				if _, err := m.Eval(prompt, false); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*nPrompt)/b.Elapsed().Seconds(), "tok/s")
		})
	}
}

// benchModelCPU loads the model open gives on a CPU backend with opts (both closed when b
// ends) and returns it with a fixed prompt of n tokens.
func benchModelCPU(b *testing.B, open func(testing.TB) *gguf.File, opts Options, n int) (*Model, []int32) {
	be, err := cpu.NewBackend(0)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { be.Close() })
	opts.Backends = []rt.Backend{be}
	m, err := Load(open(b), opts)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { m.Close() })
	prompt := make([]int32, n)
	for i := range prompt {
		prompt[i] = int32(i*7+3) % int32(m.H.NVocab)
	}
	return m, prompt
}
