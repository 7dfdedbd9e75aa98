package server

// The serving benchmark (not part of make test's timing): aggregate
// generation tokens/s with 4 slots against 1 slot, time to first token
// under load, and the same load against llama.cpp's llama-server when
// ../shared/tools/llama.cpp has it:
//
//	go test -run '^$' -bench ServeLoad -benchtime 1x ./server

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/gpurt/gpurt/cpu"
	"github.com/gpurt/gpurt/gguf"
	"github.com/gpurt/gpurt/llama"
	rt "github.com/gpurt/gpurt/runtime"
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
	be, err := cpu.NewBackend(0)
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

func BenchmarkServeLoad(b *testing.B) {
	old := streamClient
	streamClient = &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	defer func() { streamClient = old }()
	for _, c := range []struct {
		name, path string
		ctx        int
	}{
		{"austen", filepath.Join("..", "models", "austen.gguf"), 256},
		{"stories260K", filepath.Join("..", "..", "shared", "models", "stories260K.gguf"), 512},
	} {
		b.Run(c.name, func(b *testing.B) {
			const clients, perClient, maxTokens = 8, 4, 48
			var one, four loadFigures
			for range b.N {
				url, stop := gpurtServer(b, c.path, 1)
				one = runLoad(b, url+"/v1/completions", clients, perClient, maxTokens)
				stop()
				url, stop = gpurtServer(b, c.path, 4)
				four = runLoad(b, url+"/v1/completions", clients, perClient, maxTokens)
				stop()
			}
			b.ReportMetric(one.tps(), "tok/s_1slot")
			b.ReportMetric(four.tps(), "tok/s_4slots")
			b.ReportMetric(four.tps()/one.tps(), "x_4vs1")
			b.ReportMetric(float64(four.ttftP50.Microseconds())/1000, "ms_ttft_p50_4slots")
			b.ReportMetric(float64(one.ttftP50.Microseconds())/1000, "ms_ttft_p50_1slot")
			if url, stop, ok := llamaServer(b, c.path, 4, c.ctx); ok {
				ls := runLoad(b, url+"/v1/completions", clients, perClient, maxTokens)
				stop()
				b.ReportMetric(ls.tps(), "tok/s_llama-server_4slots")
				b.ReportMetric(four.tps()/ls.tps(), "x_gpurt_vs_llama-server")
				b.ReportMetric(float64(ls.ttftP50.Microseconds())/1000, "ms_ttft_p50_llama-server")
			}
		})
	}
}
