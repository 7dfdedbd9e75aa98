//go:build amd64 && !purego

package cpu

import (
	"os"
	"os/exec"
	"reflect"
	"testing"
)

// Where the AVX-512 set is chosen, the AVX2 set it supersedes stays under
// test: every kernel test runs both on the same inputs.
// With GPURT_CPU_LEVEL capping the choice, the AVX-512 set stays under
// test too.
func init() {
	for _, k := range []*kernels{avx2Kernels, avx512Kernels} {
		if k != nil && k != simdKernels {
			supersededKernels = append(supersededKernels, k)
		}
	}
}

// avx512Replaced lists the kernels the avx512 set takes from
// kquants512_amd64.s, tquants512_amd64.s, kernels512_amd64.s and
// softmax512_amd64.s; every other one is AVX2's.
var avx512Replaced = map[string]bool{
	"dotTQ1":         true,
	"dotTQ2":         true,
	"gemm":           true,
	"gemmRows":       true,
	"dotF16x4":       true,
	"dotF16x16":      true,
	"dotF16x8x2":     true,
	"dotF32x4":       true,
	"dotQ8x4":        true,
	"dotQ4R8":        true,
	"dotMXFP4":       true,
	"dotQ4K":         true,
	"dotQ4Kx4":       true,
	"dotQ5K":         true,
	"dotQ5Kx4":       true,
	"dotQ6K":         true,
	"dotQ6Kx4":       true,
	"dotQ2K":         true,
	"dotQ2Kx4":       true,
	"dotQ3K":         true,
	"dotQ3Kx4":       true,
	"dotIQ4XS":       true,
	"dotIQ4XSx4":     true,
	"dotQ4_1":        true,
	"dotQ5_1":        true,
	"dotQ5_0":        true,
	"dotIQ4NL":       true,
	"expSub":         true,
	"rowSoftMax":     true,
	"rowSoftMax2":    true,
	"thinF32c4":      true,
	"thinF32c2":      true,
	"dotF32x4c4":     true,
	"dotQ4KRRows":    true,
	"dotQ5KRRows":    true,
	"dotQ6KRows":     true,
	"packF16":        true,
	"gemmF16":        true,
	"gemmRows4":      true,
	"gemmF16Rows4":   true,
	"gemmRowsRun":    true,
	"gemmF16RowsRun": true,
}

func TestSelectAMD64(t *testing.T) {
	a2, a512 := &kernels{name: "avx2"}, &kernels{name: "avx512"}
	for _, c := range []struct {
		level        string
		avx2, avx512 *kernels
		want         *kernels
	}{
		{"", a2, a512, a512},
		{"avx512", a2, a512, a512},
		{"avx2", a2, a512, a2},
		{"go", a2, a512, nil},
		{"bogus", a2, a512, a512},
		{"", a2, nil, a2},
		{"avx512", a2, nil, a2}, // a level the CPU lacks falls back
		{"avx2", nil, nil, nil},
		{"", nil, nil, nil},
	} {
		if got := selectAMD64(c.level, c.avx2, c.avx512); got != c.want {
			t.Errorf("selectAMD64(%q, avx2 %v, avx512 %v) = %v, want %v", c.level, c.avx2 != nil, c.avx512 != nil, got, c.want)
		}
	}
}

// The avx512 set differs from the AVX2 one in exactly the kernels listed
// in avx512Replaced.
func TestAVX512SetReplaces(t *testing.T) {
	t.Logf("hasAVX2 = %v, hasAVX512 = %v, simdKernels = %v", hasAVX2(), hasAVX512(), kernelName(simdKernels))
	if avx512Kernels == nil {
		t.Skip("this CPU lacks AVX-512 F/BW/DQ/VL/VNNI (or the OS does not save the ZMM state)")
	}
	d, a := reflect.ValueOf(avx512Kernels).Elem(), reflect.ValueOf(avx2Kernels).Elem()
	for i := 0; i < d.NumField(); i++ {
		name := d.Type().Field(i).Name
		if d.Field(i).Kind() != reflect.Func || a.Field(i).IsNil() {
			continue
		}
		if same := d.Field(i).Pointer() == a.Field(i).Pointer(); same == avx512Replaced[name] {
			t.Errorf("avx512 kernel %s: same as avx2 = %v, want %v", name, same, !avx512Replaced[name])
		}
	}
}

func kernelName(k *kernels) string {
	if k == nil {
		return "none"
	}
	return k.name
}

// GPURT_CPU_LEVEL caps the set chosen at start-up: a child test process
// started with each level reports the set it runs. The child works out
// "best" itself, as it may run on another CPU model (under qemu the child
// runs natively).
func TestCPULevelEnv(t *testing.T) {
	if want := os.Getenv("GPURT_TEST_WANT_KERNELS"); want != "" {
		if want == "best" {
			if want = kernelName(selectAMD64("", avx2Kernels, avx512Kernels)); want == "none" {
				want = "go"
			}
		}
		if got := defaultKernels().name; got != want {
			t.Fatalf("%s=%q: kernels %s, want %s", cpuLevelEnv, os.Getenv(cpuLevelEnv), got, want)
		}
		return
	}
	capped := "go"
	if hasAVX2() {
		capped = "avx2"
	}
	for _, c := range []struct{ level, want string }{
		{"", "best"}, {"avx512", "best"}, {"avx2", capped}, {"AVX2", capped}, {"go", "go"},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCPULevelEnv$", "-test.count=1")
		cmd.Env = append(os.Environ(), cpuLevelEnv+"="+c.level, "GPURT_TEST_WANT_KERNELS="+c.want)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s=%q: %v\n%s", cpuLevelEnv, c.level, err, out)
		}
	}
}
