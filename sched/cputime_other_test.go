//go:build !unix

package sched

import "time"

// processCPUTime is not measured off Unix; the benchmark then reports 0.
func processCPUTime() time.Duration { return 0 }
