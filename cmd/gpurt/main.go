// Command gpurt lists devices, runs models, tests ops and benchmarks backends.
package main

import (
	"fmt"
	"os"
	"sort"

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

func usage() {
	fmt.Fprintln(os.Stderr, "usage: gpurt <command> [flags]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(os.Stderr, "  %-10s %s\n", n, commands[n].summary)
	}
}

func main() {
	if len(os.Args) < 2 {
		usage()
		os.Exit(2)
	}
	cmd, ok := commands[os.Args[1]]
	if !ok {
		fmt.Fprintf(os.Stderr, "gpurt: unknown command %q\n", os.Args[1])
		usage()
		os.Exit(2)
	}
	code := cmd.run(os.Args[2:])
	// Hand the GPU drivers back everything: a command that leaves a buffer
	// or backend open is a bug in gpurt, reported as a failure.
	if err := rt.Release(); err != nil {
		fmt.Fprintf(os.Stderr, "gpurt: %v\n", err)
		if code == 0 {
			code = 1
		}
	}
	os.Exit(code)
}
