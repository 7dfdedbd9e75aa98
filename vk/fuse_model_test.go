package vk

import (
	"slices"
	"testing"
	"time"

	"github.com/gpurt/gpurt/internal/backendcheck"
	"github.com/gpurt/gpurt/llama"
)

// qwen2Synth is a random-weight qwen2 (biases on q, k and v) from
// ../shared/models/synth; stories260K a small llama (no biases).
const (
	qwen2Synth  = "../../shared/models/synth/qwen2-q8_0.gguf"
	stories260K = "../../shared/models/stories260K.gguf"
)

// TestModelFuses decodes models on Vulkan with fusion on and off, which
// must give the same tokens, and checks what fused: in each block the two
// RMS_NORM+MUL, the q, k, v bias adds where the model has them, and the
// KV write (ROPE+RESHAPE+SET_ROWS of the keys), each saving one dispatch;
// so may the residual adds after the attention and feed-forward outputs
// (unless the allocator gave the sum memory an input of the product used).
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
	dev, _ := testDevice(t)
	beI, err := dev.NewBackend()
	if err != nil {
		t.Fatal(err)
	}
	be := beI.(*Backend)
	t.Cleanup(func() { be.Close() }) // after the model's cleanup
	m := backendcheck.LoadModel(t, path, be)

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
		return toks, Stats{Dispatches: after.Dispatches - before.Dispatches, Fused: after.Fused - before.Fused,
			FusedKVWrites: after.FusedKVWrites - before.FusedKVWrites}, time.Since(start)
	}
	generate(true) // warm: pipelines compile on first use
	unfusedToks, unfused, tu := generate(false)
	fusedToks, fused, tf := generate(true)
	if !slices.Equal(fusedToks, unfusedToks) {
		t.Errorf("tokens differ with fusion:\n fused %v\nunfused %v", fusedToks, unfusedToks)
	}
	if unfused.Fused != 0 || unfused.FusedKVWrites != 0 {
		t.Errorf("fusion off: %d nodes fused, %d KV writes", unfused.Fused, unfused.FusedKVWrites)
	}
	if saved := unfused.Dispatches - fused.Dispatches; saved != fused.Fused {
		t.Errorf("fusion saved %d dispatches, but %d nodes were fused", saved, fused.Fused)
	}
	// One KV write per block per graph, each graph a decode step.
	nl := m.H.NLayer
	graphs := fused.FusedKVWrites / nl
	if fused.FusedKVWrites%nl != 0 || graphs < steps {
		t.Errorf("%d KV writes fused in %d steps of %d blocks, want one per block per step", fused.FusedKVWrites, steps, nl)
	}
	if want := steps * perBlock * nl; fused.Fused < want {
		t.Errorf("%d nodes fused in %d steps, want at least %d (%d per block per step)", fused.Fused, steps, want, perBlock)
	}
	if graphs > 0 {
		t.Logf("%d graphs of one token: dispatches per token %d fused, %d unfused (%d fused nodes per token, %d KV writes); time fused/unfused %.2f (noisy)",
			graphs, fused.Dispatches/graphs, unfused.Dispatches/graphs, fused.Fused/graphs, fused.FusedKVWrites/graphs, tf.Seconds()/tu.Seconds())
	}
}
