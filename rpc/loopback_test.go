package rpc_test

import (
	"log/slog"
	"net"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gpurt/gpurt/cpu"
	"github.com/gpurt/gpurt/gguf"
	"github.com/gpurt/gpurt/internal/testmodels"
	"github.com/gpurt/gpurt/llama"
	"github.com/gpurt/gpurt/rpc"
	rt "github.com/gpurt/gpurt/runtime"
)

// startServer serves the CPU on a free loopback port until the test ends.
func startServer(t testing.TB, opts rpc.ServerOptions) (*rpc.Server, string) {
	t.Helper()
	if opts.Devices == nil {
		opts.Devices = []rt.Device{cpu.Device()}
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	if opts.NewBackend == nil {
		opts.NewBackend = func(rt.Device) (rt.Backend, error) { return cpu.NewBackend(1) }
	}
	s, err := rpc.NewServer(opts)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- s.Serve(ln) }()
	t.Cleanup(func() {
		s.Close()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	return s, ln.Addr().String()
}

// testWriter sends a logger's lines to the test log.
type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Helper()
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

func connect(t testing.TB, addr string, opts rpc.ClientOptions) *rpc.Client {
	t.Helper()
	c, err := rpc.Connect(addr, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func openStories(t testing.TB) *gguf.File {
	t.Helper()
	f, err := gguf.Open(testmodels.StoriesPath(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// greedyTokens loads stories260K on backends and decodes n tokens greedily.
func greedyTokens(t testing.TB, f *gguf.File, backends []rt.Backend, gpuLayers, n int) []int32 {
	t.Helper()
	return greedyTokensOpts(t, f, llama.Options{Backends: backends, GPULayers: gpuLayers}, n)
}

func greedyTokensOpts(t testing.TB, f *gguf.File, opts llama.Options, n int) []int32 {
	t.Helper()
	backends := opts.Backends
	m, err := llama.Load(f, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if len(backends) > 1 && !strings.Contains(strings.Join(m.Placement, "; "), backends[0].Name()) {
		t.Fatalf("placement %v does not use %s", m.Placement, backends[0].Name())
	}
	s, err := llama.NewSampler(llama.SamplerConfig{})
	if err != nil {
		t.Fatal(err)
	}
	out, _, err := m.Generate([]int32{m.Tok.BOS()}, n, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func localTokens(t testing.TB, f *gguf.File, n int) []int32 {
	t.Helper()
	b, err := cpu.NewBackend(1)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	return greedyTokens(t, f, []rt.Backend{b}, 0, n)
}

// TestStoriesThroughRPC decodes stories260K greedily with every block on a
// gpurt server, and with the blocks split between the server and the
// local CPU: both give the local CPU's 200 tokens. The graph of a token is
// sent once per KV padding step (32 positions, or 256 with KVPad 256) and
// run again with GRAPH_RECOMPUTE in between.
func TestStoriesThroughRPC(t *testing.T) {
	f := openStories(t)
	want := localTokens(t, f, 200)
	srv, addr := startServer(t, rpc.ServerOptions{})
	for _, tc := range []struct {
		name      string
		gpuLayers int
		kvPad     int
		maxGraphs uint64 // graphs sent in full, at most
	}{
		// The prompt's, one per 32 positions, and one split graph per
		// remote run of blocks.
		{"all remote", -1, 0, 200/32 + 2},
		{"split", 3, 0, 200/32 + 2},
		{"all remote, KV padding 256", -1, 256, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := connect(t, addr, rpc.ClientOptions{Timeout: 20 * time.Second})
			remote, _ := c.Devices()[0].NewBackend()
			local, _ := cpu.NewBackend(1)
			defer local.Close()
			got := greedyTokensOpts(t, f, llama.Options{Backends: []rt.Backend{remote, local}, GPULayers: tc.gpuLayers, KVPad: tc.kvPad}, 200)
			if !slices.Equal(got, want) {
				t.Fatalf("tokens through RPC differ from local:\n got %v\nwant %v", got, want)
			}
			st := c.Stats()
			if st.Sent == 0 {
				t.Fatal("nothing was sent to the server")
			}
			if st.Graphs > tc.maxGraphs || st.Graphs+st.Recomputes < 200 {
				t.Errorf("%d graphs sent and %d run again for 200 tokens, want at most %d sent", st.Graphs, st.Recomputes, tc.maxGraphs)
			}
			t.Logf("%d graphs sent, %d run again, %d bytes sent", st.Graphs, st.Recomputes, st.Sent)
			c.Close()
			waitBuffers(t, srv, 0)
		})
	}
}

// TestStoriesOnTwoRemoteDevices serves two devices from one server: the
// client sees RPC[addr] and RPC[addr]#1 and shares the blocks between them
// (the device index of ALLOC_BUFFER, GRAPH_COMPUTE and GRAPH_RECOMPUTE).
func TestStoriesOnTwoRemoteDevices(t *testing.T) {
	f := openStories(t)
	want := localTokens(t, f, 60)
	_, addr := startServer(t, rpc.ServerOptions{Devices: []rt.Device{cpu.Device(), cpu.Device()}})
	c := connect(t, addr, rpc.ClientOptions{})
	devs := c.Devices()
	if len(devs) != 2 || devs[0].Name() != "RPC["+addr+"]" || devs[1].Name() != "RPC["+addr+"]#1" {
		t.Fatalf("devices %v", devs)
	}
	b0, _ := devs[0].NewBackend()
	b1, _ := devs[1].NewBackend()
	local, _ := cpu.NewBackend(1)
	defer local.Close()
	m, err := llama.Load(f, llama.Options{Backends: []rt.Backend{b0, b1, local}, GPULayers: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	placement := strings.Join(m.Placement, "; ")
	if !strings.Contains(placement, devs[0].Name()+";") || !strings.Contains(placement, devs[1].Name()) {
		t.Fatalf("placement %s does not use both remote devices", placement)
	}
	s, _ := llama.NewSampler(llama.SamplerConfig{})
	got, _, err := m.Generate([]int32{m.Tok.BOS()}, 60, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("tokens on two remote devices differ from local:\n got %v\nwant %v", got, want)
	}
}

// waitBuffers waits for the server to hold n buffers (sessions end
// asynchronously after a client closes).
func waitBuffers(t testing.TB, s *rpc.Server, n int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for s.Stats().Buffers != n {
		if time.Now().After(deadline) {
			t.Fatalf("server holds %d buffers, want %d", s.Stats().Buffers, n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestWeightsFromServerCache loads stories260K twice on a server with a
// cache directory: the second time the weights are named by hash
// (SET_TENSOR_HASH) and not sent, and the tokens stay the same.
func TestWeightsFromServerCache(t *testing.T) {
	f := openStories(t)
	want := localTokens(t, f, 20)
	dir := t.TempDir()
	_, addr := startServer(t, rpc.ServerOptions{CacheDir: dir, CacheThreshold: 1024})
	var sent [2]uint64
	for i := range sent {
		c := connect(t, addr, rpc.ClientOptions{HashThreshold: 1024})
		remote, _ := c.Devices()[0].NewBackend()
		local, _ := cpu.NewBackend(1)
		got := greedyTokens(t, f, []rt.Backend{remote, local}, -1, 20)
		local.Close()
		if !slices.Equal(got, want) {
			t.Fatalf("load %d: tokens differ from local", i)
		}
		sent[i] = c.Stats().Sent
		c.Close()
	}
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) == 0 {
		t.Fatalf("the cache holds %d files (%v)", len(entries), err)
	}
	if sent[1]*2 > sent[0] {
		t.Fatalf("the second load sent %d bytes, the first %d: the cache saved too little", sent[1], sent[0])
	}
	t.Logf("sent %d bytes on the first load, %d with the cache (%d cached tensors)", sent[0], sent[1], len(entries))
}

// TestListenWarnsOffLoopback: binding anywhere but loopback is reported on
// the logger, since the protocol has no authentication.
func TestListenWarnsOffLoopback(t *testing.T) {
	for _, tc := range []struct {
		addr string
		warn bool
	}{
		{"127.0.0.1:0", false},
		{"localhost:0", false},
		{"[::1]:0", false},
		{"0.0.0.0:0", true},
	} {
		var log strings.Builder
		ln, err := rpc.Listen(tc.addr, slog.New(slog.NewTextHandler(&log, nil)))
		if err != nil {
			if strings.Contains(tc.addr, "::1") {
				continue // no IPv6 loopback here
			}
			t.Fatal(err)
		}
		ln.Close()
		if got := strings.Contains(log.String(), "level=WARN"); got != tc.warn {
			t.Errorf("%s: warned %v, want %v (log %q)", tc.addr, got, tc.warn, log.String())
		}
	}
	if _, err := rpc.Listen("nonsense", nil); err == nil {
		t.Error("Listen accepted an address without a port")
	}
}

// TestGraphRunAgain runs one graph on a gpurt server several times: run
// again unchanged it goes as GRAPH_RECOMPUTE, and changed in place (an op
// parameter, a tensor's memory) or rebuilt it is sent in full, with the
// results of the graph as it is each time.
func TestGraphRunAgain(t *testing.T) {
	_, addr := startServer(t, rpc.ServerOptions{})
	c := connect(t, addr, rpc.ClientOptions{Timeout: 10 * time.Second})
	dev := c.Devices()[0]
	be, _ := dev.NewBackend()
	ctx := rt.NewContext()
	x := ctx.NewTensor(rt.F32, 4).SetName("x")
	y := ctx.NewTensor(rt.F32, 4).SetName("y")
	out := ctx.Add(ctx.Scale(x, 2, 0), y).SetName("out")
	buf, err := rt.AllocContextTensors(ctx, dev.BufferType())
	if err != nil {
		t.Fatal(err)
	}
	defer buf.Free()
	rt.TensorSetF32(x, []float32{1, 2, 3, 4})
	rt.TensorSetF32(y, []float32{10, 20, 30, 40})
	g := rt.NewGraph()
	g.BuildForward(out)
	rebuilt := rt.NewGraph()
	rebuilt.BuildForward(out)
	scale3 := func() { // the parameters ctx.Scale(x, 3) would have
		s := ctx.Scale(x, 3, 0)
		out.Src[0].Params = s.Params
	}
	swapInputs := func() { out.Src[0].Src[0], out.Src[1] = y, x }
	ctx2 := rt.NewContext()
	elsewhere := ctx2.NewTensor(rt.F32, 4)
	buf2, err := rt.AllocContextTensors(ctx2, dev.BufferType())
	if err != nil {
		t.Fatal(err)
	}
	defer buf2.Free()
	moveOutput := func() { out.Buffer, out.Offset = elsewhere.Buffer, elsewhere.Offset }
	for _, step := range []struct {
		name           string
		change         func()
		graph          *rt.Graph
		want           []float32
		graphs, reruns uint64 // the counts after the step
	}{
		{"first run", nil, g, []float32{12, 24, 36, 48}, 1, 0},
		{"unchanged", nil, g, []float32{12, 24, 36, 48}, 1, 1},
		{"rebuilt the same", nil, rebuilt, []float32{12, 24, 36, 48}, 1, 2},
		{"op parameter changed", scale3, g, []float32{13, 26, 39, 52}, 2, 2},
		{"sources swapped", swapInputs, g, []float32{31, 62, 93, 124}, 3, 2},
		{"unchanged after the change", nil, g, []float32{31, 62, 93, 124}, 3, 3},
		{"output moved", moveOutput, g, []float32{31, 62, 93, 124}, 4, 3},
	} {
		if step.change != nil {
			step.change()
		}
		if err := be.GraphCompute(step.graph); err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		got, err := rt.TensorGetF32(out)
		if err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		st := c.Stats()
		if !slices.Equal(got, step.want) || st.Graphs != step.graphs || st.Recomputes != step.reruns {
			t.Errorf("%s: out %v with %d graphs sent and %d run again, want %v, %d and %d",
				step.name, got, st.Graphs, st.Recomputes, step.want, step.graphs, step.reruns)
		}
	}
}
