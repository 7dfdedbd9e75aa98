package tokenizer

import (
	"fmt"
	"sync"

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
	// joins marks (by a hash) every pair of adjacent characters inside some
	// token. No merge can join two symbols whose pair is unmarked, so the
	// text is cut there into words that merge (and are cached) one at a
	// time with the same result as the whole text at once.
	joins    []uint64
	cache    wordCache
	sessions sync.Pool
}

func newSPM(t *Tokenizer, scores []float32) *spmModel {
	m := &spmModel{t: t, scores: scores, joins: make([]uint64, joinBits/64)}
	m.sessions.New = func() any { return new(spmSession) }
	for _, s := range t.texts {
		prev := -1
		for off := 0; off < len(s); {
			n := min(utf8Len(s[off]), len(s)-off)
			if prev >= 0 {
				h := joinHash(s[prev:off], s[off:off+n])
				m.joins[h/64] |= 1 << (h % 64)
			}
			prev, off = off, off+n
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

const joinBits = 1 << 22

// joinHash hashes a pair of adjacent symbols (each up to 4 bytes).
func joinHash[S string | []byte](l, r S) uint64 {
	var a, b uint64
	for i := 0; i < len(l); i++ {
		a = a<<8 | uint64(l[i])
	}
	for i := 0; i < len(r); i++ {
		b = b<<8 | uint64(r[i])
	}
	return ((a<<32 | b) * 0x9E3779B97F4A7C15) >> (64 - 22)
}

// tokenizeWords tokenizes an escaped fragment cut between symbols that no
// merge can join.
func (m *spmModel) tokenizeWords(s *spmSession, text []byte, out []int32) ([]int32, error) {
	for start := 0; start < len(text); {
		prev := start
		end := start + min(utf8Len(text[start]), len(text)-start)
		for end < len(text) {
			n := min(utf8Len(text[end]), len(text)-end)
			if h := joinHash(text[prev:end], text[end:end+n]); m.joins[h/64]&(1<<(h%64)) == 0 {
				break
			}
			prev, end = end, end+n
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
