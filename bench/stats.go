package bench

import (
	"errors"
	"slices"
	"time"
)

// Median returns the middle value of xs (the mean of the two middle values
// for an even count), or 0 for none: durations or speeds. xs is not
// modified.
func Median[T ~int64 | ~float64](xs []T) T {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	mid := len(s) / 2
	if len(s)%2 == 1 {
		return s[mid]
	}
	return (s[mid-1] + s[mid]) / 2
}

// Policy says how often a case runs: Warmup untimed runs, then timed runs
// until MinTime has passed and MinRuns are done, or MaxRuns are done; at
// least one.
type Policy struct {
	Warmup  int
	MinTime time.Duration
	MinRuns int
	MaxRuns int
}

var (
	// FullPolicy follows test-backend-ops' perf mode: runs until a second
	// has passed (a single run of a slow op is enough) or 1000 runs.
	FullPolicy = Policy{Warmup: 1, MinTime: time.Second, MinRuns: 1, MaxRuns: 1000}
	// QuickPolicy keeps `make bench` short: a tenth of a second and at
	// least three runs, so that one slow run (a noisy neighbour) cannot
	// become the median of an op that takes longer.
	QuickPolicy = Policy{Warmup: 1, MinTime: 100 * time.Millisecond, MinRuns: 3, MaxRuns: 50}
)

// Timing is the result of Measure.
type Timing struct {
	Median time.Duration
	Runs   int
}

var errNoRuns = errors.New("bench: policy allows no timed runs")

// Measure times run under p and returns the median run time. The first
// error from run stops the measurement.
func Measure(p Policy, run func() error) (Timing, error) { return MeasureSetup(p, nil, run) }

// MeasureSetup is Measure with an untimed setup (if not nil) before every run.
func MeasureSetup(p Policy, setup, run func() error) (Timing, error) {
	if p.MaxRuns < 1 {
		return Timing{}, errNoRuns
	}
	once := func() error {
		if setup != nil {
			if err := setup(); err != nil {
				return err
			}
		}
		return run()
	}
	for i := 0; i < p.Warmup; i++ {
		if err := once(); err != nil {
			return Timing{}, err
		}
	}
	var times []time.Duration
	var total time.Duration
	for len(times) == 0 || len(times) < p.MaxRuns && (total < p.MinTime || len(times) < p.MinRuns) {
		if setup != nil {
			if err := setup(); err != nil {
				return Timing{}, err
			}
		}
		t0 := time.Now()
		if err := run(); err != nil {
			return Timing{}, err
		}
		d := time.Since(t0)
		times = append(times, d)
		total += d
	}
	return Timing{Median: Median(times), Runs: len(times)}, nil
}

// us converts a duration to microseconds.
func us(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }
