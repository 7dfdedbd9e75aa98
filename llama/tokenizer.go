package llama

import (
	"container/heap"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/gpurt/gpurt/gguf"
)

// Token types, as stored in tokenizer.ggml.token_type.
const (
	TokenNormal      int32 = 1
	TokenUnknown     int32 = 2
	TokenControl     int32 = 3
	TokenUserDefined int32 = 4
	TokenUnused      int32 = 5
	TokenByte        int32 = 6
)

// spaceMarker is SentencePiece's visible space, "▁" (U+2581).
const spaceMarker = "\u2581"

// Vocab is a SentencePiece vocabulary: token texts with their merge scores
// and types, and the special token ids (-1 where absent).
type Vocab struct {
	Tokens []string
	Scores []float32 // nil: all zero
	Types  []int32   // nil: derived from the texts
	BOS    int32
	EOS    int32
	UNK    int32
}

// Tokenizer is a llama SentencePiece (SPM) tokenizer with byte fallback.
type Tokenizer struct {
	tokens []string
	scores []float32
	types  []int32
	// pieces maps the text of every token that encoding may produce by
	// merging (normal and user-defined tokens) to its id.
	pieces map[string]int32
	bytes  [256]int32 // id of <0xNN>, or -1
	bos    int32
	eos    int32
	unk    int32
}

// NewTokenizer reads the tokenizer from a GGUF file's metadata
// (tokenizer.ggml.*). Only the "llama" (SPM) model is supported.
func NewTokenizer(f *gguf.File) (*Tokenizer, error) {
	model, err := f.String("tokenizer.ggml.model")
	if err != nil {
		return nil, fmt.Errorf("llama tokenizer: %w", err)
	}
	if model != "llama" {
		return nil, fmt.Errorf("llama tokenizer: tokenizer model %q is not supported (only \"llama\", SentencePiece)", model)
	}
	var v Vocab
	if v.Tokens, err = f.StringArray("tokenizer.ggml.tokens"); err != nil {
		return nil, fmt.Errorf("llama tokenizer: %w", err)
	}
	if f.Has("tokenizer.ggml.scores") {
		if v.Scores, err = f.Float32Array("tokenizer.ggml.scores"); err != nil {
			return nil, fmt.Errorf("llama tokenizer: %w", err)
		}
	}
	if f.Has("tokenizer.ggml.token_type") {
		if v.Types, err = f.Int32Array("tokenizer.ggml.token_type"); err != nil {
			return nil, fmt.Errorf("llama tokenizer: %w", err)
		}
	}
	// Defaults are llama's: <unk> = 0, <s> = 1, </s> = 2.
	for _, id := range []struct {
		key string
		dst *int32
		def int32
	}{
		{"tokenizer.ggml.bos_token_id", &v.BOS, 1},
		{"tokenizer.ggml.eos_token_id", &v.EOS, 2},
		{"tokenizer.ggml.unknown_token_id", &v.UNK, 0},
	} {
		*id.dst = id.def
		n, err := f.Uint32(id.key)
		switch {
		case errors.Is(err, gguf.ErrNoKey):
		case err != nil:
			return nil, fmt.Errorf("llama tokenizer: %w", err)
		case int64(n) >= int64(len(v.Tokens)):
			*id.dst = -1 // e.g. 0xFFFFFFFF, "none"
		default:
			*id.dst = int32(n)
		}
	}
	return NewTokenizerFromVocab(v)
}

