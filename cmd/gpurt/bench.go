package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gpurt/gpurt/bench"
	"github.com/gpurt/gpurt/internal/atomicfile"
	"github.com/gpurt/gpurt/internal/synthmodel"
	"github.com/gpurt/gpurt/llama"
	defaultmodel "github.com/gpurt/gpurt/models"
)

func init() {
	register("bench", "benchmark ops, dispatch, scheduler and models per backend", runBench)
}

func runBench(args []string) int {
	c := newCLI("bench", "[-d DEVICE[,DEVICE…]] [-o OP[,OP…]] [--type TYPE[,TYPE…]] [--quick] [--json FILE] [--md FILE] [--png FILE] [-m MODEL.gguf|synth:PRESET:TYPE[,…]] [--synth-dir DIR]",
		"gpurt bench --quick --json bench.json --md bench.md --png bench.png",
		"gpurt bench -d cpu,gonum -o MUL_MAT --type q8_0,q4_0",
		"gpurt bench -d cpu -o E2E -m synth:155m:f16,synth:155m:q4_k_m --vs-llama.cpp ../shared/tools/llama.cpp")
	backends := c.String("d,device,b", "", "backends to run: comma-separated families (cpu, vulkan, webgpu), device names, or gonum (the Gemm baseline alone); default all devices. The bandwidth probe always runs (-b is the old name)")
	ops := c.String("o,op", "", "ops to run, comma-separated: MUL_MAT, ADD, MUL, RMS_NORM, SILU, SOFT_MAX, ROPE, GET_ROWS, CPY, DISPATCH, TRANSFER (GPU upload/download GB/s and 4-byte round trip; on Vulkan also through staging, the discrete-GPU path, with its ratio to the mapped time; GPURT_VK_DISCRETE=1 stages the default type too), SCHED, PIPELINE (multi-backend prompt throughput with and without pipeline parallelism), E2E, TOKENIZE; default all")
	types := c.String("type", "", "dtypes to run, comma-separated, any case (f32, f16, q8_0, q4_0, q4_K, q6_K, iq4_xs, ...); default all")
	quick := c.Bool("quick", false, "the quick suite: short runs, reduced shapes on software GPUs")
	jsonOut := c.String("json", "", "write the records as a JSON array to `FILE`")
	mdOut := c.String("md", "", "write a Markdown table to `FILE`")
	pngOut := c.String("png", "", "write bar charts (GFLOPS per backend and dtype, GB/s) to `FILE`")
	models := c.String("m,model", "", "end-to-end models, comma-separated GGUF paths or synth:PRESET:TYPE (a random-weight llama, PRESET tiny, 155m or 7b, TYPE a quantize type such as f16, q8_0, q4_0, q4_k_m; generated into --synth-dir on first use); default: the embedded model and ../shared/models/stories260K.gguf")
	synthDir := c.String("synth-dir", "", "cache `DIR` for synth: models (default $GPURT_SYNTH_DIR, else the user cache directory's gpurt/synth)")
	quiet := c.Bool("q,quiet", false, "do not print progress to stderr")
	vsLlama := c.String("vs-llama.cpp", "", "llama.cpp build `DIR` whose llama-tokenize (TOKENIZE), llama-bench (E2E on the CPU, same files and lengths; default "+bench.DefaultLlamaCppDir+") and, only when DIR is given, test-backend-ops (CPU MUL_MAT at 4096×{1,8,512}×4096, same types) run alongside gpurt")
	rounds := c.Int("rounds", 1, "with --vs-llama.cpp on the CPU: how many times gpurt and llama.cpp alternate on each model (E2E: llama-bench) and each MUL_MAT case (test-backend-ops); the figures are medians and the ratio the median of the rounds' ratios, with their range")
	if code, ok := c.Parse(args); !ok {
		return code
	}
	if *rounds < 1 {
		return c.Usagef("--rounds %d: want at least 1", *rounds)
	}
	var synthSpecs []synthmodel.Spec
	for _, p := range bench.SplitList(*models) {
		if synthmodel.IsSpec(p) {
			sp, err := synthmodel.ParseSpec(p)
			if err != nil {
				return c.Usagef("-m: %v", err)
			}
			synthSpecs = append(synthSpecs, sp)
			continue
		}
		if err := checkModelPath(p); err != nil {
			return c.Usagef("-m: %v", err)
		}
	}
	if len(synthSpecs) > 0 && *synthDir == "" {
		d, err := synthmodel.DefaultDir()
		if err != nil {
			return c.Fail(err)
		}
		*synthDir = d
	}
	opts := bench.Options{
		Filter: bench.Filter{Backends: bench.SplitList(*backends), Ops: bench.SplitList(*ops), Types: bench.SplitList(*types)},
		Quick:  *quick,
	}
	opts.LlamaCppDir = *vsLlama
	opts.Rounds = *rounds
	opts.DefaultModel = defaultmodel.Default
	for _, p := range bench.SplitList(*models) {
		if synthmodel.IsSpec(p) {
			sp := synthSpecs[0]
			synthSpecs = synthSpecs[1:]
			if !*quiet {
				fmt.Fprintf(os.Stderr, "gpurt bench: %s: %s in %s\n", p, synthStatus(*synthDir, sp), *synthDir)
			}
			path, err := synthmodel.Ensure(*synthDir, sp, synthmodel.Options{})
			if err != nil {
				return c.Fail(err)
			}
			opts.Models = append(opts.Models, bench.Model{Name: sp.Name(), Path: path})
			continue
		}
		name := strings.TrimSuffix(p[strings.LastIndex(p, "/")+1:], ".gguf")
		opts.Models = append(opts.Models, bench.Model{Name: name, Path: p})
	}
	env := bench.HostEnv(*quick)
	if !*quiet {
		fmt.Fprintf(os.Stderr, "gpurt bench: %s\n", env)
		opts.Progress = func(r bench.Record) { fmt.Fprintln(os.Stderr, progressLine(r)) }
	}
	recs, err := bench.Run(opts)
	if err != nil {
		return c.Fail(err)
	}
	fmt.Printf("\n%s\n\n", env)
	if err := bench.WriteTable(os.Stdout, recs); err != nil {
		return c.Fail(err)
	}
	outputs := []struct {
		path  string
		write func(io.Writer) error
	}{
		{*jsonOut, func(w io.Writer) error { return bench.WriteJSON(w, recs) }},
		{*mdOut, func(w io.Writer) error { return bench.WriteMarkdown(w, env, recs) }},
		{*pngOut, func(w io.Writer) error { return bench.WritePNG(w, recs, "gpurt bench: "+env.String()) }},
	}
	code := 0
	for _, o := range outputs {
		if o.path == "" {
			continue
		}
		if err := writeFile(o.path, o.write); err != nil {
			fmt.Fprintf(os.Stderr, "gpurt bench: %v\n", err)
			code = 1
		}
	}
	return code
}

