package bench

import (
	"fmt"

	rt "github.com/gpurt/gpurt/runtime"
)

// Check is one of the performance targets (issue 8's for the CPU backend,
// issue 17's transfer target for GPU backends), evaluated on a run's records.
type Check struct {
	Figure string
	Got    string // the measured ratio or time
	Want   string
	Met    bool
}

func (c Check) mark() string {
	if c.Met {
		return "ok"
	}
	return "MISS"
}

// Checks evaluates the CPU targets whose records are present (and OK) in recs:
// F32 MUL_MAT 4096×512×4096 against gonum, F16 against F32 at N = 1, 8 and
// 512, the F32 GEMV
// against the streaming-read bandwidth, Q8_0 and Q4_0 GEMV against F32, and
// the dispatch overhead; and the transfer target of GPU backends
// (transferChecks).
func Checks(recs []Record) []Check {
	find := func(op, typ string, m, n, k int) (Record, bool) {
		for _, r := range recs {
			if r.Backend == "cpu" && r.OK() && r.Op == op && r.Type == typ && r.M == m && r.N == n && r.K == k {
				return r, true
			}
		}
		return Record{}, false
	}
	const mk, big = 4096, 512
	var cs []Check
	ratio := func(figure string, got, want float64) {
		cs = append(cs, Check{Figure: figure, Got: fmt.Sprintf("%.2f×", got), Want: fmt.Sprintf("≥ %.2g×", want), Met: got >= want})
	}
	f32, okF32 := find("MUL_MAT", "f32", mk, big, mk)
	if okF32 && f32.VsGonum > 0 {
		ratio("F32 MUL_MAT 4096x512x4096 vs gonum Gemm", f32.VsGonum, 6)
	}
	// The F16 target at every batch size: the GEMV and thin products are
	// memory-bound, where half-size weights pay; at N=512 both dtypes run
	// the same F32 FMA micro-kernel (AVX2 has no F16 arithmetic).
	for _, n := range []int{1, 8, big} {
		f32n, ok32 := find("MUL_MAT", "f32", mk, n, mk)
		if f16, ok := find("MUL_MAT", "f16", mk, n, mk); ok && ok32 {
			ratio(fmt.Sprintf("F16 MUL_MAT 4096x%dx4096 vs our F32", n), f16.GFLOPS/f32n.GFLOPS, 1.4)
		}
	}
	gemv, okGemv := find("MUL_MAT", "f32", mk, 1, mk)
	if okGemv && gemv.VsRead > 0 {
		ratio("F32 GEMV 4096x1x4096 vs streaming read", gemv.VsRead, 0.8)
	}
	for _, q := range []struct {
		typ  string
		want float64
	}{{"q8_0", 2.5}, {"q4_0", 4}} {
		if r, ok := find("MUL_MAT", q.typ, mk, 1, mk); ok && okGemv {
			ratio(fmt.Sprintf("%s GEMV speed-up over F32 GEMV", q.typ), gemv.Us/r.Us, q.want)
		}
	}
	// Every other weight type's GEMV reads its weights at streaming speed.
	for _, t := range MulMatTypes {
		if !t.IsQuantized() || t == rt.Q8_0 || t == rt.Q4_0 {
			continue
		}
		if r, ok := find("MUL_MAT", t.String(), mk, 1, mk); ok && r.VsRead > 0 {
			ratio(fmt.Sprintf("%v GEMV 4096x1x4096 weight read vs streaming read", t), r.VsRead, 0.8)
		}
	}
	for _, r := range recs {
		if r.Backend == "cpu" && r.OK() && r.Op == "DISPATCH" {
			cs = append(cs, Check{Figure: "dispatch overhead per tiny op", Got: fmt.Sprintf("%.2f µs", r.Us), Want: "< 2 µs", Met: r.Us < 2})
		}
	}
	return append(cs, transferChecks(recs)...)
}

// transferChecks evaluates issue 17's transfer target on a GPU backend's
// records: the staged (discrete-GPU) round trip at most 2× the mapped one,
// for the 4-byte round trip and for the large upload plus download.
func transferChecks(recs []Record) []Check {
	type pair struct{ mapped, staged float64 }
	big := map[string]*pair{}
	var devices []string // in the records' order
	var cs []Check
	within := func(figure string, got float64) {
		cs = append(cs, Check{Figure: figure, Got: fmt.Sprintf("%.3g×", got), Want: "≤ 2×", Met: got <= 2})
	}
	for _, r := range recs {
		if !r.OK() || r.Backend == "cpu" {
			continue
		}
		switch r.Op {
		case "ROUNDTRIP":
			if r.VsMapped > 0 {
				within(fmt.Sprintf("%s staged 4-byte set+get vs mapped", r.Device), r.VsMapped)
			}
		case "UPLOAD", "DOWNLOAD":
			p := big[r.Device]
			if p == nil {
				p = &pair{}
				big[r.Device] = p
				devices = append(devices, r.Device)
			}
			if r.VsMapped > 0 {
				p.staged += r.Us
				p.mapped += r.Us / r.VsMapped
			}
		}
	}
	for _, dev := range devices {
		if p := big[dev]; p.mapped > 0 {
			within(fmt.Sprintf("%s staged %d MiB upload+download vs mapped", dev, TransferBytes>>20), p.staged/p.mapped)
		}
	}
	return cs
}
