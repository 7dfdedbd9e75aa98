//go:build cgo

package wgpu

import (
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
	"github.com/gpurt/gpurt/runtime/optest"
)

// TestOps runs the op test harness on the WebGPU device against the CPU
// backend. The case filter keeps the run short on lavapipe.
func TestOps(t *testing.T) {
	d := device(t)
	b := newBackend(t, d)
	sum := optest.RunT(t, b, optest.Filter{})
	if sum.Failed > 0 {
		t.Errorf("%d cases failed", sum.Failed)
	}
}

// TestOpsMulMatHardwarePlan runs the MUL_MAT cases with the kernel choice
// made for hardware GPUs (split-K matrix-vector kernel for small N), which
// lavapipe would not pick by itself.
func TestOpsMulMatHardwarePlan(t *testing.T) {
	d := device(t)
	tuning.plan = func(n int) mmPlan { return planMulMat(n, false) }
	defer func() { tuning.plan = nil }()
	b := newBackend(t, d)
	sum := optest.RunT(t, b, optest.Filter{Ops: []rt.Op{rt.OpMulMat}})
	if sum.Failed > 0 || sum.Passed == 0 {
		t.Errorf("MUL_MAT with the hardware plan: %s", sum)
	}
}
