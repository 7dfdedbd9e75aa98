package main

import (
	"strings"
	"testing"
)

// An unknown GPURT_CPU_LEVEL is reported, named, and otherwise ignored.
func TestCPULevelWarning(t *testing.T) {
	for _, c := range []struct {
		value, want string
	}{
		{"avx2", ""},
		{"", ""},
		{"sse9", `GPURT_CPU_LEVEL="sse9"`},
	} {
		t.Setenv("GPURT_CPU_LEVEL", c.value)
		code, _, stderr := runCLI(t, "version")
		if code != exitOK {
			t.Errorf("%q: exit %d, want %d", c.value, code, exitOK)
		}
		if c.want == "" && stderr != "" {
			t.Errorf("%q: stderr %q, want nothing", c.value, stderr)
		}
		if c.want != "" && !(strings.HasPrefix(stderr, "gpurt version: warning: ") && strings.Contains(stderr, c.want)) {
			t.Errorf("%q: stderr %q, want a warning naming %s", c.value, stderr, c.want)
		}
	}
}
