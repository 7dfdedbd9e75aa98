package bench

import (
	"errors"
	"slices"
	"testing"
	"time"
)

func TestMedian(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   []time.Duration
		want time.Duration
	}{
		{"empty", nil, 0},
		{"one", []time.Duration{5}, 5},
		{"odd unsorted", []time.Duration{9, 1, 5}, 5},
		{"even", []time.Duration{4, 1, 3, 2}, 2}, // (2+3)/2 in integer nanoseconds
		{"even exact", []time.Duration{10, 30}, 20},
		{"outlier", []time.Duration{3, 3, 3, 1000, 3}, 3},
	} {
		in := slices.Clone(tc.in)
		if got := Median(tc.in); got != tc.want {
			t.Errorf("%s: Median(%v) = %v, want %v", tc.name, tc.in, got, tc.want)
		}
		if !slices.Equal(in, tc.in) {
			t.Errorf("%s: Median reordered its input to %v", tc.name, tc.in)
		}
	}
}

func TestMeasureRuns(t *testing.T) {
	for _, tc := range []struct {
		name      string
		p         Policy
		wantTimed int
	}{
		{"max runs caps", Policy{Warmup: 2, MinTime: time.Hour, MinRuns: 1, MaxRuns: 4}, 4},
		{"min runs without min time", Policy{Warmup: 0, MinTime: 0, MinRuns: 3, MaxRuns: 100}, 3},
		{"at least one", Policy{MaxRuns: 10}, 1},
	} {
		calls := 0
		got, err := Measure(tc.p, func() error { calls++; return nil })
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got.Runs != tc.wantTimed || calls != tc.wantTimed+tc.p.Warmup {
			t.Errorf("%s: %d timed runs and %d calls, want %d and %d", tc.name, got.Runs, calls, tc.wantTimed, tc.wantTimed+tc.p.Warmup)
		}
	}
}

func TestMeasureMinTime(t *testing.T) {
	p := Policy{MinTime: 20 * time.Millisecond, MinRuns: 1, MaxRuns: 1000}
	got, err := Measure(p, func() error { time.Sleep(2 * time.Millisecond); return nil })
	if err != nil {
		t.Fatal(err)
	}
	// Each run takes at least 2 ms (more on a loaded machine): at most 10
	// reach 20 ms, and one is enough only if it took 20 ms by itself.
	if got.Runs > 10 || got.Runs < 2 && got.Median < 20*time.Millisecond {
		t.Errorf("%d runs of %v for a 20 ms minimum", got.Runs, got.Median)
	}
	if got.Median < 2*time.Millisecond {
		t.Errorf("median %v is below the 2 ms each run sleeps", got.Median)
	}
}

func TestMeasureSetupUntimed(t *testing.T) {
	p := Policy{MinRuns: 3, MaxRuns: 3}
	setups := 0
	got, err := MeasureSetup(p, func() error { setups++; time.Sleep(20 * time.Millisecond); return nil }, func() error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	if setups != 3 || got.Median >= 20*time.Millisecond {
		t.Errorf("%d setups, median %v: want 3 setups outside the timing", setups, got.Median)
	}
}

func TestMeasureErrors(t *testing.T) {
	boom := errors.New("boom")
	if _, err := Measure(QuickPolicy, func() error { return boom }); !errors.Is(err, boom) {
		t.Errorf("run error: got %v", err)
	}
	if _, err := Measure(Policy{}, func() error { return nil }); err == nil {
		t.Error("a policy with MaxRuns 0 measured nothing and gave no error")
	}
}
