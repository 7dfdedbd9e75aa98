package vk

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gpurt/gpurt/internal/qtables"
)

// TestDequantTables checks that dequant.glsl's codebooks (compiled into the
// committed SPIR-V) are the runtime's.
func TestDequantTables(t *testing.T) {
	src, err := os.ReadFile("../shaders/vk/dequant.glsl")
	if err != nil {
		t.Fatal(err)
	}
	iq4nl, err := qtables.IQ4NL()
	if err != nil {
		t.Fatal(err)
	}
	mxfp4, err := qtables.MXFP4()
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string][16]int8{"IQ4NL_VALUES": iq4nl, "MXFP4_VALUES": mxfp4} {
		m := regexp.MustCompile(name + `\[16\] = int\[16\]\(([^)]*)\)`).FindSubmatch(src)
		if m == nil {
			t.Errorf("dequant.glsl declares no %s", name)
			continue
		}
		var got [16]int8
		fields := strings.Split(string(m[1]), ",")
		if len(fields) != 16 {
			t.Errorf("%s has %d values", name, len(fields))
			continue
		}
		for i, f := range fields {
			v, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil {
				t.Fatalf("%s[%d]: %v", name, i, err)
			}
			got[i] = int8(v)
		}
		if got != want {
			t.Errorf("dequant.glsl %s = %v, the runtime has %v", name, got, want)
		}
	}
}
