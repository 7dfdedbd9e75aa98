package main

import (
	"fmt"
	"io"
	"regexp"
	"runtime"
	"strings"
	"time"

	"github.com/gpurt/gpurt/cpu"
	rt "github.com/gpurt/gpurt/runtime"
	"github.com/gpurt/gpurt/runtime/optest"
)

func init() {
	register("test-ops", "check every op on a backend against the CPU", runTestOps)
}

func runTestOps(args []string) int { return testOps(args, cliStdout, cliStderr) }

func testOps(args []string, stdout, stderr io.Writer) int {
	c := newCLI("test-ops", "[-d DEVICE] [-o OP[,OP…]] [-p REGEXP] [-v] [--mode test|support|list]",
		"gpurt test-ops -d vulkan -o MUL_MAT,ADD", "gpurt test-ops --mode support")
	c.setOutput(stdout, stderr)
	backend := c.String("d,device,b", "", "device name (Vulkan0, CPU) or backend family (vulkan, webgpu, cpu) to test; default: every non-CPU device, or else a second CPU backend with 1 thread (-b is the old name)")
	opList := c.String("o,op", "", "comma-separated ops to test, e.g. MUL_MAT,ADD")
	pattern := c.String("p,pattern", "", "only cases whose name matches this regular expression")
	verbose := c.Bool("v,verbose", false, "print each case's error measure and time, and full errors")
	mode := c.String("mode", "test", "test: check the cases; support: print the op × dtype support matrix as Markdown; list: print the case names")
	sample := c.Int("sample", 0, "run every Nth case of each op (the first always)")
	maxCost := c.Int64("max-cost", 0, "skip cases costing more than this many multiply-adds or element visits (0: no limit)")
	seed := c.Uint64("seed", 0, "seed for the inputs")
	if code, ok := c.Parse(args); !ok {
		return code
	}
	if msg := checkNonNegative("--sample", *sample); msg != "" {
		return c.Usagef("%s", msg)
	}
	if *maxCost < 0 {
		return c.Usagef("--max-cost %d: must not be negative", *maxCost)
	}
	filter := optest.Filter{MaxCost: *maxCost, Sample: *sample}
	if *opList != "" {
		for _, name := range strings.Split(*opList, ",") {
			op, ok := rt.ParseOp(strings.ToUpper(strings.TrimSpace(name)))
			if !ok || op == rt.OpNone {
				fmt.Fprintf(stderr, "gpurt test-ops: unknown op %q\n", name)
				return 2
			}
			filter.Ops = append(filter.Ops, op)
		}
	}
	if *pattern != "" {
		re, err := regexp.Compile(*pattern)
		if err != nil {
			fmt.Fprintf(stderr, "gpurt test-ops: -p: %v\n", err)
			return 2
		}
		filter.Name = re
	}
	cases := filter.Select(optest.Cases())

	switch *mode {
	case "list":
		for _, c := range cases {
			fmt.Fprintln(stdout, c.Name())
		}
		return 0
	case "support":
		targets := supportTargets()
		if *backend != "" {
			devs, err := findDevices(*backend)
			if err != nil {
				fmt.Fprintf(stderr, "gpurt test-ops: %v\n", err)
				return 2
			}
			targets = onlyDevices(targets, devs)
		}
		if err := optest.WriteSupportDoc(stdout, optest.Cases(), targets); err != nil {
			fmt.Fprintf(stderr, "gpurt test-ops: %v\n", err)
			return 1
		}
		return 0
	case "test":
	default:
		fmt.Fprintf(stderr, "gpurt test-ops: unknown mode %q (want test, support or list)\n", *mode)
		return 2
	}

	if len(cases) == 0 {
		fmt.Fprintln(stderr, "gpurt test-ops: no case matches the filter")
		return 2
	}
	targets, err := testTargets(*backend)
	if err != nil {
		fmt.Fprintf(stderr, "gpurt test-ops: %v\n", err)
		return 2
	}
	defer func() {
		for _, t := range targets {
			t.close()
		}
	}()
	return runTargets(stdout, targets, cases, *seed, *verbose)
}

// testTarget is a backend under test and the reference it is checked against.
type testTarget struct {
	label     string
	backend   rt.Backend
	reference rt.Backend
}

func (t testTarget) close() {
	t.backend.Close()
	t.reference.Close()
}

