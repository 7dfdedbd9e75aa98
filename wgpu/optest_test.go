//go:build cgo

package wgpu

import (
	"regexp"
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
// between GPUs and SIMD CPUs with the generic GPU row of the tuning table
// (split-K matrix-vector product, tiled matmul, one workgroup per row),
// which lavapipe would not pick itself.
func TestOpsHardwareKernels(t *testing.T) {
	d := device(t)
	useTune(t, d, classOther)
	b := newBackend(t, d)
	ops := []rt.Op{rt.OpSum, rt.OpSumRows, rt.OpMean, rt.OpArgmax, rt.OpNorm, rt.OpRmsNorm, rt.OpSoftMax}
	sum := optest.RunT(t, b, optest.Filter{Ops: ops})
	// The split-K kernel (N <= 4) and one case per weight dtype of the
	// tiled one.
	sum.Merge(optest.RunT(t, b, optest.Filter{Ops: []rt.Op{rt.OpMulMat}, Name: regexp.MustCompile(`,n=[1-4],|m=16,n=17,k=256,bs=\[1,1\],nr=\[1,1\]\)`)}))
	if sum.Failed > 0 || sum.Passed == 0 {
		t.Errorf("GPU kernel choice: %s", sum)
	}
}
