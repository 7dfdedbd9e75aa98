package llama

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/gpurt/gpurt/cpu"
	"github.com/gpurt/gpurt/gguf"
	rt "github.com/gpurt/gpurt/runtime"
)

// synthDir holds small random-weight models of every architecture with
// llama.cpp's outputs on them (see its README).
const synthDir = "../../shared/models/synth"

// synthExpected is the part of expected.json the tests use.
type synthExpected struct {
	Files map[string]struct {
		Model      string `json:"model"`
		Type       string `json:"type"`
		Perplexity *struct {
			PPL float64 `json:"ppl"`
		} `json:"perplexity"`
		KLDVsF16 *struct {
			MeanKLD  float64 `json:"mean_kld"`
			MeanPPLQ float64 `json:"mean_ppl_q"`
			SameTop  float64 `json:"same_top_p_pct"`
		} `json:"kld_vs_f16"`
		Greedy []struct {
			PromptIDs []int32   `json:"prompt_ids"`
			GenIDs    []int32   `json:"gen_ids"`
			Gaps      []float64 `json:"top1_top2_logit_gaps"`
		} `json:"greedy"`
	} `json:"files"`
}

func readSynth(t testing.TB) *synthExpected {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(synthDir, "expected.json"))
	if err != nil {
		t.Skipf("synthetic models absent (%v): ../shared/models/synth is not mounted", err)
	}
	var e synthExpected
	if err := json.Unmarshal(data, &e); err != nil {
		t.Fatal(err)
	}
	return &e
}

func openSynth(t testing.TB, name string) *gguf.File {
	t.Helper()
	f, err := gguf.Open(filepath.Join(synthDir, name))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func readBase(t testing.TB, name string) *KLDBase {
	t.Helper()
	r, err := os.Open(filepath.Join(synthDir, name))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	b, err := ReadKLDBase(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// synthArchs are the F16 masters, one per architecture of the set.
var synthArchs = []string{"llama", "llama3", "qwen2", "qwen3", "gemma2", "gemma3", "phi3"}

func loadOn(t testing.TB, f *gguf.File, backends []rt.Backend, opts Options) *Model {
	t.Helper()
	opts.Backends = backends
	m, err := Load(f, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

func cpuBackends(t testing.TB) []rt.Backend {
	b, err := cpu.NewBackend(0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return []rt.Backend{b}
}

// TestSynthF16MatchesLlamaCpp: on the CPU, every architecture's F16 file
// gives llama.cpp's distributions (mean KLD against llama.cpp's base
// <= 1e-4) and its perplexity within 0.2%.
func TestSynthF16MatchesLlamaCpp(t *testing.T) {
	exp := readSynth(t)
	for _, arch := range synthArchs {
		t.Run(arch, func(t *testing.T) {
			name := arch + "-f16.gguf"
			m := loadOn(t, openSynth(t, name), cpuBackends(t), Options{})
			s, err := m.KLDivergence(readBase(t, arch+"-f16.kld"), nil)
			if err != nil {
				t.Fatal(err)
			}
			sum := s.Summary()
			want := exp.Files[name].Perplexity.PPL
			t.Logf("%s: mean KLD %.3g, max %.3g, PPL %.4f (llama.cpp %.4f), same top %.2f%%", name, sum.KLD.Value, sum.KLDMax, sum.PPL.Value, want, 100*sum.SameTop.Value)
			if sum.KLD.Value > 1e-4 {
				t.Errorf("mean KLD %.3g against llama.cpp exceeds 1e-4", sum.KLD.Value)
			}
			if d := math.Abs(sum.PPL.Value/want - 1); d > 0.002 {
				t.Errorf("PPL %.4f differs from llama.cpp's %.4f by %.2f%%", sum.PPL.Value, want, 100*d)
			}
		})
	}
}
