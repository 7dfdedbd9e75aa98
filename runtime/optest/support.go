package optest

import (
	"fmt"
	"io"
	"slices"
	"strings"

	rt "github.com/gpurt/gpurt/runtime"
)

// Target is a device in the support matrix, with its backend family.
type Target struct {
	Family string
	Device rt.Device
}

// Section is one "## " part of the support document.
type Section struct {
	Heading string // the "## …" line
	Body    string // everything after the heading line, up to the next section
}

// SupportDocCommand regenerates docs/ops.md.
const SupportDocCommand = "go run ./cmd/gpurt test-ops -mode support > docs/ops.md"

// WriteSupportDoc writes the op × dtype support matrix of every target as
// Markdown: a header with the catalogue's case counts, then one section per
// target, in the order given. The output depends only on the code and the
// targets' SupportsOp answers.
func WriteSupportDoc(w io.Writer, cases []Case, targets []Target) error {
	header, sections := SupportDoc(cases, targets)
	var b strings.Builder
	b.WriteString(header)
	for _, s := range sections {
		b.WriteString(s.Heading + "\n" + s.Body)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// SupportDoc returns the document's header and its per-target sections.
func SupportDoc(cases []Case, targets []Target) (header string, sections []Section) {
	graphs := buildAll(cases)
	header = supportHeader(cases)
	for _, t := range targets {
		sections = append(sections, Section{Heading: SectionHeading(t), Body: supportTable(cases, graphs, t.Device)})
	}
	return header, sections
}

// SectionHeading names a target by family, device name and device type;
// the type tells a software device (lavapipe) from real hardware of the
// same name, whose support may differ.
func SectionHeading(t Target) string {
	p := t.Device.Props()
	kind := p.Type.String()
	if p.Software {
		kind += ", software"
	}
	return fmt.Sprintf("## %s: %s (%s)", t.Family, t.Device.Name(), kind)
}

// ParseSupportDoc splits a document written by WriteSupportDoc into its
// header (including the case table) and its target sections.
func ParseSupportDoc(doc string) (header string, sections []Section) {
	lines := strings.SplitAfter(doc, "\n")
	var cur *Section
	var hb strings.Builder
	for _, l := range lines {
		if strings.HasPrefix(l, "## ") && strings.Contains(l, ": ") {
			sections = append(sections, Section{Heading: strings.TrimRight(l, "\n")})
			cur = &sections[len(sections)-1]
			continue
		}
		if cur == nil {
			hb.WriteString(l)
		} else {
			cur.Body += l
		}
	}
	return hb.String(), sections
}

// built is a case's graph, or why it could not be built.
type built struct {
	g   *rt.Graph
	err error
}

func buildAll(cases []Case) []built {
	out := make([]built, len(cases))
	for i, c := range cases {
		ctx := rt.NewContext()
		t, err := c.Build(ctx)
		if err == nil {
			out[i].g, err = ctx.BuildGraph(t)
		}
		out[i].err = err
	}
	return out
}

func supportHeader(cases []Case) string {
	var b strings.Builder
	b.WriteString("# Op support\n\n")
	b.WriteString("Generated from the `gpurt test-ops` case catalogue (runtime/optest); do not edit.\n")
	b.WriteString("Regenerate with `" + SupportDocCommand + "`.\n")
	b.WriteString("A test in cmd/gpurt fails when this file drifts from the code.\n\n")
	b.WriteString("Each device section says which ops it runs at which dtype: ✓ it supports every case\n")
	b.WriteString("of that op and dtype, ✗ none of them, k/n some (the rest use layouts or parameters\n")
	b.WriteString("it rejects); an empty cell has no case. The dtype is the weight's for MUL_MAT, the\n")
	b.WriteString("source's for GET_ROWS, the destination's for CPY (rows name the source) and SET_ROWS,\n")
	b.WriteString("and the first operand's elsewhere. Supported is not passed: `gpurt test-ops -b DEVICE`\n")
	b.WriteString("checks every case against the CPU.\n\n")
	fmt.Fprintf(&b, "## Cases\n\n%d cases.\n\n| op | cases |\n| --- | ---: |\n", len(cases))
	counts := map[rt.Op]int{}
	for _, c := range cases {
		counts[c.Op()]++
	}
	for _, op := range rt.AllOps() {
		fmt.Fprintf(&b, "| %v | %d |\n", op, counts[op])
	}
	b.WriteString("\n")
	return b.String()
}

// supportTable is the op × dtype table of one device.
func supportTable(cases []Case, graphs []built, dev rt.Device) string {
	type cell struct{ n, ok int }
	cells := map[Group]*cell{}
	var rows []string
	for i, c := range cases {
		g := c.Group()
		if !slices.Contains(rows, g.Row) {
			rows = append(rows, g.Row)
		}
		ce := cells[g]
		if ce == nil {
			ce = &cell{}
			cells[g] = ce
		}
		ce.n++
		if graphs[i].err == nil && unsupported(dev, graphs[i].g) == nil {
			ce.ok++
		}
	}
	var b strings.Builder
	b.WriteString("\n| op |")
	for _, dt := range rt.DTypes {
		fmt.Fprintf(&b, " %v |", dt)
	}
	b.WriteString("\n| --- |" + strings.Repeat(" :---: |", len(rt.DTypes)) + "\n")
	for _, row := range rows {
		b.WriteString("| " + row + " |")
		for _, dt := range rt.DTypes {
			ce := cells[Group{row, dt}]
			switch {
			case ce == nil:
				b.WriteString("  |")
			case ce.ok == ce.n:
				b.WriteString(" ✓ |")
			case ce.ok == 0:
				b.WriteString(" ✗ |")
			default:
				fmt.Fprintf(&b, " %d/%d |", ce.ok, ce.n)
			}
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
	return b.String()
}
