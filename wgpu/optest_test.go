//go:build cgo

package wgpu

import (
	"testing"

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