// NewTokenizerFromVocab builds a tokenizer from an explicit vocabulary.
func NewTokenizerFromVocab(v Vocab) (*Tokenizer, error) {
	n := len(v.Tokens)
	if n == 0 {
		return nil, errors.New("llama tokenizer: empty vocabulary")
	}
	if n > 1<<31-1 {
		return nil, fmt.Errorf("llama tokenizer: %d tokens is too many", n)
	}
	if v.Scores != nil && len(v.Scores) != n {
		return nil, fmt.Errorf("llama tokenizer: %d scores for %d tokens", len(v.Scores), n)
	}
	if v.Types != nil && len(v.Types) != n {
		return nil, fmt.Errorf("llama tokenizer: %d token types for %d tokens", len(v.Types), n)
	}
	for _, id := range []struct {
		name string
		id   int32
	}{{"BOS", v.BOS}, {"EOS", v.EOS}, {"UNK", v.UNK}} {
		if id.id < -1 || id.id >= int32(n) {
			return nil, fmt.Errorf("llama tokenizer: %s id %d is outside the vocabulary of %d", id.name, id.id, n)
		}
	}
	t := &Tokenizer{
		tokens: v.Tokens,
		scores: v.Scores,
		types:  v.Types,
		pieces: make(map[string]int32, n),
		bos:    v.BOS, eos: v.EOS, unk: v.UNK,
	}
	if t.scores == nil {
		t.scores = make([]float32, n)
	}
	if t.types == nil {
		t.types = make([]int32, n)
		for i, s := range v.Tokens {
			switch _, isByte := parseByteToken(s); {
			case isByte:
				t.types[i] = TokenByte
			case int32(i) == v.UNK:
				t.types[i] = TokenUnknown
			case int32(i) == v.BOS || int32(i) == v.EOS:
				t.types[i] = TokenControl
			default:
				t.types[i] = TokenNormal
			}
		}
	}
	for i := range t.bytes {
		t.bytes[i] = -1
	}
	for i, s := range v.Tokens {
		switch t.types[i] {
		case TokenNormal, TokenUserDefined:
			if _, dup := t.pieces[s]; !dup { // the first of duplicate texts wins, as in llama.cpp
				t.pieces[s] = int32(i)
			}
		case TokenByte:
			b, ok := parseByteToken(s)
			if !ok {
				return nil, fmt.Errorf("llama tokenizer: byte token %d has text %q, want <0xNN>", i, s)
			}
			if t.bytes[b] < 0 {
				t.bytes[b] = int32(i)
			}
		}
	}
	return t, nil
}

// parseByteToken parses "<0xNN>".
func parseByteToken(s string) (byte, bool) {
	if len(s) != 6 || !strings.HasPrefix(s, "<0x") || s[5] != '>' {
		return 0, false
	}
	var b byte
	for _, c := range []byte(s[3:5]) {
		switch {
		case '0' <= c && c <= '9':
			b = b<<4 | (c - '0')
		case 'A' <= c && c <= 'F':
			b = b<<4 | (c - 'A' + 10)
		case 'a' <= c && c <= 'f':
			b = b<<4 | (c - 'a' + 10)
		default:
			return 0, false
		}
	}
	return b, true
}

// NVocab is the vocabulary size.
func (t *Tokenizer) NVocab() int { return len(t.tokens) }

// BOS is the beginning-of-sequence token id (-1 if none).
func (t *Tokenizer) BOS() int32 { return t.bos }

// EOS is the end-of-sequence token id (-1 if none).
func (t *Tokenizer) EOS() int32 { return t.eos }

// TokenText is a token's raw vocabulary text, e.g. "▁the" or "<0x0A>".
func (t *Tokenizer) TokenText(id int32) string {
	if id < 0 || int(id) >= len(t.tokens) {
		return ""
	}
	return t.tokens[id]
}

// TokenType is a token's type (TokenNormal, TokenByte, ...), 0 if out of range.
func (t *Tokenizer) TokenType(id int32) int32 {
	if id < 0 || int(id) >= len(t.types) {
		return 0
	}
	return t.types[id]
}

