package vk

import (
	"testing"

	"github.com/gpurt/gpurt/internal/backendcheck"
)

// TestMisuse: the same misuse gets the same answer as on every backend.
func TestMisuse(t *testing.T) {
	dev, _ := testDevice(t)
	backendcheck.Misuse(t, dev)
}

// TestAllocLeak: 2,000 cycles of allocating, writing and freeing 128 KiB
// keep the resident set bounded. (Every lavapipe allocation is fresh memory
// whose first touch costs page faults: 1 MiB cycles take 20 s.)
func TestAllocLeak(t *testing.T) {
	dev, _ := testDevice(t)
	backendcheck.Leak(t, dev, backendcheck.LeakOptions{Size: 128 << 10, MaxGrow: 64 << 20})
}
