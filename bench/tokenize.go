package bench

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/gpurt/gpurt/gguf"
	"github.com/gpurt/gpurt/tokenizer"
)

// DefaultTokenizeVocabs are the vocabularies of the TOKENIZE benchmark, from
// the shared test data (relative to the repository root).
var DefaultTokenizeVocabs = []string{
	"../shared/tokenizers/ggml-vocab-llama3.gguf",
	"../shared/tokenizers/ggml-vocab-qwen2.gguf",
	"../shared/tokenizers/ggml-vocab-llama-spm.gguf",
	"../shared/tokenizers/ggml-vocab-gemma3.gguf",
}

// DefaultLlamaCppDir is where the TOKENIZE benchmark looks for llama.cpp's
// llama-tokenize when no directory is given.
const DefaultLlamaCppDir = "../shared/tools/llama.cpp"

// DefaultTokenizeBytes is the size of the TOKENIZE benchmark's text.
const DefaultTokenizeBytes = 1 << 20

// MixedText is a deterministic text of about n bytes mixing English prose,
// source code and Chinese, with words drawn from a long-tailed distribution
// so that a word cache sees the repetition real text has, and no more.
func MixedText(n int) []byte {
	rng := rand.New(rand.NewPCG(1, 2))
	syll := []string{"ka", "ri", "to", "men", "sa", "lo", "ve", "th", "an", "er", "in", "qu", "st", "ou", "ph", "al", "ly", "ing", "ed", "tion"}
	common := strings.Fields("the of and to a in is it that was he for on are as with his they at be this from I have or by one had not but what all were when we there can an your which their said if do will each about how up out them then she many some so these would other into has more her two like him see time could no make than first been its who now people my made over did down only way find use may water long little very after words called just where most know")
	word := func() string {
		if rng.IntN(3) > 0 {
			return common[int(float64(len(common))*rng.Float64()*rng.Float64())]
		}
		var b strings.Builder
		for k := 1 + rng.IntN(4); k > 0; k-- {
			b.WriteString(syll[rng.IntN(len(syll))])
		}
		return b.String()
	}
	var b bytes.Buffer
	for b.Len() < n {
		switch rng.IntN(4) {
		case 0, 1: // prose
			for s := 3 + rng.IntN(4); s > 0; s-- {
				w := word()
				b.WriteString(strings.ToUpper(w[:1]) + w[1:])
				for k := 5 + rng.IntN(12); k > 0; k-- {
					b.WriteByte(' ')
					b.WriteString(word())
					if rng.IntN(9) == 0 {
						b.WriteString([]string{",", ";", " (" + word() + ")", "'s", " 1987", " 42%"}[rng.IntN(6)])
					}
				}
				b.WriteString([]string{". ", "? ", "! ", ".\n"}[rng.IntN(4)])
			}
			b.WriteString("\n\n")
		case 2: // code
			w2 := word()
			name := word() + strings.ToUpper(w2[:1]) + w2[1:]
			fmt.Fprintf(&b, "func %s(%s []int, n int) (int, error) {\n", name, word())
			for k := 2 + rng.IntN(5); k > 0; k-- {
				fmt.Fprintf(&b, "\tif %s := %s[%d] + n*%d; %s > 0x%x {\n\t\treturn %s, nil // %s %s\n\t}\n",
					word(), word(), rng.IntN(64), rng.IntN(1000), word(), rng.IntN(1<<16), word(), word(), word())
			}
			b.WriteString("\treturn 0, errors.New(\"" + word() + " " + word() + "\")\n}\n\n")
		case 3: // Chinese
			for k := 20 + rng.IntN(60); k > 0; k-- {
				// The 3,500 most common characters sit around U+4E00-U+9FA5;
				// a skewed draw from a 3,000-character window keeps them common.
				b.WriteRune(rune(0x4E00 + int(3000*rng.Float64()*rng.Float64())))
				if rng.IntN(12) == 0 {
					b.WriteString([]string{"，", "。", "、", "：", "（" + word() + "）"}[rng.IntN(5)])
				}
			}
			b.WriteString("。\n\n")
		}
	}
	return b.Bytes()[:n:n]
}

