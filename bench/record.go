// Package bench is gpurt's benchmark suite: op benchmarks per backend in the
// spirit of llama.cpp's test-backend-ops perf mode, dispatch and scheduler
// overhead, end-to-end model speed, and baselines measured in the same run
// (a memory-bandwidth probe and gonum's blas32 Gemm) so that every figure can
// be read as a ratio that holds on a noisy machine.
package bench

// Status says whether a record holds a measurement.
type Status string

const (
	StatusOK          Status = "ok"
	StatusUnsupported Status = "unsupported" // the device does not support an op of the case
	StatusSkipped     Status = "skipped"     // not run (missing model, missing integration, …); Note says why
	StatusError       Status = "error"       // building, allocating or computing failed; Note holds the error
)

// Baseline backend names.
const (
	BackendGonum = "gonum" // gonum.org/v1/gonum/blas/blas32 Gemm
	BackendMemBW = "membw" // the memory-bandwidth probe
)

// Record is one measurement; a JSON report is an array of them. Figures that
// do not apply to a record are 0.
type Record struct {
	Backend string `json:"backend"` // "cpu", "vulkan", "webgpu", or "gonum" / "membw"
	Device  string `json:"device"`  // the device name, e.g. "CPU"; empty for baselines
	Op      string `json:"op"`      // "MUL_MAT", "ADD", …; "READ"/"COPY"; "DISPATCH", "SCHED", "E2E_PROMPT", "E2E_GEN"
	Type    string `json:"type"`    // the dtype that varies: weight for MUL_MAT, destination for CPY
	Ne      [4]int `json:"ne"`      // output shape
	M       int    `json:"m"`
	N       int    `json:"n"` // for E2E records: prompt or generated tokens
	K       int    `json:"k"`

	Us     float64 `json:"us"` // median µs per run (per op for DISPATCH, per node for SCHED)
	GFLOPS float64 `json:"gflops"`
	GBps   float64 `json:"gbps"` // bytes read plus bytes written, per second (STREAM convention)
	TokS   float64 `json:"tok_s"`
	Runs   int     `json:"runs"`  // timed runs behind the median
	Nodes  int     `json:"nodes"` // graph nodes for DISPATCH and SCHED

	// Ratios to the same run's baselines; 0 where not meaningful.
	VsGonum float64 `json:"vs_gonum"` // GFLOPS / gonum Gemm GFLOPS at the same M, N, K
	VsRead  float64 `json:"vs_read"`  // GB/s / streaming-read GB/s
	VsCopy  float64 `json:"vs_copy"`  // GB/s / copy GB/s
	// VsMapped is a staged transfer's time over the mapped one's (TRANSFER).
	VsMapped float64 `json:"vs_mapped,omitempty"`

	Status Status `json:"status"`
	Model  string `json:"model,omitempty"`
	Note   string `json:"note,omitempty"`
}

// OK reports whether the record holds a measurement.
func (r Record) OK() bool { return r.Status == StatusOK }
