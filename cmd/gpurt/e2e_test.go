package main

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/gpurt/gpurt/cpu"
	"github.com/gpurt/gpurt/gguf"
	"github.com/gpurt/gpurt/internal/testmodels"
	"github.com/gpurt/gpurt/internal/vkvalidate"
	"github.com/gpurt/gpurt/llama"
	rt "github.com/gpurt/gpurt/runtime"
)

// Every Vulkan instance this binary creates (the vulkan backend, and wgpu's
// Vulkan path) runs under the validation layer; any message fails the run,
// and so does anything left open at the end.
func TestMain(m *testing.M) {
	vlog, err := vkvalidate.Enable(vkvalidate.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "cmd/gpurt tests:", err)
		os.Exit(1)
	}
	code := m.Run()
	// Releasing the GPU families destroys every Vulkan device and instance:
	// the layer reports any object a test left alive, and Release names
	// buffers and backends still open.
	if err := rt.Release(); err != nil {
		fmt.Fprintln(os.Stderr, "release:", err)
		code = 1
	}
	if msgs := vlog.Since(0); msgs != "" {
		fmt.Fprintf(os.Stderr, "validation layer messages:\n%s\n", msgs)
		code = 1
	}
	vlog.Close()
	os.Exit(code)
}

const storiesPath = "../../../shared/models/stories260K.gguf"

