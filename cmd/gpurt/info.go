package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/gpurt/gpurt/gguf"
	"github.com/gpurt/gpurt/llama"
	rt "github.com/gpurt/gpurt/runtime"
)

func init() {
	register("info", "FILE.gguf: dump a GGUF file's metadata and tensors (as gguf-dump)", runInfo)
}

func runInfo(args []string) int { return infoCmd(args, os.Stdout, os.Stderr) }

func infoCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("info", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: gpurt info [--array-items N] [--no-tensors] FILE.gguf")
		fmt.Fprintln(stderr, "\nPrints every metadata key (long arrays summarized), every tensor with its name, type,")
		fmt.Fprintln(stderr, "shape and size, the tensor count and bytes per type, and the parameter count. Files")
		fmt.Fprintln(stderr, "with types gpurt cannot run are listed too.\n\nflags:")
		fs.PrintDefaults()
		fmt.Fprintln(stderr, "\nexample:\n  gpurt info model-q4_k_m.gguf")
	}
	items := fs.Int("array-items", 8, "array elements shown before the rest is summarized")
	noTensors := fs.Bool("no-tensors", false, "leave out the per-tensor list (the summary stays)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() != 1 {
		fmt.Fprintf(stderr, "gpurt info: want one FILE.gguf, got %d arguments\n", fs.NArg())
		fs.Usage()
		return 2
	}
	if *items < 0 {
		fmt.Fprintf(stderr, "gpurt info: --array-items %d is negative\n", *items)
		return 2
	}
	f, err := gguf.Open(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "gpurt info: %v\n", err)
		return 1
	}
	defer f.Close()
	writeInfo(stdout, fs.Arg(0), f, *items, !*noTensors)
	return 0
}

// writeInfo prints f's dump.
func writeInfo(w io.Writer, path string, f *gguf.File, items int, tensors bool) {
	fmt.Fprintf(w, "%s: GGUF v%d, %d metadata keys, %d tensors, alignment %d, data at byte %d of %d\n",
		path, f.Version, len(f.KVs), len(f.Tensors), f.Alignment, f.DataOffset, f.Size())

	fmt.Fprintf(w, "\nmetadata:\n")
	keyWidth := 0
	for _, kv := range f.KVs {
		keyWidth = max(keyWidth, len(kv.Key))
	}
	for i, kv := range f.KVs {
		val := formatValue(kv.Value, items)
		if kv.Key == "general.file_type" {
			if id, ok := kv.Value.Interface().(uint32); ok {
				for _, ft := range llama.FileTypes {
					if ft.ID == id {
						val += " (" + strings.ToUpper(ft.Name) + ")"
					}
				}
			}
		}
		fmt.Fprintf(w, "  %4d  %-*s  %-16s  %s\n", i+1, keyWidth, kv.Key, kv.Value.TypeName(), val)
	}

	type typeSum struct {
		count int
		bytes int64
		known bool
	}
	sums := map[rt.DType]*typeSum{}
	var params, total, knownParams int64
	unrunnable := 0
	nameWidth := 0
	for _, ti := range f.Tensors {
		nameWidth = max(nameWidth, len(ti.Name))
	}
	if tensors {
		fmt.Fprintf(w, "\ntensors:\n")
	}
	for i := range f.Tensors {
		ti := &f.Tensors[i]
		s := sums[ti.Type]
		if s == nil {
			s = &typeSum{known: ti.Size >= 0}
			sums[ti.Type] = s
		}
		s.count++
		if ti.Size >= 0 {
			s.bytes += ti.Size
			total += ti.Size
			knownParams += int64(ti.Nelements())
		}
		params += int64(ti.Nelements())
		note := ""
		if ti.Runnable() != nil {
			unrunnable++
			note = "  (gpurt cannot run this type)"
		}
		if tensors {
			fmt.Fprintf(w, "  %4d  %-*s  %-8v  %-22s  %10s  at %d%s\n", i+1, nameWidth, ti.Name, ti.Type,
				shapeString(ti.Shape()), sizeString(ti.Size), ti.Offset, note)
		}
	}

	fmt.Fprintf(w, "\nsummary:\n  %-8s  %7s  %12s  %6s\n", "type", "tensors", "bytes", "share")
	types := make([]rt.DType, 0, len(sums))
	for t := range sums {
		types = append(types, t)
	}
	sort.Slice(types, func(i, j int) bool { return types[i] < types[j] })
	for _, t := range types {
		s := sums[t]
		share := "?"
		if s.known && total > 0 {
			share = fmt.Sprintf("%.1f%%", 100*float64(s.bytes)/float64(total))
		}
		bytes := "?"
		if s.known {
			bytes = fmt.Sprint(s.bytes)
		}
		fmt.Fprintf(w, "  %-8v  %7d  %12s  %6s\n", t, s.count, bytes, share)
	}
	fmt.Fprintf(w, "  %-8s  %7d  %12d\n", "total", len(f.Tensors), total)
	fmt.Fprintf(w, "\nparameters: %s (%d)", humanCount(params), params)
	if total > 0 && knownParams > 0 {
		fmt.Fprintf(w, ", %.2f bits per weight", 8*float64(total)/float64(knownParams))
	}
	fmt.Fprintln(w)
	if unrunnable > 0 {
		fmt.Fprintf(w, "%d tensors have types gpurt cannot run yet\n", unrunnable)
	}
}

// formatValue prints a metadata value, with at most items array elements.
func formatValue(v gguf.Value, items int) string {
	if v.Type() != gguf.TypeArray {
		return v.String()
	}
	n := v.Len()
	var parts []string
	switch x := v.Interface().(type) {
	case []string:
		for _, s := range x[:min(n, items)] {
			parts = append(parts, fmt.Sprintf("%q", s))
		}
	case []gguf.Value:
		for _, e := range x[:min(n, items)] {
			parts = append(parts, formatValue(e, items))
		}
	default:
		s := v.String() // the value's own brief form, elided at 8
		if n <= 8 || items >= 8 {
			return summarize(s, n, items)
		}
		parts = strings.Split(strings.Trim(s, "[]"), ", ")[:items]
	}
	out := "[" + strings.Join(parts, ", ")
	if n > items {
		out += fmt.Sprintf(", … %d more", n-items)
	}
	return out + "]" + fmt.Sprintf(" (%d)", n)
}

// summarize rewrites gguf's brief array form with the element count.
func summarize(s string, n, items int) string {
	if i := strings.Index(s, ", ... ("); i >= 0 {
		s = s[:i] + fmt.Sprintf(", … %d more]", n-8)
	}
	return s + fmt.Sprintf(" (%d)", n)
}

func shapeString(ne []int) string {
	parts := make([]string, len(ne))
	for i, n := range ne {
		parts[i] = fmt.Sprint(n)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func sizeString(n int64) string {
	switch {
	case n < 0:
		return "?"
	case n >= 1<<20:
		return fmt.Sprintf("%.2f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.2f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

func humanCount(n int64) string {
	switch {
	case n >= 1e9:
		return fmt.Sprintf("%.2f B", float64(n)/1e9)
	case n >= 1e6:
		return fmt.Sprintf("%.2f M", float64(n)/1e6)
	case n >= 1e3:
		return fmt.Sprintf("%.2f K", float64(n)/1e3)
	}
	return fmt.Sprint(n)
}
