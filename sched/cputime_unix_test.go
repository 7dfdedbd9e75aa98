//go:build unix

package sched

import (
	"syscall"
	"time"
)

// processCPUTime is the user plus system time this process has used, which
// unlike wall time does not grow while other processes hold the cores.
func processCPUTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
