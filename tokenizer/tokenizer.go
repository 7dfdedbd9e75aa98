package tokenizer

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	rt "github.com/gpurt/gpurt/runtime"
)

// Tokenizer turns text into token ids and back, as llama.cpp's llama_vocab
// does for SentencePiece and byte-level BPE vocabularies. It is safe for
// concurrent use.
type Tokenizer struct {
	model string
	texts []string
	types []int32
	attrs []Attr
	ids   map[string]int32 // every token's text

	bos, eos, unk, eot, eom int32
	eog                     []int32 // sorted
	addBOS, addEOS          bool
	addSpacePrefix          bool
	cleanSpaces             bool

	special  []int32 // control, user-defined and unknown tokens, longest text first
	specials trie    // their texts; a value is an index into special
	pieces   [][]byte

	spm *spmModel
	bpe *bpeModel
}

// New builds a tokenizer from a vocabulary.
func New(v Vocab) (*Tokenizer, error) {
	n := len(v.Tokens)
	switch {
	case n == 0:
		return nil, fmt.Errorf("tokenizer: empty vocabulary: %w", rt.ErrInvalidArgument)
	case n > 1<<31-1:
		return nil, fmt.Errorf("tokenizer: %d tokens is too many: %w", n, rt.ErrInvalidArgument)
	case v.Scores != nil && len(v.Scores) < n:
		return nil, fmt.Errorf("tokenizer: %d scores for %d tokens: %w", len(v.Scores), n, rt.ErrCorruptFile)
	case v.Types != nil && len(v.Types) < n:
		return nil, fmt.Errorf("tokenizer: %d token types for %d tokens: %w", len(v.Types), n, rt.ErrCorruptFile)
	}
	for _, id := range []struct {
		name string
		id   int32
	}{{"BOS", v.BOS}, {"EOS", v.EOS}, {"EOT", v.EOT}, {"EOM", v.EOM}, {"UNK", v.UNK}, {"SEP", v.SEP},
		{"PAD", v.PAD}, {"FIM prefix", v.FIMPre}, {"FIM suffix", v.FIMSuf}, {"FIM middle", v.FIMMid},
		{"FIM pad", v.FIMPad}, {"FIM repo", v.FIMRep}, {"FIM separator", v.FIMSep}} {
		if id.id < -1 || id.id >= int32(n) {
			return nil, fmt.Errorf("tokenizer: %s id %d is outside the vocabulary of %d: %w", id.name, id.id, n, rt.ErrOutOfRange)
		}
	}
	t := &Tokenizer{
		model: v.Model,
		texts: make([]string, n),
		types: make([]int32, n),
		attrs: make([]Attr, n),
		ids:   make(map[string]int32, n),
		bos:   v.BOS, eos: v.EOS, unk: v.UNK,
	}
	if t.model == "" {
		t.model = ModelSPM
	}
	for i, s := range v.Tokens {
		if s == "" {
			s = fmt.Sprintf("[EMPTY_%d]", i) // as llama.cpp names an empty token
		}
		if prev, dup := t.ids[s]; dup {
			return nil, fmt.Errorf("tokenizer: duplicate token %q has ids %d and %d: %w", s, prev, i, rt.ErrCorruptFile)
		}
		t.ids[s] = int32(i)
		t.texts[i] = s
		t.types[i] = TypeNormal
		if v.Types != nil {
			t.types[i] = v.Types[i]
		}
		t.attrs[i] = attrOfType(t.types[i])
	}

	var pre preTokenizer
	switch t.model {
	case ModelSPM:
		t.addBOS, t.addSpacePrefix = true, true
	case ModelBPE:
		var err error
		if pre, err = lookupPre(v.Pre); err != nil {
			return nil, fmt.Errorf("tokenizer: %w: %w", err, rt.ErrUnsupported)
		}
		t.addBOS, t.cleanSpaces = pre.addBOS, pre.cleanSpaces
	default:
		return nil, fmt.Errorf("tokenizer: tokenizer model %q is not supported (known: %q SentencePiece, %q byte-level BPE): %w",
			t.model, ModelSPM, ModelBPE, rt.ErrUnsupported)
	}
	for _, b := range []struct {
		src *bool
		dst *bool
	}{{v.AddBOS, &t.addBOS}, {v.AddEOS, &t.addEOS}, {v.AddSpacePrefix, &t.addSpacePrefix}} {
		if b.src != nil {
			*b.dst = *b.src
		}
	}
	if t.addBOS && t.bos < 0 {
		return nil, fmt.Errorf("tokenizer: add_bos_token is true, but the vocabulary has no BOS token: %w", rt.ErrInvalidArgument)
	}
	if t.addEOS && t.eos < 0 {
		return nil, fmt.Errorf("tokenizer: add_eos_token is true, but the vocabulary has no EOS token: %w", rt.ErrInvalidArgument)
	}

	t.resolveSpecial(&v)
	for id, a := range t.attrs {
		if a&(AttrControl|AttrUserDefined|AttrUnknown) != 0 {
			t.special = append(t.special, int32(id))
		}
	}
	slices.SortStableFunc(t.special, func(a, b int32) int { return len(t.texts[b]) - len(t.texts[a]) })
	for rank, id := range t.special {
		t.specials.insert(t.texts[id], rank)
	}

	switch t.model {
	case ModelSPM:
		t.spm = newSPM(t, v.Scores)
	case ModelBPE:
		var err error
		if t.bpe, err = newBPE(t, pre, v.Merges); err != nil {
			return nil, err
		}
	}
	t.pieces = make([][]byte, n)
	for id := range t.pieces {
		t.pieces[id] = t.renderPiece(int32(id))
	}
	t.stripRules(v.Name)
	return t, nil
}

