package server

// The serving benchmarks (not part of make test's timing):
//
//   - BenchmarkServeLoad: aggregate generation tokens/s over HTTP with 4
//     slots against 1 slot, time to first token under load, and the same
//     load against llama.cpp's llama-server with 4 slots and 1 (its own
//     scaling) when ../shared/tools/llama.cpp has it;
//   - BenchmarkEngineSlots: the same ratio for the engine alone (no HTTP),
//     by wall time and by the process's CPU time, which a machine busy
//     with other work disturbs less.
//
// Each round runs every configuration once, alternating; the figures are
// each configuration's best round, so use -benchtime 3x or more on a
// shared machine. GPURT_BENCH_THREADS sets the CPU threads of gpurt and
// llama-server alike (default 2):
//
//	go test -run '^$' -bench 'ServeLoad|EngineSlots' -benchtime 3x ./server
//
// GPURT_BENCH_PROFILE=1 prints BenchmarkEngineSlots' per-step profile
// (runtime.Profile: phases, ops, the CPU pool's wake-up and barrier time)
// of each configuration's last round.

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gpurt/gpurt/cpu"
	"github.com/gpurt/gpurt/gguf"
	"github.com/gpurt/gpurt/llama"
	rt "github.com/gpurt/gpurt/runtime"
	"github.com/gpurt/gpurt/tokenizer"
)

// loadFigures are one load run's results.
type loadFigures struct {
	tokens   int
	wall     time.Duration
	ttftP50  time.Duration
	requests int
}

func (f loadFigures) tps() float64 { return float64(f.tokens) / f.wall.Seconds() }

