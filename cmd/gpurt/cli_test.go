package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// runCLI runs gpurt with args, capturing the contract's output.
func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	oldOut, oldErr := cliStdout, cliStderr
	cliStdout, cliStderr = &out, &errb
	defer func() { cliStdout, cliStderr = oldOut, oldErr }()
	code = dispatch(args)
	return code, out.String(), errb.String()
}

// TestHelpAndVersion: gpurt -h, --help and help print the command list and
// exit 0; every subcommand's -h prints its usage, with its flags and an
// example, and exits 0.
func TestHelpAndVersion(t *testing.T) {
	for _, args := range [][]string{{"-h"}, {"--help"}, {"help"}, {"version"}, {"--version"}} {
		if code, _, _ := runCLI(t, args...); code != 0 {
			t.Errorf("gpurt %v: exit %d, want 0", args, code)
		}
	}
	if code, _, _ := runCLI(t); code != 2 {
		t.Errorf("gpurt with no command: exit %d, want 2", code)
	}
	if code, _, _ := runCLI(t, "frobnicate"); code != 2 {
		t.Errorf("unknown command: exit %d, want 2", code)
	}
	for _, name := range []string{"run", "devices", "bench", "test-ops", "version"} {
		code, out, _ := runCLI(t, name, "-h")
		if code != 0 || !strings.Contains(out, "usage: gpurt "+name) || !strings.Contains(out, "examples:") {
			t.Errorf("gpurt %s -h: exit %d, usage:\n%s", name, code, out)
		}
		if code, out2, _ := runCLI(t, "help", name); code != 0 || out2 != out {
			t.Errorf("gpurt help %s: exit %d, want the -h usage", name, code)
		}
	}
	_, out, _ := runCLI(t, "run", "--help")
	for _, flag := range []string{"-m, --model", "-d, --device", "-t, --threads", "-c, --ctx-size", "-ngl, --gpu-layers", "-f, --file", "-p, --prompt", "--no-bos"} {
		if !strings.Contains(out, flag) {
			t.Errorf("gpurt run usage lacks %s:\n%s", flag, out)
		}
	}
}

// TestUsageErrors: bad flags, bad values and extra arguments exit 2 with a
// "gpurt SUBCOMMAND:" message, before any model loads.
func TestUsageErrors(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo.gguf")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		msg  string
	}{
		{[]string{"devices", "extra", "args"}, `gpurt devices: unexpected argument "extra"`},
		{[]string{"run", "extra"}, `gpurt run: unexpected argument "extra"`},
		{[]string{"run", "--no-such-flag"}, "gpurt run: flag provided but not defined"},
		{[]string{"run", "--threads", "-3"}, "gpurt run: -t/--threads -3"},
		{[]string{"run", "--gpu-layers", "-999"}, "gpurt run: -ngl/--gpu-layers -999"},
		{[]string{"run", "--temp", "-1"}, "gpurt run: --temp -1"},
		{[]string{"run", "--temp", "Inf"}, "gpurt run: --temp +Inf"},
		{[]string{"run", "--top-p", "1.5"}, "gpurt run: --top-p 1.5"},
		{[]string{"run", "-n", "-2"}, "gpurt run: -n -2"},
		{[]string{"run", "-c", "-5"}, "gpurt run: -c/--ctx-size -5"},
		{[]string{"run", "--kv", "q4_0"}, "gpurt run: --kv q4_0"},
		{[]string{"run", "-d", "nosuch"}, "gpurt run: -d/--device nosuch"},
		{[]string{"run", "-p", "x", "-f", "y"}, "gpurt run: give the prompt with -p or -f"},
		{[]string{"run", "-m", fifo}, "not a regular file"},
		{[]string{"run", "-m", "/no/such/model.gguf"}, "gpurt run: -m:"},
		{[]string{"bench", "extra"}, `gpurt bench: unexpected argument "extra"`},
		{[]string{"bench", "-m", fifo}, "not a regular file"},
		{[]string{"test-ops", "extra"}, `gpurt test-ops: unexpected argument "extra"`},
		{[]string{"version", "extra"}, `gpurt version: unexpected argument`},
		{[]string{"help", "frob"}, `gpurt help: unknown command "frob"`},
	}
	for _, tc := range cases {
		code, _, errOut := runCLI(t, tc.args...)
		if code != 2 || !strings.Contains(errOut, tc.msg) {
			t.Errorf("gpurt %v: exit %d, stderr %q; want 2 and %q", tc.args, code, errOut, tc.msg)
		}
	}
}

// TestQuantizeRefusesItsInput: the output may not be the input, by the
// same path, a symlink or a hard link; the input stays intact.
func TestQuantizeRefusesItsInput(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.gguf")
	src, err := os.ReadFile(storiesPathOrSkip(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(in, src, 0o644); err != nil {
		t.Fatal(err)
	}
	link, hard := filepath.Join(dir, "link.gguf"), filepath.Join(dir, "hard.gguf")
	if err := os.Symlink(in, link); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(in, hard); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{in, link, hard, filepath.Join(dir, ".", "in.gguf")} {
		if code := runQuantize([]string{in, out, "q8_0"}); code == 0 {
			t.Errorf("quantize %s onto %s succeeded", in, out)
		}
		if got, _ := os.ReadFile(in); !bytes.Equal(got, src) {
			t.Fatalf("the input changed after quantizing onto %s", out)
		}
	}
	out := filepath.Join(dir, "out.gguf")
	if code := runQuantize([]string{in, out, "q8_0"}); code != 0 {
		t.Fatalf("quantize to a new file: exit %d", code)
	}
}

func storiesPathOrSkip(t *testing.T) string {
	if _, err := os.Stat(storiesPath); err != nil {
		t.Skipf("%s is absent: %v", storiesPath, err)
	}
	return storiesPath
}

// TestRunContextLimit: -c 32 with -n 300 stops at the context and says so
// on stderr; load and warm-up time have their own line.
func TestRunContextLimit(t *testing.T) {
	model := storiesPathOrSkip(t)
	code, _, errOut := runCLI(t, "run", "-m", model, "-d", "cpu", "-c", "32", "-n", "300", "--temp", "0")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "gpurt run: stopped after 32 of 300 tokens: the context of 32 tokens is full") {
		t.Errorf("no context-limit message:\n%s", errOut)
	}
	code, _, errOut = runCLI(t, "run", "-m", model, "-d", "cpu", "-n", "4")
	if code != 0 || strings.Contains(errOut, "context of") {
		t.Errorf("exit %d; a short run mentions the context limit:\n%s", code, errOut)
	}
}