// NVocab is the vocabulary size.
func (t *Tokenizer) NVocab() int { return len(t.texts) }

// Model is "llama" (SentencePiece) or "gpt2" (byte-level BPE).
func (t *Tokenizer) Model() string { return t.model }

// BOS is the beginning-of-sequence token (-1 if none).
func (t *Tokenizer) BOS() int32 { return t.bos }

// EOS is the end-of-sequence token (-1 if none).
func (t *Tokenizer) EOS() int32 { return t.eos }

// EOT is the end-of-turn token, from the metadata or found by its text
// (<|eot_id|>, <|im_end|>, <end_of_turn>, ...); -1 if none.
func (t *Tokenizer) EOT() int32 { return t.eot }

// EOM is the end-of-message token (<|eom_id|>); -1 if none.
func (t *Tokenizer) EOM() int32 { return t.eom }

// AddBOS reports whether encoding with AddSpecial starts with BOS.
func (t *Tokenizer) AddBOS() bool { return t.addBOS }

// AddEOS reports whether encoding with AddSpecial ends with EOS.
func (t *Tokenizer) AddEOS() bool { return t.addEOS }

// IsEOG reports whether generation should stop at id: EOS, EOT, EOM and
// every token llama.cpp treats as end of generation.
func (t *Tokenizer) IsEOG(id int32) bool {
	_, ok := slices.BinarySearch(t.eog, id)
	return ok
}

// EOG lists the end-of-generation tokens in increasing order.
func (t *Tokenizer) EOG() []int32 { return slices.Clone(t.eog) }

// TokenText is a token's vocabulary text, e.g. "▁the", "Ġthe" or "<0x0A>";
// "" outside the vocabulary.
func (t *Tokenizer) TokenText(id int32) string {
	if !t.valid(id) {
		return ""
	}
	return t.texts[id]
}

// TokenType is a token's type (TypeNormal, TypeControl, ...) as the file
// gives it; TypeUndefined outside the vocabulary.
func (t *Tokenizer) TokenType(id int32) int32 {
	if !t.valid(id) {
		return TypeUndefined
	}
	return t.types[id]
}

// TokenAttr is a token's attributes after loading (0 outside the vocabulary).
func (t *Tokenizer) TokenAttr(id int32) Attr {
	if !t.valid(id) {
		return 0
	}
	return t.attrs[id]
}

// TokenID is the id of the token with the given vocabulary text.
func (t *Tokenizer) TokenID(text string) (int32, bool) {
	id, ok := t.ids[text]
	return id, ok
}

func (t *Tokenizer) valid(id int32) bool { return id >= 0 && int(id) < len(t.texts) }

// EncodeOptions choose how Encode treats special tokens.
type EncodeOptions struct {
	// AddSpecial adds BOS and EOS where the vocabulary asks for them
	// (add_bos_token, add_eos_token).
	AddSpecial bool
	// ParseSpecial matches the texts of control tokens (<|im_start|>,
	// [INST], ...) in the text as those tokens. User-defined tokens are
	// matched whether or not it is set, as in llama.cpp.
	ParseSpecial bool
}

// Encode tokenizes text as llama.cpp's llama_tokenize does.
func (t *Tokenizer) Encode(text string, opts EncodeOptions) ([]int32, error) {
	out := make([]int32, 0, len(text)/2+2)
	frags := t.partition(text, opts.ParseSpecial)
	if opts.AddSpecial && t.addBOS {
		out = append(out, t.bos)
	}
	var err error
	switch {
	case t.spm != nil:
		out, err = t.spm.encode(text, frags, out)
	default:
		out, err = t.bpe.encode(text, frags, out)
	}
	if err != nil {
		return nil, err
	}
	if opts.AddSpecial && t.addEOS {
		out = append(out, t.eos)
	}
	return out, nil
}

