package llama

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gpurt/gpurt/gguf"
)

func storiesTokenizer(t *testing.T) *Tokenizer {
	t.Helper()
	tok, err := NewTokenizer(openStories(t))
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// TestStoriesReferenceSentence pins the ids of the reference sentence. They
// were cross-checked against an independent implementation: PyTorch running
// stories260K's weights greedily from BOS (models/check_gguf.py) generates
// exactly these tokens after BOS.
func TestStoriesReferenceSentence(t *testing.T) {
	tok := storiesTokenizer(t)
	got := tok.Encode(storiesReference, true)
	want := []int32{1, 403, 407, 261, 378, 432, 383, 286, 261, 376, 298, 315, 421, 395, 317, 426, 338, 401, 396, 267, 337, 410, 408, 419, 292, 411, 322, 265, 282, 295, 433, 426}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Encode(reference) =\n%v\nwant\n%v", got, want)
	}
	var pieces []string
	for _, id := range got[1:6] {
		pieces = append(pieces, tok.TokenText(id))
	}
	if p := strings.Join(pieces, "|"); p != "▁Once|▁upon|▁a|▁time|," {
		t.Errorf("pieces %q", p)
	}
	if s := tok.Decode(got); s != storiesReference {
		t.Errorf("Decode = %q", s)
	}
}

