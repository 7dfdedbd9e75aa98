//go:build cgo

package wgpu

import (
	"testing"

	"github.com/gpurt/gpurt/internal/backendcheck"
)

// TestMisuse: the same misuse gets the same answer as on every backend.
func TestMisuse(t *testing.T) { backendcheck.Misuse(t, device(t)) }

// TestAllocLeak: 2,000 cycles of allocating, writing and freeing 1 MiB keep
// the resident set bounded (freed wgpu buffers are reclaimed only when the
// device is polled).
func TestAllocLeak(t *testing.T) { backendcheck.Leak(t, device(t), backendcheck.LeakOptions{}) }
