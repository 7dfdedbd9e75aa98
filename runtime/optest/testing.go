package optest

import (
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
)

// RunT runs the cases filter selects on b as subtests of t, one per case,
// against a CPU backend. A failing case fails its subtest; a case b does
// not support is skipped with the reason (never passed). GPU backends call
// it from their own tests.
func RunT(t *testing.T, b rt.Backend, filter Filter) Summary {
	t.Helper()
	return RunTWith(t, &Runner{}, b, filter)
}

// RunTWith is RunT with a Runner, to choose the reference or the cases.
func RunTWith(t *testing.T, r *Runner, b rt.Backend, filter Filter) Summary {
	t.Helper()
	// Run reports results one by one; each becomes a subtest as it arrives.
	sum := r.Run(b, filter, func(res Result) {
		t.Run(res.Case, func(t *testing.T) {
			switch res.Status {
			case OK:
				t.Logf("nmse %.3g (max %.0e), compute %v", res.NMSE, res.MaxNMSE, res.Compute)
			case NotSupported:
				t.Skipf("not supported: %v", res.Err)
			default:
				t.Errorf("FAIL: %v", res.Err)
			}
		})
	})
	t.Logf("%s on %s: %s", b.Name(), b.Device().Name(), sum)
	return sum
}