// tokenizeBench measures gpurt's tokenizer, and llama.cpp's llama-tokenize
// when it is found, on the same text and vocabulary.
func (r *runner) tokenizeBench() {
	vocabs := r.opts.TokenizeVocabs
	if vocabs == nil {
		vocabs = DefaultTokenizeVocabs
	}
	text := MixedText(orDefault(r.opts.TokenizeBytes, DefaultTokenizeBytes))
	tool := filepath.Join(r.opts.LlamaCppDir, "llama-tokenize")
	if r.opts.LlamaCppDir == "" {
		tool = filepath.Join(DefaultLlamaCppDir, "llama-tokenize")
	}
	for _, path := range vocabs {
		name := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(path), "ggml-vocab-"), ".gguf")
		base := Record{Backend: "cpu", Op: "TOKENIZE", Type: name, Model: fmt.Sprintf("%.2f MB mixed", float64(len(text))/1e6), N: len(text)}
		ours, err := r.tokenizeGpurt(path, text)
		if err != nil {
			rec := base
			if errors.Is(err, os.ErrNotExist) {
				rec.Status, rec.Note = StatusSkipped, err.Error()
				r.add(rec)
			} else {
				r.fail(rec, err)
			}
			continue
		}
		theirs := base
		theirs.Backend = "llama.cpp"
		if _, err := os.Stat(tool); err != nil {
			theirs.Status, theirs.Note = StatusSkipped, "llama-tokenize not found (--vs-llama.cpp DIR): "+err.Error()
		} else if s, err := r.tokenizeLlamaCpp(tool, path, text); err != nil {
			r.fail(theirs, err)
			theirs.Status = ""
		} else {
			theirs = tokenizeRecord(theirs, s, 0, "llama-tokenize, CPU time less its start-up and vocab load")
			theirs.Runs = max(3, r.policy.MinRuns)
		}
		note := ""
		if theirs.OK() {
			note = fmt.Sprintf("%.2f× llama-tokenize", ours.seconds(theirs))
		}
		rec := tokenizeRecord(base, ours.secs, ours.tokens, note)
		rec.Runs = ours.runs
		r.add(rec)
		if theirs.Status != "" {
			r.add(theirs)
		}
	}
}

type tokenizeTime struct {
	secs   float64
	tokens int
	runs   int
}

func (t tokenizeTime) seconds(other Record) float64 { return other.Us / 1e6 / t.secs }

func tokenizeRecord(rec Record, secs float64, tokens int, note string) Record {
	rec.Status = StatusOK
	rec.Us = secs * 1e6
	if tokens > 0 {
		rec.TokS = float64(tokens) / secs
	}
	mb := fmt.Sprintf("%.1f MB/s of CPU time", float64(rec.N)/secs/1e6)
	rec.Note = strings.TrimSuffix(mb+", "+note, ", ")
	return rec
}

func (r *runner) tokenizeGpurt(path string, text []byte) (tokenizeTime, error) {
	f, err := gguf.Open(path)
	if err != nil {
		return tokenizeTime{}, err
	}
	defer f.Close()
	tok, err := tokenizer.Open(f)
	if err != nil {
		return tokenizeTime{}, err
	}
	s := string(text)
	var n int
	best, runs := time.Duration(0), max(3, r.policy.MinRuns)
	for range runs {
		// An empty word cache each run: the text's own repetition is all
		// the cache may use.
		tok.ResetCache()
		runtime.GC()
		cpu0, okCPU := processCPUTime()
		wall := time.Now()
		ids, err := tok.Encode(s, tokenizer.EncodeOptions{AddSpecial: true, ParseSpecial: true})
		if err != nil {
			return tokenizeTime{}, err
		}
		d := time.Since(wall)
		if cpu1, ok := processCPUTime(); ok && okCPU {
			d = cpu1 - cpu0
		}
		if n = len(ids); best == 0 || d < best {
			best = d
		}
	}
	return tokenizeTime{secs: best.Seconds(), tokens: n, runs: runs}, nil
}

// tokenizeLlamaCpp times llama-tokenize (its CPU time) on the text and on
// one byte, and returns the difference: the tokenizing alone.
func (r *runner) tokenizeLlamaCpp(tool, vocab string, text []byte) (float64, error) {
	dir, err := os.MkdirTemp("", "gpurt-tokenize")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	run := func(data []byte) (time.Duration, error) {
		file := filepath.Join(dir, "text")
		if err := os.WriteFile(file, data, 0o600); err != nil {
			return 0, err
		}
		best := time.Duration(0)
		for range max(3, r.policy.MinRuns) {
			cmd := exec.Command(tool, "-m", vocab, "-f", file, "--ids", "--log-disable", "--no-escape")
			var stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = nil, &stderr
			start := time.Now()
			if err := cmd.Run(); err != nil {
				return 0, fmt.Errorf("llama-tokenize: %w: %s", err, strings.TrimSpace(stderr.String()))
			}
			d := time.Since(start)
			if _, ok := processCPUTime(); ok {
				d = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
			}
			if best == 0 || d < best {
				best = d
			}
		}
		return best, nil
	}
	full, err := run(text)
	if err != nil {
		return 0, err
	}
	empty, err := run([]byte("a"))
	if err != nil {
		return 0, err
	}
	if full <= empty {
		return 0, fmt.Errorf("llama-tokenize: %v for the text is not more than %v for one byte", full, empty)
	}
	return (full - empty).Seconds(), nil
}
