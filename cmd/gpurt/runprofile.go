package main

import (
	"bytes"
	"fmt"
	"runtime/pprof"

	"github.com/gpurt/gpurt/internal/atomicfile"

	rt "github.com/gpurt/gpurt/runtime"
)

// runProfile is gpurt run --profile's state: the profile shared by the
// model and the backends, and whether generation has started.
type runProfile struct {
	p       *rt.Profile
	started bool
}

// newRunProfile returns the profile for gpurt run --profile, set on every
// backend that times its ops; with profiling off it holds a nil profile,
// which records nothing.
func newRunProfile(on bool, backends []rt.Backend) *runProfile {
	if !on {
		return &runProfile{}
	}
	p := rt.NewProfile()
	for _, b := range backends {
		if pb, ok := b.(rt.Profiled); ok {
			pb.SetProfile(p)
		}
	}
	return &runProfile{p: p}
}

// onToken drops what the profile gathered before the first generated token
// (the prompt and its sampling), so the report is per generated token.
func (r *runProfile) onToken() {
	if !r.started {
		r.started = true
		r.p.Reset()
	}
}

// print writes the report to stderr.
func (r *runProfile) print(c *cli) error {
	if r.p == nil {
		return nil
	}
	rep := r.p.Report()
	if rep.Steps == 0 {
		c.Infof("--profile: no token was evaluated after the first generated one (raise -n)")
		return nil
	}
	fmt.Fprintln(c.stderr)
	return rep.Format(c.stderr)
}

// startCPUProfile starts gpurt run --cpuprofile's pprof profile; the
// returned function stops it and writes FILE atomically. An empty path
// profiles nothing.
func startCPUProfile(path string) (stop func() error, err error) {
	if path == "" {
		return func() error { return nil }, nil
	}
	var buf bytes.Buffer
	if err := pprof.StartCPUProfile(&buf); err != nil {
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	return func() error {
		pprof.StopCPUProfile()
		if err := atomicfile.WriteFile(path, buf.Bytes(), atomicfile.Options{}); err != nil {
			return fmt.Errorf("--cpuprofile: %w", err)
		}
		return nil
	}, nil
}