// synthStatus says whether a synthetic model is cached or to be made.
func synthStatus(dir string, sp synthmodel.Spec) string {
	if _, err := os.Stat(filepath.Join(dir, sp.FileName())); err == nil {
		return "cached " + sp.FileName()
	}
	return "generating " + sp.FileName()
}

// progressLine is a one-line summary of a record as it is made.
func progressLine(r bench.Record) string {
	what := fmt.Sprintf("%-7s %-9s %-5s", r.Backend, r.Op, r.Type)
	switch {
	case !r.OK():
		return fmt.Sprintf("%s %s: %s", what, r.Status, r.Note)
	case r.GFLOPS > 0:
		return fmt.Sprintf("%s %10.1f µs %8.2f GFLOPS", what, r.Us, r.GFLOPS)
	case r.GBps > 0:
		return fmt.Sprintf("%s %10.1f µs %8.2f GB/s", what, r.Us, r.GBps)
	case r.TokS > 0:
		return fmt.Sprintf("%s %10.1f tok/s (%s)", what, r.TokS, r.Model)
	}
	return fmt.Sprintf("%s %10.2f µs", what, r.Us)
}

// writeFile replaces path atomically with what write produces, so an
// interrupted run never leaves a truncated report where a good one stood.
func writeFile(path string, write func(io.Writer) error) error {
	return atomicfile.Write(path, write, atomicfile.Options{})
}