// Encode tokenizes text as llama.cpp's SPM tokenizer does: prefix a space,
// write spaces as "▁", split into UTF-8 characters, then repeatedly merge
// the adjacent pair whose concatenation is a token with the highest score
// (the leftmost pair on ties). A character that is not a token becomes its
// UTF-8 bytes' <0xNN> tokens (or UNK if those are missing too). Unlike
// llama.cpp, an invalid UTF-8 byte is a character of its own, and control
// and byte tokens are never produced by merging their literal text.
func (t *Tokenizer) Encode(text string, addBOS bool) []int32 {
	var out []int32
	if addBOS && t.bos >= 0 {
		out = append(out, t.bos)
	}
	if text == "" {
		return out
	}
	text = spaceMarker + strings.ReplaceAll(text, " ", spaceMarker)

	syms := make([]symbol, 0, len(text))
	for off := 0; off < len(text); {
		_, n := utf8.DecodeRuneInString(text[off:])
		syms = append(syms, symbol{start: off, n: n, prev: len(syms) - 1, next: len(syms) + 1})
		off += n
	}
	syms[len(syms)-1].next = -1

	q := &bigramQueue{}
	for i := 1; i < len(syms); i++ {
		t.tryBigram(q, text, syms, i-1, i)
	}
	for q.Len() > 0 {
		bg := heap.Pop(q).(bigram)
		l, r := &syms[bg.left], &syms[bg.right]
		// Skip pairs made stale by an earlier merge of either side.
		if l.n == 0 || r.n == 0 || l.n+r.n != bg.size {
			continue
		}
		l.n += r.n
		r.n = 0
		l.next = r.next
		if r.next >= 0 {
			syms[r.next].prev = bg.left
		}
		if l.prev >= 0 {
			t.tryBigram(q, text, syms, l.prev, bg.left)
		}
		if l.next >= 0 {
			t.tryBigram(q, text, syms, bg.left, l.next)
		}
	}

	for i := 0; i >= 0; i = syms[i].next {
		s := text[syms[i].start : syms[i].start+syms[i].n]
		if id, ok := t.pieces[s]; ok {
			out = append(out, id)
			continue
		}
		for _, b := range []byte(s) {
			if id := t.bytes[b]; id >= 0 {
				out = append(out, id)
			} else if t.unk >= 0 {
				out = append(out, t.unk)
			}
		}
	}
	return out
}

// symbol is a span of the text in the doubly linked list of merge candidates.
type symbol struct {
	start, n   int // n == 0 once merged into its left neighbour
	prev, next int
}

type bigram struct {
	left, right int
	score       float32
	size        int // combined byte length when queued, to detect staleness
}

func (t *Tokenizer) tryBigram(q *bigramQueue, text string, syms []symbol, left, right int) {
	l, r := syms[left], syms[right]
	id, ok := t.pieces[text[l.start:r.start+r.n]]
	if !ok {
		return
	}
	heap.Push(q, bigram{left: left, right: right, score: t.scores[id], size: l.n + r.n})
}

// bigramQueue pops the highest score first, and the leftmost on ties.
type bigramQueue []bigram

func (q bigramQueue) Len() int { return len(q) }
func (q bigramQueue) Less(i, j int) bool {
	if q[i].score != q[j].score {
		return q[i].score > q[j].score
	}
	return q[i].left < q[j].left
}
func (q bigramQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *bigramQueue) Push(x any)   { *q = append(*q, x.(bigram)) }
func (q *bigramQueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

// Piece is the bytes a token stands for: its text with "▁" as a space, the
// byte of a <0xNN> token, nothing for control and unused tokens. Bytes of a
// multi-byte character may be spread over several byte tokens.
func (t *Tokenizer) Piece(id int32) []byte {
	if id < 0 || int(id) >= len(t.tokens) {
		return nil
	}
	switch t.types[id] {
	case TokenNormal, TokenUserDefined:
		return []byte(strings.ReplaceAll(t.tokens[id], spaceMarker, " "))
	case TokenByte:
		if b, ok := parseByteToken(t.tokens[id]); ok {
			return []byte{b}
		}
	case TokenUnknown:
		return []byte("\u2585") // llama.cpp shows an unknown token as ▅
	}
	return nil
}

// PieceAfter is Piece for streaming output: after BOS (or at the start, prev
// < 0) the leading space that Encode added is dropped, as llama.cpp and
// llama2.c do.
func (t *Tokenizer) PieceAfter(prev, id int32) []byte {
	p := t.Piece(id)
	if (prev < 0 || prev == t.bos) && len(p) > 0 && p[0] == ' ' {
		p = p[1:]
	}
	return p
}

// Decode turns tokens back into text. Decode(Encode(s, true)) == s for valid
// UTF-8 without "▁" (which SPM cannot tell from a space) when the vocabulary
// has all 256 byte tokens.
func (t *Tokenizer) Decode(ids []int32) string {
	var sb strings.Builder
	prev := int32(-1)
	for _, id := range ids {
		sb.Write(t.PieceAfter(prev, id))
		if len(t.Piece(id)) > 0 || id == t.bos {
			prev = id
		}
	}
	return sb.String()
}
