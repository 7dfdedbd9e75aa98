package rpc_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gpurt/gpurt/cpu"
	"github.com/gpurt/gpurt/gguf"
	"github.com/gpurt/gpurt/internal/synthmodel"
	"github.com/gpurt/gpurt/llama"
	"github.com/gpurt/gpurt/rpc"
	rt "github.com/gpurt/gpurt/runtime"
)

// The loopback comparison of issue 19: generation tokens/s of stories260K
// and synthetic llamas (benchModels) with every layer on an RPC server,
// gpurt client → gpurt server against llama.cpp client (llama-bench) →
// llama.cpp rpc-server, one CPU thread on each side, the crossed pairs, and
// the bytes the client sends per token. Run with
//
//	go test ./rpc -run '^$' -bench Loopback -benchtime 1x -count 5
//
// The figures are per run: the median and the best of benchReps
// generations. -count repeats each pair's runs back to back, so compare
// the pairs over several runs of the command (or their best figures),
// never single runs on a loaded machine.

const benchTokens = 128

// countingProxy forwards a TCP port to target and counts the bytes the
// client sends.
type countingProxy struct {
	ln   net.Listener
	sent atomic.Uint64
	wg   sync.WaitGroup
}

func newCountingProxy(tb testing.TB, target string) *countingProxy {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	p := &countingProxy{ln: ln}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			u, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			c.(*net.TCPConn).SetNoDelay(true)
			u.(*net.TCPConn).SetNoDelay(true)
			p.wg.Add(2)
			go func() {
				defer p.wg.Done()
				n, _ := io.Copy(u, c)
				p.sent.Add(uint64(n))
				u.Close()
			}()
			go func() {
				defer p.wg.Done()
				io.Copy(c, u)
				c.Close()
			}()
		}
	}()
	tb.Cleanup(func() { ln.Close(); p.wg.Wait() })
	return p
}

func (p *countingProxy) addr() string { return p.ln.Addr().String() }

// benchModels are the models of the comparison: stories260K and, when
// present, the synthetic llamas of ../shared/models/synth (embedding 256)
// in F16 and Q8_0. GPURT_RPC_BENCH_SYNTH=PRESET:TYPE[,…] (for example
// 155m:q8_0) adds generated models of internal/synthmodel, cached in its
// directory; at that size compute, not the protocol, sets the pace.
func benchModels(b *testing.B) map[string]string {
	ms := map[string]string{}
	for name, rel := range map[string]string{
		"stories260K":      "stories260K.gguf",
		"synth-llama-f16":  filepath.Join("synth", "llama-f16.gguf"),
		"synth-llama-q8_0": filepath.Join("synth", "llama-q8_0.gguf"),
	} {
		p, _ := filepath.Abs(filepath.Join("..", "..", "shared", "models", rel))
		if _, err := os.Stat(p); err == nil {
			ms[name] = p
		}
	}
	if specs := os.Getenv("GPURT_RPC_BENCH_SYNTH"); specs != "" {
		dir, err := synthmodel.DefaultDir()
		if err != nil {
			b.Fatal(err)
		}
		for _, s := range strings.Split(specs, ",") {
			spec, err := synthmodel.ParseSpec(s)
			if err != nil {
				b.Fatalf("GPURT_RPC_BENCH_SYNTH: %v", err)
			}
			p, err := synthmodel.Ensure(dir, spec, synthmodel.Options{})
			if err != nil {
				b.Fatal(err)
			}
			ms[spec.Name()] = p
		}
	}
	if len(ms) == 0 {
		b.Skip("skipped: no models in ../shared/models")
	}
	return ms
}

// gpurtGenerate loads the model with every block on the first backend and
// times benchTokens greedy tokens after a 16-token warm-up; it returns
// the speed of benchReps runs and the bytes c sent per generated token.
// gpurtGenerateOpts loads with opts (Backends and GPULayers are set).
func gpurtGenerate(b testing.TB, path string, c *rpc.Client) (speed, float64) {
	return gpurtGenerateOpts(b, path, c, llama.Options{})
}

func gpurtGenerateOpts(b testing.TB, path string, c *rpc.Client, opts llama.Options) (sp speed, bytesPerToken float64) {
	f, err := gguf.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	remote, _ := c.Devices()[0].NewBackend()
	local, _ := cpu.NewBackend(1)
	defer local.Close()
	opts.Backends, opts.GPULayers = []rt.Backend{remote, local}, -1
	m, err := llama.Load(f, opts)
	if err != nil {
		b.Fatal(err)
	}
	defer m.Close()
	s, _ := llama.NewSampler(llama.SamplerConfig{})
	if _, _, err := m.Generate([]int32{m.Tok.BOS()}, 16, s, nil); err != nil {
		b.Fatal(err)
	}
	var runs []float64
	for r := 0; r < benchReps; r++ {
		m.ResetCache()
		before := c.Stats().Sent
		_, st, err := m.Generate([]int32{m.Tok.BOS()}, benchTokens, s, nil)
		if err != nil {
			b.Fatal(err)
		}
		runs = append(runs, st.GenTPS())
		bytesPerToken = float64(c.Stats().Sent-before) / float64(st.GenTokens+st.PromptTokens)
	}
	return speedOf(runs), bytesPerToken
}

// benchReps is the number of timed runs of each pair.
const benchReps = 5

