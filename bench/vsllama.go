package bench

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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
	skip := ""
	if m.Path == "" {
		skip = "the embedded model has no file for llama-bench"
	} else if _, err := os.Stat(tool); err != nil {
		skip = "llama-bench not found (--vs-llama.cpp DIR): " + err.Error()
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
	ptoks, gtoks, err := runLlamaBench(tool, m.Path, prompt.N, gen.N, threads, reps)
	if err != nil {
		r.fail(prompt, err)
		r.fail(gen, err)
		return nil
	}
	note := fmt.Sprintf("llama-bench -p %d -n %d -t %d -r %d", prompt.N, gen.N, threads, reps)
	prompt.TokS, gen.TokS = ptoks, gtoks
	out := []Record{prompt, gen}
	for i := range out {
		if out[i].TokS > 0 {
			out[i].Us = 1e6 / out[i].TokS
		}
		out[i].Status, out[i].Runs, out[i].Note = StatusOK, reps, note
	}
	return out
}

// runLlamaBench runs llama-bench with CSV output and returns its mean
// prompt and generation speeds in tokens per second.
func runLlamaBench(tool, model string, nPrompt, nGen, threads, reps int) (promptTokS, genTokS float64, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), llamaBenchTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, tool, "-m", model,
		"-p", strconv.Itoa(nPrompt), "-n", strconv.Itoa(nGen),
		"-t", strconv.Itoa(threads), "-r", strconv.Itoa(reps), "-o", "csv")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return 0, 0, fmt.Errorf("llama-bench: %w: %s", err, lastLine(stderr.String()))
	}
	return parseLlamaBenchCSV(stdout.Bytes())
}

// parseLlamaBenchCSV reads llama-bench's -o csv output: one row per test,
// with n_prompt, n_gen and avg_ts columns.
func parseLlamaBenchCSV(data []byte) (promptTokS, genTokS float64, err error) {
	rows, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		return 0, 0, fmt.Errorf("llama-bench output: %w", err)
	}
	if len(rows) < 2 {
		return 0, 0, fmt.Errorf("llama-bench output has no results")
	}
	col := map[string]int{}
	for i, name := range rows[0] {
		col[name] = i
	}
	for _, name := range []string{"n_prompt", "n_gen", "avg_ts"} {
		if _, ok := col[name]; !ok {
			return 0, 0, fmt.Errorf("llama-bench output lacks the %s column", name)
		}
	}
	for _, row := range rows[1:] {
		if len(row) != len(rows[0]) {
			return 0, 0, fmt.Errorf("llama-bench output has a row of %d fields under %d columns", len(row), len(rows[0]))
		}
		np, err1 := strconv.Atoi(row[col["n_prompt"]])
		ng, err2 := strconv.Atoi(row[col["n_gen"]])
		ts, err3 := strconv.ParseFloat(row[col["avg_ts"]], 64)
		if err1 != nil || err2 != nil || err3 != nil {
			return 0, 0, fmt.Errorf("llama-bench output row %q is not numeric", strings.Join(row, ","))
		}
		switch {
		case np > 0 && ng == 0:
			promptTokS = ts
		case np == 0 && ng > 0:
			genTokS = ts
		}
	}
	if promptTokS <= 0 || genTokS <= 0 {
		return 0, 0, fmt.Errorf("llama-bench output lacks a prompt or a generation result")
	}
	return promptTokS, genTokS, nil
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}
