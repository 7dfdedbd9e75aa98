package main

import (
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gpurt/gpurt/cpu"
	rt "github.com/gpurt/gpurt/runtime"
	"github.com/gpurt/gpurt/runtime/optest"
)

// docs/ops.md is the output of `gpurt test-ops -mode support` for the
// backends this binary links. The test binary links the same ones (the
// backends.go imports are in this package), so it regenerates every
// section for the devices present on this machine and compares:
//   - the header (the catalogue's case counts) always;
//   - each device's section when the committed file has that device with
//     the same name and type. A committed section for a device this machine
//     lacks (no Vulkan driver, say) cannot be checked here and is logged, as
//     is a device of the same name but another type (a real GPU where the
//     file was made on lavapipe).
//
// A device family present here with no section at all fails: regenerate.
func TestOpsDocUpToDate(t *testing.T) {
	raw, err := os.ReadFile("../../docs/ops.md")
	if err != nil {
		t.Fatalf("%v (create it with `%s`)", err, optest.SupportDocCommand)
	}
	regen := "; regenerate with `" + optest.SupportDocCommand + "`"
	header, sections := optest.SupportDoc(optest.Cases(), supportTargets())
	gotHeader, committed := optest.ParseSupportDoc(string(raw))
	if gotHeader != header {
		t.Errorf("docs/ops.md header (case counts) drifted from the code%s\n%s", regen, firstLineDiff(gotHeader, header))
	}
	byHeading := map[string]optest.Section{}
	for _, s := range committed {
		byHeading[s.Heading] = s
	}
	checked := map[string]bool{}
	for _, s := range sections {
		c, ok := byHeading[s.Heading]
		if !ok {
			if other := sameDevice(committed, s.Heading); other != "" {
				t.Logf("not checked: this machine has %q, docs/ops.md was made with %q", s.Heading, other)
				continue
			}
			t.Errorf("docs/ops.md has no section %q%s", s.Heading, regen)
			continue
		}
		checked[s.Heading] = true
		if c.Body != s.Body {
			t.Errorf("docs/ops.md section %q drifted from the code%s\n%s", s.Heading, regen, firstLineDiff(c.Body, s.Body))
		}
	}
	for _, s := range committed {
		if !checked[s.Heading] {
			t.Logf("not checked: %q has no device on this machine", s.Heading)
		}
	}
	if !checked["## cpu: CPU (CPU)"] {
		t.Error("the CPU section was not checked")
	}
}

// sameDevice finds a committed heading for the same family and device name
// as heading ("## family: name (type)"), but another type.
func sameDevice(committed []optest.Section, heading string) string {
	prefix, _, _ := strings.Cut(heading, " (")
	for _, s := range committed {
		if p, _, _ := strings.Cut(s.Heading, " ("); p == prefix {
			return s.Heading
		}
	}
	return ""
}

func firstLineDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < max(len(g), len(w)); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return "first difference, line " + strconv.Itoa(i+1) + ":\n  committed: " + gl + "\n  code:      " + wl
		}
	}
	return ""
}

var caseLine = regexp.MustCompile(`^  [A-Z_]+\(.*\): (OK|FAIL: .+|not supported)$`)

