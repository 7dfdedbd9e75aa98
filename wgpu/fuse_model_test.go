//go:build cgo

package wgpu

import (
	"os"
	"slices"
	"testing"

	"github.com/gpurt/gpurt/cpu"
	"github.com/gpurt/gpurt/gguf"
	"github.com/gpurt/gpurt/llama"
	rt "github.com/gpurt/gpurt/runtime"
)

// qwen2Synth is a random-weight qwen2 (biases on q, k and v) from
// ../shared/models/synth.
const qwen2Synth = "../../shared/models/synth/qwen2-q8_0.gguf"

// TestModelFuses decodes a qwen2-shaped model on WebGPU with fusion on and
// off: at least each block's two RMS_NORM+MUL and three bias adds must run
// fused, with the same tokens.
func TestModelFuses(t *testing.T) {
	if _, err := os.Stat(qwen2Synth); err != nil {
		t.Skipf("synthetic models absent (%v): ../shared/models/synth is not mounted", err)
	}
	d := device(t)
	f, err := gguf.Open(qwen2Synth)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	be := newBackend(t, d)
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
	generate := func(fuse bool) ([]int32, int) {
		be.SetFusion(fuse)
		m.ResetCache()
		s, err := llama.NewSampler(llama.SamplerConfig{})
		if err != nil {
			t.Fatal(err)
		}
		before := be.FusedNodes()
		toks, _, err := m.Generate([]int32{m.Tok.BOS()}, steps, s, nil)
		if err != nil {
			t.Fatal(err)
		}
		return toks, be.FusedNodes() - before
	}
	unfusedToks, none := generate(false)
	fusedToks, fused := generate(true)
	if !slices.Equal(fusedToks, unfusedToks) {
		t.Errorf("tokens differ with fusion:\n fused %v\nunfused %v", fusedToks, unfusedToks)
	}
	if none != 0 {
		t.Errorf("fusion off: %d nodes fused", none)
	}
	if want := steps * 5 * m.H.NLayer; fused < want {
		t.Errorf("%d nodes fused in %d steps, want at least %d (5 per block per step)", fused, steps, want)
	}
}
