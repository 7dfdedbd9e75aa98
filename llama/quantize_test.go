package llama

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gpurt/gpurt/cpu"
	"github.com/gpurt/gpurt/gguf"
	rt "github.com/gpurt/gpurt/runtime"
)

// synthDir holds small models of real architectures in F16 with
// llama.cpp's llama-quantize outputs of them (see its README).
const synthDir = "../../shared/models/synth"

type synthFile struct {
	Model       string            `json:"model"`
	Type        string            `json:"type"`
	TensorTypes map[string]string `json:"tensor_types"`
}

func readSynth(t *testing.T) map[string]synthFile {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(synthDir, "expected.json"))
	if errors.Is(err, os.ErrNotExist) {
		t.Skipf("synthetic models not present at %s; skipping", synthDir)
	}
	if err != nil {
		t.Fatal(err)
	}
	var e struct {
		Files map[string]synthFile `json:"files"`
	}
	if err := json.Unmarshal(raw, &e); err != nil {
		t.Fatal(err)
	}
	return e.Files
}

// TestQuantizeMatchesLlamaCpp quantizes every F16 synthetic model to each
// file type llama.cpp quantized it to, and checks that every tensor gets
// llama.cpp's type and, where it does, llama.cpp's bytes.
func TestQuantizeMatchesLlamaCpp(t *testing.T) {
	files := readSynth(t)
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	n := 0
	bytesChecked := map[string]bool{} // one file per type is quantized in full
	for _, name := range names {
		sf := files[name]
		ft, err := ParseFileType(sf.Type)
		if err != nil || sf.Type == "F16" {
			continue
		}
		base := strings.SplitN(name, "-", 2)[0] + "-f16.gguf"
		full := !bytesChecked[ft.Name]
		bytesChecked[ft.Name] = true
		t.Run(name, func(t *testing.T) {
			src, err := gguf.Open(filepath.Join(synthDir, base))
			if err != nil {
				t.Fatal(err)
			}
			defer src.Close()
			ref, err := gguf.Open(filepath.Join(synthDir, name))
			if err != nil {
				t.Fatal(err)
			}
			defer ref.Close()
			if !full {
				plan, err := PlanQuantize(src, QuantizeOptions{FileType: ft})
				if err != nil {
					t.Fatal(err)
				}
				for i, qt := range plan {
					if want := sf.TensorTypes[qt.Name]; !strings.EqualFold(qt.To.String(), want) {
						t.Errorf("%s: %v, llama.cpp chose %s", qt.Name, qt.To, want)
					}
					if qt.Name != ref.Tensors[i].Name {
						t.Errorf("tensor %d is %s, llama.cpp's %s", i, qt.Name, ref.Tensors[i].Name)
					}
				}
				return
			}
			w, rep, err := Quantize(src, QuantizeOptions{FileType: ft})
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Tensors) != len(sf.TensorTypes) {
				t.Errorf("%d tensors, llama.cpp wrote %d", len(rep.Tensors), len(sf.TensorTypes))
			}
			var buf bytes.Buffer
			if _, err := w.WriteTo(&buf); err != nil {
				t.Fatal(err)
			}
			out, err := gguf.Parse(buf.Bytes())
			if err != nil {
				t.Fatal(err)
			}
			for i, qt := range rep.Tensors {
				want, err := rt.ParseDType(sf.TensorTypes[qt.Name])
				if err != nil {
					t.Fatalf("%s: llama.cpp type %q: %v", qt.Name, sf.TensorTypes[qt.Name], err)
				}
				if qt.To != want {
					t.Errorf("%s: %v, llama.cpp chose %v", qt.Name, qt.To, want)
					continue
				}
				if out.Tensors[i].Name != ref.Tensors[i].Name {
					t.Errorf("tensor %d is %s, llama.cpp's %s", i, out.Tensors[i].Name, ref.Tensors[i].Name)
				}
				got, _ := out.TensorData(qt.Name)
				exp, err := ref.TensorData(qt.Name)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, exp) {
					t.Errorf("%s (%v): bytes differ from llama.cpp's", qt.Name, qt.To)
				}
			}
			if v, err := out.Uint32("general.file_type"); err != nil || v != ft.ID {
				t.Errorf("general.file_type %d, %v; want %d", v, err, ft.ID)
			}
		})
		n++
	}
	if n < 9 {
		t.Errorf("only %d quantized synthetic files checked", n)
	}
}