func TestStoriesRoundTrip(t *testing.T) {
	tok := storiesTokenizer(t)
	if tok.NVocab() != 512 || tok.BOS() != 1 || tok.EOS() != 2 {
		t.Fatalf("vocab %d, BOS %d, EOS %d", tok.NVocab(), tok.BOS(), tok.EOS())
	}
	for _, s := range []string{
		"",
		"a",
		" leading and  double  spaces ",
		"Tom said, \"Hello!\"\nThe end.\n",
		"Unicode: naïve café, 日本語, emoji 🙂",
		"\x00\x7f tabs\tand\r\n",
		strings.Repeat("ab", 500),
	} {
		ids := tok.Encode(s, true)
		if got := tok.Decode(ids); got != s {
			t.Errorf("round trip of %q gave %q (ids %v)", s, got, ids)
		}
		if len(ids) == 0 || ids[0] != 1 {
			t.Errorf("%q: no BOS in %v", s, ids)
		}
		if noBOS := tok.Encode(s, false); !slices.Equal(noBOS, ids[1:]) {
			t.Errorf("%q: without BOS %v, with %v", s, noBOS, ids)
		}
	}
	// Characters outside the vocabulary fall back to their UTF-8 bytes.
	ids := tok.Encode("日", false)
	want := []string{"▁", "<0xE6>", "<0x97>", "<0xA5>"}
	var got []string
	for _, id := range ids {
		got = append(got, tok.TokenText(id))
		if tok.TokenText(id) != "▁" && tok.TokenType(id) != TokenByte {
			t.Errorf("token %d (%q) is not a byte token", id, tok.TokenText(id))
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Encode(日) = %q, want %q", got, want)
	}
}

// toyVocab has merges whose scores make the SPM order visible.
func toyVocab() Vocab {
	v := Vocab{
		Tokens: []string{"<unk>", "<s>", "</s>", "<0x41>", "▁", "a", "b", "c", "ab", "bc", "abc", "▁a", "<0x0A>", "cc"},
		Scores: []float32{0, 0, 0, 0, -10, -10, -10, -10, -1, -2, -3, -5, 0, -1},
		Types:  []int32{TokenUnknown, TokenControl, TokenControl, TokenByte, 1, 1, 1, 1, 1, 1, 1, 1, TokenByte, 1},
		BOS:    1, EOS: 2, UNK: 0,
	}
	return v
}

func TestEncodeMergeOrder(t *testing.T) {
	tok, err := NewTokenizerFromVocab(toyVocab())
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		text string
		want []string
	}{
		// "▁abc": ab (-1) beats bc (-2) and ▁a (-5); then abc (-3) beats ▁ab (absent).
		{"abc", []string{"▁", "abc"}},
		// "bc" alone: bc.
		{"bc", []string{"▁", "bc"}},
		// "▁aa": ▁a (-5) is the only merge.
		{"aa", []string{"▁a", "a"}},
		{"abab", []string{"▁", "ab", "ab"}},
		// Equal scores merge leftmost first.
		{"ccc", []string{"▁", "cc", "c"}},
		// A missing character becomes byte tokens, or <unk> where there is none.
		{"Ad", []string{"▁", "<0x41>", "<unk>"}},
		{"a\n", []string{"▁a", "<0x0A>"}},
		// Control and byte tokens are never made by merging their text.
		{"<s>", []string{"▁", "<unk>", "<unk>", "<unk>"}},
	}
	for _, c := range cases {
		var got []string
		for _, id := range tok.Encode(c.text, false) {
			got = append(got, tok.TokenText(id))
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("Encode(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

func TestDecodePieces(t *testing.T) {
	tok, err := NewTokenizerFromVocab(toyVocab())
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		ids  []int32
		want string
	}{
		{[]int32{1, 11, 8}, "aab"},          // leading space dropped after BOS
		{[]int32{11, 8}, "aab"},             // and at the start
		{[]int32{5, 11}, "a a"},             // but not mid-text
		{[]int32{1, 11, 2, 1, 11}, "aa"},    // EOS prints nothing; BOS strips again
		{[]int32{1, 0, 3, 12}, "\u2585A\n"}, // <unk> shows as ▅, bytes as bytes
		{[]int32{-1, 99}, ""},               // out of range ids print nothing
	}
	for _, c := range cases {
		if got := tok.Decode(c.ids); got != c.want {
			t.Errorf("Decode(%v) = %q, want %q", c.ids, got, c.want)
		}
	}
	if p := tok.PieceAfter(5, 11); string(p) != " a" {
		t.Errorf("PieceAfter(a, ▁a) = %q", p)
	}
	if p := tok.PieceAfter(1, 11); string(p) != "a" {
		t.Errorf("PieceAfter(BOS, ▁a) = %q", p)
	}
}

func TestVocabErrors(t *testing.T) {
	cases := []struct {
		name string
		edit func(*Vocab)
		want string
	}{
		{"empty", func(v *Vocab) { v.Tokens = nil }, "empty vocabulary"},
		{"scores", func(v *Vocab) { v.Scores = v.Scores[:3] }, "3 scores for 14 tokens"},
		{"types", func(v *Vocab) { v.Types = v.Types[:2] }, "2 token types for 14 tokens"},
		{"bos", func(v *Vocab) { v.BOS = 14 }, "BOS id 14 is outside the vocabulary of 14"},
		{"byte text", func(v *Vocab) { v.Types[5] = TokenByte }, "byte token 5 has text \"a\""},
	}
	for _, c := range cases {
		v := toyVocab()
		c.edit(&v)
		_, err := NewTokenizerFromVocab(v)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
	// Without types, <0xNN> texts are byte tokens and BOS/EOS are control.
	v := toyVocab()
	v.Types = nil
	tok, err := NewTokenizerFromVocab(v)
	if err != nil {
		t.Fatal(err)
	}
	if tok.TokenType(3) != TokenByte || tok.TokenType(1) != TokenControl || tok.TokenType(8) != TokenNormal {
		t.Errorf("derived types %d %d %d", tok.TokenType(3), tok.TokenType(1), tok.TokenType(8))
	}
}

func TestNewTokenizerMetadata(t *testing.T) {
	build := func(set func(w *gguf.Writer)) (*gguf.File, error) {
		w := gguf.NewWriter()
		w.Set("tokenizer.ggml.model", "llama")
		w.Set("tokenizer.ggml.tokens", []string{"<unk>", "<s>", "</s>", "a"})
		set(w)
		var sb strings.Builder
		if _, err := w.WriteTo(&sb); err != nil {
			return nil, err
		}
		return gguf.Parse([]byte(sb.String()))
	}
	cases := []struct {
		name string
		set  func(w *gguf.Writer)
		want string
	}{
		{"gpt2", func(w *gguf.Writer) { w.Set("tokenizer.ggml.model", "gpt2") }, "tokenizer model \"gpt2\" is not supported"},
		{"tokens type", func(w *gguf.Writer) { w.Set("tokenizer.ggml.tokens", []int32{1}) }, "tokenizer.ggml.tokens is a array[int32], want array[string]"},
		{"scores type", func(w *gguf.Writer) { w.Set("tokenizer.ggml.scores", "x") }, "tokenizer.ggml.scores is a string"},
		{"bos type", func(w *gguf.Writer) { w.Set("tokenizer.ggml.bos_token_id", "x") }, "tokenizer.ggml.bos_token_id is a string"},
		{"ok", func(w *gguf.Writer) { w.Set("tokenizer.ggml.eos_token_id", uint32(0xFFFFFFFF)) }, ""},
	}
	for _, c := range cases {
		f, err := build(c.set)
		if err != nil {
			t.Fatal(err)
		}
		tok, err := NewTokenizer(f)
		if c.want == "" {
			if err != nil || tok.EOS() != -1 || tok.BOS() != 1 {
				t.Errorf("%s: %v", c.name, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}