// fragment is a piece of the text to encode, or a special token (id >= 0).
type fragment struct {
	start, end int
	id         int32
}

// partition splits text at the special tokens llama.cpp's
// tokenizer_st_partition would match: the longest texts first, each taken
// left to right wherever the text is not yet matched, honouring lstrip and
// rstrip.
func (t *Tokenizer) partition(text string, parseSpecial bool) []fragment {
	matches := t.specials.find(text, func(rank int) bool {
		return parseSpecial || t.attrs[t.special[rank]]&(AttrControl|AttrUnknown) == 0
	})
	if len(matches) == 0 {
		if text == "" {
			return nil
		}
		return []fragment{{0, len(text), -1}}
	}
	slices.SortFunc(matches, func(a, b specialMatch) int {
		if a.rank != b.rank {
			return a.rank - b.rank
		}
		return a.pos - b.pos
	})
	// In (rank, position) order, as llama.cpp takes them. taken[i] is the token
	// covering byte i, -2 for white space stripped away, -1 for text.
	taken := make([]int32, len(text))
	for i := range taken {
		taken[i] = -1
	}
	free := func(a, b int) bool {
		for i := a; i < b; i++ {
			if taken[i] != -1 {
				return false
			}
		}
		return true
	}
	for _, m := range matches {
		id := t.special[m.rank]
		end := m.pos + len(t.texts[id])
		if !free(m.pos, end) {
			continue
		}
		for i := m.pos; i < end; i++ {
			taken[i] = id
		}
		if t.attrs[id]&AttrLStrip != 0 {
			for i := m.pos - 1; i >= 0 && taken[i] == -1 && isASCIISpace(text[i]); i-- {
				taken[i] = -2
			}
		}
		if t.attrs[id]&AttrRStrip != 0 {
			for i := end; i < len(text) && taken[i] == -1 && isASCIISpace(text[i]); i++ {
				taken[i] = -2
			}
		}
	}
	var frags []fragment
	for i := 0; i < len(text); {
		j := i + 1
		switch id := taken[i]; {
		case id == -1:
			for j < len(text) && taken[j] == -1 {
				j++
			}
			frags = append(frags, fragment{i, j, -1})
		case id >= 0:
			j = i + len(t.texts[id])
			frags = append(frags, fragment{i, j, id})
		}
		i = j
	}
	return frags
}

func isASCIISpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// renderPiece is llama.cpp's token_to_piece with special = true.
func (t *Tokenizer) renderPiece(id int32) []byte {
	a, s := t.attrs[id], t.texts[id]
	switch {
	case a&(AttrUnknown|AttrControl|AttrUserDefined) != 0:
		return []byte(s)
	case a&AttrNormal != 0:
		if t.model == ModelSPM {
			return []byte(strings.ReplaceAll(s, spaceMarker, " "))
		}
		return decodeByteLevel(s)
	case a&AttrByte != 0:
		if b, ok := parseByteToken(s); ok {
			return []byte{b}
		}
	}
	return nil
}

// decodeByteLevel maps GPT-2's byte-to-unicode text back to bytes; a code
// point outside the map is written as llama.cpp does, [UNK_BYTE_0x..text].
func decodeByteLevel(s string) []byte {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		r, n := decodeRune(s, i)
		if b, ok := unicodeToByte[r]; ok {
			out = append(out, b)
		} else {
			out = append(out, "[UNK_BYTE_0x"...)
			for _, c := range appendRune(nil, r) {
				out = fmt.Appendf(out, "%02x", c)
			}
			out = append(out, s...)
			out = append(out, ']')
		}
		i += n
	}
	return out
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

// Piece is the bytes token id stands for, as generation prints it: control
// and unknown tokens give nothing (llama.cpp's token_to_piece without
// special). Bytes of one character may be split over several tokens. Nil
// outside the vocabulary; the slice must not be modified.
func (t *Tokenizer) Piece(id int32) []byte {
	if !t.valid(id) {
		return nil
	}
	return t.piece(id, false)
}

// RenderPiece is Piece with control and unknown tokens written as their
// text, e.g. "<|im_end|>" (token_to_piece with special).
func (t *Tokenizer) RenderPiece(id int32) []byte {
	if !t.valid(id) {
		return nil
	}
	return t.pieces[id]
}

// AddSpacePrefix reports whether SentencePiece encoding prefixes a space
// (and decoding drops it from the first token).
func (t *Tokenizer) AddSpacePrefix() bool { return t.addSpacePrefix }

