package bench

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseLlamaBenchCSV(t *testing.T) {
	header := "build_commit,model_type,n_threads,n_prompt,n_gen,avg_ns,stddev_ns,avg_ts,stddev_ts\n"
	for _, tc := range []struct {
		name, csv    string
		prompt, gen  float64
		wantErrMatch string
	}{
		{"prompt and gen", header + `"abc","llama ?B F32","2","128","0","1","0","10259.5","12.1"` + "\n" + `"abc","llama ?B F32","2","0","64","1","0","96.25","3"` + "\n", 10259.5, 96.25, ""},
		{"gen missing", header + `"abc","m","2","128","0","1","0","10259.5","12.1"` + "\n", 0, 0, "lacks a prompt or a generation"},
		{"no rows", header, 0, 0, "no results"},
		{"no avg_ts", "n_prompt,n_gen\n128,0\n", 0, 0, "avg_ts"},
		{"not numeric", header + `"abc","m","2","x","0","1","0","1","1"` + "\n", 0, 0, "not numeric"},
		{"ragged", header + `"abc","m"` + "\n", 0, 0, ""},
	} {
		p, g, err := parseLlamaBenchCSV([]byte(tc.csv))
		if tc.prompt > 0 {
			if err != nil || p != tc.prompt || g != tc.gen {
				t.Errorf("%s: got %v, %v, %v; want %v, %v", tc.name, p, g, err, tc.prompt, tc.gen)
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
