package bench

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestParseLlamaBenchCSV(t *testing.T) {
	header := "build_commit,model_type,n_threads,n_prompt,n_gen,n_depth,avg_ns,stddev_ns,avg_ts,stddev_ts\n"
	row := func(np, ng, depth, ts string) string {
		return `"abc","llama ?B F32","2","` + np + `","` + ng + `","` + depth + `","1","0","` + ts + `","3"` + "\n"
	}
	// llama-bench -p 128 -n 64 -d 0,128: prompt and generation at each depth.
	full := header + row("128", "0", "0", "10259.5") + row("0", "64", "0", "96.25") + row("128", "0", "128", "9000") + row("0", "64", "128", "80.5")
	for _, tc := range []struct {
		name, csv    string
		want         llamaBenchResult
		wantErrMatch string
	}{
		{"prompt at depth 0, generation at depth 128", full, llamaBenchResult{prompt: 10259.5, gen: 80.5, genEmpty: 96.25}, ""},
		{"generation only at depth 0", header + row("128", "0", "0", "10259.5") + row("0", "64", "0", "96.25"), llamaBenchResult{}, "generation at depth 128"},
		{"prompt only at depth 128", header + row("128", "0", "128", "9000") + row("0", "64", "128", "80.5"), llamaBenchResult{}, "prompt at depth 0"},
		{"no rows", header, llamaBenchResult{}, "no results"},
		{"no avg_ts", "n_prompt,n_gen,n_depth\n128,0,0\n", llamaBenchResult{}, "avg_ts"},
		{"no n_depth", "n_prompt,n_gen,avg_ts\n128,0,1\n", llamaBenchResult{}, "n_depth"},
		{"not numeric", header + row("x", "0", "0", "1"), llamaBenchResult{}, "not numeric"},
		{"ragged", header + `"abc","m"` + "\n", llamaBenchResult{}, "wrong number of fields"},
	} {
		got, err := parseLlamaBenchCSV([]byte(tc.csv), 128)
		if tc.wantErrMatch == "" {
			if err != nil || got != tc.want {
				t.Errorf("%s: got %+v, %v; want %+v", tc.name, got, err, tc.want)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.wantErrMatch) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.wantErrMatch)
		}
	}
}

func TestLlamaCppE2ESkips(t *testing.T) {
	tools := t.TempDir() // a llama-bench that is never run
	if err := os.WriteFile(filepath.Join(tools, "llama-bench"), []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		model Model
		dir   string
		want  string
	}{
		{"embedded model without its bytes", Model{Name: "default"}, tools, "embedded model's bytes"},
		{"no tool", Model{Name: "x", Path: "x.gguf"}, "/nonexistent", "llama-bench not found"},
	} {
		r := &runner{opts: &Options{LlamaCppDir: tc.dir}}
		recs := r.llamaCppE2E(tc.model, Record{Op: "E2E_PROMPT", N: 128}, Record{Op: "E2E_GEN", N: 64})
		if len(recs) != 2 {
			t.Fatalf("%s: %d records, want 2", tc.name, len(recs))
		}
		for _, rec := range recs {
			if rec.Backend != "llama.cpp" || rec.Status != StatusSkipped || rec.TokS != 0 || !strings.Contains(rec.Note, tc.want) {
				t.Errorf("%s: %+v, want a skipped llama.cpp record saying %q", tc.name, rec, tc.want)
			}
		}
	}
}

func TestParseTestBackendOps(t *testing.T) {
	plain := "  MUL_MAT(type_a=q4_0,type_b=f32,m=4096,n=1,k=4096,bs=[1,1],nr=[1,1],per=[0,1,2,3],k_v=0,o=1):                  2629 runs -   433.33 us/run -  33.55 MFLOP/run - \x1b[1;34m 77.43 GFLOPS\x1b[0m\n"
	broadcast := "  MUL_MAT(type_a=q4_0,type_b=f32,m=4096,n=1,k=4096,bs=[2,1],nr=[1,1],per=[0,1,2,3],k_v=0,o=1):                  100 runs -   900.00 us/run -  33.55 MFLOP/run -  70 GFLOPS\n"
	for _, tc := range []struct {
		name, out string
		us        float64
		runs      int
	}{
		{"plain case", "Testing 1 devices\n" + plain + "  Backend CPU: OK\n", 433.33, 2629},
		{"the plain case after a broadcast one", broadcast + plain, 433.33, 2629},
		{"only a broadcast case", broadcast, 0, 0},
		{"no perf line", "Backend CPU: OK\n", 0, 0},
	} {
		us, runs, err := parseTestBackendOps(tc.out)
		if tc.runs == 0 {
			if !errors.Is(err, errNoPerfCase) {
				t.Errorf("%s: got %v µs, %d runs, %v; want errNoPerfCase", tc.name, us, runs, err)
			}
			continue
		}
		if err != nil || us != tc.us || runs != tc.runs {
			t.Errorf("%s: got %v µs, %d runs, %v; want %v, %d", tc.name, us, runs, err, tc.us, tc.runs)
		}
	}
}

