package bench

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	rt "github.com/gpurt/gpurt/runtime"
)

// Target is a device to benchmark with the family it belongs to.
type Target struct {
	Backend string // registry family: "cpu", "vulkan", "webgpu"
	Device  rt.Device
}

// Targets lists the registered devices that f's backend list selects.
func Targets(f Filter) []Target {
	var ts []Target
	for _, r := range rt.Regs() {
		for _, d := range r.Devices {
			if f.Backend(r.Name, d.Name()) {
				ts = append(ts, Target{Backend: strings.ToLower(r.Name), Device: d})
			}
		}
	}
	return ts
}

// Options configure a suite run. The zero value runs the full suite on
// every registered device.
type Options struct {
	Filter Filter
	// Quick shortens the runs (QuickPolicy) and, on software devices, uses
	// SoftwareQuickShapes.
	Quick bool

	// Overrides, mainly for tests; zero values take the defaults.
	Policy      *Policy
	Shapes      *Shapes
	Targets     []Target // default: Targets(Filter)
	ProbeBytes  int
	DispatchOps int
	DispatchLen int
	SchedNodes  int
	LlamaDims   *LlamaDims
	Models      []Model // default: DefaultModels
	E2EPrompt   int     // default 128 tokens
	E2EGen      int     // default 64 tokens
	// Rounds is how many times gpurt and llama.cpp alternate on each
	// model (E2E) and each MUL_MAT case (default 1): the figures are each
	// side's median, and the ratio is the median of the rounds' ratios,
	// so that a machine whose speed drifts between runs does not decide
	// it.
	Rounds int

	// TOKENIZE: the vocabularies (default DefaultTokenizeVocabs), the text
	// size (default DefaultTokenizeBytes), and the llama.cpp directory whose
	// llama-tokenize and llama-bench are measured alongside (default
	// DefaultLlamaCppDir); test-backend-ops runs alongside the CPU's
	// MUL_MAT cases only when it is set.
	// DefaultModel is the embedded default model's GGUF bytes, which
	// llama-bench reads from a temporary file.
	DefaultModel   []byte
	TokenizeVocabs []string
	TokenizeBytes  int
	LlamaCppDir    string

	// Progress, if not nil, sees every record as soon as it is made.
	Progress func(Record)
}

func (o *Options) policy() Policy {
	switch {
	case o.Policy != nil:
		return *o.Policy
	case o.Quick:
		return QuickPolicy
	}
	return FullPolicy
}

// shapes is the case sizing for a device, and a note when it is reduced.
func (o *Options) shapes(d rt.Device) (Shapes, string) {
	switch {
	case o.Shapes != nil:
		return *o.Shapes, ""
	case o.Quick && d.Props().Software:
		return SoftwareQuickShapes, "quick: reduced shapes on a software device"
	}
	return FullShapes, ""
}

