package llama

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gpurt/gpurt/tokenizer"
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
		if tok.TokenText(id) != "▁" && tok.TokenType(id) != tokenizer.TypeByte {
			t.Errorf("token %d (%q) is not a byte token", id, tok.TokenText(id))
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Encode(日) = %q, want %q", got, want)
	}
}
