package bench

import (
	"errors"
	"os/exec"
	"strings"
	"testing"
)

// TestGPUCheckScript checks gpucheck.sh's syntax and argument handling (the
// full check runs on a lent GPU machine; on lavapipe it takes minutes).
func TestGPUCheckScript(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	if out, err := exec.Command("sh", "-n", "gpucheck.sh").CombinedOutput(); err != nil {
		t.Fatalf("sh -n: %v\n%s", err, out)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--help"}, 0, "--quick"},
		{[]string{"--bogus"}, 2, "unknown argument --bogus"},
	} {
		out, err := exec.Command("sh", append([]string{"gpucheck.sh"}, c.args...)...).CombinedOutput()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != c.code || !strings.Contains(string(out), c.want) {
			t.Errorf("gpucheck.sh %v: exit %d, output %q; want exit %d and %q", c.args, code, out, c.code, c.want)
		}
	}
}
