package cpu_test

import (
	"testing"

	"github.com/gpurt/gpurt/cpu"
	"github.com/gpurt/gpurt/runtime/optest"
)

// The fast backend agrees with the reference loops on the whole op
// catalogue: odd sizes, broadcasting, views at offsets, permuted and
// transposed inputs, in-place results.
func TestFastMatchesReference(t *testing.T) {
	ref, _ := cpu.NewReferenceBackend(0)
	defer ref.Close()
	backends := []struct {
		name   string
		b      *cpu.Backend
		filter optest.Filter
	}{
		// The portable kernels are the fallback on other machines; a
		// sample of the catalogue keeps the test quick.
		{"portable", cpu.NewPortableBackend(0), optest.Filter{Sample: 3}},
	}
	if cpu.HasSIMD() {
		fast, _ := cpu.NewBackend(0)
		all := optest.Filter{}
		if raceEnabled {
			all.Sample = 3
		}
		backends = append(backends, struct {
			name   string
			b      *cpu.Backend
			filter optest.Filter
		}{"simd", fast, all})
	}
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			defer be.b.Close()
			sum := optest.RunTWith(t, &optest.Runner{Ref: ref}, be.b, be.filter)
			if sum.Failed != 0 || sum.Skipped != 0 || sum.Passed == 0 {
				t.Errorf("summary %s", sum)
			}
		})
	}
}
