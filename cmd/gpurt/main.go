// Command gpurt lists devices, runs models, tests ops and benchmarks backends.
//
// Every subcommand follows one contract (see flags.go): -h/--help prints its
// usage and exits 0, exit code 1 is a runtime error and 2 a usage error, and
// every message starts with "gpurt SUBCOMMAND:".
package main

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sort"

	"github.com/gpurt/gpurt/cpu"
	rt "github.com/gpurt/gpurt/runtime"
)

// command is one `gpurt NAME` subcommand; run returns the exit code.
type command struct {
	summary string
	run     func(args []string) int
}

var commands = map[string]command{}

// register adds a subcommand; each lives in its own file.
func register(name, summary string, run func(args []string) int) {
	commands[name] = command{summary, run}
}

func init() {
	register("help", "print this list, or a command's usage: gpurt help COMMAND", runHelp)
	register("version", "print gpurt's version and build", runVersion)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: gpurt <command> [flags]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-12s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'gpurt COMMAND -h' for a command's flags, e.g. gpurt run -h.")
}

func runHelp(args []string) int {
	switch len(args) {
	case 0:
		usage(cliStdout)
		return exitOK
	case 1:
		cmd, ok := commands[args[0]]
		if !ok || args[0] == "help" {
			if ok {
				usage(cliStdout)
				return exitOK
			}
			fmt.Fprintf(cliStderr, "gpurt help: unknown command %q\n", args[0])
			return exitUsage
		}
		return cmd.run([]string{"-h"})
	}
	fmt.Fprintf(cliStderr, "gpurt help: unexpected argument %q\n", args[1])
	return exitUsage
}

func runVersion(args []string) int {
	c := newCLI("version", "", "gpurt version")
	if code, ok := c.Parse(args); !ok {
		return code
	}
	fmt.Fprintln(cliStdout, versionString())
	return exitOK
}

// versionString is the module version and VCS revision of this build.
func versionString() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "gpurt (unknown build)"
	}
	v := bi.Main.Version
	if v == "" || v == "(devel)" {
		v = "devel"
	}
	s := "gpurt " + v
	var rev, when, dirty string
	for _, kv := range bi.Settings {
		switch kv.Key {
		case "vcs.revision":
			rev = kv.Value
		case "vcs.time":
			when = kv.Value
		case "vcs.modified":
			if kv.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	if rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		s += fmt.Sprintf(" (%s%s %s)", rev, dirty, when)
	}
	return s + " " + bi.GoVersion
}

func main() {
	os.Exit(dispatch(os.Args[1:]))
}

// dispatch runs the subcommand args[0] and returns the exit code.
func dispatch(args []string) int {
	if len(args) == 0 {
		usage(cliStderr)
		return exitUsage
	}
	switch args[0] {
	case "-h", "-help", "--help":
		usage(cliStdout)
		return exitOK
	case "-v", "--version":
		fmt.Fprintln(cliStdout, versionString())
		return exitOK
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(cliStderr, "gpurt: unknown command %q\n", args[0])
		usage(cliStderr)
		return exitUsage
	}
	if err := cpu.CheckLevelEnv(); err != nil {
		fmt.Fprintf(cliStderr, "gpurt %s: warning: %v\n", args[0], err)
	}
	code := cmd.run(args[1:])
	// Hand the GPU drivers back everything: a command that leaves a buffer
	// or backend open is a bug in gpurt, reported as a failure.
	if err := rt.Release(); err != nil {
		fmt.Fprintf(os.Stderr, "gpurt %s: %v\n", args[0], err)
		if code == exitOK {
			code = exitError
		}
	}
	return code
}