func TestParseFileType(t *testing.T) {
	tests := []struct {
		in   string
		want string
		ok   bool
	}{
		{"Q4_K_M", "q4_k_m", true}, {"q4_k", "q4_k_m", true}, {"IQ4_XS", "iq4_xs", true},
		{"q3_k_s", "q3_k_s", true}, {"q8_0", "q8_0", true}, {"q7_k", "", false}, {"", "", false},
	}
	for _, tc := range tests {
		ft, err := ParseFileType(tc.in)
		if (err == nil) != tc.ok || ft.Name != tc.want {
			t.Errorf("ParseFileType(%q) = %q, %v", tc.in, ft.Name, err)
		}
		if err != nil && !errors.Is(err, rt.ErrInvalidArgument) {
			t.Errorf("ParseFileType(%q): error %v does not wrap ErrInvalidArgument", tc.in, err)
		}
	}
}

// llamaCppTools holds llama.cpp's prebuilt tools (see its README).
const llamaCppTools = "../../shared/tools/llama.cpp"

// TestLlamaCppRunsGpurtQuantized quantizes a synthetic model with gpurt and
// evaluates it with llama.cpp's llama-perplexity: llama.cpp must load the
// file and compute exactly the perplexity it computes on llama-quantize's
// file of the same type (the tensors are byte-identical, so must be the
// result). (llama-completion's stdout is cut short at random when piped,
// so the check uses the perplexity tool.)
func TestLlamaCppRunsGpurtQuantized(t *testing.T) {
	tool := filepath.Join(llamaCppTools, "llama-perplexity")
	if _, err := os.Stat(tool); err != nil {
		t.Skipf("llama.cpp's llama-perplexity not present at %s; skipping the interoperability check", tool)
	}
	readSynth(t) // skips when the models are absent
	src, err := gguf.Open(filepath.Join(synthDir, "llama-f16.gguf"))
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	ft, _ := ParseFileType("q4_k_m")
	w, _, err := Quantize(src, QuantizeOptions{FileType: ft})
	if err != nil {
		t.Fatal(err)
	}
	ours := filepath.Join(t.TempDir(), "gpurt-q4_k_m.gguf")
	if err := w.WriteFile(ours); err != nil {
		t.Fatal(err)
	}
	// The per-chunk perplexities, "[1]1554.3334,[2]1698.0299,…". The tool's
	// logger thread can lose what is still queued at exit (seen with both
	// files). With -b equal to -c each chunk is its own pass, printed while
	// the next one runs; runs are still retried until one has a chunk, and
	// the chunks both runs printed are compared.
	chunkRE := regexp.MustCompile(`\[(\d+)\]([0-9.]+),`)
	ppl := func(model string) map[string]string {
		var last string
		for attempt := 0; attempt < 3; attempt++ {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			cmd := exec.CommandContext(ctx, tool, "-m", model, "-f", filepath.Join(synthDir, "dev-text.txt"),
				"-c", "128", "-b", "128", "--chunks", "3", "-t", "2")
			out, err := cmd.CombinedOutput()
			cancel()
			if err != nil {
				t.Fatalf("llama-perplexity on %s: %v\n%s", filepath.Base(model), err, lastLines(string(out), 15))
			}
			chunks := map[string]string{}
			for _, m := range chunkRE.FindAllStringSubmatch(string(out), -1) {
				chunks[m[1]] = m[2]
			}
			if len(chunks) > 0 {
				return chunks
			}
			last = string(out)
		}
		t.Fatalf("llama-perplexity on %s printed no perplexity in 3 runs:\n%s", filepath.Base(model), lastLines(last, 15))
		return nil
	}
	got := ppl(ours)
	want := ppl(filepath.Join(synthDir, "llama-q4_k_m.gguf"))
	same := 0
	for chunk, v := range got {
		if w, ok := want[chunk]; ok {
			if v != w {
				t.Errorf("chunk %s: perplexity %s on gpurt's file, %s on llama.cpp's", chunk, v, w)
			}
			same++
		}
	}
	if same == 0 {
		t.Errorf("no chunk in common: %v and %v", got, want)
	}
	t.Logf("llama.cpp on gpurt's q4_k_m file: chunk perplexities %v (llama-quantize's file: %v)", got, want)
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// TestQuantizeOptions checks requantization, --pure, --tensor-type,
// --output-tensor-type and the row-width fallbacks.
func TestQuantizeOptions(t *testing.T) {
	readSynth(t)
	open := func(name string) *gguf.File {
		f, err := gguf.Open(filepath.Join(synthDir, name))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	ftype := func(name string) FileType {
		ft, err := ParseFileType(name)
		if err != nil {
			t.Fatal(err)
		}
		return ft
	}
	q8 := rt.Q8_0
	attnV, _ := ParseTensorTypeRule("attn_v=Q8_0")
	// A 2-D weight of 96 columns (whole 32-blocks, not 256-blocks) and one of 40.
	odd := gguf.NewWriter()
	odd.Set("general.architecture", "llama")
	for _, tc := range []struct {
		name string
		ne   []int
	}{{"blk.0.attn_q.weight", []int{96, 4}}, {"blk.0.attn_k.weight", []int{40, 4}}, {"blk.0.attn_norm.weight", []int{96}}} {
		n := 1
		for _, d := range tc.ne {
			n *= d
		}
		if err := odd.AddTensorF32(tc.name, rt.F32, tc.ne, make([]float32, n)); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	odd.WriteTo(&buf)
	oddFile, err := gguf.Parse(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		f    *gguf.File
		opt  QuantizeOptions
		want map[string]rt.DType
		// requantized and fallback name tensors whose report says so.
		requantized, fallback []string
	}{
		{"requantize q8_0 to q4_0", open("llama-q8_0.gguf"), QuantizeOptions{FileType: ftype("q4_0")},
			map[string]rt.DType{"blk.0.attn_q.weight": rt.Q4_0, "output.weight": rt.Q6_K, "blk.1.ffn_norm.weight": rt.F32},
			[]string{"blk.0.attn_q.weight", "output.weight", "token_embd.weight"}, nil},
		{"pure", open("llama-f16.gguf"), QuantizeOptions{FileType: ftype("q4_k_m"), Pure: true},
			map[string]rt.DType{"output.weight": rt.Q4_K, "blk.0.attn_v.weight": rt.Q4_K, "blk.0.ffn_down.weight": rt.Q4_K}, nil, nil},
		{"tensor type and output type", open("llama-f16.gguf"), QuantizeOptions{FileType: ftype("q4_k_m"), TensorTypes: []TensorTypeRule{attnV}, OutputType: &q8},
			map[string]rt.DType{"output.weight": rt.Q8_0, "blk.1.attn_v.weight": rt.Q8_0, "blk.1.ffn_down.weight": rt.Q6_K, "blk.0.attn_q.weight": rt.Q4_K}, nil, nil},
		{"fallbacks", oddFile, QuantizeOptions{FileType: ftype("q4_k_m")},
			map[string]rt.DType{"blk.0.attn_q.weight": rt.Q5_0, "blk.0.attn_k.weight": rt.F16, "blk.0.attn_norm.weight": rt.F32},
			nil, []string{"blk.0.attn_q.weight", "blk.0.attn_k.weight"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w, rep, err := Quantize(tc.f, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]QuantizedTensor{}
			for _, qt := range rep.Tensors {
				got[qt.Name] = qt
			}
			for name, want := range tc.want {
				if got[name].To != want {
					t.Errorf("%s: %v, want %v", name, got[name].To, want)
				}
			}
			for _, name := range tc.requantized {
				if !got[name].Requantized {
					t.Errorf("%s: not reported as requantized", name)
				}
			}
			for _, name := range tc.fallback {
				if !got[name].Fallback {
					t.Errorf("%s: not reported as a fallback", name)
				}
			}
			if rep.Converted() == 0 {
				t.Error("nothing converted")
			}
			var out bytes.Buffer
			if _, err := w.WriteTo(&out); err != nil {
				t.Fatal(err)
			}
			if _, err := gguf.Parse(out.Bytes()); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestRunsLlamaCppQuantized loads the files llama-quantize wrote of the
// synthetic llama model (every type, K-quant mixes included) on the CPU and
// decodes greedily: the tokens must be llama.cpp's own (expected.json), up
// to the first step where llama.cpp's top two logits are too close to call.
func TestRunsLlamaCppQuantized(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(synthDir, "expected.json"))
	if errors.Is(err, os.ErrNotExist) {
		t.Skipf("synthetic models not present at %s; skipping", synthDir)
	}
	if err != nil {
		t.Fatal(err)
	}
	var e struct {
		Files map[string]struct {
			ArchSpec string `json:"arch_spec"`
			Type     string `json:"type"`
			Greedy   []struct {
				PromptIDs []int32   `json:"prompt_ids"`
				GenIDs    []int32   `json:"gen_ids"`
				Gaps      []float64 `json:"top1_top2_logit_gaps"`
			} `json:"greedy"`
		} `json:"files"`
	}
	if err := json.Unmarshal(raw, &e); err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, name := range []string{"llama-q4_k_m.gguf", "llama-q3_k_m.gguf", "llama-q4_0.gguf", "llama-q8_0.gguf"} {
		ef, ok := e.Files[name]
		if !ok || len(ef.Greedy) == 0 {
			t.Errorf("%s: no greedy reference in expected.json", name)
			continue
		}
		t.Run(name, func(t *testing.T) {
			f, err := gguf.Open(filepath.Join(synthDir, name))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			b, _ := cpu.NewBackend(0)
			m, err := Load(f, Options{Backends: []rt.Backend{b}})
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			s, _ := NewSampler(SamplerConfig{})
			for _, g := range ef.Greedy {
				// The sequences may part only at a step whose top two logits
				// were within 0.2 for llama.cpp: there, activations rounded to
				// Q8 (llama.cpp's kernels; gpurt's reference path multiplies
				// in float32) may pick either token.
				m.ResetCache()
				got, _, err := m.Generate(g.PromptIDs, len(g.GenIDs), s, nil)
				if err != nil {
					t.Fatal(err)
				}
				n := 0
				for ; n < len(g.GenIDs) && n < len(got) && got[n] == g.GenIDs[n]; n++ {
				}
				if n < len(g.GenIDs) && (n >= len(got) || g.Gaps[n] >= 0.2) {
					t.Errorf("token %d: %v, llama.cpp %d (its top-2 gap %.3f)", n, got[min(n, len(got)-1)], g.GenIDs[n], g.Gaps[n])
				}
				t.Logf("%d of %d tokens equal llama.cpp's", n, len(g.GenIDs))
			}
		})
		checked++
	}
	if checked == 0 {
		t.Error("no file checked")
	}
}

// TestLoadNamesUnrunnableTensor swaps one weight of a synthetic model for
// IQ2_XXS blocks: the file opens, and loading it names tensor and type.
func TestLoadNamesUnrunnableTensor(t *testing.T) {
	readSynth(t)
	src, err := gguf.Open(filepath.Join(synthDir, "llama-q8_0.gguf"))
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	w := gguf.NewWriter()
	for _, kv := range src.KVs {
		w.Set(kv.Key, kv.Value)
	}
	for _, ti := range src.Tensors {
		data, _ := src.TensorData(ti.Name)
		typ := ti.Type
		if ti.Name == "blk.0.attn_q.weight" {
			typ = rt.IQ2_XXS
			data = make([]byte, typ.RowSize(ti.Nelements()))
		}
		if err := w.AddTensor(ti.Name, typ, ti.Shape(), data); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if _, err := w.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	f, err := gguf.Parse(buf.Bytes())
	if err != nil {
		t.Fatalf("a file with an IQ2_XXS tensor does not open: %v", err)
	}
	b, _ := cpu.NewBackend(0)
	defer b.Close()
	m, err := Load(f, Options{Backends: []rt.Backend{b}})
	if err == nil {
		m.Close()
		t.Fatal("loaded a model with an IQ2_XXS weight")
	}
	if !errors.Is(err, rt.ErrUnsupported) || !strings.Contains(err.Error(), "blk.0.attn_q.weight is iq2_xxs, which gpurt cannot run yet") {
		t.Errorf("error %v", err)
	}
}