// runTargets prints one line per case and a final "N passed, N failed"
// line; it returns 1 if any case failed.
func runTargets(w io.Writer, targets []testTarget, cases []optest.Case, seed uint64, verbose bool) int {
	var total optest.Summary
	for _, t := range targets {
		fmt.Fprintf(w, "Testing %s on %d cases\n", t.label, len(cases))
		r := &optest.Runner{Ref: t.reference, Seed: seed, Cases: cases}
		sum := r.Run(t.backend, optest.Filter{}, func(res optest.Result) {
			fmt.Fprintf(w, "  %s: %s\n", res.Case, resultText(res, verbose))
		})
		fmt.Fprintf(w, "  %s: %s\n", t.label, sum)
		total.Merge(sum)
	}
	fmt.Fprintln(w, total)
	if total.Failed > 0 {
		return 1
	}
	return 0
}

func resultText(res optest.Result, verbose bool) string {
	switch res.Status {
	case optest.OK:
		if verbose {
			return fmt.Sprintf("OK (nmse %.2g, max %.0e, compute %v)", res.NMSE, res.MaxNMSE, res.Compute.Round(time.Microsecond))
		}
		return "OK"
	case optest.NotSupported:
		if verbose {
			return fmt.Sprintf("not supported (%v)", res.Err)
		}
		return "not supported"
	}
	msg := fmt.Sprint(res.Err)
	if !verbose {
		msg, _, _ = strings.Cut(msg, "\n") // a panic's stack only with -v
	}
	return "FAIL: " + msg
}

// testTargets resolves -b. The CPU is tested as a second, single-threaded
// CPU backend against the default multi-threaded one, so the harness also
// runs where no GPU exists.
func testTargets(spec string) ([]testTarget, error) {
	var devs []rt.Device
	if spec == "" {
		for _, d := range rt.Devices() {
			if d.Props().Type != rt.DeviceCPU {
				devs = append(devs, d)
			}
		}
		if len(devs) == 0 {
			devs = []rt.Device{cpu.Device()}
		}
	} else {
		var err error
		if devs, err = findDevices(spec); err != nil {
			return nil, err
		}
	}
	var out []testTarget
	fail := func(err error) ([]testTarget, error) {
		for _, t := range out {
			t.close()
		}
		return nil, err
	}
	for _, d := range devs {
		// The reference is the CPU's plain loops, which the fast kernels are
		// checked against too.
		ref, err := cpu.NewReferenceBackend(0)
		if err != nil {
			return fail(fmt.Errorf("reference CPU backend: %w", err))
		}
		if d == cpu.Device() {
			threads := max(2, runtime.GOMAXPROCS(0))
			ref.SetThreads(threads)
			b, err := cpu.NewBackend(1)
			if err != nil {
				ref.Close()
				return fail(err)
			}
			out = append(out, testTarget{fmt.Sprintf("CPU (1 thread) against CPU (%d threads, reference kernels)", threads), b, ref})
			continue
		}
		b, err := d.NewBackend()
		if err != nil {
			ref.Close()
			return fail(fmt.Errorf("%s: new backend: %w", d.Name(), err))
		}
		out = append(out, testTarget{fmt.Sprintf("%s (%s) against CPU", d.Name(), d.Props().Description), b, ref})
	}
	return out, nil
}

// findDevices matches a device name first, then a backend family.
func findDevices(spec string) ([]rt.Device, error) {
	if d, err := rt.DeviceByName(spec); err == nil {
		return []rt.Device{d}, nil
	}
	if devs := rt.DevicesOf(spec); len(devs) > 0 {
		return devs, nil
	}
	var names []string
	for _, r := range rt.Regs() {
		names = append(names, r.Name)
		for _, d := range r.Devices {
			names = append(names, d.Name())
		}
	}
	return nil, fmt.Errorf("no device or backend family %q (have %s)", spec, strings.Join(names, ", "))
}

// supportTargets lists every registered device with its family, in
// registration (priority) order: the set of backends this binary links.
func supportTargets() []optest.Target {
	var ts []optest.Target
	for _, r := range rt.Regs() {
		for _, d := range r.Devices {
			ts = append(ts, optest.Target{Family: r.Name, Device: d})
		}
	}
	return ts
}

func onlyDevices(ts []optest.Target, devs []rt.Device) []optest.Target {
	var out []optest.Target
	for _, t := range ts {
		for _, d := range devs {
			if t.Device == d {
				out = append(out, t)
			}
		}
	}
	return out
}
