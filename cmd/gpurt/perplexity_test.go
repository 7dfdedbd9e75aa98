package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

const synthDir = "../../../shared/models/synth"

func needSynth(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(synthDir, "expected.json")); err != nil {
		t.Skipf("synthetic models absent (%v): ../shared/models/synth is not mounted", err)
	}
}

// statLine finds "label value" in llama-perplexity style output.
func statLine(t *testing.T, out, label string) float64 {
	t.Helper()
	m := regexp.MustCompile(regexp.QuoteMeta(label) + `\s*:?\s*(-?[0-9.]+)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no %q line in:\n%s", label, out)
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestPerplexityCLI: gpurt perplexity writes a base file llama.cpp's format
// (same header and tokens as llama.cpp's), and --kl-divergence against
// llama.cpp's base prints llama-perplexity's statistics with its labels.
func TestPerplexityCLI(t *testing.T) {
	needSynth(t)
	base := filepath.Join(t.TempDir(), "llama-f16.kld")
	var out, errOut bytes.Buffer
	p := perplexityFlags{model: filepath.Join(synthDir, "llama-f16.gguf"), file: filepath.Join(synthDir, "dev-text.txt"), nCtx: 128, device: "cpu", base: base, kvType: "f16", gpuLayers: -1}
	if err := p.validate(); err != nil {
		t.Fatal(err)
	}
	if err := p.run(&out, &errOut); err != nil {
		t.Fatal(err)
	}
	if ppl := statLine(t, out.String(), "Final estimate: PPL ="); ppl < 1918.51*0.998 || ppl > 1918.51*1.002 {
		t.Errorf("PPL %.4f is not within 0.2%% of llama.cpp's 1918.51", ppl)
	}
	ours, err := os.ReadFile(base)
	if err != nil {
		t.Fatal(err)
	}
	theirs, err := os.ReadFile(filepath.Join(synthDir, "llama-f16.kld"))
	if err != nil {
		t.Fatal(err)
	}
	if hdr := 20 + 4*16*128; len(ours) != len(theirs) || !bytes.Equal(ours[:hdr], theirs[:hdr]) {
		t.Errorf("base file: %d bytes, header and tokens equal: %v; llama.cpp's has %d bytes", len(ours), bytes.Equal(ours[:min(hdr, len(ours))], theirs[:hdr]), len(theirs))
	}

	out.Reset()
	q := perplexityFlags{model: filepath.Join(synthDir, "llama-q8_0.gguf"), nCtx: 512, device: "cpu", base: filepath.Join(synthDir, "llama-f16.kld"), kld: true, kvType: "f16", gpuLayers: -1}
	if err := q.validate(); err != nil {
		t.Fatal(err)
	}
	if err := q.run(&out, &errOut); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	for _, label := range []string{"Mean PPL(Q)", "Mean PPL(base)", "Maximum KLD:", "Same top p:", "Mean    Δp:", "RMS Δp    :", "Median  KLD:"} {
		statLine(t, s, label)
	}
	// llama.cpp: mean KLD 0.001597, PPL(Q) 1913.41 for this file.
	if kld := statLine(t, s, "Mean    KLD:"); kld > 0.001597*1.15+0.002 || kld < 0.001597*0.85-0.002 {
		t.Errorf("mean KLD %g is not within 15%% (+0.002) of llama.cpp's 0.001597", kld)
	}
	if ppl := statLine(t, s, "Mean PPL(Q)"); ppl < 1913.41*0.99 || ppl > 1913.41*1.01 {
		t.Errorf("PPL(Q) %.4f is not within 1%% of llama.cpp's 1913.41", ppl)
	}
}

// TestPerplexityUsage: help exits 0, bad values and extra arguments exit 2
// before any model loads.
func TestPerplexityUsage(t *testing.T) {
	cases := []struct {
		args []string
		code int
	}{
		{[]string{"-h"}, 0},
		{[]string{"-f", "x.txt", "extra"}, 2},
		{[]string{"-f", "x.txt", "-c", "2"}, 2},
		{[]string{"-f", "x.txt", "-t", "-1"}, 2},
		{[]string{"--kl-divergence"}, 2},
		{[]string{"-f", "/nonexistent/text"}, 2},
		{[]string{"-f", "x.txt", "--kv", "q4_0"}, 2},
		{[]string{"--bogus"}, 2},
		{[]string{"-f", "x.txt", "--chunks", "-3"}, 2},
		{[]string{"-f", "x.txt", "-b", "-5"}, 2},
	}
	defer func(o, e io.Writer) { cliStdout, cliStderr = o, e }(cliStdout, cliStderr)
	for _, c := range cases {
		var out, errOut bytes.Buffer
		cliStdout, cliStderr = &out, &errOut
		if code := runPerplexity(c.args); code != c.code {
			t.Errorf("gpurt perplexity %q exited %d, want %d", c.args, code, c.code)
		}
		if c.code == 2 && !strings.HasPrefix(errOut.String(), "gpurt perplexity: ") {
			t.Errorf("gpurt perplexity %q: message %q lacks the prefix", c.args, errOut.String())
		}
		if c.code == 0 && !strings.Contains(out.String(), "--kl-divergence-base") {
			t.Errorf("-h: usage lacks the flags:\n%s", out.String())
		}
	}
}

// TestKLDBaseReadByLlamaCpp: llama-perplexity --kl-divergence reads the
// base file gpurt writes and finds gpurt's distributions to be its own
// (reference tool; skipped where it is absent).
func TestKLDBaseReadByLlamaCpp(t *testing.T) {
	needSynth(t)
	tool := "../../../shared/tools/llama.cpp/llama-perplexity"
	if _, err := os.Stat(tool); err != nil {
		t.Skipf("llama.cpp's llama-perplexity is absent (%v)", err)
	}
	model := filepath.Join(synthDir, "gemma2-f16.gguf")
	dir := t.TempDir()
	base := filepath.Join(dir, "gemma2.kld")
	// A quarter of the text: 4 chunks, so the tool runs for seconds only.
	text, err := os.ReadFile(filepath.Join(synthDir, "dev-text.txt"))
	if err != nil {
		t.Fatal(err)
	}
	short := filepath.Join(dir, "text.txt")
	if err := os.WriteFile(short, text[:len(text)/4+200], 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	p := perplexityFlags{model: model, file: short, nCtx: 128, device: "cpu", base: base, kvType: "f16", gpuLayers: -1}
	if err := p.run(&out, &errOut); err != nil {
		t.Fatal(err)
	}
	var log string
	// llama.cpp's logger thread can lose what is still queued at exit. With
	// -b equal to -c each chunk is its own pass, so every chunk line but the
	// last is printed while the next pass runs, not in one burst at exit.
	for try := 0; try < 3; try++ {
		cmd := exec.Command(tool, "-m", model, "--kl-divergence-base", base, "--kl-divergence", "-c", "128", "-b", "128", "-t", "2")
		b, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("llama-perplexity: %v\n%s", err, b)
		}
		if log = string(b); strings.Contains(log, "Mean    KLD:") {
			break
		}
	}
	if strings.Contains(log, "Mean    KLD:") {
		if kld := statLine(t, log, "Mean    KLD:"); kld > 1e-4 {
			t.Errorf("llama.cpp finds a mean KLD of %g against gpurt's base", kld)
		}
		return
	}
	// The closing statistics were lost; the per-chunk table printed before
	// them carries the running mean KLD.
	kld, ok := lastChunkKLD(log)
	if !ok {
		t.Fatalf("llama-perplexity printed neither its statistics nor a chunk line:\n%s", log)
	}
	if kld > 1e-4 {
		t.Errorf("llama.cpp finds a running mean KLD of %g against gpurt's base", kld)
	}
}

// lastChunkKLD reads the running mean KLD from the last row of
// llama-perplexity's --kl-divergence chunk table ("chunk PPL ± e ln-ratio
// ± e KLD ± e …").
func lastChunkKLD(log string) (float64, bool) {
	kld, ok := 0.0, false
	for _, line := range strings.Split(log, "\n") {
		f := strings.Fields(line)
		if len(f) < 10 || f[2] != "±" || f[8] != "±" {
			continue
		}
		if _, err := strconv.Atoi(f[0]); err != nil {
			continue
		}
		if v, err := strconv.ParseFloat(f[7], 64); err == nil {
			kld, ok = v, true
		}
	}
	return kld, ok
}

func TestLastChunkKLD(t *testing.T) {
	cut := "chunk             PPL               ln(PPL(Q)/PPL(base))          KL Divergence              Δp RMS            Same top p\n" +
		"   1     954.9786 ±   94.0077       0.00017 ±    0.00021       0.00120 ±    0.00001     0.000 ±  0.000 %    100.000 ±  0.000 %\n" +
		"   2     783.0920 ±   42.7860      -0.00005 ±    0.00008       0.00250 ±    0.00002     0.000 ±  0.000 %\n"
	tests := []struct {
		name string
		log  string
		kld  float64
		ok   bool
	}{
		{"cut after the last row", cut, 0.0025, true},
		{"no table", "llama_context: n_ctx = 128\n", 0, false},
	}
	for _, tc := range tests {
		if kld, ok := lastChunkKLD(tc.log); kld != tc.kld || ok != tc.ok {
			t.Errorf("%s: got %g, %v; want %g, %v", tc.name, kld, ok, tc.kld, tc.ok)
		}
	}
}
