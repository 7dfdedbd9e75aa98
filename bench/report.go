package bench

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"text/tabwriter"
	"time"
)

// Env describes where a run was measured, for the Markdown report.
type Env struct {
	CPU       string
	Threads   int
	OS, Arch  string
	GoVersion string
	Date      time.Time
	Mode      string // "quick" or "full"
}

// HostEnv describes this machine.
func HostEnv(quick bool) Env {
	mode := "full"
	if quick {
		mode = "quick"
	}
	return Env{CPU: cpuModel(), Threads: runtime.GOMAXPROCS(0), OS: runtime.GOOS, Arch: runtime.GOARCH,
		GoVersion: runtime.Version(), Date: time.Now(), Mode: mode}
}

// cpuModel reads the CPU's name on Linux, or gives the architecture.
func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return runtime.GOARCH
}

func (e Env) String() string {
	return fmt.Sprintf("%s, %d threads, %s/%s, %s, %s, %s suite",
		e.CPU, e.Threads, e.OS, e.Arch, e.GoVersion, e.Date.Format("2006-01-02"), e.Mode)
}

// WriteJSON writes recs as one indented JSON array.
func WriteJSON(w io.Writer, recs []Record) error {
	if recs == nil {
		recs = []Record{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(recs)
}

// columns are the report's columns: a header and a cell formatter.
var columns = []struct {
	head string
	cell func(Record) string
}{
	{"backend", func(r Record) string { return r.Backend }},
	{"device", func(r Record) string { return r.Device }},
	{"op", func(r Record) string { return r.Op }},
	{"type", func(r Record) string { return r.Type }},
	{"shape", shapeCell},
	{"µs", func(r Record) string { return num(r.Us) }},
	{"GFLOPS", func(r Record) string { return num(r.GFLOPS) }},
	{"GB/s", func(r Record) string { return num(r.GBps) }},
	{"tok/s", func(r Record) string { return num(r.TokS) }},
	{"×gonum", func(r Record) string { return times(r.VsGonum) }},
	{"×read", func(r Record) string { return times(r.VsRead) }},
	{"runs", func(r Record) string { return count(r.Runs) }},
	{"status", statusCell},
}

// shapeCell gives M×N×K for matmuls, the model for end-to-end records and
// the output shape without trailing 1s otherwise.
func shapeCell(r Record) string {
	switch {
	case r.Op == "MUL_MAT":
		return mnk(r.M, r.N, r.K)
	case r.Model != "":
		return r.Model
	}
	dims := 4
	for dims > 1 && r.Ne[dims-1] == 1 {
		dims--
	}
	parts := make([]string, dims)
	for i := range parts {
		parts[i] = fmt.Sprint(r.Ne[i])
	}
	return strings.Join(parts, "x")
}

func statusCell(r Record) string {
	if r.Note == "" {
		return string(r.Status)
	}
	if r.Status == StatusOK {
		return r.Note
	}
	return string(r.Status) + ": " + r.Note
}

// num formats a figure with three significant digits or so; 0 is blank.
func num(x float64) string {
	switch {
	case x == 0:
		return ""
	case x >= 100:
		return fmt.Sprintf("%.0f", x)
	case x >= 10:
		return fmt.Sprintf("%.1f", x)
	case x >= 1:
		return fmt.Sprintf("%.2f", x)
	}
	return fmt.Sprintf("%.3f", x)
}

func times(x float64) string {
	if x == 0 {
		return ""
	}
	return num(x) + "×"
}

func count(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprint(n)
}

// WriteTable writes recs as an aligned text table followed by the targets.
func WriteTable(w io.Writer, recs []Record) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for i, c := range columns {
		if i > 0 {
			fmt.Fprint(tw, "\t")
		}
		fmt.Fprint(tw, c.head)
	}
	fmt.Fprintln(tw)
	for _, r := range recs {
		for i, c := range columns {
			if i > 0 {
				fmt.Fprint(tw, "\t")
			}
			fmt.Fprint(tw, c.cell(r))
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if cs := Checks(recs); len(cs) > 0 {
		fmt.Fprintln(w, "\ntargets (issue 8, CPU backend; issue 17, GPU transfers):")
		for _, c := range cs {
			fmt.Fprintf(w, "  %-4s %s: %s (target %s)\n", c.mark(), c.Figure, c.Got, c.Want)
		}
	}
	return nil
}

// WriteMarkdown writes a heading line naming env, the records as a Markdown
// table, and the targets.
func WriteMarkdown(w io.Writer, env Env, recs []Record) error {
	fmt.Fprintf(w, "Measured with `gpurt bench` on %s.\n\n", env)
	row := func(cells []string) {
		for i := range cells {
			cells[i] = strings.ReplaceAll(cells[i], "|", `\|`)
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
	}
	head := make([]string, len(columns))
	for i, c := range columns {
		head[i] = c.head
	}
	row(head)
	fmt.Fprintf(w, "|%s\n", strings.Repeat(" --- |", len(columns)))
	for _, r := range recs {
		cells := make([]string, len(columns))
		for i, c := range columns {
			cells[i] = c.cell(r)
		}
		row(cells)
	}
	if cs := Checks(recs); len(cs) > 0 {
		fmt.Fprint(w, "\n| target (CPU backend; GPU transfers) | measured | wanted | met |\n| --- | --- | --- | --- |\n")
		for _, c := range cs {
			row([]string{c.Figure, c.Got, c.Want, c.mark()})
		}
	}
	_, err := fmt.Fprintln(w)
	return err
}
