//go:build !unix

package bench

import "time"

// processCPUTime is not available here: callers use wall time.
func processCPUTime() (time.Duration, bool) { return 0, false }