// TestE2ERounds alternates a fake gpurt with a fake llama-bench three
// times: the figures are the medians and the ratio the median of the
// rounds' ratios, with its range.
func TestE2ERounds(t *testing.T) {
	tools := t.TempDir()
	csv := "n_prompt,n_gen,n_depth,avg_ts\n128,0,0,100\n0,64,0,60\n128,0,128,90\n0,64,128,50\n"
	script := "#!/bin/sh\nprintf '" + strings.ReplaceAll(csv, "\n", "\\n") + "'\n"
	if err := os.WriteFile(filepath.Join(tools, "llama-bench"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	model := filepath.Join(t.TempDir(), "m.gguf")
	if err := os.WriteFile(model, []byte("GGUF"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := EndToEnd
	t.Cleanup(func() { EndToEnd = old })
	round := 0
	EndToEnd = func(E2ERequest) (E2EResult, error) {
		round++ // gpurt's speeds 100, 200, 300 and 50, 100, 150 over the rounds
		return E2EResult{PromptTokS: 100 * float64(round), GenTokS: 50 * float64(round), Runs: 1, Note: "fake"}, nil
	}
	opts := tinyOptions(nil, "E2E")
	opts.Filter.Backends = []string{"cpu"}
	opts.Models = []Model{{Name: "m", Path: model}}
	opts.LlamaCppDir, opts.Rounds = tools, 3
	recs, err := Run(opts)
	if err != nil {
		t.Fatal(err)
	}
	if round != 3 {
		t.Errorf("gpurt ran %d rounds, want 3", round)
	}
	for _, want := range []struct {
		backend, op string
		tokS        float64
		note        string
	}{
		{"cpu", "E2E_PROMPT", 200, "2.00× llama.cpp (median of 3 alternated rounds, 1.00–3.00)"},
		{"cpu", "E2E_GEN", 100, "2.00× llama.cpp (median of 3 alternated rounds, 1.00–3.00)"},
		{"llama.cpp", "E2E_PROMPT", 100, "median of 3 rounds"},
		{"llama.cpp", "E2E_GEN", 50, "median of 3 rounds"},
	} {
		got := find(recs, want.backend, want.op, "model")
		if len(got) != 1 || got[0].TokS != want.tokS || !strings.Contains(got[0].Note, want.note) {
			t.Errorf("%s %s: %+v, want one record of %v tok/s noting %q", want.backend, want.op, got, want.tokS, want.note)
		}
	}
}

// TestMulMatRounds alternates gpurt's run of a MUL_MAT case with a fake
// test-backend-ops three times: llama.cpp's figure is its median, and
// there is one speed ratio a round.
func TestMulMatRounds(t *testing.T) {
	tools := t.TempDir()
	// Each run prints a time 100 µs longer than the last: 100, 200, 300.
	count := filepath.Join(tools, "count")
	script := `#!/bin/sh
n=$(cat "` + count + `" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "` + count + `"
echo "  MUL_MAT(type_a=f32,type_b=f32,m=4096,n=8,k=4096,bs=[1,1],nr=[1,1],per=[0,1,2,3],k_v=0,o=1):  10 runs - ${n}00.00 us/run - 1 GFLOPS"
`
	if err := os.WriteFile(filepath.Join(tools, "test-backend-ops"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	runs := 0
	r := &runner{opts: &Options{LlamaCppDir: tools, Rounds: 3}, policy: Policy{MinRuns: 1, MaxRuns: 1}}
	rec := Record{Backend: "cpu", Op: "MUL_MAT", Type: "f32", M: 4096, N: 8, K: 4096}
	mine, theirs, ratios := r.mulMatRounds(rec, Timing{Median: 2 * time.Millisecond, Runs: 5}, func() error {
		runs++
		return nil
	})
	if runs != 2 {
		t.Errorf("gpurt ran %d more times, want 2 (rounds 2 and 3)", runs)
	}
	if len(ratios) != 3 || ratios[0] != 0.05 {
		t.Errorf("ratios %v, want 3, the first 100 µs / 2 ms", ratios)
	}
	if theirs.Backend != "llama.cpp" || theirs.Us != 200 || !strings.Contains(theirs.Note, "median of 3 rounds") {
		t.Errorf("llama.cpp record %+v, want the median 200 µs of 3 rounds", theirs)
	}
	if mine.Runs != 5 || mine.Median <= 0 || mine.Median > 2*time.Millisecond {
		t.Errorf("gpurt's timing %+v, want the median of the rounds, the first's run count", mine)
	}
	if got := ratioNote(ratios); !strings.Contains(got, "median of 3 alternated rounds") {
		t.Errorf("ratioNote(%v) = %q", ratios, got)
	}
}
