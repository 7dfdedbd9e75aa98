package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpurt/gpurt/bench"
	"github.com/gpurt/gpurt/cpu"
)

func TestBenchCommand(t *testing.T) {
	dir := t.TempDir()
	jsonPath, mdPath, pngPath := filepath.Join(dir, "b.json"), filepath.Join(dir, "b.md"), filepath.Join(dir, "b.png")
	// DISPATCH alone keeps this short: the bandwidth probe plus 1,000 tiny ADDs.
	if code := runBench([]string{"-b", "cpu", "-o", "DISPATCH", "--quick", "-q", "--json", jsonPath, "--md", mdPath, "--png", pngPath}); code != 0 {
		t.Fatalf("exit code %d", code)
	}
	raw, err := os.ReadFile(jsonPath)
	if err != nil {
		t.Fatal(err)
	}
	var recs []bench.Record
	if err := json.Unmarshal(raw, &recs); err != nil {
		t.Fatal(err)
	}
	var ops []string
	for _, r := range recs {
		ops = append(ops, r.Backend+" "+r.Op)
		if !r.OK() {
			t.Errorf("%s %s: %s %s", r.Backend, r.Op, r.Status, r.Note)
		}
	}
	if got := strings.Join(ops, ", "); got != "membw READ, membw COPY, cpu DISPATCH" {
		t.Errorf("records: %s", got)
	}
	md, err := os.ReadFile(mdPath)
	if err != nil || !strings.Contains(string(md), "| cpu | CPU | DISPATCH |") {
		t.Errorf("markdown %q, %v", md, err)
	}
	if st, err := os.Stat(pngPath); err != nil || st.Size() < 1000 {
		t.Errorf("png: %v", err)
	}
}

func TestBenchCommandErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want int
	}{
		{[]string{"--no-such-flag"}, 2},
		{[]string{"extra"}, 2},
		{[]string{"-b", "no-such-backend", "-q"}, 1},
	} {
		if got := runBench(tc.args); got != tc.want {
			t.Errorf("gpurt bench %v: exit %d, want %d", tc.args, got, tc.want)
		}
	}
}

func TestBenchModelHook(t *testing.T) {
	const path = "../../../shared/models/stories260K.gguf"
	if _, err := os.Stat(path); err != nil {
		t.Skipf("test model not present: %v", err)
	}
	if bench.EndToEnd == nil {
		t.Fatal("gpurt does not fill bench.EndToEnd")
	}
	res, err := bench.EndToEnd(bench.E2ERequest{
		Device: cpu.Device(), Model: bench.Model{Name: "stories260K", Path: path},
		Prompt: 16, Gen: 4, Policy: bench.Policy{MinRuns: 2, MaxRuns: 2},
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.PromptTokS <= 0 || res.GenTokS <= 0 || res.Runs != 2 || !strings.Contains(res.Note, "16+4 tokens") {
		t.Errorf("end-to-end result %+v", res)
	}
	// The default model goes through openModel too: it either runs or says why not.
	if _, err := bench.EndToEnd(bench.E2ERequest{Device: cpu.Device(), Model: bench.Model{Name: "default"}, Prompt: 4, Gen: 2, Policy: bench.Policy{MaxRuns: 1}}); err != nil && !strings.Contains(err.Error(), "default model") {
		t.Errorf("default model: %v", err)
	}
}