// piece is token_to_piece: control and unknown tokens give nothing unless
// special.
func (t *Tokenizer) piece(id int32, special bool) []byte {
	if !special && t.attrs[id]&(AttrUnknown|AttrControl) != 0 {
		return nil
	}
	return t.pieces[id]
}

// DecodeOptions choose how Decode treats special tokens.
type DecodeOptions struct {
	// RenderSpecial writes control tokens (and unknown ones) as their text,
	// e.g. "<|im_end|>"; otherwise they give nothing.
	RenderSpecial bool
	// RemoveSpecial drops a leading BOS and a trailing EOS where the
	// vocabulary adds them.
	RemoveSpecial bool
	// KeepLeadingSpace keeps the space SentencePiece adds before the first
	// word; set it when the ids continue earlier text.
	KeepLeadingSpace bool
}

// Decode turns ids into text as llama.cpp's llama_detokenize does,
// including its clean-up of spaces before punctuation for the vocabularies
// that ask for it.
func (t *Tokenizer) Decode(ids []int32, opts DecodeOptions) (string, error) {
	for i, id := range ids {
		if !t.valid(id) {
			return "", fmt.Errorf("tokenizer: decode: token %d (at %d) is outside the vocabulary of %d: %w", id, i, len(t.texts), rt.ErrOutOfRange)
		}
	}
	stripSpace := t.addSpacePrefix && !opts.KeepLeadingSpace
	if opts.RemoveSpecial && t.addBOS && len(ids) > 0 && ids[0] == t.bos {
		stripSpace = false // as llama.cpp: the space after a removed BOS stays
		ids = ids[1:]
	}
	if opts.RemoveSpecial && t.addEOS && len(ids) > 0 && ids[len(ids)-1] == t.eos {
		ids = ids[:len(ids)-1]
	}
	var out []byte
	for i, id := range ids {
		p := t.piece(id, opts.RenderSpecial)
		if i == 0 && stripSpace && len(p) > 0 && p[0] == ' ' {
			p = p[1:]
		}
		out = append(out, p...)
	}
	if t.cleanSpaces {
		out = cleanSpaces(out)
	}
	return string(out), nil
}

// cleanSpaces is llama.cpp's clean_up_tokenization_spaces: no space before
// "?", "!", ".", ","; a lone "'" between spaces loses both; and " 's",
// " 'm", " 're", " 've" lose their space.
func cleanSpaces(b []byte) []byte {
	if len(b) == 0 {
		return b
	}
	n := 1
	for i := 1; i < len(b); i++ {
		x := b[i]
		if b[i-1] == ' ' && (x == '?' || x == '!' || x == '.' || x == ',') {
			n--
		}
		b[n] = x
		n++
	}
	b = b[:n]
	n = 1
	for i := 1; i < len(b); i++ {
		x := b[i]
		if x == '\'' && i+1 < len(b) && b[i-1] == ' ' && b[i+1] == ' ' {
			n--
			i++ // the space after is dropped, and blanked as llama.cpp does
			b[i] = 0
		}
		b[n] = x
		n++
	}
	b = b[:n]
	n = 1
	for i := 1; i < len(b); i++ {
		x := b[i]
		if b[i-1] == ' ' && x == '\'' && i+1 < len(b) {
			x1 := b[i+1]
			switch {
			case x1 == 's' || x1 == 'm':
				n--
			case i+2 < len(b) && (x1 == 'r' && b[i+2] == 'e' || x1 == 'v' && b[i+2] == 'e'):
				n--
			}
		}
		b[n] = x
		n++
	}
	return b[:n]
}

// wordCache keeps the ids of words already merged.
type wordCache struct {
	mu sync.Mutex
	m  map[string][]int32
}

const (
	maxCachedWords   = 1 << 16
	maxCachedWordLen = 256 // longer words are rare; caching them would only cost memory
)

func (c *wordCache) get(w []byte) ([]int32, bool) {
	if len(w) > maxCachedWordLen {
		return nil, false
	}
	c.mu.Lock()
	ids, ok := c.m[string(w)]
	c.mu.Unlock()
	return ids, ok
}

func (c *wordCache) put(w []byte, ids []int32) {
	if len(w) > maxCachedWordLen {
		return
	}
	c.mu.Lock()
	if c.m == nil || len(c.m) >= maxCachedWords {
		c.m = make(map[string][]int32, 1024)
	}
	c.m[string(w)] = ids
	c.mu.Unlock()
}

// ResetCache forgets the words the word cache holds (for benchmarks
// that measure a cold start).
func (t *Tokenizer) ResetCache() {
	var c *wordCache
	switch {
	case t.bpe != nil:
		c = &t.bpe.cache
	case t.spm != nil:
		c = &t.spm.cache
	}
	c.mu.Lock()
	c.m = nil
	c.mu.Unlock()
}
