package tokenizer

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"encoding/json"

	"github.com/gpurt/gpurt/gguf"
	rt "github.com/gpurt/gpurt/runtime"
)

// words splits text with a pre-tokenizer.
func words(t *testing.T, pre, text string) []string {
	t.Helper()
	p, err := lookupPre(pre)
	if err != nil {
		t.Fatal(err)
	}
	var c cpText
	var offs []int
	for i := 0; i < len(text); {
		r, n := decodeRune(text, i)
		c.cp, c.fl, offs = append(c.cp, r), append(c.fl, flagsOf(r)), append(offs, i)
		i += n
	}
	offs = append(offs, len(text))
	var out []string
	start := 0
	for _, end := range p.split(&c, nil, nil) {
		out = append(out, text[offs[start]:offs[end]])
		start = end
	}
	return out
}

func TestPreTokenizerSplits(t *testing.T) {
	for _, c := range []struct {
		pre, text string
		want      []string
	}{
		// \s+(?!\S) leaves the last space to the word after it.
		{"gpt-2", "Hello world  foo's\n\n bar", []string{"Hello", " world", " ", " foo", "'s", "\n\n", " bar"}},
		{"gpt-2", "x  ", []string{"x", "  "}},
		{"mpt", "a1b", []string{"a", "1", "b"}},
		// Llama 3: case-insensitive contractions, up to 3 digits, punctuation takes the newlines after it.
		{"llama-bpe", "I'M 12345 ok!!\n\n", []string{"I", "'M", " ", "123", "45", " ok", "!!\n\n"}},
		{"llama-bpe", "\tx", []string{"\tx"}},
		{"llama-bpe", "a \n\n b", []string{"a", " \n\n", " b"}},
		// Qwen2: single digits, ASCII-only contraction classes.
		{"qwen2", "abc 123 we'RE", []string{"abc", " ", "1", "2", "3", " we", "'RE"}},
		{"deepseek-r1-qwen", "中文abc", []string{"中文abc"}},
		// GPT-4o and Tekken split CamelCase words; GPT-4o keeps contractions.
		{"gpt-4o", "HelloWORLD world's 12345", []string{"Hello", "WORLD", " world's", " ", "123", "45"}},
		{"tekken", "HelloWORLD it's 123", []string{"Hello", "WORLD", " it", "'s", " ", "1", "2", "3"}},
		{"gpt-4o", "a/b\n", []string{"a", "/b", "\n"}},
		// DeepSeek: newlines alone, then letters, punctuation, CJK and digits as separate steps.
		{"deepseek-coder", "ab\ncd 12", []string{"ab", "\n", "cd", " ", "1", "2"}},
		{"deepseek-llm", "Hi  there  ", []string{"Hi", " ", " there", "  "}},
		{"deepseek-llm", "我们 ok", []string{"我们", " ok"}},
		{"deepseek-v3", "12345 ab", []string{"123", "45", " ab"}},
		// default and Falcon: punctuation runs first, then GPT-2, then digit groups.
		{"default", "a+b=3000", []string{"a", "+", "b", "=", "300", "0"}},
		{"falcon", "x`y 12345", []string{"x", "`", "y", " ", "123", "45"}},
		{"starcoder", "x 12", []string{"x", " ", "1", "2"}},
	} {
		if got := words(t, c.pre, c.text); !slices.Equal(got, c.want) {
			t.Errorf("%s %q: %q, want %q", c.pre, c.text, got, c.want)
		}
	}
}

func TestUnknownPreTokenizer(t *testing.T) {
	v := NoSpecial()
	v.Model, v.Pre, v.Tokens = ModelBPE, "no-such-pre", []string{"a"}
	_, err := New(v)
	if err == nil || !strings.Contains(err.Error(), `"no-such-pre"`) || !strings.Contains(err.Error(), "llama-bpe") ||
		!errors.Is(err, rt.ErrUnsupported) {
		t.Errorf("error %v, want one naming the pre and the known ones", err)
	}
}