// speed sums up the tokens/s of benchReps runs: their median, and their
// best, which load from other jobs (it only ever slows a run) moves least.
type speed struct{ median, best float64 }

func speedOf(runs []float64) speed {
	return speed{median: median(runs), best: slices.Max(runs)}
}

func (sp speed) report(b *testing.B) {
	b.ReportMetric(sp.median, "tokens/s")
	b.ReportMetric(sp.best, "best-tokens/s")
}

func median(xs []float64) float64 {
	slices.Sort(xs)
	return xs[len(xs)/2]
}

// llamaBench runs llama-bench generation of n tokens against an RPC
// endpoint, reps times.
func llamaBench(b testing.TB, path, endpoint string, n, reps int) speed {
	bin := llamaTool(b, "llama-bench")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, "-m", path, "-p", "0", "-n", fmt.Sprint(n), "-t", "1",
		"-r", fmt.Sprint(reps), "-ngl", "99", "-rpc", endpoint, "-o", "json").Output()
	if err != nil {
		b.Fatalf("llama-bench: %v", err)
	}
	var res []struct {
		SamplesTS []float64 `json:"samples_ts"`
	}
	if err := json.Unmarshal(out, &res); err != nil || len(res) == 0 || len(res[0].SamplesTS) == 0 {
		b.Fatalf("llama-bench output %q: %v", out, err)
	}
	return speedOf(res[0].SamplesTS)
}

// llamaBytesPerToken measures what llama.cpp's client sends per generated
// token: two runs of n and 2n tokens through a counting proxy, differenced.
func llamaBytesPerToken(b *testing.B, path, server string) float64 {
	var sent [2]uint64
	for i, n := range []int{benchTokens, 2 * benchTokens} {
		p := newCountingProxy(b, server)
		llamaBench(b, path, p.addr(), n, 1)
		p.ln.Close()
		p.wg.Wait()
		sent[i] = p.sent.Load()
	}
	return float64(sent[1]-sent[0]) / benchTokens
}

func BenchmarkLoopback(b *testing.B) {
	models := benchModels(b)
	for _, name := range slices.Sorted(maps.Keys(models)) {
		path := models[name]
		b.Run(name+"/local-cpu", func(b *testing.B) {
			f, err := gguf.Open(path)
			if err != nil {
				b.Fatal(err)
			}
			defer f.Close()
			var sp speed
			for i := 0; i < b.N; i++ {
				local, _ := cpu.NewBackend(1)
				m, err := llama.Load(f, llama.Options{Backends: []rt.Backend{local}})
				if err != nil {
					b.Fatal(err)
				}
				s, _ := llama.NewSampler(llama.SamplerConfig{})
				m.Generate([]int32{m.Tok.BOS()}, 16, s, nil)
				var runs []float64
				for r := 0; r < benchReps; r++ {
					m.ResetCache()
					_, st, err := m.Generate([]int32{m.Tok.BOS()}, benchTokens, s, nil)
					if err != nil {
						b.Fatal(err)
					}
					runs = append(runs, st.GenTPS())
				}
				sp = speedOf(runs)
				m.Close()
				local.Close()
			}
			sp.report(b)
		})
		b.Run(name+"/gpurt-client/gpurt-server", func(b *testing.B) {
			_, addr := startServer(b, rpc.ServerOptions{})
			var sp speed
			var bpt float64
			for i := 0; i < b.N; i++ {
				c := connect(b, addr, rpc.ClientOptions{})
				sp, bpt = gpurtGenerate(b, path, c)
				c.Close()
			}
			sp.report(b)
			b.ReportMetric(bpt, "bytes/token")
		})
		b.Run(name+"/gpurt-client/gpurt-server/kv-pad-256", func(b *testing.B) {
			// llama.cpp's KV padding: the graph is sent once, the mask is
			// wider and more masked cells are attended over.
			_, addr := startServer(b, rpc.ServerOptions{})
			var sp speed
			var bpt float64
			for i := 0; i < b.N; i++ {
				c := connect(b, addr, rpc.ClientOptions{})
				sp, bpt = gpurtGenerateOpts(b, path, c, llama.Options{KVPad: 256})
				c.Close()
			}
			sp.report(b)
			b.ReportMetric(bpt, "bytes/token")
		})
		b.Run(name+"/gpurt-client/llama-server", func(b *testing.B) {
			addr := startLlamaRPCServer(b)
			var sp speed
			var bpt float64
			for i := 0; i < b.N; i++ {
				c := connect(b, addr, rpc.ClientOptions{})
				sp, bpt = gpurtGenerate(b, path, c)
				c.Close()
			}
			sp.report(b)
			b.ReportMetric(bpt, "bytes/token")
		})
		b.Run(name+"/llama-client/llama-server", func(b *testing.B) {
			addr := startLlamaRPCServer(b)
			var sp speed
			for i := 0; i < b.N; i++ {
				sp = llamaBench(b, path, addr, benchTokens, benchReps)
			}
			sp.report(b)
			b.ReportMetric(llamaBytesPerToken(b, path, addr), "bytes/token")
		})
		b.Run(name+"/llama-client/gpurt-server", func(b *testing.B) {
			_, addr := startServer(b, rpc.ServerOptions{})
			var sp speed
			for i := 0; i < b.N; i++ {
				sp = llamaBench(b, path, addr, benchTokens, benchReps)
			}
			sp.report(b)
		})
	}
}
