//go:build cgo

package wgpu

import (
	"slices"
	"testing"

	"github.com/gpurt/gpurt/internal/backendcheck"
	"github.com/gpurt/gpurt/llama"
)

// qwen2Synth is a random-weight qwen2 (biases on q, k and v) from
// ../shared/models/synth; stories260K a small llama (no biases).
const (
	qwen2Synth  = "../../shared/models/synth/qwen2-q8_0.gguf"
	stories260K = "../../shared/models/stories260K.gguf"
)

// TestModelFuses decodes models on WebGPU with fusion on and off, which
// must give the same tokens: at least each block's two RMS_NORM+MUL, the
// q, k, v bias adds where the model has them, and the KV write
// (ROPE+RESHAPE+SET_ROWS of the keys) must run fused.
func TestModelFuses(t *testing.T) {
	for _, c := range []struct {
		name, path string
		perBlock   int // fusions at least, per block and decode step
	}{
		{"qwen2", qwen2Synth, 2 + 3 + 1},
		{"stories260K", stories260K, 2 + 1},
	} {
		t.Run(c.name, func(t *testing.T) { checkModelFuses(t, c.path, c.perBlock) })
	}
}

func checkModelFuses(t *testing.T, path string, perBlock int) {
	d := device(t)
	be := newBackend(t, d)
	defer be.SetFusion(fusionDefault())
	m := backendcheck.LoadModel(t, path, be)

	const steps = 6
	generate := func(fuse bool) (toks []int32, fused, kv int) {
		be.SetFusion(fuse)
		m.ResetCache()
		s, err := llama.NewSampler(llama.SamplerConfig{})
		if err != nil {
			t.Fatal(err)
		}
		before, beforeKV := be.FusedNodes(), be.FusedKVWrites()
		toks, _, err = m.Generate([]int32{m.Tok.BOS()}, steps, s, nil)
		if err != nil {
			t.Fatal(err)
		}
		return toks, be.FusedNodes() - before, be.FusedKVWrites() - beforeKV
	}
	unfusedToks, none, noneKV := generate(false)
	fusedToks, fused, kv := generate(true)
	if !slices.Equal(fusedToks, unfusedToks) {
		t.Errorf("tokens differ with fusion:\n fused %v\nunfused %v", fusedToks, unfusedToks)
	}
	if none != 0 || noneKV != 0 {
		t.Errorf("fusion off: %d nodes fused, %d KV writes", none, noneKV)
	}
	// One KV write per block per graph, each graph a decode step.
	if nl := m.H.NLayer; kv%nl != 0 || kv/nl < steps {
		t.Errorf("%d KV writes fused in %d steps of %d blocks, want one per block per step", kv, steps, nl)
	}
	if want := steps * perBlock * m.H.NLayer; fused < want {
		t.Errorf("%d nodes fused in %d steps, want at least %d (%d per block per step)", fused, steps, want, perBlock)
	}
	t.Logf("%d steps: %d nodes fused (%d KV writes)", steps, fused, kv)
}
