package bench

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gpurt/gpurt/cpu"
	rt "github.com/gpurt/gpurt/runtime"
)

// testPolicy keeps unit-test runs to a few iterations.
var testPolicy = Policy{Warmup: 1, MinRuns: 2, MaxRuns: 3}

func tinyOptions(targets []Target, ops ...string) Options {
	return Options{
		Filter:      Filter{Ops: ops},
		Policy:      &testPolicy,
		Shapes:      &TinyShapes,
		Targets:     targets,
		ProbeBytes:  1 << 20,
		DispatchOps: 50,
		SchedNodes:  200,
		Models:      []Model{{Name: "missing", Path: "/nonexistent/model.gguf"}},

		TokenizeVocabs: []string{"../../shared/tokenizers/ggml-vocab-gpt-2.gguf"},
		TokenizeBytes:  16 << 10,
		LlamaCppDir:    "/nonexistent",
	}
}

func find(recs []Record, backend, op, typ string) []Record {
	var out []Record
	for _, r := range recs {
		if r.Backend == backend && r.Op == op && (typ == "" || r.Type == typ) {
			out = append(out, r)
		}
	}
	return out
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// TestRunFakeDevice checks the runner itself: baselines first, supported ops
// timed, unsupported ones reported and not timed, failures recorded.
func TestRunFakeDevice(t *testing.T) {
	fake := &fakeDevice{}
	var progress []Record
	opts := tinyOptions([]Target{{Backend: "fake", Device: fake}}, "MUL_MAT", "ADD", "DISPATCH", "E2E")
	opts.Progress = func(r Record) { progress = append(progress, r) }
	recs, err := Run(opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(progress) != len(recs) {
		t.Errorf("progress saw %d records, Run returned %d", len(progress), len(recs))
	}
	if len(recs) < 2 || recs[0].Op != "READ" || recs[1].Op != "COPY" {
		t.Fatalf("the bandwidth probe does not come first: %+v", recs[:min(2, len(recs))])
	}
	for _, r := range recs[:2] {
		if !r.OK() || r.GBps <= 0 || r.Us <= 0 || r.Backend != BackendMemBW {
			t.Errorf("bandwidth record %+v", r)
		}
	}
	gonum := find(recs, BackendGonum, "MUL_MAT", "f32")
	if len(gonum) != len(TinyShapes.Ns) {
		t.Fatalf("%d gonum records, want one per MUL_MAT shape (%d)", len(gonum), len(TinyShapes.Ns))
	}
	for _, r := range gonum {
		if !r.OK() || r.GFLOPS <= 0 || r.M != TinyShapes.MK || r.K != TinyShapes.MK || r.VsGonum != 1 {
			t.Errorf("gonum record %+v", r)
		}
	}
	mm := find(recs, "fake", "MUL_MAT", "")
	if len(mm) != len(MulMatTypes)*len(TinyShapes.Ns) {
		t.Errorf("%d MUL_MAT records, want %d", len(mm), len(MulMatTypes)*len(TinyShapes.Ns))
	}
	for _, r := range mm {
		if r.Status != StatusUnsupported || r.Us != 0 || r.Runs != 0 || !strings.Contains(r.Note, "MUL_MAT") {
			t.Errorf("unsupported op was not reported as such: %+v", r)
		}
	}
	add := find(recs, "fake", "ADD", "f32")
	if len(add) != 1 || !add[0].OK() || add[0].GBps <= 0 || add[0].Runs != testPolicy.MinRuns || add[0].VsRead <= 0 || add[0].Device != "Fake0" {
		t.Errorf("ADD records %+v", add)
	}
	if d := find(recs, "fake", "DISPATCH", ""); len(d) != 1 || !d[0].OK() || d[0].Nodes != 50 || d[0].Us <= 0 {
		t.Errorf("DISPATCH records %+v", d)
	}
	e2e := append(find(recs, "fake", "E2E_PROMPT", ""), find(recs, "fake", "E2E_GEN", "")...)
	if len(e2e) != 2 {
		t.Fatalf("%d end-to-end records for one model, want 2", len(e2e))
	}
	for _, r := range e2e {
		if r.Status != StatusSkipped || r.Model != "missing" || r.TokS != 0 {
			t.Errorf("end-to-end record without a model %+v", r)
		}
	}
	if r := find(recs, "fake", "RMS_NORM", ""); len(r) != 0 {
		t.Errorf("the op filter let RMS_NORM through: %+v", r)
	}
}

func TestRunComputeError(t *testing.T) {
	recs, err := Run(tinyOptions([]Target{{Backend: "fake", Device: &fakeDevice{failCompute: true}}}, "ADD"))
	if err != nil {
		t.Fatal(err)
	}
	add := find(recs, "fake", "ADD", "")
	if len(add) != 1 || add[0].Status != StatusError || !strings.Contains(add[0].Note, "compute failed") {
		t.Errorf("a failing compute gave %+v", add)
	}
	if len(find(recs, BackendGonum, "MUL_MAT", "")) != 0 {
		t.Error("gonum ran although no MUL_MAT case was selected")
	}
}

func TestRunBaselinesOnly(t *testing.T) {
	opts := tinyOptions(nil)
	opts.Filter.Backends = []string{"gonum"}
	recs, err := Run(opts)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range recs {
		got = append(got, r.Backend+" "+r.Op)
	}
	want := []string{"membw READ", "membw COPY", "gonum MUL_MAT", "gonum MUL_MAT"}
	if !slices.Equal(got, want) {
		t.Errorf("-b gonum ran %q, want %q", got, want)
	}
}

func TestRunNoDevice(t *testing.T) {
	if _, err := Run(Options{Filter: Filter{Backends: []string{"no-such-backend"}}}); err == nil || !strings.Contains(err.Error(), "no-such-backend") {
		t.Errorf("an unknown backend gave %v", err)
	}
}

func TestRunUnknownNames(t *testing.T) {
	tests := []struct {
		name   string
		filter Filter
		want   string // in the error; "" for none
	}{
		{"unknown op", Filter{Ops: []string{"MUL_MAT", "MATMUL"}}, `unknown op "MATMUL"`},
		{"unknown dtype", Filter{Types: []string{"q7_k"}}, `unknown dtype "q7_k"`},
		{"names in any case", Filter{Ops: []string{"mul_mat", "e2e"}, Types: []string{"Q8_0", "q4_k"}, Backends: []string{"no-such-backend"}}, "no device matches"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Run(Options{Filter: tc.filter})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// TestRunCPU runs the tiny suite on the CPU backend: every record must be a
// sane measurement.
func TestRunCPU(t *testing.T) {
	opts := tinyOptions(nil)
	opts.Filter.Backends = []string{"cpu"}
	recs, err := Run(opts)
	if err != nil {
		t.Fatal(err)
	}
	ops := map[string]bool{}
	for _, r := range recs {
		ops[r.Op] = true
		if r.Op == "TOKENIZE" {
			// Skipped where the shared vocab is absent; llama-tokenize is not
			// looked for in the unit test.
			if r.Backend == "cpu" && r.OK() && (r.Us <= 0 || r.TokS <= 0 || r.Runs < 1) || r.Status == StatusError {
				t.Errorf("TOKENIZE %s %s: %s %v µs, %v tok/s: %s", r.Backend, r.Type, r.Status, r.Us, r.TokS, r.Note)
			}
			continue
		}
		if strings.HasPrefix(r.Op, "E2E") && EndToEnd == nil {
			if r.Status != StatusSkipped {
				t.Errorf("%s %s: %s, want skipped", r.Op, r.Model, r.Status)
			}
			continue
		}
		if !r.OK() {
			t.Errorf("%s %s %s %v: %s: %s", r.Backend, r.Op, r.Type, r.Ne, r.Status, r.Note)
			continue
		}
		if r.Us <= 0 || !finite(r.Us) || r.Runs < 1 {
			t.Errorf("%s %s %s: %v µs over %d runs", r.Backend, r.Op, r.Type, r.Us, r.Runs)
		}
		if !finite(r.GFLOPS) || !finite(r.GBps) || r.GFLOPS < 0 || r.GBps < 0 {
			t.Errorf("%s %s %s: %v GFLOPS, %v GB/s", r.Backend, r.Op, r.Type, r.GFLOPS, r.GBps)
		}
		if r.Backend != "cpu" {
			continue
		}
		if r.Device != cpu.Device().Name() {
			t.Errorf("%s record on device %q", r.Op, r.Device)
		}
		switch r.Op {
		case "MUL_MAT":
			if r.GFLOPS <= 0 || r.VsGonum <= 0 || r.GBps <= 0 || r.VsRead <= 0 {
				t.Errorf("MUL_MAT %s %dx%dx%d: %v GFLOPS (%v× gonum), %v GB/s (%v× read)", r.Type, r.M, r.N, r.K, r.GFLOPS, r.VsGonum, r.GBps, r.VsRead)
			}
		case "DISPATCH", "SCHED":
			if r.Nodes < 50 || r.GBps != 0 {
				t.Errorf("%s: %d nodes, %v GB/s", r.Op, r.Nodes, r.GBps)
			}
		default:
			if r.GBps <= 0 || r.VsRead <= 0 || r.GFLOPS != 0 {
				t.Errorf("%s %s: %v GB/s (%v× read), %v GFLOPS", r.Op, r.Type, r.GBps, r.VsRead, r.GFLOPS)
			}
		}
	}
	for _, c := range OpCases(TinyShapes) {
		if !ops[c.Op] {
			t.Errorf("no %s record", c.Op)
		}
	}
	for _, op := range []string{"READ", "COPY", "DISPATCH", "SCHED", "E2E_PROMPT", "E2E_GEN"} {
		if !ops[op] {
			t.Errorf("no %s record", op)
		}
	}
}

func TestFilter(t *testing.T) {
	f := Filter{Backends: SplitList("vulkan, Fake0"), Ops: SplitList("mul_mat,,E2E"), Types: SplitList("q8_0")}
	for _, tc := range []struct {
		name string
		got  bool
		want bool
	}{
		{"family", f.Backend("vulkan", "Vulkan0"), true},
		{"device name, any case", f.Backend("fake", "FAKE0"), true},
		{"other family", f.Backend("cpu", "CPU"), false},
		{"op case-insensitive", f.Op("MUL_MAT"), true},
		{"op alias", f.Op("E2E_GEN", "E2E"), true},
		{"op is not a prefix match", f.Op("MUL"), false},
		{"type", f.Type(rt.Q8_0), true},
		{"other type", f.Type(rt.F32), false},
		{"case", f.Case(MulMatCase(rt.Q8_0, 32, 1, 32)), true},
		{"case of another type", f.Case(MulMatCase(rt.F16, 32, 1, 32)), false},
		{"empty filter selects all", Filter{}.Case(CpyCase(rt.F16, 32, 2)) && Filter{}.Backend("x", "y"), true},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, tc.got, tc.want)
		}
	}
	if got := SplitList(" a,, b ,"); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("SplitList: %q", got)
	}
}

func TestOpCasesBuild(t *testing.T) {
	cs := OpCases(TinyShapes)
	if len(cs) != len(MulMatTypes)*len(TinyShapes.Ns)+10 {
		t.Errorf("%d cases", len(cs))
	}
	names := map[string]bool{}
	for _, c := range cs {
		if names[c.Name()] {
			t.Errorf("duplicate case %s", c.Name())
		}
		names[c.Name()] = true
		b := newBuilder()
		out := c.build(b)
		if err := b.ctx.Err(); err != nil {
			t.Errorf("%s: %v", c.Name(), err)
			continue
		}
		if out.Ne != c.Ne {
			t.Errorf("%s: output %v, case says %v", c.Name(), out.Ne, c.Ne)
		}
		if c.Bytes <= 0 || (c.Op == "MUL_MAT") != (c.Flops > 0) {
			t.Errorf("%s: %v bytes, %v flops", c.Name(), c.Bytes, c.Flops)
		}
	}
	if c := MulMatCase(rt.Q4_0, 4096, 1, 4096); c.Flops != 2*4096*4096 || c.Bytes != 4096*4096/32*18+2*4*4096 {
		t.Errorf("GEMV q4_0: %v flops, %v bytes", c.Flops, c.Bytes)
	}
}

func TestLlamaGraphSize(t *testing.T) {
	for _, want := range []int{200, DefaultSchedNodes} {
		w := newLlamaWeights(DefaultLlamaDims, llamaLayersFor(want))
		g, err := buildLlamaGraph(w, DefaultLlamaDims)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(g.Nodes); n < want || n >= want+llamaNodesPerLayer {
			t.Errorf("%d nodes for a %d-node request", n, want)
		}
	}
}

func TestAnnotate(t *testing.T) {
	recs := []Record{
		{Backend: BackendMemBW, Op: "READ", GBps: 10, Status: StatusOK},
		{Backend: BackendMemBW, Op: "COPY", GBps: 20, Status: StatusOK},
		{Backend: BackendGonum, Op: "MUL_MAT", M: 8, N: 2, K: 8, GFLOPS: 4, Status: StatusOK},
		{Backend: "cpu", Op: "MUL_MAT", M: 8, N: 2, K: 8, GFLOPS: 12, GBps: 5, Status: StatusOK},
		{Backend: "cpu", Op: "MUL_MAT", M: 8, N: 3, K: 8, GFLOPS: 12, Status: StatusOK}, // no gonum at this shape
		{Backend: "cpu", Op: "ADD", GBps: 8, Status: StatusOK},
		{Backend: "cpu", Op: "RMS_NORM", GBps: 8, Status: StatusError},
	}
	Annotate(recs)
	for i, want := range [][3]float64{{0, 1, 0.5}, {0, 2, 1}, {1, 0, 0}, {3, 0.5, 0.25}, {0, 0, 0}, {0, 0.8, 0.4}, {0, 0, 0}} {
		r := recs[i]
		if got := [3]float64{r.VsGonum, r.VsRead, r.VsCopy}; got != want {
			t.Errorf("record %d (%s %s): ratios %v, want %v", i, r.Backend, r.Op, got, want)
		}
	}
}

func TestChecks(t *testing.T) {
	recs := []Record{
		{Backend: "cpu", Op: "MUL_MAT", Type: "f32", M: 4096, N: 512, K: 4096, GFLOPS: 30, VsGonum: 7, Status: StatusOK},
		{Backend: "cpu", Op: "MUL_MAT", Type: "f16", M: 4096, N: 512, K: 4096, GFLOPS: 33, Status: StatusOK},
		{Backend: "cpu", Op: "MUL_MAT", Type: "f32", M: 4096, N: 1, K: 4096, Us: 1000, GFLOPS: 10, VsRead: 0.9, Status: StatusOK},
		{Backend: "cpu", Op: "MUL_MAT", Type: "f16", M: 4096, N: 1, K: 4096, Us: 500, GFLOPS: 20, Status: StatusOK},
		{Backend: "cpu", Op: "MUL_MAT", Type: "q8_0", M: 4096, N: 1, K: 4096, Us: 300, Status: StatusOK},
		{Backend: "cpu", Op: "MUL_MAT", Type: "q4_0", M: 4096, N: 1, K: 4096, Us: 300, Status: StatusOK},
		{Backend: "cpu", Op: "DISPATCH", Us: 1.5, Status: StatusOK},
		{Backend: "vulkan", Op: "DISPATCH", Us: 100, Status: StatusOK},
	}
	cs := Checks(recs)
	met := map[string]bool{}
	for _, c := range cs {
		met[c.Figure] = c.Met
	}
	want := map[string]bool{
		"F32 MUL_MAT 4096x512x4096 vs gonum Gemm": true,
		"F16 MUL_MAT 4096x512x4096 vs our F32":    false, // 1.1×
		"F16 MUL_MAT 4096x1x4096 vs our F32":      true,  // 2×
		"F32 GEMV 4096x1x4096 vs streaming read":  true,
		"q8_0 GEMV speed-up over F32 GEMV":        true, // 3.3×
		"q4_0 GEMV speed-up over F32 GEMV":        false,
		"dispatch overhead per tiny op":           true,
	}
	if len(cs) != len(want) {
		t.Errorf("%d checks, want %d: %+v", len(cs), len(want), cs)
	}
	for f, w := range want {
		if got, ok := met[f]; !ok || got != w {
			t.Errorf("%s: met=%v (present %v), want %v", f, got, ok, w)
		}
	}
	if cs := Checks(recs[6:7]); len(cs) != 1 {
		t.Errorf("checks without matmul records: %+v", cs)
	}
}

func TestTransferRecords(t *testing.T) {
	recs, err := Transfer(cpu.Device(), 1<<16, testPolicy)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"UPLOAD", "DOWNLOAD", "ROUNDTRIP"}
	if len(recs) != len(want) {
		t.Fatalf("%d records, want %d", len(recs), len(want))
	}
	for i, r := range recs {
		if r.Op != want[i] || !r.OK() || r.Us <= 0 {
			t.Errorf("record %d: %+v", i, r)
		}
		if (r.Op == "ROUNDTRIP") != (r.GBps == 0) {
			t.Errorf("%s: %.3f GB/s", r.Op, r.GBps)
		}
	}
}

// TestTransferChecks checks issue 17's transfer target on staged records:
// the 4-byte round trip and the large upload plus download, per device.
func TestTransferChecks(t *testing.T) {
	recs := []Record{
		{Backend: "vulkan", Device: "Vulkan0", Op: "UPLOAD", Us: 1000, Status: StatusOK},
		{Backend: "vulkan", Device: "Vulkan0", Op: "DOWNLOAD", Us: 1000, Status: StatusOK},
		{Backend: "vulkan", Device: "Vulkan0", Op: "ROUNDTRIP", Us: 0.1, Status: StatusOK},
		{Backend: "vulkan", Device: "Vulkan0", Op: "UPLOAD", Us: 1500, VsMapped: 1.5, Status: StatusOK},
		{Backend: "vulkan", Device: "Vulkan0", Op: "DOWNLOAD", Us: 3000, VsMapped: 3, Status: StatusOK},
		{Backend: "vulkan", Device: "Vulkan0", Op: "ROUNDTRIP", Us: 30, VsMapped: 300, Status: StatusOK},
		{Backend: "cpu", Device: "CPU", Op: "ROUNDTRIP", Us: 1, VsMapped: 1, Status: StatusOK},
	}
	got := map[string]Check{}
	for _, c := range transferChecks(recs) {
		got[c.Figure] = c
	}
	want := map[string]struct {
		got string
		met bool
	}{
		"Vulkan0 staged 4-byte set+get vs mapped":         {"300×", false},
		"Vulkan0 staged 16 MiB upload+download vs mapped": {"2.25×", false},
	}
	if len(got) != len(want) {
		t.Errorf("%d checks, want %d: %+v", len(got), len(want), got)
	}
	for f, w := range want {
		if c, ok := got[f]; !ok || c.Got != w.got || c.Met != w.met {
			t.Errorf("%s: %+v (present %v), want %s met=%v", f, c, ok, w.got, w.met)
		}
	}
	recs[4].Us, recs[4].VsMapped = 1000, 1
	for _, c := range transferChecks(recs) {
		if strings.Contains(c.Figure, "upload+download") && (!c.Met || c.Got != "1.25×") {
			t.Errorf("1.25× upload+download: %+v", c)
		}
	}
}
