package runtime_test

import (
	"strings"
	"testing"
	"time"

	rt "github.com/gpurt/gpurt/runtime"
)

func TestLayerOf(t *testing.T) {
	for _, tc := range []struct {
		name string
		want int
	}{
		{"blk.0.attn_q", 0},
		{"blk.12.ffn_up", 12},
		{"blk.7", 7},
		{"blk.x.attn_q", -1},
		{"blk.-1.attn_q", -1},
		{"result_output", -1},
		{"", -1},
	} {
		if got := rt.LayerOf(tc.name); got != tc.want {
			t.Errorf("LayerOf(%q) = %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestProfileReport(t *testing.T) {
	ctx := rt.NewContext()
	q := ctx.NewTensor(rt.F32, 4).SetName("blk.0.attn_q")
	k := ctx.NewTensor(rt.F32, 4).SetName("blk.1.attn_k")
	unnamed := ctx.Add(k, k) // takes its source's layer
	out := ctx.NewTensor(rt.F32, 4).SetName("result_output")
	q.Op, k.Op, out.Op = rt.OpMulMat, rt.OpMulMat, rt.OpMulMat

	p := rt.NewProfile()
	for range 2 {
		p.AddStep()
		p.AddOp(q, 3*time.Millisecond)
		p.AddOp(k, 1*time.Millisecond)
		p.AddOp(unnamed, 2*time.Millisecond)
		p.AddOp(out, 4*time.Millisecond)
		p.AddPhase("graph compute", 10*time.Millisecond)
		p.AddPhase("sampling", time.Millisecond)
	}
	p.AddPool(rt.PoolStat{Threads: 2, Parallel: 3, Busy: 5 * time.Millisecond, Wake: time.Millisecond, Barrier: 2 * time.Millisecond})
	r := p.Report()

	if r.Steps != 2 || r.OpTime != 20*time.Millisecond {
		t.Fatalf("steps %d, op time %v; want 2 and 20ms", r.Steps, r.OpTime)
	}
	wantOps := []rt.ProfileRow{
		{Name: "MUL_MAT", ProfileStat: rt.ProfileStat{Count: 6, Time: 16 * time.Millisecond}},
		{Name: "ADD", ProfileStat: rt.ProfileStat{Count: 2, Time: 4 * time.Millisecond}},
	}
	if len(r.ByOp) != len(wantOps) {
		t.Fatalf("by op %v, want %v", r.ByOp, wantOps)
	}
	for i, w := range wantOps {
		if r.ByOp[i] != w {
			t.Errorf("by op row %d = %+v, want %+v", i, r.ByOp[i], w)
		}
	}
	wantLayers := []rt.ProfileRow{
		{Name: "other", ProfileStat: rt.ProfileStat{Count: 2, Time: 8 * time.Millisecond}},
		{Name: "blk.0", ProfileStat: rt.ProfileStat{Count: 2, Time: 6 * time.Millisecond}},
		{Name: "blk.1", ProfileStat: rt.ProfileStat{Count: 4, Time: 6 * time.Millisecond}},
	}
	if len(r.ByLayer) != len(wantLayers) {
		t.Fatalf("by layer %v, want %v", r.ByLayer, wantLayers)
	}
	for i, w := range wantLayers {
		if r.ByLayer[i] != w {
			t.Errorf("by layer row %d = %+v, want %+v", i, r.ByLayer[i], w)
		}
	}
	if len(r.Phases) != 2 || r.Phases[0].Name != "graph compute" || r.Phases[1].Time != 2*time.Millisecond {
		t.Errorf("phases %+v, want graph compute then sampling (2ms)", r.Phases)
	}

	var b strings.Builder
	if err := r.Format(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"profile: 2 steps",
		"MUL_MAT                               8.000 ms      3.0 calls   72.7%", // 16ms of 22ms in 2 steps
		"sampling                              1.000 ms",
		"MUL_MAT attn_q f32                    3.000 ms      1.0 calls   27.3%", // blk.0's node kind
		"ADD (unnamed)                         2.000 ms",
		"cpu pool: 2 threads, 1.5 parallel ops per step",
		"waiting at op barrier                 1.000 ms",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}

	p.Reset()
	if r := p.Report(); r.Steps != 0 || len(r.ByOp) != 0 || len(r.ByNode) != 0 || len(r.Phases) != 0 || r.Pool != (rt.PoolStat{}) {
		t.Errorf("after Reset: %+v", r)
	}
}

func TestNilProfileIgnoresCalls(t *testing.T) {
	var p *rt.Profile
	p.AddStep()
	p.AddOp(rt.NewContext().NewTensor(rt.F32, 1), time.Second)
	p.AddPhase("x", time.Second)
	p.AddPool(rt.PoolStat{Threads: 1})
	p.Reset()
	if p.Enabled() || p.Report().Steps != 0 {
		t.Error("a nil profile recorded something")
	}
}

func TestNodeStem(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"blk.3.attn_q", "attn_q"},
		{"kq_softmax-12", "kq_softmax"},
		{"blk.0.ffn_up-0", "ffn_up"},
		{"result_output", "result_output"},
		{"a-b", "a-b"},
		{"", ""},
	} {
		if got := rt.NodeStem(tc.name); got != tc.want {
			t.Errorf("NodeStem(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}
