package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpurt/gpurt/bench"
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
