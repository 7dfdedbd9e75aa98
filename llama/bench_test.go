package llama

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

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
	for _, tm := range benchModels() {
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
	for _, tm := range benchModels() {
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

// benchModels is testModels and, where GPURT_BENCH_GGUF names GGUF files
// (comma-separated, such as gpurt bench's generated 155M synth models),
// those too.
func benchModels() []testModel {
	ms := slices.Clone(testModels)
	for _, path := range strings.Split(os.Getenv("GPURT_BENCH_GGUF"), ",") {
		if path == "" {
			continue
		}
		ms = append(ms, testModel{filepath.Base(path), func(t testing.TB) *gguf.File {
			f, err := gguf.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { f.Close() })
			return f
		}})
	}
	return ms
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

// BenchmarkDecodeSeqsCPU measures one decode step of 1 and of 4 sequences
// (one token each, after a 20-token prompt in each; the cache is refilled,
// untimed, every 32 steps so each step attends over 21-52 of its 64 cells), as
// gpurt serve's slots run it. One op is one step; tok/s counts every
// sequence's token, so 4 sequences against 1 is the slots' speed-up.
func BenchmarkDecodeSeqsCPU(b *testing.B) {
	const nPrompt, nSteps = 20, 32
	for _, tm := range testModels {
		for _, nSeq := range []int{1, 4} {
			b.Run(tm.name+"/seqs="+strconv.Itoa(nSeq), func(b *testing.B) {
				var prof *rt.Profile
				if os.Getenv("GPURT_BENCH_PROFILE") != "" {
					prof = rt.NewProfile()
				}
				m, prompt := benchModelCPU(b, tm.open, Options{NSeq: nSeq, NCtx: 64 * nSeq, Profile: prof}, nPrompt)
				if prof != nil {
					m.opts.Backends[0].(rt.Profiled).SetProfile(prof)
					defer func() {
						if b.N > 1 { // not the testing package's first, 1-op run
							fmt.Fprintf(os.Stderr, "%s, %d sequences:\n", tm.name, nSeq)
							prof.Report().Format(os.Stderr)
						}
					}()
				}
				var batch Batch
				var steps []time.Duration
				restart := func() {
					for s := range nSeq {
						m.SeqRemove(int32(s))
						pb := Batch{Tokens: prompt, Pos: make([]int32, nPrompt), Seq: make([]int32, nPrompt)}
						for i := range pb.Pos {
							pb.Pos[i], pb.Seq[i] = int32(i), int32(s)
						}
						if err := m.Decode(pb); err != nil {
							b.Fatal(err)
						}
					}
					batch = Batch{Tokens: make([]int32, nSeq), Pos: make([]int32, nSeq), Seq: make([]int32, nSeq), Logits: make([]bool, nSeq)}
					for s := range nSeq {
						batch.Tokens[s], batch.Pos[s], batch.Seq[s], batch.Logits[s] = int32(s+1), nPrompt, int32(s), true
					}
				}
				m.opts.Profile = nil
				restart()
				m.opts.Profile = prof
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if i%nSteps == nSteps-1 {
						b.StopTimer()
						m.opts.Profile = nil // the refill is not a decode step
						restart()
						m.opts.Profile = prof
						b.StartTimer()
					}
					t0 := time.Now()
					if err := m.Decode(batch); err != nil {
						b.Fatal(err)
					}
					steps = append(steps, time.Since(t0))
					for s := range nSeq {
						batch.Tokens[s] = Argmax(m.Logits(s))
						batch.Pos[s]++
					}
				}
				b.ReportMetric(float64(b.N*nSeq)/b.Elapsed().Seconds(), "tok/s")
				// A busy machine stretches some steps: the fastest tenth
				// is what compares between runs.
				slices.Sort(steps)
				b.ReportMetric(float64(steps[len(steps)/10].Nanoseconds())/1e3, "µs_p10_step")
			})
		}
	}
}
