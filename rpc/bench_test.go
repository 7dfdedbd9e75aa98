package rpc_test

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"net"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gpurt/gpurt/cpu"
	"github.com/gpurt/gpurt/llama"
	"github.com/gpurt/gpurt/rpc"
	rt "github.com/gpurt/gpurt/runtime"
)

// The loopback comparison of issue 19: generation tokens/s of stories260K
// with every layer on an RPC server, gpurt client → gpurt server against
// llama.cpp client (llama-bench) → llama.cpp rpc-server, one CPU thread on
// each side, and the bytes the client sends per token. Run with
//
//	go test ./rpc -run '^$' -bench Loopback -benchtime 1x
//
// The figures are per run; compare ratios from the same run.

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

// gpurtGenerate loads stories260K on backends and times benchTokens
// greedy tokens after a 16-token warm-up; it returns tokens/s.
func gpurtGenerate(b *testing.B, backends []rt.Backend) float64 {
	f := openStories(b)
	m, err := llama.Load(f, llama.Options{Backends: backends, GPULayers: -1})
	if err != nil {
		b.Fatal(err)
	}
	defer m.Close()
	s, _ := llama.NewSampler(llama.SamplerConfig{})
	if _, _, err := m.Generate([]int32{m.Tok.BOS()}, 16, s, nil); err != nil {
		b.Fatal(err)
	}
	m.ResetCache()
	_, st, err := m.Generate([]int32{m.Tok.BOS()}, benchTokens, s, nil)
	if err != nil {
		b.Fatal(err)
	}
	return st.GenTPS()
}

// llamaBench runs llama-bench generation on stories260K against an RPC
// endpoint and returns its tokens/s.
func llamaBench(b *testing.B, endpoint string) float64 {
	bin := llamaTool(b, "llama-bench")
	model, _ := filepath.Abs(filepath.Join("..", "..", "shared", "models", "stories260K.gguf"))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, "-m", model, "-p", "0", "-n", fmt.Sprint(benchTokens), "-t", "1",
		"-r", "3", "-ngl", "99", "-rpc", endpoint, "-o", "csv").Output()
	if err != nil {
		b.Fatalf("llama-bench: %v", err)
	}
	rows, err := csv.NewReader(strings.NewReader(string(out))).ReadAll()
	if err != nil || len(rows) < 2 {
		b.Fatalf("llama-bench output %q: %v", out, err)
	}
	for i, h := range rows[0] {
		if h == "avg_ts" {
			v, err := strconv.ParseFloat(rows[len(rows)-1][i], 64)
			if err != nil {
				b.Fatal(err)
			}
			return v
		}
	}
	b.Fatalf("llama-bench output has no avg_ts: %q", out)
	return 0
}

func BenchmarkLoopback(b *testing.B) {
	b.Run("gpurt-client/gpurt-server", func(b *testing.B) {
		_, addr := startServer(b, rpc.ServerOptions{})
		p := newCountingProxy(b, addr)
		var tps float64
		for i := 0; i < b.N; i++ {
			c := connect(b, p.addr(), rpc.ClientOptions{})
			remote, _ := c.Devices()[0].NewBackend()
			local, _ := cpu.NewBackend(1)
			before := c.Stats().Sent
			tps = gpurtGenerate(b, []rt.Backend{remote, local})
			b.ReportMetric(float64(c.Stats().Sent-before)/float64(benchTokens+16), "load+bytes/token")
			local.Close()
			c.Close()
		}
		b.ReportMetric(tps, "tokens/s")
	})
	b.Run("gpurt-client/llama-server", func(b *testing.B) {
		addr := startLlamaRPCServer(b)
		var tps float64
		for i := 0; i < b.N; i++ {
			c := connect(b, addr, rpc.ClientOptions{})
			remote, _ := c.Devices()[0].NewBackend()
			local, _ := cpu.NewBackend(1)
			tps = gpurtGenerate(b, []rt.Backend{remote, local})
			local.Close()
			c.Close()
		}
		b.ReportMetric(tps, "tokens/s")
	})
	b.Run("llama-client/llama-server", func(b *testing.B) {
		p := newCountingProxy(b, startLlamaRPCServer(b))
		var tps float64
		for i := 0; i < b.N; i++ {
			tps = llamaBench(b, p.addr())
		}
		b.ReportMetric(tps, "tokens/s")
	})
	b.Run("llama-client/gpurt-server", func(b *testing.B) {
		_, addr := startServer(b, rpc.ServerOptions{})
		var tps float64
		for i := 0; i < b.N; i++ {
			tps = llamaBench(b, addr)
		}
		b.ReportMetric(tps, "tokens/s")
	})
}