// toyVocab is a SentencePiece vocab whose scores make the merge order visible.
func toyVocab() Vocab {
	v := NoSpecial()
	v.Tokens = []string{"<unk>", "<s>", "</s>", "<0x41>", "▁", "a", "b", "c", "ab", "bc", "abc", "▁a", "<0x0A>", "cc", "<0xE6>", "<0x97>", "<0xA5>"}
	v.Scores = []float32{0, 0, 0, 0, -10, -10, -10, -10, -1, -2, -3, -5, 0, -1, 0, 0, 0}
	v.Types = []int32{TypeUnknown, TypeControl, TypeControl, TypeByte, 1, 1, 1, 1, 1, 1, 1, 1, TypeByte, 1, TypeByte, TypeByte, TypeByte}
	v.BOS, v.EOS, v.UNK = 1, 2, 0
	return v
}

func texts(tok *Tokenizer, ids []int32) []string {
	var s []string
	for _, id := range ids {
		s = append(s, tok.TokenText(id))
	}
	return s
}

func TestSPMMergeOrder(t *testing.T) {
	tok, err := New(toyVocab())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		text string
		opts EncodeOptions
		want []string
	}{
		// "▁abc": ab (-1) beats bc (-2) and ▁a (-5); then abc (-3).
		{"abc", EncodeOptions{}, []string{"▁", "abc"}},
		{"aa", EncodeOptions{}, []string{"▁a", "a"}},
		{"abab", EncodeOptions{}, []string{"▁", "ab", "ab"}},
		{"ccc", EncodeOptions{}, []string{"▁", "cc", "c"}}, // equal scores: leftmost first
		{"A\n", EncodeOptions{}, []string{"▁", "<0x41>", "<0x0A>"}},
		{"日", EncodeOptions{}, []string{"▁", "<0xE6>", "<0x97>", "<0xA5>"}},
		{"a", EncodeOptions{AddSpecial: true}, []string{"<s>", "▁a"}},
		// A space is prefixed again after a special token.
		{"a<s>a", EncodeOptions{ParseSpecial: true}, []string{"▁a", "<s>", "▁a"}},
		{"", EncodeOptions{AddSpecial: true}, []string{"<s>"}},
	} {
		ids, err := tok.Encode(c.text, c.opts)
		if got := texts(tok, ids); err != nil || !slices.Equal(got, c.want) {
			t.Errorf("Encode(%q, %+v) = %q %v, want %q", c.text, c.opts, got, err, c.want)
		}
	}
	// No byte token for "d": llama.cpp throws; here it is an error naming the byte.
	if _, err := tok.Encode("d", EncodeOptions{}); err == nil || !strings.Contains(err.Error(), "0x64") {
		t.Errorf("Encode(d) error %v", err)
	}
}

func TestSPMOptions(t *testing.T) {
	off, on := false, true
	v := toyVocab()
	v.AddSpacePrefix, v.AddEOS = &off, &on
	tok, err := New(v)
	if err != nil {
		t.Fatal(err)
	}
	ids, _ := tok.Encode("ab", EncodeOptions{AddSpecial: true})
	if got := texts(tok, ids); !slices.Equal(got, []string{"<s>", "ab", "</s>"}) {
		t.Errorf("no space prefix, add EOS: %q", got)
	}
	v.AddBOS = &off
	tok, _ = New(v)
	ids, _ = tok.Encode("ab", EncodeOptions{AddSpecial: true})
	if got := texts(tok, ids); !slices.Equal(got, []string{"ab", "</s>"}) {
		t.Errorf("add_bos_token false: %q", got)
	}
}

