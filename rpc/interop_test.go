package rpc_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gpurt/gpurt/cpu"
	"github.com/gpurt/gpurt/rpc"
	rt "github.com/gpurt/gpurt/runtime"
	"github.com/gpurt/gpurt/runtime/optest"
)

// llamaTool returns the path of a llama.cpp tool in ../shared/tools, or
// skips the test saying so.
func llamaTool(t testing.TB, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "..", "shared", "tools", "llama.cpp", name))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		t.Skipf("skipped: llama.cpp's %s is not present at %s (interop needs ../shared/tools/llama.cpp)", name, p)
	}
	return p
}

func freePort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// startLlamaRPCServer runs llama.cpp's rpc-server on a free loopback port;
// it is killed when the test ends.
func startLlamaRPCServer(t testing.TB) string {
	t.Helper()
	bin := llamaTool(t, "rpc-server")
	port := freePort(t)
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "--host", "127.0.0.1", "--port", fmt.Sprint(port), "-t", "1")
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		cmd.Wait()
		if t.Failed() {
			t.Logf("rpc-server log:\n%s", log.String())
		}
	})
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
			return addr
		}
		if time.Now().After(deadline) {
			t.Fatalf("rpc-server did not listen on %s: %v", addr, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestStoriesOnLlamaRPCServer decodes stories260K with its blocks on
// llama.cpp's rpc-server: the same 200 tokens as locally.
func TestStoriesOnLlamaRPCServer(t *testing.T) {
	f := openStories(t)
	addr := startLlamaRPCServer(t)
	want := localTokens(t, f, 200)
	for _, tc := range []struct {
		name      string
		gpuLayers int
	}{
		{"all remote", -1},
		{"split", 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := connect(t, addr, rpc.ClientOptions{Timeout: 20 * time.Second})
			remote, _ := c.Devices()[0].NewBackend()
			local, _ := cpu.NewBackend(1)
			defer local.Close()
			got := greedyTokens(t, f, []rt.Backend{remote, local}, tc.gpuLayers, 200)
			if !slices.Equal(got, want) {
				t.Fatalf("tokens through llama.cpp's rpc-server differ from local:\n got %v\nwant %v", got, want)
			}
			c.Close()
		})
	}
}

// completion runs llama-completion greedily on stories260K and returns the
// text it writes to stdout.
func completion(t testing.TB, extra ...string) string {
	t.Helper()
	bin := llamaTool(t, "llama-completion")
	model, err := filepath.Abs(filepath.Join("..", "..", "shared", "models", "stories260K.gguf"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(model); err != nil {
		t.Skipf("skipped: stories260K not present: %v", err)
	}
	args := append([]string{"-m", model, "-p", "Once upon a time", "-n", "64", "--temp", "0",
		"-no-cnv", "-t", "1", "-c", "256", "--no-warmup"}, extra...)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("llama-completion %s: %v\n%s", strings.Join(extra, " "), err, tail(stderr.String(), 40))
	}
	return stdout.String()
}

// steadyCompletion runs completion until its output is not a truncation:
// llama-completion writes through an asynchronous logger that sometimes
// loses the last tokens at exit, at times in two runs alike. A run is
// accepted when it is as long as want; without want, the longest of four
// runs is returned.
func steadyCompletion(t testing.TB, want string, args ...string) string {
	t.Helper()
	best := ""
	for i := 0; i < 4; i++ {
		out := completion(t, args...)
		if want != "" && len(out) >= len(want) {
			return out
		}
		if len(out) > len(best) {
			best = out
		}
	}
	return best
}

func tail(s string, lines int) string {
	var all []string
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		all = append(all, sc.Text())
	}
	if len(all) > lines {
		all = all[len(all)-lines:]
	}
	return strings.Join(all, "\n")
}

// TestLlamaCompletionOnGpurtServer runs llama.cpp's llama-completion with
// every layer on a gpurt server (--rpc, -ngl 99): the same text as
// llama.cpp alone, with flash attention on (decomposed by the server) and
// off.
func TestLlamaCompletionOnGpurtServer(t *testing.T) {
	want := steadyCompletion(t, "", "-fa", "off")
	if !strings.Contains(want, "Once upon a time") {
		t.Fatalf("llama-completion alone wrote %q", want)
	}
	srv, addr := startServer(t, rpc.ServerOptions{})
	for _, fa := range []string{"off", "on"} {
		t.Run("fa "+fa, func(t *testing.T) {
			before := srv.Stats().Graphs
			got := steadyCompletion(t, want, "--rpc", addr, "-ngl", "99", "-fa", fa)
			if n := srv.Stats().Graphs - before; n < 64 {
				t.Errorf("the gpurt server computed %d graphs for 64 tokens", n)
			}
			if got != want {
				t.Fatalf("llama-completion through gpurt's server wrote\n%q\nllama.cpp alone\n%q", got, want)
			}
			waitBuffers(t, srv, 0)
		})
	}
}

// runOps checks the op catalogue (every sample-th case of each op) on a
// remote device against the local CPU. A case that kills the server (a
// llama.cpp server aborts on dtypes its CPU backend lacks) is logged and
// skipped after restart gives a fresh server; without restart it fails.
func runOps(t *testing.T, addr string, sample int, keep func(name string) bool, restart func() string) {
	var cases []optest.Case
	for _, tc := range optest.Cases() {
		if keep == nil || keep(tc.Name()) {
			cases = append(cases, tc)
		}
	}
	ref, err := cpu.NewReferenceBackend(1)
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Close()
	runner := optest.Runner{Ref: ref}
	var c *rpc.Client
	var b rt.Backend
	dial := func() {
		if c != nil {
			c.Close()
		}
		c = connect(t, addr, rpc.ClientOptions{Timeout: 20 * time.Second})
		b, _ = c.Devices()[0].NewBackend()
	}
	dial()
	var sum optest.Summary
	crashed := 0
	for _, tc := range (optest.Filter{Sample: sample, MaxCost: 1 << 22}).Select(cases) {
		r := runner.RunCase(b, tc)
		if r.Status == optest.Fail && errors.Is(r.Err, rpc.ErrDisconnected) && restart != nil {
			t.Logf("%s: the server died running it (skipped): %v", r.Case, r.Err)
			crashed++
			addr = restart()
			dial()
			continue
		}
		sum.Add(r)
		if r.Status == optest.Fail {
			t.Errorf("%s: %v", r.Case, r.Err)
		} else if testing.Verbose() {
			t.Logf("%s: %v", r.Case, r.Status)
		}
	}
	t.Logf("%d passed, %d failed, %d not supported, %d killed the server", sum.Passed, sum.Failed, sum.Skipped, crashed)
	if sum.Passed == 0 {
		t.Fatal("no case passed")
	}
}

// TestOpsOnLlamaRPCServer runs gpurt's op cases on llama.cpp's rpc-server,
// which checks the op and parameter mapping against ggml's own kernels, and
// the client's supports-op limits (withinGGMLCPU): no case may fail or kill
// the server; those outside the limits count as not supported.
func TestOpsOnLlamaRPCServer(t *testing.T) {
	restart := func() string { return startLlamaRPCServer(t) }
	runOps(t, restart(), 3, nil, restart)
}

// TestOpsOnGpurtServer runs the op cases through a gpurt server: every op
// the client can send is rebuilt by the server's mapping and computed by
// its CPU backend.
func TestOpsOnGpurtServer(t *testing.T) {
	_, addr := startServer(t, rpc.ServerOptions{})
	runOps(t, addr, 3, nil, nil)
}

// TestBufferCommands runs the buffer commands the op cases do not reach —
// BUFFER_CLEAR, MEMSET_TENSOR, COPY_TENSOR, GET_DEVICE_MEMORY — against
// both servers.
func TestBufferCommands(t *testing.T) {
	servers := map[string]func(testing.TB) string{
		"gpurt":     func(t testing.TB) string { _, addr := startServer(t, rpc.ServerOptions{}); return addr },
		"llama.cpp": startLlamaRPCServer,
	}
	for name, start := range servers {
		t.Run(name, func(t *testing.T) {
			c := connect(t, start(t), rpc.ClientOptions{Timeout: 10 * time.Second})
			dev := c.Devices()[0]
			if p := dev.Props(); p.MemoryTotal == 0 || p.Type != rt.DeviceGPU {
				t.Errorf("props %+v", p)
			}
			ctx := rt.NewContext()
			a, b := ctx.NewTensor(rt.F32, 8), ctx.NewTensor(rt.F32, 8)
			buf, err := rt.AllocContextTensors(ctx, dev.BufferType())
			if err != nil {
				t.Fatal(err)
			}
			defer buf.Free()
			if err := buf.Clear(0); err != nil {
				t.Fatal(err)
			}
			if err := rt.TensorSetF32(a, []float32{1, 2, 3, 4, 5, 6, 7, 8}); err != nil {
				t.Fatal(err)
			}
			// Bytes 0x3f80_0000 is 1.0: memset two elements' bytes to 0.
			if err := rt.TensorMemset(a, 0, 8, 8); err != nil {
				t.Fatal(err)
			}
			if err := rt.TensorCopy(a, b); err != nil {
				t.Fatal(err)
			}
			got, err := rt.TensorGetF32(b)
			if err != nil {
				t.Fatal(err)
			}
			if want := []float32{1, 2, 0, 0, 5, 6, 7, 8}; !slices.Equal(got, want) {
				t.Fatalf("after memset and copy: %v, want %v", got, want)
			}
			if err := c.Ping(); err != nil {
				t.Fatal(err)
			}
		})
	}
}