func openStories(t *testing.T) *gguf.File {
	t.Helper()
	f, err := gguf.Open(testmodels.StoriesPath(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// firstDevice returns the first device of a backend family, or skips.
func firstDevice(t *testing.T, family string) rt.Device {
	t.Helper()
	devs := rt.DevicesOf(family)
	if len(devs) == 0 {
		t.Skipf("no %s device", family)
	}
	return devs[0]
}

// greedyTokens loads the model on backends and decodes n tokens greedily
// from BOS; then, after a cache reset, m tokens after a batched prompt.
func greedyTokens(t *testing.T, f *gguf.File, backends []rt.Backend, gpuLayers, n int) (fromBOS, afterPrompt []int32, _ *llama.Model) {
	t.Helper()
	m, err := llama.Load(f, llama.Options{Backends: backends, GPULayers: gpuLayers})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	s, err := llama.NewSampler(llama.SamplerConfig{})
	if err != nil {
		t.Fatal(err)
	}
	fromBOS, _, err = m.Generate([]int32{m.Tok.BOS()}, n, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	m.ResetCache()
	prompt := m.Tok.Encode("Once upon a time, there was a big dog named Max. Max liked to run in the park with his friend, a little bird.", true)
	afterPrompt, _, err = m.Generate(prompt, 40, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	return fromBOS, afterPrompt, m
}

func newBackend(t *testing.T, d rt.Device) rt.Backend {
	t.Helper()
	b, err := d.NewBackend()
	if err != nil {
		t.Fatalf("%s: %v", d.Name(), err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// TestGreedyAcrossDevices: greedy decoding from BOS gives the same 200
// tokens on every device and on mixed schedules with layers on each, and
// so do 40 tokens after a batched prompt.
func TestGreedyAcrossDevices(t *testing.T) {
	f := openStories(t)
	cpuB, _ := cpu.NewBackend(0)
	defer cpuB.Close()
	want, wantPrompt, ref := greedyTokens(t, f, []rt.Backend{cpuB}, 0, 200)
	if text := ref.Tok.Decode(want); !strings.HasPrefix(strings.TrimSpace(text), "Once upon a time, there was a little girl named Lily.") {
		t.Fatalf("CPU text: %q", text)
	}
	cases := []struct {
		name      string
		families  []string
		gpuLayers int
	}{
		{"vulkan", []string{"vulkan"}, -1},
		{"webgpu", []string{"webgpu"}, -1},
		{"vulkan+cpu", []string{"vulkan"}, 3},
		{"webgpu+cpu", []string{"webgpu"}, 2},
		{"webgpu+vulkan+cpu", []string{"webgpu", "vulkan"}, 4},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var backends []rt.Backend
			for _, fam := range tc.families {
				backends = append(backends, newBackend(t, firstDevice(t, fam)))
			}
			backends = append(backends, cpuB)
			got, gotPrompt, m := greedyTokens(t, f, backends, tc.gpuLayers, 200)
			if !slices.Equal(got, want) {
				t.Fatalf("tokens differ from the CPU's:\n got %v\nwant %v", got, want)
			}
			if !slices.Equal(gotPrompt, wantPrompt) {
				t.Fatalf("tokens after the prompt differ from the CPU's:\n got %v\nwant %v", gotPrompt, wantPrompt)
			}
			t.Logf("%s: %d splits per token; %s", tc.name, m.Splits(), strings.Join(m.Placement, "; "))
		})
	}
}

// withoutOp hides one op from a device, as a build without that kernel.
type withoutOp struct {
	rt.Device
	op rt.Op
}

func (d withoutOp) SupportsOp(t *rt.Tensor) bool { return t.Op != d.op && d.Device.SupportsOp(t) }

type backendWithDevice struct {
	rt.Backend
	dev rt.Device
}

func (b backendWithDevice) Device() rt.Device { return b.dev }

// TestVulkanBlockWithCPUFallback runs the whole model through the
// scheduler with weights in Vulkan device-local memory and the SwiGLU
// (GLU) forced onto the CPU: every block splits around it, inputs are
// copied both ways, and the tokens still match the CPU's.
func TestVulkanBlockWithCPUFallback(t *testing.T) {
	f := openStories(t)
	cpuB, _ := cpu.NewBackend(0)
	defer cpuB.Close()
	want, _, _ := greedyTokens(t, f, []rt.Backend{cpuB}, 0, 24)

	dev := firstDevice(t, "vulkan")
	vkB := backendWithDevice{newBackend(t, dev), withoutOp{dev, rt.OpGLU}}
	// The wrapped device is not the one the backend's events belong to,
	// so this test runs without pipeline parallelism (and its events).
	defer func(p bool) { llama.PipelineParallel = p }(llama.PipelineParallel)
	llama.PipelineParallel = false
	t.Setenv("GPURT_SCHED_DEBUG", "1")
	m, err := llama.Load(f, llama.Options{Backends: []rt.Backend{vkB, cpuB}, GPULayers: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	var debug bytes.Buffer
	m.Scheduler().SetDebugOutput(&debug)
	s, _ := llama.NewSampler(llama.SamplerConfig{})
	got, _, err := m.Generate([]int32{m.Tok.BOS()}, 24, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("tokens differ from the CPU's:\n got %v\nwant %v", got, want)
	}
	// CPU for the embedding, then per block Vulkan → CPU (SwiGLU) → Vulkan.
	if n := m.Splits(); n < 1+2*m.H.NLayer {
		t.Errorf("%d splits, want at least %d", n, 1+2*m.H.NLayer)
	}
	// The debug output shows the splits and the copies into each.
	last := debug.String()[strings.LastIndex(debug.String(), "## SPLIT #0"):]
	if !strings.Contains(last, "## SPLIT #2: CPU # 2 inputs: [blk.0.ffn_gate") || !strings.Contains(last, "## SPLIT #3: Vulkan0 # 1 inputs: [blk.0.ffn_swiglu") {
		t.Errorf("debug output lacks the CPU split or the input copies:\n%s", last)
	}
	t.Logf("%d splits per token:%s", m.Splits(), last)
}

// TestTensorCopyAcrossDevices copies a tensor through every pair of
// device-local and host buffer types, including GPU to GPU of different
// APIs, which has no direct path and goes through host staging.
func TestTensorCopyAcrossDevices(t *testing.T) {
	var types []rt.BufferType
	for _, d := range rt.Devices() {
		types = append(types, d.BufferType())
		if h := d.HostBufferType(); h != nil && h != d.BufferType() {
			types = append(types, h)
		}
	}
	want := make([]float32, 1000)
	for i := range want {
		want[i] = float32(i)*0.5 - 7
	}
	for _, from := range types {
		for _, to := range types {
			t.Run(from.Name()+"→"+to.Name(), func(t *testing.T) {
				ctx := rt.NewContext()
				src := ctx.NewTensor(rt.F32, len(want)).SetName("src")
				dst := rt.NewContext().NewTensor(rt.F32, len(want)).SetName("dst")
				sb, err := from.Alloc(src.Nbytes())
				if err != nil {
					t.Fatal(err)
				}
				defer sb.Free()
				db, err := to.Alloc(dst.Nbytes())
				if err != nil {
					t.Fatal(err)
				}
				defer db.Free()
				if err := rt.AllocTensor(sb, src, 0); err != nil {
					t.Fatal(err)
				}
				if err := rt.AllocTensor(db, dst, 0); err != nil {
					t.Fatal(err)
				}
				if err := rt.TensorSetF32(src, want); err != nil {
					t.Fatal(err)
				}
				if err := rt.TensorCopy(src, dst); err != nil {
					t.Fatal(err)
				}
				got, err := rt.TensorGetF32(dst)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got, want) {
					t.Fatalf("copy differs: got %v…", got[:4])
				}
			})
		}
	}
}
