package main

// The command-line contract every gpurt subcommand follows, in one place.
//
//   - Flags have a short and a long name where users expect both
//     (-m/--model); either is given with one or two dashes, as Go's flag
//     package allows. The common names: -m/--model, -d/--device,
//     -t/--threads, -c/--ctx-size, -ngl/--gpu-layers, -f/--file,
//     -p/--prompt.
//   - -h and --help print the usage (synopsis, every flag with its
//     aliases, examples) to standard output and exit 0.
//   - Exit codes: 0 success, 1 runtime error, 2 usage error (a bad flag, a
//     bad value, a missing or extra positional argument).
//   - Every message starts with "gpurt SUBCOMMAND:".
//   - Values are validated before anything slow (a model load) starts.
//
// Use it in a subcommand's file like this:
//
//	func init() { register("tokenize", "print a model's tokens for a text", runTokenize) }
//
//	func runTokenize(args []string) int {
//		c := newCLI("tokenize", "-m MODEL.gguf -p TEXT", "gpurt tokenize -m model.gguf -p 'Hello'")
//		model := c.String("m,model", "", "model `FILE` (GGUF)")
//		prompt := c.String("p,prompt", "", "the text to tokenize")
//		if code, ok := c.Parse(args); !ok {
//			return code // -h (0) or a usage error (2), already reported
//		}
//		if *model == "" {
//			return c.Usagef("-m/--model is required")
//		}
//		if err := tokenize(*model, *prompt); err != nil {
//			return c.Fail(err) // "gpurt tokenize: ...", exit 1
//		}
//		return 0
//	}
//
// Positional arguments are refused unless c.Positional declares them.

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
)

// cliStdout and cliStderr are where usage and messages go (tests swap them).
var cliStdout, cliStderr io.Writer = os.Stdout, os.Stderr

// Exit codes of every subcommand.
const (
	exitOK    = 0
	exitError = 1
	exitUsage = 2
)

// cli parses one subcommand's arguments.
type cli struct {
	name     string // the subcommand
	synopsis string // what follows "gpurt NAME" in the usage line
	examples []string
	fs       *flag.FlagSet
	opts     []*option
	// minArgs, maxArgs bound the positional arguments (0, 0 by default).
	minArgs, maxArgs int
	argsName         string

	stdout, stderr io.Writer
}

// option is one flag with all its names.
type option struct {
	names  []string // as given: "m", "model"
	usage  string
	def    string
	isBool bool
}

// newCLI starts the flags of subcommand name.
func newCLI(name, synopsis string, examples ...string) *cli {
	c := &cli{name: name, synopsis: synopsis, examples: examples, stdout: cliStdout, stderr: cliStderr}
	c.fs = flag.NewFlagSet(name, flag.ContinueOnError)
	c.fs.SetOutput(io.Discard) // errors are reported with the prefix, below
	return c
}

// setOutput redirects usage (stdout) and messages (stderr), for tests.
func (c *cli) setOutput(stdout, stderr io.Writer) { c.stdout, c.stderr = stdout, stderr }

// Positional declares between min and max positional arguments (max < 0:
// any number), shown in the usage as name.
func (c *cli) Positional(min, max int, name string) {
	c.minArgs, c.maxArgs, c.argsName = min, max, name
}

func (c *cli) add(names, usage, def string, isBool bool, bind func(name string)) {
	o := &option{names: strings.Split(names, ","), usage: usage, def: def, isBool: isBool}
	for _, n := range o.names {
		bind(n)
	}
	c.opts = append(c.opts, o)
}

// String defines a string flag under every comma-separated name.
func (c *cli) String(names, def, usage string) *string {
	p := new(string)
	c.add(names, usage, quoteDefault(def), false, func(n string) { c.fs.StringVar(p, n, def, usage) })
	return p
}

// Int defines an int flag under every comma-separated name.
func (c *cli) Int(names string, def int, usage string) *int {
	p := new(int)
	c.add(names, usage, fmt.Sprint(def), false, func(n string) { c.fs.IntVar(p, n, def, usage) })
	return p
}

// Int64 defines an int64 flag under every comma-separated name.
func (c *cli) Int64(names string, def int64, usage string) *int64 {
	p := new(int64)
	c.add(names, usage, fmt.Sprint(def), false, func(n string) { c.fs.Int64Var(p, n, def, usage) })
	return p
}

// Uint64 defines a uint64 flag under every comma-separated name.
func (c *cli) Uint64(names string, def uint64, usage string) *uint64 {
	p := new(uint64)
	c.add(names, usage, fmt.Sprint(def), false, func(n string) { c.fs.Uint64Var(p, n, def, usage) })
	return p
}

