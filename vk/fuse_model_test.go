package vk

import (
	"os"
	"slices"
	"testing"
	"time"

	"github.com/gpurt/gpurt/cpu"
	"github.com/gpurt/gpurt/gguf"
	"github.com/gpurt/gpurt/llama"
	rt "github.com/gpurt/gpurt/runtime"
)

// qwen2Synth is a random-weight qwen2 (biases on q, k and v) from
// ../shared/models/synth.
const qwen2Synth = "../../shared/models/synth/qwen2-q8_0.gguf"

// TestModelFuses decodes a qwen2-shaped model on Vulkan with fusion on and
// off: each block's two RMS_NORM+MUL and three MUL_MAT+ADD (the q, k, v
// biases) must run fused, saving one dispatch each, with the same tokens;
// so may the residual adds after the attention and feed-forward outputs
// (unless the allocator gave the sum memory an input of the product used).
func TestModelFuses(t *testing.T) {
	if _, err := os.Stat(qwen2Synth); err != nil {
		t.Skipf("synthetic models absent (%v): ../shared/models/synth is not mounted", err)
	}
	dev, _ := testDevice(t)
	f, err := gguf.Open(qwen2Synth)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	beI, err := dev.NewBackend()
	if err != nil {
		t.Fatal(err)
	}
	be := beI.(*Backend)
	defer be.Close()
	cpuB, err := cpu.NewBackend(1)
	if err != nil {
		t.Fatal(err)
	}
	defer cpuB.Close()
	m, err := llama.Load(f, llama.Options{Backends: []rt.Backend{be, cpuB}, GPULayers: -1, NCtx: 64})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()

	const steps = 6
	generate := func(fuse bool) ([]int32, Stats, time.Duration) {
		be.SetFusion(fuse)
		m.ResetCache()
		s, err := llama.NewSampler(llama.SamplerConfig{})
		if err != nil {
			t.Fatal(err)
		}
		before, start := be.Stats(), time.Now()
		toks, _, err := m.Generate([]int32{m.Tok.BOS()}, steps, s, nil)
		if err != nil {
			t.Fatal(err)
		}
		after := be.Stats()
		return toks, Stats{Dispatches: after.Dispatches - before.Dispatches, Fused: after.Fused - before.Fused}, time.Since(start)
	}
	generate(true) // warm: pipelines compile on first use
	unfusedToks, unfused, tu := generate(false)
	fusedToks, fused, tf := generate(true)
	if !slices.Equal(fusedToks, unfusedToks) {
		t.Errorf("tokens differ with fusion:\n fused %v\nunfused %v", fusedToks, unfusedToks)
	}
	if unfused.Fused != 0 {
		t.Errorf("fusion off: %d nodes fused", unfused.Fused)
	}
	if saved := unfused.Dispatches - fused.Dispatches; saved != fused.Fused {
		t.Errorf("fusion saved %d dispatches, but %d nodes were fused", saved, fused.Fused)
	}
	// Each decode step: at least 5 fusions per block.
	if want := steps * 5 * m.H.NLayer; fused.Fused < want {
		t.Errorf("%d nodes fused in %d steps, want at least %d (5 per block per step)", fused.Fused, steps, want)
	}
	t.Logf("%d steps: %d dispatches fused, %d unfused (%d fused nodes); time fused/unfused %.2f (noisy)",
		steps, fused.Dispatches, unfused.Dispatches, fused.Fused, tf.Seconds()/tu.Seconds())
}