func TestTestOpsCPU(t *testing.T) {
	var out, errb strings.Builder
	code := testOps([]string{"-b", "cpu", "-o", "rope,ADD", "-sample", "2"}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d, stderr %s\n%s", code, errb.String(), out.String())
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	n := len(optest.Filter{Ops: []rt.Op{rt.OpRope, rt.OpAdd}, Sample: 2}.Select(optest.Cases()))
	if len(lines) != n+3 {
		t.Fatalf("%d lines for %d cases:\n%s", len(lines), n, out.String())
	}
	if !strings.HasPrefix(lines[0], "Testing CPU (1 thread) against CPU (") {
		t.Errorf("first line %q", lines[0])
	}
	for _, l := range lines[1 : n+1] {
		if !caseLine.MatchString(l) || !strings.HasSuffix(l, ": OK") {
			t.Errorf("case line %q", l)
		}
	}
	if want := strconv.Itoa(n) + " passed, 0 failed"; lines[len(lines)-1] != want {
		t.Errorf("last line %q, want %q", lines[len(lines)-1], want)
	}
}

// skewBackend is a CPU backend whose SCALE kernel is wrong and which does
// not support TANH.
type skewBackend struct{ *cpu.Backend }
type skewDevice struct{ rt.Device }

func (skewBackend) Device() rt.Device { return skewDevice{cpu.Device()} }
func (d skewDevice) SupportsOp(t *rt.Tensor) bool {
	return t.Op != rt.OpTanh && d.Device.SupportsOp(t)
}

func (b skewBackend) GraphCompute(g *rt.Graph) error {
	if err := b.Backend.GraphCompute(g); err != nil {
		return err
	}
	for _, n := range g.Nodes {
		if n.Op == rt.OpScale {
			v, err := rt.TensorGetF32(n)
			if err != nil {
				return err
			}
			for i := range v {
				v[i] = v[i]*1.5 + float32(math.Copysign(0.1, float64(v[i])))
			}
			if err := rt.TensorSetF32(n, v); err != nil {
				return err
			}
		}
	}
	return nil
}

func TestTestOpsReportsFailures(t *testing.T) {
	b, _ := cpu.NewBackend(1)
	ref, _ := cpu.NewBackend(2)
	cases := optest.Filter{Ops: []rt.Op{rt.OpScale, rt.OpTanh, rt.OpNeg}, Name: regexp.MustCompile(`type=f32,ne=\[17,3,1,1\]`)}.Select(optest.Cases())
	var out strings.Builder
	code := runTargets(&out, []testTarget{{"skewed", skewBackend{b}, ref}}, cases, 0, false)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	text := out.String()
	for _, want := range []string{
		"  SCALE(type=f32,ne=[17,3,1,1],s=0.5,b=0): FAIL: NMSE",
		"  TANH(type=f32,ne=[17,3,1,1]): not supported\n",
		"  NEG(type=f32,ne=[17,3,1,1]): OK\n",
		"\n1 passed, 1 failed, 1 skipped\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
	if !strings.HasSuffix(text, "1 passed, 1 failed, 1 skipped\n") {
		t.Errorf("output does not end with the summary:\n%s", text)
	}
}

func TestTestOpsUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want int
		msg  string
	}{
		{[]string{"-b", "nosuch"}, 2, `no device or backend family "nosuch"`},
		{[]string{"-o", "FROB"}, 2, `unknown op "FROB"`},
		{[]string{"-p", "("}, 2, "-p:"},
		{[]string{"-mode", "x"}, 2, `unknown mode "x"`},
		{[]string{"-p", "NOTHING_MATCHES"}, 2, "no case matches"},
		{[]string{"extra"}, 2, `gpurt test-ops: unexpected argument "extra"`},
	} {
		var out, errb strings.Builder
		if code := testOps(tc.args, &out, &errb); code != tc.want || !strings.Contains(errb.String(), tc.msg) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, code, errb.String(), tc.want, tc.msg)
		}
	}
}

func TestTestOpsListAndSupport(t *testing.T) {
	var out, errb strings.Builder
	if code := testOps([]string{"-mode", "list", "-o", "MUL_MAT", "-p", "type_a=q4_0,m=16,n=1,"}, &out, &errb); code != 0 {
		t.Fatalf("list: exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "MUL_MAT(type_a=q4_0,m=16,n=1,k=256,bs=[1,1],nr=[1,1])\n") {
		t.Errorf("list output:\n%s", out.String())
	}
	out.Reset()
	if code := testOps([]string{"-mode", "support", "-b", "cpu"}, &out, &errb); code != 0 {
		t.Fatalf("support: exit %d: %s", code, errb.String())
	}
	if !strings.HasPrefix(out.String(), "# Op support\n") || !strings.Contains(out.String(), "\n## cpu: CPU (CPU)\n") {
		t.Errorf("support output:\n%s", out.String())
	}
}
