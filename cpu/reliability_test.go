package cpu_test

import (
	"errors"
	"testing"

	"github.com/gpurt/gpurt/cpu"
	"github.com/gpurt/gpurt/internal/backendcheck"
	rt "github.com/gpurt/gpurt/runtime"
)

func TestMisuse(t *testing.T) { backendcheck.Misuse(t, cpu.Device()) }

// TestAllocLeak: 2,000 cycles of allocating, writing and freeing 1 MiB keep
// the resident set bounded.
func TestAllocLeak(t *testing.T) { backendcheck.Leak(t, cpu.Device(), backendcheck.LeakOptions{}) }

// TestAllocBeyondMemory: a buffer larger than the memory the machine has is
// an out-of-memory error, not a crash, and MaxSize does not promise it.
func TestAllocBeyondMemory(t *testing.T) {
	bt := cpu.BufferType()
	for _, size := range []int{1 << 40, 1 << 50, 1<<62 + 1} {
		buf, err := bt.Alloc(size)
		if err == nil {
			buf.Free()
			t.Fatalf("Alloc(%d) succeeded", size)
		}
		if !errors.Is(err, rt.ErrOutOfMemory) {
			t.Errorf("Alloc(%d): %v, want an error wrapping ErrOutOfMemory", size, err)
		}
	}
	if max := bt.MaxSize(); max >= 1<<40 {
		t.Errorf("MaxSize %d promises more than this machine's memory", max)
	}
}
