//go:build unix

package vk

import (
	"syscall"
	"time"
)

// cpuTime is the process's user plus system time: on a loaded machine it
// measures work better than wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
