package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpurt/gpurt/bench"
)

// TestBenchSynthModel: -m synth:tiny:q4_0 generates the model into
// --synth-dir and runs the end-to-end benchmark on it.
func TestBenchSynthModel(t *testing.T) {
	dir := t.TempDir()
	jsonPath := filepath.Join(dir, "b.json")
	args := []string{"-d", "cpu", "-o", "E2E", "--quick", "-q", "-m", "synth:tiny:q4_0",
		"--synth-dir", dir, "--vs-llama.cpp", "/nonexistent", "--json", jsonPath}
	if code := runBench(args); code != 0 {
		t.Fatalf("exit code %d", code)
	}
	if _, err := os.Stat(filepath.Join(dir, "synth-v1-tiny-q4_0.gguf")); err != nil {
		t.Errorf("generated model not cached: %v", err)
	}
	raw, err := os.ReadFile(jsonPath)
	if err != nil {
		t.Fatal(err)
	}
	var recs []bench.Record
	if err := json.Unmarshal(raw, &recs); err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, r := range recs {
		if r.Backend == "cpu" && strings.HasPrefix(r.Op, "E2E") && r.Model == "synth-tiny-q4_0" {
			found++
			if !r.OK() || r.TokS <= 0 {
				t.Errorf("E2E on the synth model: %s %s, %.1f tok/s", r.Status, r.Note, r.TokS)
			}
		}
	}
	if found != 2 {
		t.Errorf("%d E2E records, want prompt and generation, for synth-tiny-q4_0 for synth-tiny-q4_0 in %s", found, raw)
	}
	for _, bad := range []string{"synth:huge:f16", "synth:7b:q4_k_m", "synth:tiny:nope"} {
		if code := runBench([]string{"-o", "E2E", "-q", "-m", bad, "--synth-dir", dir}); code != 2 {
			t.Errorf("-m %s: exit %d, want 2 (usage)", bad, code)
		}
	}
}
