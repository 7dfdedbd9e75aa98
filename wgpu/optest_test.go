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

// TestOpsHardwareKernels runs the cases of the ops whose kernels differ
// between GPUs and SIMD CPUs with the GPU choice (split-K matrix-vector
// product, one workgroup per row), which lavapipe would not pick itself.
func TestOpsHardwareKernels(t *testing.T) {
	d := device(t)
	tuning.hardware = true
	defer func() { tuning.hardware = false }()
	b := newBackend(t, d)
	ops := []rt.Op{rt.OpMulMat, rt.OpSum, rt.OpSumRows, rt.OpMean, rt.OpArgmax, rt.OpNorm, rt.OpRmsNorm, rt.OpSoftMax}
	sum := optest.RunT(t, b, optest.Filter{Ops: ops})
	if sum.Failed > 0 || sum.Passed == 0 {
		t.Errorf("GPU kernel choice: %s", sum)
	}
}
