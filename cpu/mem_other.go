//go:build !linux

package cpu

// totalMemory is unknown off Linux; 0 means "not reported".
func totalMemory() uint64 { return 0 }
