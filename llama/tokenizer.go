package llama

import (
	"github.com/gpurt/gpurt/gguf"
	"github.com/gpurt/gpurt/tokenizer"
)

// Tokenizer is the model's tokenizer (package tokenizer: SentencePiece and
// byte-level BPE as llama.cpp), with the simpler methods llama's callers
// have used. The full API (special-token parsing, IsEOG, Decode options,
// StreamDecoder) is the embedded *tokenizer.Tokenizer.
type Tokenizer struct {
	*tokenizer.Tokenizer
}

// NewTokenizer reads the tokenizer from a GGUF file's metadata.
func NewTokenizer(f *gguf.File) (*Tokenizer, error) {
	t, err := tokenizer.Open(f)
	if err != nil {
		return nil, err
	}
	return &Tokenizer{t}, nil
}

// Encode tokenizes text as plain text (special-token texts are not
// matched); addSpecial adds BOS and EOS where the vocabulary asks for them.
// It returns nil where the text cannot be encoded (a byte with no token in a
// vocabulary without byte fallback); Tokenizer.Encode gives the error.
func (t *Tokenizer) Encode(text string, addSpecial bool) []int32 {
	ids, err := t.Tokenizer.Encode(text, tokenizer.EncodeOptions{AddSpecial: addSpecial})
	if err != nil {
		return nil
	}
	return ids
}

// PieceAfter is Piece for streaming output: after BOS (or at the start, prev
// < 0) the space that SentencePiece prefixes to the text is dropped.
func (t *Tokenizer) PieceAfter(prev, id int32) []byte {
	p := t.Piece(id)
	if t.AddSpacePrefix() && (prev < 0 || prev == t.BOS()) && len(p) > 0 && p[0] == ' ' {
		p = p[1:]
	}
	return p
}

// Decode turns tokens back into text, skipping control tokens and dropping
// the prefixed space at the start and after each BOS.
func (t *Tokenizer) Decode(ids []int32) string {
	var out []byte
	prev := int32(-1)
	for _, id := range ids {
		out = append(out, t.PieceAfter(prev, id)...)
		if len(t.Piece(id)) > 0 || id == t.BOS() {
			prev = id
		}
	}
	return string(out)
}
