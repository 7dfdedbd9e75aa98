package main

import (
	"strings"
	"testing"
)

// TestRunProfile: --profile prints the per-token breakdown after the
// generation figures: phases, ops by type and layer, and the CPU pool.
func TestRunProfile(t *testing.T) {
	model := storiesPathOrSkip(t)
	code, _, errOut := runCLI(t, "run", "-m", model, "-d", "cpu", "-t", "2", "-n", "8", "--temp", "0", "--profile")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"profile: 7 steps", // the 7 evaluations after the first generated token
		"graph build+alloc", "input copies", "graph compute", "sampling",
		"ops by type:", "MUL_MAT", "RMS_NORM",
		"ops by layer:", "blk.0", "blk.4",
		"cpu pool: 2 threads", "waiting at op barrier",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("--profile output lacks %q:\n%s", want, errOut)
		}
	}
	code, _, errOut = runCLI(t, "run", "-m", model, "-d", "cpu", "-n", "2", "--temp", "0")
	if code != 0 || strings.Contains(errOut, "profile:") {
		t.Errorf("exit %d; a run without --profile prints a profile:\n%s", code, errOut)
	}
}