func init() { bench.EndToEnd = benchModel }

// benchPrompt is the text the end-to-end prompt is made of, repeated.
const benchPrompt = "Once upon a time, there was a little girl named Lily. She loved to play outside in the park with her friends. "

// benchModel is the end-to-end benchmark through the llama package: the
// model is loaded once on [device, CPU]; the prompt figure is the median time
// to evaluate req.Prompt tokens in one batch from an empty cache, the
// generation figure the median time to then evaluate req.Gen tokens one at a
// time, each the argmax of the previous logits.
func benchModel(req bench.E2ERequest) (bench.E2EResult, error) {
	var res bench.E2EResult
	f, _, err := openModel(req.Model.Path)
	if err != nil {
		return res, err
	}
	defer f.Close()
	backends, err := selectBackends(req.Device.Name(), 0)
	if err != nil {
		return res, err
	}
	defer closeBackends(backends)
	m, err := llama.Load(f, llama.Options{Backends: backends, GPULayers: -1})
	if err != nil {
		return res, err
	}
	defer m.Close()

	nPrompt := min(req.Prompt, m.H.NCtx-req.Gen)
	if nPrompt < 1 || req.Gen < 1 {
		return res, fmt.Errorf("%d prompt and %d generated tokens do not fit the context of %d", req.Prompt, req.Gen, m.H.NCtx)
	}
	var prompt []int32
	for len(prompt) < nPrompt {
		prompt = append(prompt, m.Tok.Encode(benchPrompt, len(prompt) == 0)...)
	}
	prompt = prompt[:nPrompt]

	var logits []float32
	evalPrompt := func() (err error) {
		m.ResetCache()
		logits, err = m.Eval(prompt, false)
		return err
	}
	pt, err := bench.Measure(req.Policy, evalPrompt)
	if err != nil {
		return res, err
	}
	// GPU devices count their buffer and memory allocations: issue 17
	// allows one a model step at most.
	counter, counts := req.Device.(interface{ AllocationsMade() int64 })
	var allocsBefore int64
	if counts {
		allocsBefore = counter.AllocationsMade()
	}
	genSteps := 0
	gt, err := bench.MeasureSetup(req.Policy, evalPrompt, func() error {
		genSteps += req.Gen
		for i := 0; i < req.Gen; i++ {
			var err error
			if logits, err = m.Eval([]int32{llama.Argmax(logits)}, false); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return res, err
	}
	res.PromptTokS = float64(nPrompt) / pt.Median.Seconds()
	res.GenTokS = float64(req.Gen) / gt.Median.Seconds()
	res.Runs = min(pt.Runs, gt.Runs)
	res.Note = fmt.Sprintf("%d+%d tokens, %d splits, weights on %s", nPrompt, req.Gen, m.Splits(), placedOn(m.Placement))
	if counts && genSteps > 0 {
		// The prompt evaluations between the timed runs count too.
		res.Note += fmt.Sprintf(", %.2f device allocations per generated token", float64(counter.AllocationsMade()-allocsBefore)/float64(genSteps))
	}
	return res, nil
}

// placedOn lists the distinct backends in llama's "group: backend" placement entries.
func placedOn(placement []string) string {
	var seen []string
	for _, p := range placement {
		_, b, _ := strings.Cut(p, ": ")
		if b != "" && !slices.Contains(seen, b) {
			seen = append(seen, b)
		}
	}
	return strings.Join(seen, "+")
}
