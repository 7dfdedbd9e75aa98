package bench

import (
	rt "github.com/gpurt/gpurt/runtime"
	"github.com/gpurt/gpurt/sched"
)

// newSched is gpurt's scheduler without pipeline parallelism, with op
// offload as llama.cpp enables it by default.
func newSched(backends []rt.Backend, graphSize int) (Scheduler, error) {
	s, err := sched.New(backends, nil, graphSize, false, true)
	if err != nil {
		return nil, err
	}
	return s, nil
}
