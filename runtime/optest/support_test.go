package optest

import (
	"strconv"
	"strings"
	"testing"

	"github.com/gpurt/gpurt/cpu"
	rt "github.com/gpurt/gpurt/runtime"
)

// partialDevice rejects ADD on non-contiguous first operands.
type partialDevice struct{ faultyDevice }

func (d *partialDevice) SupportsOp(t *rt.Tensor) bool {
	if t.Op == rt.OpAdd && !t.Src[0].IsContiguous() {
		return false
	}
	return d.faultyDevice.SupportsOp(t)
}

// tableLine is a row of the support table with the given cells, the other
// dtypes' cells empty.
func tableLine(row string, cells map[rt.DType]string) string {
	line := "| " + row + " |"
	for _, dt := range rt.DTypes {
		if c, ok := cells[dt]; ok {
			line += " " + c + " |"
		} else {
			line += "  |"
		}
	}
	return line
}

func TestSupportDoc(t *testing.T) {
	cases := Filter{Ops: []rt.Op{rt.OpAdd, rt.OpRope, rt.OpCpy}}.Select(Cases())
	targets := []Target{
		{"cpu", cpu.Device()},
		{"test", &faultyDevice{Device: cpu.Device(), reject: rt.OpRope}},
		{"test", &partialDevice{faultyDevice{Device: cpu.Device()}}},
	}
	var b strings.Builder
	if err := WriteSupportDoc(&b, cases, targets); err != nil {
		t.Fatal(err)
	}
	doc := b.String()
	header, sections := ParseSupportDoc(doc)
	if !strings.HasPrefix(header, "# Op support\n") || !strings.Contains(header, SupportDocCommand) {
		t.Errorf("header:\n%s", header)
	}
	if !strings.Contains(header, "| ROPE | "+strconv.Itoa(len(Filter{Ops: []rt.Op{rt.OpRope}}.Select(cases)))+" |") || !strings.Contains(header, "| MUL_MAT | 0 |") {
		t.Errorf("case counts missing:\n%s", header)
	}
	if len(sections) != 3 || sections[0].Heading != "## cpu: CPU (CPU)" || sections[1].Heading != "## test: Faulty (CPU)" {
		t.Fatalf("sections %+v", sections)
	}
	for _, want := range []struct {
		section int
		line    string
	}{
		{0, tableLine("ROPE", map[rt.DType]string{rt.F32: "✓", rt.F16: "✓"})},
		{0, tableLine("CPY from q8_0", map[rt.DType]string{rt.F32: "✓", rt.F16: "✓", rt.BF16: "✓", rt.Q8_0: "✓", rt.Q4_0: "✓"})},
		{0, tableLine("CPY from q4_K", map[rt.DType]string{rt.F32: "✓", rt.F16: "✓"})},
		{1, tableLine("ROPE", map[rt.DType]string{rt.F32: "✗", rt.F16: "✗"})},
		{1, tableLine("ADD", map[rt.DType]string{rt.F32: "✓", rt.F16: "✓"})},
		{2, tableLine("ADD", map[rt.DType]string{rt.F32: partialAdd(t, cases, rt.F32), rt.F16: partialAdd(t, cases, rt.F16)})},
	} {
		if !strings.Contains(sections[want.section].Body, "\n"+want.line+"\n") {
			t.Errorf("section %d lacks %q:\n%s", want.section, want.line, sections[want.section].Body)
		}
	}
	// Deterministic, and the parse gives back the document.
	var again strings.Builder
	WriteSupportDoc(&again, cases, targets)
	rebuilt := header
	for _, s := range sections {
		rebuilt += s.Heading + "\n" + s.Body
	}
	if again.String() != doc || rebuilt != doc {
		t.Error("support doc is not deterministic or does not parse back")
	}
}

// partialAdd is the cell partialDevice should get for ADD at dtype dt:
// "supported/total", counting the cases with a contiguous first operand.
func partialAdd(t *testing.T, cases []Case, dt rt.DType) string {
	ok, n := 0, 0
	for _, c := range cases {
		if c.Op() != rt.OpAdd || c.Group().DType != dt {
			continue
		}
		n++
		for _, node := range graphOf(t, c).Nodes {
			if node.Op == rt.OpAdd && node.Src[0].IsContiguous() {
				ok++
			}
		}
	}
	if ok == 0 || ok == n {
		t.Fatalf("ADD %v: %d of %d cases have a contiguous first operand; the test needs some of each", dt, ok, n)
	}
	return strconv.Itoa(ok) + "/" + strconv.Itoa(n)
}