func orDefault(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

// runner accumulates records.
type runner struct {
	opts    *Options
	policy  Policy
	records []Record
}

func (r *runner) add(rec Record) {
	r.records = append(r.records, rec)
	if r.opts.Progress != nil {
		r.opts.Progress(rec)
	}
}

// fail records a failed or unsupported measurement.
func (r *runner) fail(rec Record, err error) {
	rec.Status = StatusError
	var unsup *UnsupportedError
	if errors.As(err, &unsup) {
		rec.Status = StatusUnsupported
	}
	rec.Note = err.Error()
	r.add(rec)
}

// Run runs the suite: the baselines first (the bandwidth probe, and gonum
// Gemm at every selected MUL_MAT shape), then per device the op cases,
// dispatch overhead, scheduler overhead and the end-to-end models. Failures
// of single measurements become records with status error or unsupported;
// Run itself fails only when the filter selects nothing at all. Ratios to
// the baselines are filled in (see Annotate).
func Run(opts Options) ([]Record, error) {
	if err := opts.Filter.validate(); err != nil {
		return nil, err
	}
	targets := opts.Targets
	if targets == nil {
		targets = Targets(opts.Filter)
	}
	if len(targets) == 0 && len(opts.Filter.Backends) > 0 && !matchAny(opts.Filter.Backends, BackendGonum, BackendMemBW) {
		return nil, fmt.Errorf("bench: no device matches %q (see gpurt devices)", strings.Join(opts.Filter.Backends, ","))
	}
	r := &runner{opts: &opts, policy: opts.policy()}

	// The cases per target, so the gonum baseline covers every matmul shape.
	cases := make([][]Case, len(targets))
	notes := make([]string, len(targets))
	type shape struct{ m, n, k int }
	var gemms []shape
	seen := map[shape]bool{}
	for i, t := range targets {
		s, note := opts.shapes(t.Device)
		notes[i] = note
		for _, c := range OpCases(s) {
			if !opts.Filter.Case(c) {
				continue
			}
			cases[i] = append(cases[i], c)
			if sh := (shape{c.M, c.N, c.K}); c.Op == "MUL_MAT" && !seen[sh] {
				seen[sh] = true
				gemms = append(gemms, sh)
			}
		}
	}

	// Asked for by name, gonum runs at the MUL_MAT shapes even with no device.
	if matchAny(opts.Filter.Backends, BackendGonum) && opts.Filter.Op("MUL_MAT") {
		s := FullShapes
		if opts.Shapes != nil {
			s = *opts.Shapes
		}
		for _, n := range s.Ns {
			if sh := (shape{s.MK, n, s.MK}); !seen[sh] {
				seen[sh] = true
				gemms = append(gemms, sh)
			}
		}
	}

	if bw, err := MemBW(orDefault(opts.ProbeBytes, DefaultProbeBytes), r.policy); err != nil {
		r.fail(Record{Backend: BackendMemBW, Op: "READ", Type: "f32"}, err)
	} else {
		for _, rec := range bw {
			r.add(rec)
		}
	}
	for _, g := range gemms {
		rec, err := GonumGemm(g.m, g.n, g.k, r.policy)
		if err != nil {
			r.fail(Record{Backend: BackendGonum, Op: "MUL_MAT", Type: "f32", M: g.m, N: g.n, K: g.k}, err)
			continue
		}
		r.add(rec)
		runtime.GC()
	}

	for i, t := range targets {
		r.target(t, cases[i], notes[i])
	}
	if opts.Filter.Op("TOKENIZE") && (len(opts.Filter.Backends) == 0 || matchAny(opts.Filter.Backends, "cpu")) {
		r.tokenizeBench()
	}
	Annotate(r.records)
	return r.records, nil
}

// target runs everything selected on one device.
func (r *runner) target(t Target, cases []Case, note string) {
	base := Record{Backend: t.Backend, Device: t.Device.Name()}
	be, err := t.Device.NewBackend()
	if err != nil {
		rec := base
		rec.Op = "BACKEND"
		r.fail(rec, fmt.Errorf("start %s: %w", t.Device.Name(), err))
		return
	}
	defer be.Close()

	for _, c := range cases {
		r.opCase(base, be, c, note)
	}
	f := r.opts.Filter
	if f.Op("DISPATCH") {
		rec, err := Dispatch(be, orDefault(r.opts.DispatchOps, DefaultDispatchOps), orDefault(r.opts.DispatchLen, DefaultDispatchLen), r.policy)
		rec.Backend, rec.Device = base.Backend, base.Device
		if err != nil {
			r.fail(rec, err)
		} else {
			r.add(rec)
		}
	}
	if f.Op("TRANSFER", "UPLOAD", "DOWNLOAD", "ROUNDTRIP") && t.Device.Props().Type != rt.DeviceCPU {
		recs, err := Transfer(t.Device, TransferBytes, r.policy)
		for _, rec := range recs {
			rec.Backend, rec.Device = base.Backend, base.Device
			r.add(rec)
		}
		if err != nil {
			rec := base
			rec.Op = "TRANSFER"
			r.fail(rec, err)
		}
	}
	if f.Op("SCHED") {
		r.sched(base, be)
	}
	if f.Op("PIPELINE") && be.Device().Props().Type != rt.DeviceCPU {
		r.pipeline(base, be)
	}
	if f.Op("E2E", "E2E_PROMPT", "E2E_GEN") {
		r.e2e(base, t.Device)
	}
}

func (r *runner) opCase(base Record, be rt.Backend, c Case, note string) {
	rec := base
	rec.Op, rec.Type, rec.Ne, rec.M, rec.N, rec.K, rec.Note = c.Op, c.Type.String(), c.Ne, c.M, c.N, c.K, note
	defer runtime.GC() // the next case's inputs should not pay for this one's garbage
	p, err := prepareCase(c, be, 1)
	if err != nil {
		r.fail(rec, err)
		return
	}
	defer p.free()
	t, err := Measure(r.policy, p.run)
	if err != nil {
		r.fail(rec, err)
		return
	}
	// llama.cpp's CPU backend runs right after gpurt on the same shape and
	// type, when asked for (--vs-llama.cpp), alternating with it Rounds
	// times.
	var theirs Record
	var ratios []float64
	if c.Op == "MUL_MAT" && r.opts.LlamaCppDir != "" && be.Device().Props().Type == rt.DeviceCPU {
		t, theirs, ratios = r.mulMatRounds(rec, t, p.run)
	}
	secs := t.Median.Seconds()
	rec.Us, rec.Runs, rec.Status = us(t.Median), t.Runs, StatusOK
	if c.Flops > 0 {
		rec.GFLOPS = c.Flops / secs / 1e9
	}
	rec.GBps = c.Bytes / secs / 1e9
	if len(ratios) > 0 {
		rec.Note = strings.TrimPrefix(rec.Note+"; "+ratioNote(ratios), "; ")
	}
	r.add(rec)
	if theirs.Backend != "" {
		r.add(theirs)
	}
}

// mulMatRounds alternates llama.cpp's test-backend-ops with gpurt's run
// of a MUL_MAT case, whose first timing is first, Rounds times. It returns
// gpurt's timing (the median over the rounds), llama.cpp's record (its
// median time; a skipped or zero record where it did not run) and the
// rounds' speed ratios, gpurt's over llama.cpp's.
func (r *runner) mulMatRounds(rec Record, first Timing, run func() error) (Timing, Record, []float64) {
	mine := []time.Duration{first.Median}
	var theirUs, ratios []float64
	var theirs Record
	for round := range max(1, r.opts.Rounds) {
		if round > 0 {
			t, err := Measure(r.policy, run)
			if err != nil {
				break
			}
			mine = append(mine, t.Median)
		}
		th, ok := r.llamaCppMulMat(rec)
		if !ok {
			break
		}
		theirs = th
		if !th.OK() {
			break
		}
		theirUs = append(theirUs, th.Us)
		ratios = append(ratios, th.Us/us(mine[round]))
	}
	t := Timing{Median: Median(mine), Runs: first.Runs}
	if len(theirUs) > 1 {
		theirs.Us = Median(theirUs)
		theirs.GFLOPS = mulMatGFLOPS(rec, theirs.Us)
		theirs.Note += fmt.Sprintf("; median of %d rounds", len(theirUs))
	}
	return t, theirs, ratios
}

// sched measures the scheduler over [device, CPU], or the CPU alone.
func (r *runner) sched(base Record, be rt.Backend) {
	rec := base
	rec.Op = "SCHED"
	backends := []rt.Backend{be}
	if be.Device().Props().Type != rt.DeviceCPU {
		cpus := rt.DevicesByType(rt.DeviceCPU)
		if len(cpus) == 0 {
			r.fail(rec, errors.New("sched bench: the scheduler needs a CPU device last, and none is registered"))
			return
		}
		cb, err := cpus[0].NewBackend()
		if err != nil {
			r.fail(rec, err)
			return
		}
		defer cb.Close()
		backends = append(backends, cb)
	}
	d := DefaultLlamaDims
	if r.opts.LlamaDims != nil {
		d = *r.opts.LlamaDims
	}
	got, err := SchedOverhead(backends, orDefault(r.opts.SchedNodes, DefaultSchedNodes), d, r.policy)
	got.Backend, got.Device = base.Backend, base.Device
	if err != nil {
		r.fail(got, err)
		return
	}
	r.add(got)
}

// pipeline measures prompt throughput over [device, CPU] with and without
// pipeline parallelism.
func (r *runner) pipeline(base Record, be rt.Backend) {
	rec := base
	rec.Op = "PIPELINE"
	cpus := rt.DevicesByType(rt.DeviceCPU)
	if len(cpus) == 0 {
		r.fail(rec, errors.New("pipeline bench: no CPU device is registered"))
		return
	}
	cb, err := cpus[0].NewBackend()
	if err != nil {
		r.fail(rec, err)
		return
	}
	defer cb.Close()
	d := DefaultLlamaDims
	if r.opts.LlamaDims != nil {
		d = *r.opts.LlamaDims
	}
	recs, err := PipelineThroughput([]rt.Backend{be, cb}, d, 8, DefaultPipelineBatches, r.policy)
	for _, got := range recs {
		got.Backend, got.Device = base.Backend, base.Device
		r.add(got)
	}
	if err != nil {
		r.fail(rec, err)
	}
}

// e2e runs the end-to-end hook for every model, or records why it cannot.
func (r *runner) e2e(base Record, dev rt.Device) {
	models := r.opts.Models
	if models == nil {
		models = DefaultModels
	}
	for _, m := range models {
		prompt, gen := base, base
		prompt.Op, gen.Op = "E2E_PROMPT", "E2E_GEN"
		prompt.Type, gen.Type = "model", "model"
		prompt.Model, gen.Model = m.Name, m.Name
		prompt.N, gen.N = orDefault(r.opts.E2EPrompt, 128), orDefault(r.opts.E2EGen, 64)
		skip := ""
		switch {
		case EndToEnd == nil:
			skip = "no model integration: bench.EndToEnd is not set"
		case m.Path != "":
			if _, err := os.Stat(m.Path); err != nil {
				skip = fmt.Sprintf("model %s not found", m.Path)
			}
		}
		if skip != "" {
			for _, rec := range []Record{prompt, gen} {
				rec.Status, rec.Note = StatusSkipped, skip
				r.add(rec)
			}
			continue
		}
		ours, theirs, err := r.e2eRounds(dev, m, prompt, gen)
		if err != nil {
			r.fail(prompt, err)
			r.fail(gen, err)
			continue
		}
		for i, rec := range []*Record{&prompt, &gen} {
			rec.TokS = ours.median(i)
			if rec.TokS > 0 {
				rec.Us = 1e6 / rec.TokS
			}
			rec.Status, rec.Runs, rec.Note = StatusOK, ours.res[0].Runs, ours.res[0].Note
			if len(theirs) == 2 && theirs[i].OK() && theirs[i].TokS > 0 {
				rec.Note = strings.TrimPrefix(rec.Note+"; "+ours.ratioNote(i), "; ")
			}
			r.add(*rec)
		}
		for _, rec := range theirs {
			r.add(rec)
		}
	}
}

// e2eFigures are gpurt's end-to-end results over the rounds, with
// llama.cpp's prompt and generation speeds of the same rounds (zero where
// it did not run).
type e2eFigures struct {
	res    []E2EResult
	theirs [][2]float64
}

// speed is round k's prompt (i = 0) or generation (i = 1) tokens/s.
func (f *e2eFigures) speed(k, i int) float64 {
	if i == 0 {
		return f.res[k].PromptTokS
	}
	return f.res[k].GenTokS
}

// median is gpurt's median speed over the rounds.
func (f *e2eFigures) median(i int) float64 {
	v := make([]float64, len(f.res))
	for k := range v {
		v[k] = f.speed(k, i)
	}
	return Median(v)
}

// ratioNote says how gpurt compares with llama.cpp in prompt (i = 0) or
// generation (i = 1) speed.
func (f *e2eFigures) ratioNote(i int) string {
	var ratios []float64
	for k, t := range f.theirs {
		if t[i] > 0 {
			ratios = append(ratios, f.speed(k, i)/t[i])
		}
	}
	return ratioNote(ratios)
}

// ratioNote says how gpurt compares with llama.cpp, given their speed
// ratios (gpurt's over llama.cpp's) of alternated rounds: the ratio of
// one round, or the rounds' median and range.
func ratioNote(ratios []float64) string {
	if len(ratios) < 2 {
		return fmt.Sprintf("%.2f× llama.cpp", Median(ratios))
	}
	return fmt.Sprintf("%.2f× llama.cpp (median of %d alternated rounds, %.2f–%.2f)", Median(ratios), len(ratios), slices.Min(ratios), slices.Max(ratios))
}

// e2eRounds runs gpurt's end-to-end measurement and, on the CPU,
// llama.cpp's on the same file right after it, Rounds times. theirs is
// llama.cpp's pair of records with the median speeds (nil off the CPU).
func (r *runner) e2eRounds(dev rt.Device, m Model, prompt, gen Record) (e2eFigures, []Record, error) {
	var f e2eFigures
	var theirs []Record
	for range max(1, r.opts.Rounds) {
		res, err := EndToEnd(E2ERequest{Device: dev, Model: m, Prompt: prompt.N, Gen: gen.N, Policy: r.policy})
		if err != nil {
			return f, nil, err
		}
		f.res = append(f.res, res)
		// llama-bench runs its CPU build: it compares with the CPU only.
		if dev.Props().Type != rt.DeviceCPU {
			continue
		}
		recs := r.llamaCppE2E(m, prompt, gen)
		var t [2]float64
		for i := range recs {
			if recs[i].OK() {
				t[i] = recs[i].TokS
			}
		}
		f.theirs = append(f.theirs, t)
		if len(recs) != 2 || !recs[0].OK() || !recs[1].OK() {
			return f, recs, nil // skipped or failed: once says why
		}
		theirs = recs
	}
	for i := range theirs { // every round ran llama.cpp: theirs is set after the last
		speeds := make([]float64, len(f.theirs))
		for k, t := range f.theirs {
			speeds[k] = t[i]
		}
		theirs[i].TokS = Median(speeds)
		theirs[i].Us = 1e6 / theirs[i].TokS
		if len(speeds) > 1 {
			theirs[i].Note += fmt.Sprintf("; median of %d rounds", len(speeds))
		}
	}
	return f, theirs, nil
}

// Annotate fills the ratio fields of every successful record from the
// baselines among recs: VsGonum for MUL_MAT against gonum at the same M, N
// and K; VsRead and VsCopy for every bandwidth figure.
func Annotate(recs []Record) {
	var read, cp float64
	gonum := map[[3]int]float64{}
	for _, r := range recs {
		if !r.OK() {
			continue
		}
		switch {
		case r.Backend == BackendMemBW && r.Op == "READ":
			read = r.GBps
		case r.Backend == BackendMemBW && r.Op == "COPY":
			cp = r.GBps
		case r.Backend == BackendGonum:
			gonum[[3]int{r.M, r.N, r.K}] = r.GFLOPS
		}
	}
	ratio := func(x, base float64) float64 {
		if x <= 0 || base <= 0 {
			return 0
		}
		return x / base
	}
	for i := range recs {
		r := &recs[i]
		if !r.OK() {
			continue
		}
		if r.Op == "MUL_MAT" {
			r.VsGonum = ratio(r.GFLOPS, gonum[[3]int{r.M, r.N, r.K}])
		}
		r.VsRead = ratio(r.GBps, read)
		r.VsCopy = ratio(r.GBps, cp)
	}
}
