package bench

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// llamaBenchTimeout bounds one llama-bench run, so a hung tool cannot hang
// the suite.
const llamaBenchTimeout = 10 * time.Minute

// llamaCppE2E runs llama.cpp's llama-bench on the model gpurt just
// measured (same file, prompt and generation lengths, thread count) and
// returns its prompt and generation records, Backend "llama.cpp". Models
// without a file (the embedded default) and a missing tool give skipped
// records that say so.
func (r *runner) llamaCppE2E(m Model, prompt, gen Record) []Record {
	prompt.Backend, gen.Backend = "llama.cpp", "llama.cpp"
	prompt.Device, gen.Device = "CPU", "CPU"
	dir := r.opts.LlamaCppDir
	if dir == "" {
		dir = DefaultLlamaCppDir
	}
	tool := filepath.Join(dir, "llama-bench")
	path := m.Path
	skip := ""
	if _, err := os.Stat(tool); err != nil {
		skip = "llama-bench not found (--vs-llama.cpp DIR): " + err.Error()
	} else if path == "" {
		// The embedded model goes to llama-bench through a temporary file.
		if len(r.opts.DefaultModel) == 0 {
			skip = "the embedded model's bytes were not given (Options.DefaultModel)"
		} else if tmp, err := writeTemp(r.opts.DefaultModel, "gpurt-default-*.gguf"); err != nil {
			skip = "the embedded model could not be written for llama-bench: " + err.Error()
		} else {
			defer os.Remove(tmp)
			path = tmp
		}
	}
	if skip != "" {
		out := []Record{prompt, gen}
		for i := range out {
			// Copied from gpurt's records: clear the figures, or the
			// table shows gpurt's speed in llama.cpp's row.
			out[i].TokS, out[i].Us, out[i].Runs = 0, 0, 0
			out[i].Status, out[i].Note = StatusSkipped, skip
		}
		return out
	}
	threads := runtime.GOMAXPROCS(0)
	reps := max(2, r.policy.MinRuns)
	res, err := runLlamaBench(tool, path, prompt.N, gen.N, threads, reps)
	if err != nil {
		r.fail(prompt, err)
		r.fail(gen, err)
		return nil
	}
	note := fmt.Sprintf("llama-bench -p %d -n %d -d 0,%d -t %d -r %d", prompt.N, gen.N, prompt.N, threads, reps)
	prompt.TokS, gen.TokS = res.prompt, res.gen
	prompt.Note = note + "; the prompt from an empty cache, as gpurt's"
	gen.Note = fmt.Sprintf("%s; generation after the %d-token prompt (depth %d), as gpurt's; from an empty cache (llama-bench's default) %.1f tok/s in the last round", note, prompt.N, prompt.N, res.genEmpty)
	out := []Record{prompt, gen}
	for i := range out {
		if out[i].TokS > 0 {
			out[i].Us = 1e6 / out[i].TokS
		}
		out[i].Status, out[i].Runs = StatusOK, reps
	}
	return out
}