// Float64 defines a float64 flag under every comma-separated name.
func (c *cli) Float64(names string, def float64, usage string) *float64 {
	p := new(float64)
	c.add(names, usage, fmt.Sprint(def), false, func(n string) { c.fs.Float64Var(p, n, def, usage) })
	return p
}

// Bool defines a bool flag under every comma-separated name.
func (c *cli) Bool(names string, def bool, usage string) *bool {
	p := new(bool)
	d := ""
	if def {
		d = "true"
	}
	c.add(names, usage, d, true, func(n string) { c.fs.BoolVar(p, n, def, usage) })
	return p
}

func quoteDefault(s string) string {
	if s == "" {
		return ""
	}
	return fmt.Sprintf("%q", s)
}

// Parse parses args. ok is false when the caller must return code at once:
// 0 after -h/--help (the usage was printed), 2 after a usage error (it was
// reported).
func (c *cli) Parse(args []string) (code int, ok bool) {
	if err := c.fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			c.printUsage(c.stdout)
			return exitOK, false
		}
		return c.Usagef("%v", err), false
	}
	n := c.fs.NArg()
	if n < c.minArgs {
		return c.Usagef("missing argument: want %s", c.argsName), false
	}
	if c.maxArgs >= 0 && n > c.maxArgs {
		return c.Usagef("unexpected argument %q", c.fs.Arg(c.maxArgs)), false
	}
	return exitOK, true
}

// Args are the positional arguments.
func (c *cli) Args() []string { return c.fs.Args() }

// Set reports whether any of the flag's names was given.
func (c *cli) Set(names string) bool {
	set := false
	c.fs.Visit(func(f *flag.Flag) {
		for _, n := range strings.Split(names, ",") {
			if f.Name == n {
				set = true
			}
		}
	})
	return set
}

// Usagef reports a usage error and returns exit code 2.
func (c *cli) Usagef(format string, args ...any) int {
	fmt.Fprintf(c.stderr, "gpurt %s: %s\n", c.name, fmt.Sprintf(format, args...))
	fmt.Fprintf(c.stderr, "run 'gpurt %s -h' for usage\n", c.name)
	return exitUsage
}

// Fail reports a runtime error and returns exit code 1.
func (c *cli) Fail(err error) int {
	fmt.Fprintf(c.stderr, "gpurt %s: %v\n", c.name, err)
	return exitError
}

// Infof prints a status line to stderr with the subcommand's prefix.
func (c *cli) Infof(format string, args ...any) {
	fmt.Fprintf(c.stderr, "gpurt %s: %s\n", c.name, fmt.Sprintf(format, args...))
}

func (c *cli) printUsage(w io.Writer) {
	fmt.Fprintf(w, "usage: gpurt %s %s\n", c.name, c.synopsis)
	if len(c.opts) > 0 {
		fmt.Fprintln(w, "\nflags:")
	}
	for _, o := range c.opts {
		var names []string
		for _, n := range o.names {
			dash := "-"
			if len(n) > 1 && !isShortAlias(n) {
				dash = "--"
			}
			names = append(names, dash+n)
		}
		arg := ""
		if !o.isBool {
			arg, _ = flag.UnquoteUsage(c.fs.Lookup(o.names[0]))
			if arg == "" {
				arg = "value"
			}
			arg = " " + arg
		}
		_, usage := flag.UnquoteUsage(c.fs.Lookup(o.names[0]))
		line := fmt.Sprintf("  %s%s", strings.Join(names, ", "), arg)
		if o.def != "" && o.def != "0" {
			usage += fmt.Sprintf(" (default %s)", o.def)
		}
		fmt.Fprintf(w, "%-32s %s\n", line, usage)
	}
	if len(c.examples) > 0 {
		fmt.Fprintln(w, "\nexamples:")
		for _, e := range c.examples {
			fmt.Fprintf(w, "  %s\n", e)
		}
	}
}

// isShortAlias: llama.cpp's multi-letter short flags, written with one dash.
func isShortAlias(n string) bool { return n == "ngl" || n == "np" || n == "ts" }

// Value checks shared by the subcommands; each returns a message for
// Usagef, or "".

func checkNonNegative(flagName string, v int) string {
	if v < 0 {
		return fmt.Sprintf("%s %d: must not be negative", flagName, v)
	}
	return ""
}

func checkFinite(flagName string, v, lo, hi float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < lo || v > hi {
		return fmt.Sprintf("%s %v: must be a number in [%g, %g]", flagName, v, lo, hi)
	}
	return ""
}

// isHelpFlag reports whether arg asks for help, for subcommands that parse
// their arguments by hand.
func isHelpFlag(arg string) bool {
	switch arg {
	case "-h", "-help", "--help":
		return true
	}
	return false
}
