//go:build cgo

package wgpu

import (
	"fmt"
	"os"
)

// GPURT_WGPU_MM=TMxTNxWGxMV makes every matmul use that plan (MV 1: the
// split-K matrix-vector kernel, TM rows per workgroup), for exploring
// tilings with `go test -bench MulMat`.
func init() {
	if s := os.Getenv("GPURT_WGPU_MM"); s != "" {
		var p mmPlan
		var mv int
		if _, err := fmt.Sscanf(s, "%dx%dx%dx%d", &p.tm, &p.tn, &p.wg, &mv); err != nil {
			fmt.Fprintf(os.Stderr, "GPURT_WGPU_MM=%q: %v\n", s, err)
			os.Exit(2)
		}
		p.mv = mv == 1
		tuning.plan = func(int) mmPlan { return p }
	}
}