// writeTemp writes data to a new temporary file named by pattern and
// returns its path.
func writeTemp(data []byte, pattern string) (string, error) {
	f, err := os.CreateTemp("", pattern)
	if err != nil {
		return "", err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

// llamaBenchResult is what gpurt compares with: the prompt from an empty
// cache, and generation after the prompt, at the context depth where
// gpurt's generation runs. genEmpty, generation from an empty cache, is
// llama-bench's default tg figure, kept for the note.
type llamaBenchResult struct {
	prompt, gen, genEmpty float64 // tokens per second
}

// runLlamaBench runs llama-bench with CSV output at depths 0 and nPrompt
// and returns its mean speeds in tokens per second.
func runLlamaBench(tool, model string, nPrompt, nGen, threads, reps int) (llamaBenchResult, error) {
	ctx, cancel := context.WithTimeout(context.Background(), llamaBenchTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, tool, "-m", model,
		"-p", strconv.Itoa(nPrompt), "-n", strconv.Itoa(nGen), "-d", "0,"+strconv.Itoa(nPrompt),
		"-t", strconv.Itoa(threads), "-r", strconv.Itoa(reps), "-o", "csv")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return llamaBenchResult{}, fmt.Errorf("llama-bench: %w: %s", err, lastLine(stderr.String()))
	}
	return parseLlamaBenchCSV(stdout.Bytes(), nPrompt)
}

// parseLlamaBenchCSV reads llama-bench's -o csv output: one row per test,
// with n_prompt, n_gen, n_depth and avg_ts columns. The generation figure
// is the row at depth genDepth.
func parseLlamaBenchCSV(data []byte, genDepth int) (llamaBenchResult, error) {
	var res llamaBenchResult
	rows, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		return res, fmt.Errorf("llama-bench output: %w", err)
	}
	if len(rows) < 2 {
		return res, fmt.Errorf("llama-bench output has no results")
	}
	col := map[string]int{}
	for i, name := range rows[0] {
		col[name] = i
	}
	for _, name := range []string{"n_prompt", "n_gen", "n_depth", "avg_ts"} {
		if _, ok := col[name]; !ok {
			return res, fmt.Errorf("llama-bench output lacks the %s column", name)
		}
	}
	for _, row := range rows[1:] {
		if len(row) != len(rows[0]) {
			return res, fmt.Errorf("llama-bench output has a row of %d fields under %d columns", len(row), len(rows[0]))
		}
		np, err1 := strconv.Atoi(row[col["n_prompt"]])
		ng, err2 := strconv.Atoi(row[col["n_gen"]])
		depth, err3 := strconv.Atoi(row[col["n_depth"]])
		ts, err4 := strconv.ParseFloat(row[col["avg_ts"]], 64)
		if err := errors.Join(err1, err2, err3, err4); err != nil {
			return res, fmt.Errorf("llama-bench output row %q is not numeric", strings.Join(row, ","))
		}
		switch {
		case np > 0 && ng == 0 && depth == 0:
			res.prompt = ts
		case np == 0 && ng > 0 && depth == genDepth:
			res.gen = ts
		case np == 0 && ng > 0 && depth == 0:
			res.genEmpty = ts
		}
	}
	if res.prompt <= 0 || res.gen <= 0 {
		return res, fmt.Errorf("llama-bench output lacks the prompt at depth 0 or generation at depth %d", genDepth)
	}
	return res, nil
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// llamaCppMulMatShape says whether test-backend-ops has a perf case for a
// MUL_MAT shape: the 4096×4096 weights at N = 1, 8 and 512 of its extra
// perf block (../shared/tools/llama.cpp/README.md), or its 4096×14336
// ones (FullShapes.WideK) at the same N.
func llamaCppMulMatShape(m, n, k int) bool {
	return m == 4096 && (k == 4096 || k == FullShapes.WideK) && (n == 1 || n == 8 || n == 512)
}

// llamaCppMulMat runs llama.cpp's test-backend-ops on the CPU for the
// MUL_MAT gpurt just measured (same weight type and shape) and returns its
// record, Backend "llama.cpp"; ok is false where the shape has no
// test-backend-ops case. A missing tool gives a skipped record.
func (r *runner) llamaCppMulMat(mine Record) (rec Record, ok bool) {
	if !llamaCppMulMatShape(mine.M, mine.N, mine.K) {
		return Record{}, false
	}
	rec = Record{Backend: "llama.cpp", Device: "CPU", Op: mine.Op, Type: mine.Type, Ne: mine.Ne, M: mine.M, N: mine.N, K: mine.K}
	tool := filepath.Join(r.opts.LlamaCppDir, "test-backend-ops")
	if _, err := os.Stat(tool); err != nil {
		rec.Status, rec.Note = StatusSkipped, "test-backend-ops not found (--vs-llama.cpp DIR): "+err.Error()
		return rec, true
	}
	filter := fmt.Sprintf("type_a=%s,type_b=f32,m=%d,n=%d,k=%d,", mine.Type, mine.M, mine.N, mine.K)
	us, runs, err := runTestBackendOps(tool, filter)
	if errors.Is(err, errNoPerfCase) {
		rec.Status, rec.Note = StatusSkipped, fmt.Sprintf("test-backend-ops has no perf case for %s at this shape", mine.Type)
		return rec, true
	}
	if err != nil {
		r.fail(rec, err)
		return Record{}, false
	}
	rec.Us, rec.Runs, rec.Status = us, runs, StatusOK
	rec.GFLOPS = mulMatGFLOPS(rec, us)
	rec.Note = "test-backend-ops perf -o MUL_MAT -b CPU -p " + filter
	return rec, true
}

// mulMatGFLOPS is the FLOP rate of a MUL_MAT record's shape run in us µs.
func mulMatGFLOPS(rec Record, us float64) float64 {
	return 2 * float64(rec.M) * float64(rec.N) * float64(rec.K) / us / 1e3
}

// runTestBackendOps runs test-backend-ops' MUL_MAT perf mode on the CPU for
// the cases matching filter and returns the plain case's µs per run and
// run count.
func runTestBackendOps(tool, filter string) (us float64, runs int, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), llamaBenchTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, tool, "perf", "-o", "MUL_MAT", "-b", "CPU", "-p", filter)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return 0, 0, fmt.Errorf("test-backend-ops: %w: %s", err, lastLine(stderr.String()))
	}
	return parseTestBackendOps(stdout.String())
}

var (
	ansiEscape  = regexp.MustCompile(`\x1b\[[0-9;]*m`)
	tboPerfLine = regexp.MustCompile(`MUL_MAT\(([^)]*)\):\s+(\d+) runs -\s+([\d.]+) us/run`)
)

// parseTestBackendOps reads test-backend-ops perf output: the first
// MUL_MAT line of the plain case (no batch broadcast, no permutation),
// "MUL_MAT(type_a=…,bs=[1,1],nr=[1,1],per=[0,1,2,3],…): R runs - U us/run
// - … G GFLOPS".
func parseTestBackendOps(out string) (us float64, runs int, err error) {
	out = ansiEscape.ReplaceAllString(out, "")
	for _, m := range tboPerfLine.FindAllStringSubmatch(out, -1) {
		if !strings.Contains(m[1], "bs=[1,1],nr=[1,1],per=[0,1,2,3]") {
			continue
		}
		runs, _ = strconv.Atoi(m[2])
		us, _ = strconv.ParseFloat(m[3], 64)
		if us <= 0 || runs <= 0 {
			break
		}
		return us, runs, nil // the FLOP rate comes from the time: the printed unit varies
	}
	return 0, 0, errNoPerfCase
}

// errNoPerfCase is test-backend-ops printing no perf line for a filter:
// its perf list has no such case.
var errNoPerfCase = errors.New("test-backend-ops output has no plain MUL_MAT perf line")