func TestDecodeOptions(t *testing.T) {
	tok, err := New(toyVocab())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		ids  []int32
		opts DecodeOptions
		want string
	}{
		{[]int32{11, 8}, DecodeOptions{}, "aab"},                             // the prefixed space goes
		{[]int32{11, 8}, DecodeOptions{KeepLeadingSpace: true}, " aab"},      // unless asked to keep it
		{[]int32{5, 11}, DecodeOptions{}, "a a"},                             // only at the start
		{[]int32{1, 11, 2}, DecodeOptions{}, " a"},                           // BOS is the first token (llama.cpp)
		{[]int32{1, 11, 2}, DecodeOptions{RenderSpecial: true}, "<s> a</s>"}, // control tokens rendered
		{[]int32{1, 11, 2}, DecodeOptions{RemoveSpecial: true}, " a"},        // a removed BOS keeps the space
		{[]int32{0, 3, 12}, DecodeOptions{}, "A\n"},                          // <unk> skipped, bytes as bytes
		{[]int32{0}, DecodeOptions{RenderSpecial: true}, "<unk>"},
	} {
		if got, err := tok.Decode(c.ids, c.opts); err != nil || got != c.want {
			t.Errorf("Decode(%v, %+v) = %q %v, want %q", c.ids, c.opts, got, err, c.want)
		}
	}
	if _, err := tok.Decode([]int32{99}, DecodeOptions{}); !errors.Is(err, rt.ErrOutOfRange) {
		t.Errorf("Decode(99): %v, want ErrOutOfRange", err)
	}
	if string(tok.Piece(2)) != "" || string(tok.RenderPiece(2)) != "</s>" || tok.Piece(-1) != nil {
		t.Errorf("Piece(</s>) %q, RenderPiece %q", tok.Piece(2), tok.RenderPiece(2))
	}
}

