package bench

import (
	"bytes"
	"encoding/json"
	"image/color"
	"image/png"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

var sampleRecords = []Record{
	{Backend: BackendMemBW, Op: "READ", Type: "f32", Ne: [4]int{1 << 26, 1, 1, 1}, Us: 20000, GBps: 13.4, Runs: 50, VsRead: 1, VsCopy: 0.7, Status: StatusOK, Note: "threads=2"},
	{Backend: BackendGonum, Op: "MUL_MAT", Type: "f32", Ne: [4]int{4096, 512, 1, 1}, M: 4096, N: 512, K: 4096, Us: 4e6, GFLOPS: 4.3, GBps: 0.02, Runs: 3, VsGonum: 1, Status: StatusOK},
	{Backend: "cpu", Device: "CPU", Op: "MUL_MAT", Type: "q4_0", Ne: [4]int{4096, 512, 1, 1}, M: 4096, N: 512, K: 4096, Us: 1e6, GFLOPS: 17.2, GBps: 0.1, Runs: 3, VsGonum: 4, Status: StatusOK},
	{Backend: "cpu", Device: "CPU", Op: "ADD", Type: "f32", Ne: [4]int{4096, 512, 1, 1}, Us: 2000, GBps: 12.6, Runs: 400, VsRead: 0.94, Status: StatusOK},
	{Backend: "vulkan", Device: "llvmpipe | x", Op: "ROPE", Type: "f32", Ne: [4]int{128, 32, 512, 1}, Status: StatusUnsupported, Note: "llvmpipe does not support ROPE"},
	{Backend: "cpu", Device: "CPU", Op: "E2E_GEN", Type: "model", Model: "stories260K", N: 64, Status: StatusSkipped, Note: "no model integration"},
}

func TestJSONShape(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteJSON(&buf, sampleRecords); err != nil {
		t.Fatal(err)
	}
	var got []map[string]any
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatalf("not a JSON array of objects: %v\n%s", err, buf.String())
	}
	if len(got) != len(sampleRecords) {
		t.Fatalf("%d records, want %d", len(got), len(sampleRecords))
	}
	for i, r := range got {
		for _, key := range []string{"backend", "op", "type", "ne", "m", "n", "k", "us", "gflops", "gbps", "vs_gonum", "vs_read", "vs_copy", "status", "runs"} {
			if _, ok := r[key]; !ok {
				t.Errorf("record %d has no %q field", i, key)
			}
		}
		if ne, ok := r["ne"].([]any); !ok || len(ne) != 4 {
			t.Errorf("record %d: ne is %v, want 4 numbers", i, r["ne"])
		}
	}
	if got[2]["backend"] != "cpu" || got[2]["type"] != "q4_0" || got[2]["gflops"] != 17.2 || got[2]["vs_gonum"] != 4.0 || got[2]["gbps"] != 0.1 {
		t.Errorf("record 2 = %v", got[2])
	}
	if got[4]["status"] != "unsupported" || got[4]["us"] != 0.0 {
		t.Errorf("record 4 = %v", got[4])
	}
	// Round trip.
	var back []Record
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil || back[2] != sampleRecords[2] {
		t.Errorf("round trip gave %+v, %v", back[2], err)
	}
	buf.Reset()
	if err := WriteJSON(&buf, nil); err != nil || strings.TrimSpace(buf.String()) != "[]" {
		t.Errorf("no records gave %q, %v; want []", buf.String(), err)
	}
}

func TestMarkdown(t *testing.T) {
	var buf bytes.Buffer
	env := Env{CPU: "Test CPU", Threads: 2, OS: "linux", Arch: "amd64", GoVersion: "go1.26", Date: time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC), Mode: "quick"}
	if err := WriteMarkdown(&buf, env, sampleRecords); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if !strings.Contains(lines[0], "Test CPU, 2 threads, linux/amd64, go1.26, 2026-01-02, quick suite") {
		t.Errorf("heading %q does not say where it was measured", lines[0])
	}
	var table []string
	for _, l := range lines {
		if strings.HasPrefix(l, "|") {
			table = append(table, l)
		}
	}
	if len(table) != 2+len(sampleRecords) {
		t.Fatalf("%d table lines, want header, rule and %d rows:\n%s", len(table), len(sampleRecords), buf.String())
	}
	cells := func(l string) int { return strings.Count(strings.ReplaceAll(l, `\|`, ""), "|") - 1 }
	for _, l := range table {
		if cells(l) != len(columns) {
			t.Errorf("%d cells, want %d: %s", cells(l), len(columns), l)
		}
	}
	if !strings.Contains(table[1], "---") || !strings.Contains(table[0], "GFLOPS") {
		t.Errorf("header %q, rule %q", table[0], table[1])
	}
	if !strings.Contains(table[4], "| 4096x512x4096 |") || !strings.Contains(table[4], "| 17.2 |") || !strings.Contains(table[4], "| 4.00× |") {
		t.Errorf("q4_0 row %q", table[4])
	}
	if !strings.Contains(table[6], `llvmpipe \| x`) || !strings.Contains(table[6], "unsupported: llvmpipe does not support ROPE") {
		t.Errorf("unsupported row %q", table[6])
	}
}

func TestTable(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteTable(&buf, sampleRecords); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 1+len(sampleRecords) {
		t.Fatalf("%d lines, want a header and %d rows:\n%s", len(lines), len(sampleRecords), buf.String())
	}
	// Columns are aligned: "GFLOPS" starts where the q4_0 row's figure does.
	col := utf8.RuneCountInString(lines[0][:max(0, strings.Index(lines[0], "GFLOPS"))])
	if row := []rune(lines[3]); col == 0 || !strings.HasPrefix(string(row[col:]), "17.2") {
		t.Errorf("GFLOPS column not aligned:\n%s\n%s", lines[0], lines[3])
	}
	if !strings.Contains(lines[6], "stories260K") || !strings.Contains(lines[6], "skipped: no model integration") {
		t.Errorf("end-to-end row %q", lines[6])
	}
}

func TestPNG(t *testing.T) {
	var buf bytes.Buffer
	if err := WritePNG(&buf, sampleRecords, "test"); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	// Two charts (one MUL_MAT shape, the memory-bound ops) fit one row.
	if b := img.Bounds(); b.Dx() < 1000 || b.Dy() < 300 || b.Dy() > 500 {
		t.Errorf("image is %v", b)
	}
	groups := chartGroups(sampleRecords)
	if len(groups) != 2 || len(groups[0].series) != 2 || groups[0].vals["cpu"]["q4_0"] != 17.2 || groups[1].vals[BackendMemBW]["READ"] != 13.4 {
		t.Errorf("chart data %+v %+v", groups[0], groups[1])
	}
	if err := WritePNG(&buf, sampleRecords[4:], "nothing"); err == nil {
		t.Error("records without figures gave a plot")
	}
}

// Each backend keeps one colour in every panel, distinct from the others'.
func TestSeriesColors(t *testing.T) {
	seen := map[color.RGBA]string{}
	for _, name := range seriesOrder {
		r, g, b, a := seriesColor(name).RGBA()
		c := color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a >> 8)}
		if other, ok := seen[c]; ok {
			t.Errorf("%s and %s share a colour", name, other)
		}
		seen[c] = name
	}
}
