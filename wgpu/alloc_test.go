//go:build cgo

package wgpu

import (
	"testing"

	"github.com/gpurt/gpurt/internal/backendcheck"
)

// TestGraphStepAllocations: warm decode steps with every layer on WebGPU
// create no buffer (staging and readback included).
func TestGraphStepAllocations(t *testing.T) {
	d := device(t)
	backendcheck.StepAllocations(t, newBackend(t, d), d.AllocationsMade)
}
