package vk

import (
	"testing"

	"github.com/gpurt/gpurt/internal/backendcheck"
)

// TestGraphStepAllocations: warm decode steps with every layer on Vulkan
// make no device memory block and no buffer. make test runs it in the
// mapped, the discrete (GPURT_VK_DISCRETE=1: every transfer staged) and
// the BAR modes.
func TestGraphStepAllocations(t *testing.T) {
	dev, _ := testDevice(t)
	be, err := dev.NewBackend()
	if err != nil {
		t.Fatal(err)
	}
	defer be.Close()
	backendcheck.StepAllocations(t, be, dev.AllocationsMade)
}
