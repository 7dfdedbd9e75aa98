//go:build !linux

package cpu

// totalMemory is unknown off Linux; 0 means "not reported".
func totalMemory() uint64 { return 0 }

// availableMemory is unknown off Linux: allocations are not checked.
func availableMemory() (uint64, bool) { return 0, false }
