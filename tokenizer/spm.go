package tokenizer

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	rt "github.com/gpurt/gpurt/runtime"
)

// spaceMarker is SentencePiece's visible space, "▁" (U+2581).
const spaceMarker = "\u2581"

// spmModel is llama.cpp's SentencePiece tokenizer: merge the adjacent pair
// whose text is the best-scored token until none is left, then write what
// is not a token as byte tokens.
type spmModel struct {
	t      *Tokenizer
	scores []float32
	bytes  [256]int32 // the token for a byte: <0xNN>, else the byte's own text; -1 if none
	// byWord: no token has a "▁" after another character than "▁", so no
	// merge crosses the start of a word, and words merge (and are cached)
	// one at a time with the same result as the whole text at once.
	byWord   bool
	cache    wordCache
	sessions sync.Pool
}

func newSPM(t *Tokenizer, scores []float32) *spmModel {
	m := &spmModel{t: t, scores: scores, byWord: true}
	m.sessions.New = func() any { return new(spmSession) }
	for _, s := range t.texts {
		for i := 1; i < len(s) && m.byWord; i++ {
			if strings.HasPrefix(s[i:], spaceMarker) && !strings.HasSuffix(s[:i], spaceMarker) {
				m.byWord = false
			}
		}
	}
	if m.scores == nil {
		m.scores = make([]float32, len(t.texts))
	}
	for b := range m.bytes {
		m.bytes[b] = -1
		if id, ok := t.ids[fmt.Sprintf("<0x%02X>", b)]; ok {
			m.bytes[b] = id
		} else if id, ok := t.ids[string([]byte{byte(b)})]; ok {
			m.bytes[b] = id
		}
	}
	return m
}

func (m *spmModel) encode(text string, frags []fragment, out []int32) ([]int32, error) {
	prevSpecial := true // a space is prefixed at the start and after a special token
	s := m.sessions.Get().(*spmSession)
	defer m.sessions.Put(s)
	buf := s.text[:0]
	defer func() { s.text = buf }()
	for _, f := range frags {
		if f.id >= 0 {
			out = append(out, f.id)
			prevSpecial = true
			continue
		}
		buf = buf[:0]
		if m.t.addSpacePrefix && prevSpecial {
			buf = append(buf, spaceMarker...)
		}
		for i := f.start; i < f.end; i++ {
			if text[i] == ' ' {
				buf = append(buf, spaceMarker...)
			} else {
				buf = append(buf, text[i])
			}
		}
		var err error
		if out, err = m.tokenizeWords(s, buf, out); err != nil {
			return nil, err
		}
		prevSpecial = false
	}
	return out, nil
}

// tokenizeWords tokenizes an escaped fragment word by word where that gives
// the same result (byWord, valid UTF-8), else at once.
func (m *spmModel) tokenizeWords(s *spmSession, text []byte, out []int32) ([]int32, error) {
	if !m.byWord || !utf8.Valid(text) {
		return s.tokenize(m, string(text), out)
	}
	for start := 0; start < len(text); {
		end := start + 1
		for end < len(text) && !(bytes.HasPrefix(text[end:], marker) && !bytes.HasSuffix(text[:end], marker)) {
			end++
		}
		word := text[start:end]
		start = end
		if ids, ok := m.cache.get(word); ok {
			out = append(out, ids...)
			continue
		}
		n := len(out)
		var err error
		if out, err = s.tokenize(m, string(word), out); err != nil {
			return nil, err
		}
		m.cache.put(word, append([]int32(nil), out[n:]...))
	}
	return out, nil
}

var marker = []byte(spaceMarker)

// spmSymbol is a span of the text in the linked list of merge candidates.
type spmSymbol struct {
	start, n   int // n == 0 once merged into the symbol on its left
	prev, next int
}

type spmBigram struct {
	left, right int
	score       float32
	size        int // the pair's byte length when queued, to tell stale pairs
}

// spmSession holds the buffers of one encoding.
type spmSession struct {
	text []byte
	syms []spmSymbol
	q    []spmBigram // a max-heap on (score, then leftmost)
}

func (s *spmSession) tokenize(m *spmModel, text string, out []int32) ([]int32, error) {
	s.syms = s.syms[:0]
	for off := 0; off < len(text); {
		n := min(utf8Len(text[off]), len(text)-off)
		s.syms = append(s.syms, spmSymbol{start: off, n: n, prev: len(s.syms) - 1, next: len(s.syms) + 1})
		off += n
	}
	if len(s.syms) == 0 {
		return out, nil
	}
	s.syms[len(s.syms)-1].next = -1
	s.q = s.q[:0]
	for i := 1; i < len(s.syms); i++ {
		s.tryBigram(m, text, i-1, i)
	}
	for len(s.q) > 0 {
		bg := s.pop()
		l, r := &s.syms[bg.left], &s.syms[bg.right]
		if l.n == 0 || r.n == 0 || l.n+r.n != bg.size {
			continue
		}
		l.n += r.n
		r.n = 0
		l.next = r.next
		if r.next >= 0 {
			s.syms[r.next].prev = bg.left
		}
		if l.prev >= 0 {
			s.tryBigram(m, text, l.prev, bg.left)
		}
		if l.next >= 0 {
			s.tryBigram(m, text, bg.left, l.next)
		}
	}
	// A merged symbol is always a token; a single character that is not
	// becomes byte tokens (llama.cpp's resegment).
	for i := 0; i >= 0; i = s.syms[i].next {
		sym := s.syms[i]
		piece := text[sym.start : sym.start+sym.n]
		if id, ok := m.t.ids[piece]; ok {
			out = append(out, id)
			continue
		}
		for j := 0; j < len(piece); j++ {
			id := m.bytes[piece[j]]
			if id < 0 {
				return nil, fmt.Errorf("tokenizer: byte 0x%02X of %q has no token (no <0x%02X> or byte token in the vocabulary): %w",
					piece[j], piece, piece[j], rt.ErrUnsupported)
			}
			out = append(out, id)
		}
	}
	return out, nil
}

func (s *spmSession) tryBigram(m *spmModel, text string, left, right int) {
	l, r := s.syms[left], s.syms[right]
	id, ok := m.t.ids[text[l.start:r.start+r.n]]
	if !ok {
		return
	}
	s.push(spmBigram{left: left, right: right, score: m.scores[id], size: l.n + r.n})
}

func (s *spmSession) before(a, b spmBigram) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	return a.left < b.left
}

func (s *spmSession) push(b spmBigram) {
	s.q = append(s.q, b)
	for i := len(s.q) - 1; i > 0; {
		p := (i - 1) / 2
		if !s.before(s.q[i], s.q[p]) {
			break
		}
		s.q[i], s.q[p] = s.q[p], s.q[i]
		i = p
	}
}

func (s *spmSession) pop() spmBigram {
	top := s.q[0]
	last := len(s.q) - 1
	s.q[0] = s.q[last]
	s.q = s.q[:last]
	for i := 0; ; {
		l, r, best := 2*i+1, 2*i+2, i
		if l < last && s.before(s.q[l], s.q[best]) {
			best = l
		}
		if r < last && s.before(s.q[r], s.q[best]) {
			best = r
		}
		if best == i {
			break
		}
		s.q[i], s.q[best] = s.q[best], s.q[i]
		i = best
	}
	return top
}