func TestCleanSpaces(t *testing.T) {
	for in, want := range map[string]string{
		"Hello , world !": "Hello, world!",
		"a ' b":           "a'b",
		"it 's I 'm":      "it's I'm",
		"we 're they 've": "we're they've",
		"don 't , 'll":    "don 't, 'll",
	} {
		if got := string(cleanSpaces([]byte(in))); got != want {
			t.Errorf("cleanSpaces(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestVocabErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(*Vocab)
		want error
		text string
	}{
		{"empty", func(v *Vocab) { v.Tokens = nil }, rt.ErrInvalidArgument, "empty vocabulary"},
		{"scores", func(v *Vocab) { v.Scores = v.Scores[:3] }, rt.ErrCorruptFile, "3 scores for 17 tokens"},
		{"types", func(v *Vocab) { v.Types = v.Types[:2] }, rt.ErrCorruptFile, "2 token types for 17 tokens"},
		{"bos", func(v *Vocab) { v.BOS = 17 }, rt.ErrOutOfRange, "BOS id 17 is outside the vocabulary of 17"},
		{"duplicate", func(v *Vocab) { v.Tokens[6] = "a" }, rt.ErrCorruptFile, `duplicate token "a" has ids 5 and 6`},
		{"model", func(v *Vocab) { v.Model = "bert" }, rt.ErrUnsupported, `tokenizer model "bert"`},
		{"add bos", func(v *Vocab) { v.BOS = -1 }, rt.ErrInvalidArgument, "no BOS token"},
	} {
		v := toyVocab()
		c.edit(&v)
		_, err := New(v)
		if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.text) {
			t.Errorf("%s: error %v, want %v with %q", c.name, err, c.want, c.text)
		}
	}
}

func TestFromGGUFMetadata(t *testing.T) {
	build := func(set func(w *gguf.Writer)) *gguf.File {
		w := gguf.NewWriter()
		w.Set("tokenizer.ggml.model", "llama")
		w.Set("tokenizer.ggml.tokens", []string{"<unk>", "<s>", "</s>", "a"})
		set(w)
		var sb strings.Builder
		if _, err := w.WriteTo(&sb); err != nil {
			t.Fatal(err)
		}
		f, err := gguf.Parse([]byte(sb.String()))
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	for _, c := range []struct {
		name string
		set  func(w *gguf.Writer)
		want string
	}{
		{"model", func(w *gguf.Writer) { w.Set("tokenizer.ggml.model", "rwkv") }, `tokenizer model "rwkv" is not supported`},
		{"no merges", func(w *gguf.Writer) { w.Set("tokenizer.ggml.model", "gpt2") }, "tokenizer.ggml.merges"},
		{"tokens type", func(w *gguf.Writer) { w.Set("tokenizer.ggml.tokens", []int32{1}) }, "tokenizer.ggml.tokens is a array[int32], want array[string]"},
		{"scores type", func(w *gguf.Writer) { w.Set("tokenizer.ggml.scores", "x") }, "tokenizer.ggml.scores is a string"},
		{"bos type", func(w *gguf.Writer) { w.Set("tokenizer.ggml.bos_token_id", "x") }, "tokenizer.ggml.bos_token_id is a string"},
		{"add_bos type", func(w *gguf.Writer) { w.Set("tokenizer.ggml.add_bos_token", "x") }, "tokenizer.ggml.add_bos_token"},
	} {
		if _, err := Open(build(c.set)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
	// An id outside the vocabulary keeps the default, as llama.cpp.
	tok, err := Open(build(func(w *gguf.Writer) {
		w.Set("tokenizer.ggml.eos_token_id", uint32(0xFFFFFFFF))
		w.Set("tokenizer.ggml.add_bos_token", false)
	}))
	if err != nil || tok.EOS() != 2 || tok.BOS() != 1 || tok.AddBOS() {
		t.Errorf("defaults: %v, EOS %d BOS %d add_bos %v", err, tok.EOS(), tok.BOS(), tok.AddBOS())
	}
}

func TestEOG(t *testing.T) {
	for _, c := range []struct {
		vocab string
		eog   []string // texts that end generation (all of them)
		eot   string
	}{
		{"llama3", []string{"<|end_of_text|>", "<|eot_id|>"}, "<|eot_id|>"},
		{"qwen2", []string{"<|endoftext|>", "<|im_end|>", "</s>", "<|fim_pad|>", "<|repo_name|>", "<|file_sep|>"}, "<|im_end|>"},
		{"gemma3", []string{"<eos>", "<end_of_turn>", "</s>"}, "<end_of_turn>"},
		{"phi-3", []string{"</s>", "<|endoftext|>", "<|end|>"}, "<|end|>"},
		{"llama-spm", []string{"</s>"}, ""},
		{"gpt-2", []string{"<|endoftext|>"}, "<|endoftext|>"},
	} {
		tok := sharedVocab(t, c.vocab)
		var got []string
		for _, id := range tok.EOG() {
			got = append(got, tok.TokenText(id))
			if !tok.IsEOG(id) || tok.TokenAttr(id)&AttrControl == 0 {
				t.Errorf("%s: EOG %q is not IsEOG or not control", c.vocab, tok.TokenText(id))
			}
		}
		slices.Sort(got)
		want := slices.Clone(c.eog)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: EOG %q, want %q", c.vocab, got, want)
		}
		if eot := tok.TokenText(tok.EOT()); eot != c.eot {
			t.Errorf("%s: EOT %q, want %q", c.vocab, eot, c.eot)
		}
	}
}

// roundTripText is what text's encoding with special tokens added
// decodes to with them removed: text, its spaces cleaned where the vocab
// cleans them, after a space where a removed BOS keeps the prefixed
// space, as llama.cpp.
func roundTripText(tok *Tokenizer, text string) string {
	want := text
	if tok.cleanSpaces {
		want = string(cleanSpaces([]byte(text)))
	}
	if tok.AddBOS() && tok.AddSpacePrefix() && text != "" {
		want = " " + want
	}
	return want
}

// TestDecodeRoundTrip decodes the encoding of every developer input.
func TestDecodeRoundTrip(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(sharedDir, "inputs", "dev.json"))
	if err != nil {
		t.Skipf("inputs absent: %v", err)
	}
	var inputs []string
	if err := json.Unmarshal(data, &inputs); err != nil {
		t.Fatal(err)
	}
	for _, name := range sharedVocabs {
		tok := sharedVocab(t, name)
		for _, text := range inputs {
			ids, err := tok.Encode(text, EncodeOptions{AddSpecial: true})
			if err != nil {
				t.Fatal(err)
			}
			got, err := tok.Decode(ids, DecodeOptions{RemoveSpecial: true})
			if want := roundTripText(tok, text); err != nil || got != want {
				t.Errorf("%s: %q decodes to %q, want %q", name, text, got, want)
			}
			// The stream gives the same text, one complete character at a time.
			d := NewStreamDecoder(tok, DecodeOptions{})
			var sb strings.Builder
			for _, id := range ids {
				s, err := d.Next(id)
				if err != nil || !utf8.ValidString(s) {
					t.Fatalf("%s: stream gave %q, %v", name, s, err)
				}
				sb.WriteString(s)
			}
			sb.WriteString(d.Flush())
			plain, _ := tok.Decode(ids, DecodeOptions{})
			if !tok.cleanSpaces && sb.String() != plain {
				t.Errorf("%s: stream %q, Decode %q", name, sb.String(), plain)
			}
		}
	}
}

func TestStreamDecoder(t *testing.T) {
	tok, err := New(toyVocab())
	if err != nil {
		t.Fatal(err)
	}
	d := NewStreamDecoder(tok, DecodeOptions{})
	// "▁a", then 日 as three byte tokens, then </s> (skipped), then "a".
	var got []string
	for _, id := range []int32{11, 14, 15, 16, 2, 5} {
		s, err := d.Next(id)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, s)
	}
	if want := []string{"a", "", "", "日", "", "a"}; !slices.Equal(got, want) {
		t.Errorf("stream %q, want %q", got, want)
	}
	// An incomplete character at the end comes out on Flush.
	d = NewStreamDecoder(tok, DecodeOptions{RenderSpecial: true})
	s1, _ := d.Next(14)
	s2, _ := d.Next(2)
	if s1 != "" || s2 != "\xe6</s>" || d.Flush() != "" {
		t.Errorf("stream %q %q", s1, s2)
	}
	d = NewStreamDecoder(tok, DecodeOptions{})
	d.Next(14)
	if f := d.Flush(); f != "\xe6" {
		t.Errorf("Flush %q", f)
	}
	if _, err := d.Next(99); !errors.Is(err, rt.ErrOutOfRange) {
		t.Errorf("Next(99): %v", err)
	}
}

// TestEncodeAnyBytes feeds random bytes (invalid UTF-8, control characters,
// special-token fragments) to every vocab concurrently: no panic, no error
// from vocabularies with byte fallback, and ids inside the vocabulary.
func TestEncodeAnyBytes(t *testing.T) {
	pieces := []string{"<|im_start|>", "<s>", "</s>", "▁", " ", "\n", "\t", "日本", "🦙", "'s", "123", "Hello", "\xff", "\xc3", "\xe2\x82", "<", "|", "\x00"}
	for _, name := range sharedVocabs {
		t.Run(name, func(t *testing.T) {
			tok := sharedVocab(t, name)
			errs := make(chan error, 4)
			for g := range 4 {
				go func() {
					rng := uint64(g + 1)
					next := func() uint64 { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return rng }
					for range 50 {
						var sb strings.Builder
						for k := next() % 40; k > 0; k-- {
							if next()%3 == 0 {
								sb.WriteByte(byte(next()))
							} else {
								sb.WriteString(pieces[next()%uint64(len(pieces))])
							}
						}
						for _, opts := range []EncodeOptions{{}, {AddSpecial: true, ParseSpecial: true}} {
							ids, err := tok.Encode(sb.String(), opts)
							if err != nil {
								errs <- err
								return
							}
							for _, id := range ids {
								if !tok.valid(id) {
									errs <- errors.New("id outside the vocabulary")
									return
								}
							}
							if _, err := tok.Decode(ids, DecodeOptions{RenderSpecial: true}); err != nil {
								errs <- err
								return
							}
						}
					}
					errs <- nil
				}()
			}
			for range 4 {
				if err := <-errs; err != nil {
					t.Error(err)
				}
			}
		})
	}
}