// runLoad sends clients x perClient streamed completions at once and
// measures generated tokens over wall time and the time to first chunk.
func runLoad(b *testing.B, url string, clients, perClient, maxTokens int) loadFigures {
	prompts := []string{"Once upon a time", "It is a truth", "The little dog", "Lily and Ben", "One day", "Mr. Darcy", "Emma", "The sun"}
	var mu sync.Mutex
	var fig loadFigures
	var ttfts []time.Duration
	var wg sync.WaitGroup
	start := time.Now()
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range perClient {
				body := fmt.Sprintf(`{"prompt": %q, "max_tokens": %d, "n_predict": %d, "temperature": 0.8, "seed": %d, "stream": true}`,
					prompts[(c+r)%len(prompts)], maxTokens, maxTokens, c*100+r)
				t0 := time.Now()
				var first time.Duration
				text, _, n, err := streamTimed(url, body, func() {
					if first == 0 {
						first = time.Since(t0)
					}
				})
				if err != nil {
					b.Errorf("client %d: %v", c, err)
					return
				}
				_ = text
				mu.Lock()
				fig.tokens += n
				fig.requests++
				ttfts = append(ttfts, first)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	fig.wall = time.Since(start)
	sort.Slice(ttfts, func(i, j int) bool { return ttfts[i] < ttfts[j] })
	if len(ttfts) > 0 {
		fig.ttftP50 = ttfts[len(ttfts)/2]
	}
	return fig
}

// streamTimed is stream with a callback at each content chunk.
func streamTimed(url, body string, onChunk func()) (string, string, int, error) {
	return streamWith(context.Background(), url, body, onChunk)
}

func gpurtServer(b *testing.B, path string, slots int) (string, func()) {
	data, err := os.ReadFile(path)
	if err != nil {
		b.Skipf("%s: %v", path, err)
	}
	f, err := gguf.Parse(data)
	if err != nil {
		b.Fatal(err)
	}
	be, err := cpu.NewBackend(cpuCount())
	if err != nil {
		b.Fatal(err)
	}
	m, err := llama.Load(f, llama.Options{Backends: []rt.Backend{be}, NSeq: slots})
	if err != nil {
		b.Fatal(err)
	}
	e := NewEngine(m, EngineOptions{Slots: slots, Queue: 64}, &Metrics{})
	ts := httptest.NewServer(New(e, Options{}))
	return ts.URL, func() { ts.Close(); e.Close(); m.Close(); be.Close() }
}

func llamaServer(b *testing.B, model string, slots, ctx int) (string, func(), bool) {
	bin := filepath.Join("..", "..", "shared", "tools", "llama.cpp", "llama-server")
	if _, err := os.Stat(bin); err != nil {
		return "", nil, false
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cmd := exec.Command(bin, "-m", model, "--port", strconv.Itoa(port), "--host", "127.0.0.1", "-np", strconv.Itoa(slots),
		"-c", strconv.Itoa(ctx), "-t", strconv.Itoa(max(1, cpuCount())), "--log-disable", "-ngl", "0")
	if err := cmd.Start(); err != nil {
		b.Logf("llama-server: %v", err)
		return "", nil, false
	}
	stop := func() { cmd.Process.Kill(); cmd.Wait() }
	url := fmt.Sprintf("http://127.0.0.1:%d", port)
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if r, err := http.Get(url + "/health"); err == nil {
			r.Body.Close()
			if r.StatusCode == 200 {
				return url, stop, true
			}
		}
	}
	stop()
	b.Logf("llama-server did not become healthy")
	return "", nil, false
}

func cpuCount() int {
	n, _ := strconv.Atoi(os.Getenv("GPURT_BENCH_THREADS"))
	if n > 0 {
		return n
	}
	return 2
}

// benchModels are the benchmarks' models: the default one and stories260K.
var benchModels = []struct {
	name, path string
	ctx        int
}{
	{"austen", filepath.Join("..", "models", "austen.gguf"), 256},
	{"stories260K", filepath.Join("..", "..", "shared", "models", "stories260K.gguf"), 512},
}

// better keeps the round with more tokens/s.
func (f loadFigures) better(g loadFigures) loadFigures {
	if f.requests == 0 || g.tps() > f.tps() {
		return g
	}
	return f
}

func BenchmarkServeLoad(b *testing.B) {
	old := streamClient
	streamClient = &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	defer func() { streamClient = old }()
	for _, c := range benchModels {
		b.Run(c.name, func(b *testing.B) {
			const clients, perClient, maxTokens = 8, 4, 48
			var one, four, ls, ls1 loadFigures
			lsOK := true
			for range b.N {
				url, stop := gpurtServer(b, c.path, 1)
				one = one.better(runLoad(b, url+"/v1/completions", clients, perClient, maxTokens))
				stop()
				url, stop = gpurtServer(b, c.path, 4)
				four = four.better(runLoad(b, url+"/v1/completions", clients, perClient, maxTokens))
				stop()
				for _, slots := range []int{4, 1} {
					if !lsOK {
						break
					}
					var url string
					if url, stop, lsOK = llamaServer(b, c.path, slots, c.ctx); lsOK {
						fig := runLoad(b, url+"/v1/completions", clients, perClient, maxTokens)
						stop()
						if slots == 4 {
							ls = ls.better(fig)
						} else {
							ls1 = ls1.better(fig)
						}
					}
				}
			}
			b.ReportMetric(one.tps(), "tok/s_1slot")
			b.ReportMetric(four.tps(), "tok/s_4slots")
			b.ReportMetric(four.tps()/one.tps(), "x_4vs1")
			b.ReportMetric(float64(four.ttftP50.Microseconds())/1000, "ms_ttft_p50_4slots")
			b.ReportMetric(float64(one.ttftP50.Microseconds())/1000, "ms_ttft_p50_1slot")
			if lsOK {
				b.ReportMetric(ls.tps(), "tok/s_llama-server_4slots")
				b.ReportMetric(four.tps()/ls.tps(), "x_gpurt_vs_llama-server")
				b.ReportMetric(float64(ls.ttftP50.Microseconds())/1000, "ms_ttft_p50_llama-server")
				b.ReportMetric(ls.tps()/ls1.tps(), "x_llama-server_4vs1") // the reference's own scaling on this load
			}
		})
	}
}

// engineFigures are one engine run's results.
type engineFigures struct {
	tokens    int
	wall, cpu time.Duration
}

func (f engineFigures) tps() float64    { return float64(f.tokens) / f.wall.Seconds() }
func (f engineFigures) cpuTPS() float64 { return float64(f.tokens) / f.cpu.Seconds() }

// processCPU is the CPU time this process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// runEngine generates jobs completions of maxTokens from short prompts on
// an engine with the given slots, all submitted at once.
func runEngine(b *testing.B, f *gguf.File, ctx, slots, jobs, maxTokens int) engineFigures {
	be, err := cpu.NewBackend(cpuCount())
	if err != nil {
		b.Fatal(err)
	}
	defer be.Close()
	var prof *rt.Profile
	if os.Getenv("GPURT_BENCH_PROFILE") != "" {
		prof = rt.NewProfile()
		be.SetProfile(prof)
		defer func() {
			// To stderr, as BenchmarkDecodeSeqsCPU's: the testing
			// package truncates a benchmark's long logs.
			fmt.Fprintf(os.Stderr, "%d slots:\n", slots)
			prof.Report().Format(os.Stderr)
		}()
	}
	m, err := llama.Load(f, llama.Options{Backends: []rt.Backend{be}, NSeq: slots, NCtx: ctx, Profile: prof})
	if err != nil {
		b.Fatal(err)
	}
	defer m.Close()
	e := NewEngine(m, EngineOptions{Slots: slots, Queue: jobs}, &Metrics{})
	defer e.Close()
	prompts := []string{"Once upon a time", "It is a truth", "The little dog", "Lily and Ben"}
	var results []<-chan Result
	var fig engineFigures
	cpu0, start := processCPU(), time.Now()
	for j := range jobs {
		prompt, err := m.Tok.Tokenizer.Encode(prompts[j%len(prompts)], tokenizer.EncodeOptions{AddSpecial: true})
		if err != nil {
			b.Fatal(err)
		}
		res, err := e.Submit(context.Background(), &Job{Prompt: prompt, MaxNew: maxTokens,
			Sampling: Sampling{Temp: 0.8, TopK: 40, TopP: 0.95, MinP: 0.05, RepeatPenalty: 1, Seed: uint64(j)}})
		if err != nil {
			b.Fatal(err)
		}
		results = append(results, res)
	}
	for _, res := range results {
		r := <-res
		if r.Err != nil {
			b.Fatal(r.Err)
		}
		fig.tokens += len(r.Tokens)
	}
	fig.wall, fig.cpu = time.Since(start), processCPU()-cpu0
	return fig
}

// BenchmarkEngineSlots: aggregate generation tokens/s of the engine alone
// with 4 slots against 1, by wall and by CPU time.
func BenchmarkEngineSlots(b *testing.B) {
	for _, c := range benchModels {
		b.Run(c.name, func(b *testing.B) {
			data, err := os.ReadFile(c.path)
			if err != nil {
				b.Skipf("%s: %v", c.path, err)
			}
			f, err := gguf.Parse(data)
			if err != nil {
				b.Fatal(err)
			}
			const jobs, maxTokens = 32, 48
			best := map[int]engineFigures{}
			var ratios []float64 // each round's 4 slots against its 1
			for range b.N {
				var round [2]engineFigures
				for i, slots := range []int{1, 4} {
					fig := runEngine(b, f, c.ctx, slots, jobs, maxTokens)
					if old, ok := best[slots]; !ok || fig.tps() > old.tps() {
						best[slots] = fig
					}
					round[i] = fig
				}
				ratios = append(ratios, round[1].tps()/round[0].tps())
			}
			one, four := best[1], best[4]
			b.ReportMetric(one.tps(), "tok/s_1slot")
			b.ReportMetric(four.tps(), "tok/s_4slots")
			b.ReportMetric(four.tps()/one.tps(), "x_4vs1")
			b.ReportMetric(four.cpuTPS()/one.cpuTPS(), "x_4vs1_cputime")
			// The rounds' own ratios: the machine's slower phases stretch
			// a round's two runs alike more often than the best runs.
			slices.Sort(ratios)
			b.ReportMetric(ratios[len(ratios)/2], "x_4vs1_round_median")
		})
	}
}
