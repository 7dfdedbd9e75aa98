//go:build !linux

package cpu

import "runtime"

// yieldCore lets other goroutines run; without sched_yield the OS decides
// the rest.
func yieldCore() { runtime.Gosched() }
