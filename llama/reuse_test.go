package llama

import (
	"math"
	"slices"
	"testing"

	"github.com/gpurt/gpurt/cpu"
	"github.com/gpurt/gpurt/gguf"
	"github.com/gpurt/gpurt/models"
	rt "github.com/gpurt/gpurt/runtime"
)

// testModel is a model the tests open by name.
type testModel struct {
	name string
	open func(t testing.TB) *gguf.File
}

// testModels opens the models the graph reuse tests and the generation
// benchmark run on: the embedded default model, and stories260K when the
// shared models are present.
var testModels = []testModel{
	{"default", func(t testing.TB) *gguf.File {
		f, err := gguf.Parse(models.Default)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}},
	{"stories260K", openStories},
}

// TestGraphReuseMatchesRebuild runs the same evaluations on two copies of a
// model, one running its last graph again whenever the batch has its shape,
// one building every graph afresh, and requires identical logits at every
// step: single tokens across several kvPad boundaries, batched prompts
// followed by single tokens, and generation after ResetCache (which finds
// the graph of the same shape from before the reset).
func TestGraphReuseMatchesRebuild(t *testing.T) {
	for _, tm := range testModels {
		t.Run(tm.name, func(t *testing.T) {
			f := tm.open(t)
			load := func(rebuild bool) *Model {
				b, err := cpu.NewBackend(0)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { b.Close() })
				m, err := Load(f, Options{Backends: []rt.Backend{b}, RebuildGraphs: rebuild})
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { m.Close() })
				return m
			}
			reuse, fresh := load(false), load(true)
			if nGen := 3*kvPad + 5; reuse.H.NCtx < nGen+40 {
				t.Fatalf("context %d is too short for the test", reuse.H.NCtx)
			}

			evals := 0
			// step evaluates tokens on both models, compares the logits and
			// returns the greedy next token of the last.
			step := func(what string, tokens []int32, all bool) int32 {
				t.Helper()
				evals++
				want, err := fresh.Eval(tokens, all)
				if err != nil {
					t.Fatal(err)
				}
				got, err := reuse.Eval(tokens, all)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got, want) {
					t.Fatalf("%s at position %d: logits of the reused graph differ from a fresh graph's", what, reuse.NPast()-len(tokens))
				}
				return Argmax(got[len(got)-reuse.H.NVocab:])
			}
			generate := func(what string, first int32, n int) []int32 {
				t.Helper()
				out := []int32{first}
				for len(out) < n {
					out = append(out, step(what, out[len(out)-1:], false))
				}
				return out
			}
			reset := func() {
				reuse.ResetCache()
				fresh.ResetCache()
			}

			// Single tokens from BOS, crossing three padding boundaries.
			bos := generate("generation from BOS", reuse.Tok.BOS(), 3*kvPad+5)

			// A batched prompt (all logits, then the last one only; then
			// again, on the graph of the same shape), a second batch after
			// it, and single tokens, crossing a boundary.
			prompt := reuse.Tok.Encode("Once upon a time, there was a little girl named Lily. She loved to", true)
			for _, all := range []bool{true, false, false} {
				reset()
				step("prompt", prompt, all)
			}
			next := step("second batch", prompt[1:9], false)
			generate("generation after the prompt", next, kvPad+3)

			// After ResetCache the graph for the first positions is used
			// again, from before the reset: it must forget the old batch.
			reset()
			generate("generation from BOS", reuse.Tok.BOS(), 10)
			reset()
			again := generate("generation after ResetCache", reuse.Tok.BOS(), 2*kvPad)
			if !slices.Equal(again, bos[:len(again)]) {
				t.Errorf("after ResetCache the tokens %v differ from the first run's %v", again, bos[:len(again)])
			}

			if fresh.builds != evals {
				t.Errorf("the rebuilding model built %d graphs for %d evaluations", fresh.builds, evals)
			}
			// One graph per kvPad positions of single tokens, one per prompt shape.
			if limit := evals/kvPad + 12; reuse.builds > limit {
				t.Errorf("the reusing model built %d graphs for %d evaluations, want at most %d", reuse.builds, evals, limit)
			}
			t.Logf("%d evaluations, %d graphs built", evals, reuse.builds)
		})
	}
}

// TestCacheNKV checks the attended cache length: the used cells rounded
// up to kvPad and capped at the cache size.
func TestCacheNKV(t *testing.T) {
	cases := []struct{ used, want int }{
		{0, 0}, {1, kvPad}, {kvPad, kvPad}, {kvPad + 1, 2 * kvPad}, {98, 100}, {100, 100},
	}
	for _, c := range cases {
		kv := kvCache{size: 100, streams: 1, streamSize: 100, used: []int{c.used}}
		if got := kv.nKV(0, 1); got != c.want {
			t.Errorf("nKV with %d used cells = %d, want %d", c.used, got, c.want)
		}
	}
	// Options.KVPad sets the step.
	for _, c := range []struct{ used, want int }{{1, 256}, {256, 256}, {257, 512}, {600, 600}} {
		kv := kvCache{size: 600, streams: 1, streamSize: 600, used: []int{c.used}, pad: 256}
		if got := kv.nKV(0, 1); got != c.want {
			t.Errorf("nKV with %d used cells and padding 256 = %d, want %d", c.used, got, c.want)
		}
	}
	// With streams, a ubatch attends over as many cells of each of its
	// streams as the fullest of them uses.
	kv := kvCache{size: 300, streams: 3, streamSize: 100, used: []int{5, 40, 99}}
	for _, c := range []struct{ s0, nS, want int }{{0, 1, kvPad}, {1, 1, 2 * kvPad}, {0, 2, 2 * kvPad}, {1, 2, 100}, {0, 3, 100}} {
		if got := kv.nKV(c.s0, c.nS); got != c.want {
			t.Errorf("nKV of streams %d..%d = %d, want %d", c.s0, c.s0+c.nS-1, got, c.want)
		}
	}
}

// TestBatchMatchesSingleTokens evaluates a prompt as two batches (the
// second at a position not on a kvPad boundary) and token by token: the
// logits must agree up to the rounding of the different kernels, which
// checks where and when batches store their keys and values.
func TestBatchMatchesSingleTokens(t *testing.T) {
	for _, tm := range testModels {
		t.Run(tm.name, func(t *testing.T) {
			b, err := cpu.NewBackend(0)
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			m, err := Load(tm.open(t), Options{Backends: []rt.Backend{b}})
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			prompt := m.Tok.Encode("Once upon a time, there was a little girl named Lily. She loved to play outside in the park.", true)
			split := 13
			var batched []float32
			for _, part := range [][]int32{prompt[:split], prompt[split:]} {
				logits, err := m.Eval(part, true)
				if err != nil {
					t.Fatal(err)
				}
				batched = append(batched, logits...)
			}
			m.ResetCache()
			nv := m.H.NVocab
			worst := 0.0
			defer func() { t.Logf("largest difference: %.2g of the largest logit", worst) }()
			for i, tok := range prompt {
				single, err := m.Eval([]int32{tok}, false)
				if err != nil {
					t.Fatal(err)
				}
				row := batched[i*nv : (i+1)*nv]
				maxDiff, scale := 0.0, 0.0
				for j, v := range single {
					maxDiff = max(maxDiff, math.Abs(float64(v-row[j])))
					scale = max(scale, math.Abs(float64(v)))
				}
				worst = max(worst, maxDiff/max(scale, 1))
				if maxDiff > 5e-3*max(scale, 1) {
					t.Fatalf("token %d: batched logits differ from single-token ones by up to %g (largest logit %g)", i, maxDiff, scale)
				}
			}
		})
	}
}
