package tokenizer

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	rt "github.com/gpurt/gpurt/runtime"
)

// bpeModel is llama.cpp's byte-level BPE: pre-tokenize into words, map each
// word's bytes to GPT-2's printable code points, then merge the adjacent
// pair with the best (lowest) merge rank until none is left.
//
// Merging works on ids rather than strings: every string that a merge rule
// names gets an id (a token's own id, or one past the vocabulary for a
// string that is no token), and a pair of ids maps to its rank and result.
type bpeModel struct {
	t            *Tokenizer
	pre          preTokenizer
	merges       map[uint64]bpeMerge
	strs         []string // texts of the ids past the vocabulary
	byteSym      [256]int32
	ignoreMerges bool
	cache        wordCache
	sessions     sync.Pool
}

type bpeMerge struct{ rank, result int32 }

func pairKey(l, r int32) uint64 { return uint64(uint32(l))<<32 | uint64(uint32(r)) }

func newBPE(t *Tokenizer, pre preTokenizer, merges []string) (*bpeModel, error) {
	m := &bpeModel{t: t, pre: pre, merges: make(map[uint64]bpeMerge, len(merges)), ignoreMerges: pre.ignoreMerges}
	extra := map[string]int32{}
	idOf := func(s string) int32 {
		if id, ok := t.ids[s]; ok {
			return id
		}
		if id, ok := extra[s]; ok {
			return id
		}
		id := int32(len(t.texts) + len(m.strs))
		extra[s] = id
		m.strs = append(m.strs, s)
		return id
	}
	for rank, rule := range merges {
		// llama.cpp splits at the first space after the first byte.
		i := -1
		if len(rule) > 1 {
			i = strings.IndexByte(rule[1:], ' ')
		}
		var l, r string
		if i >= 0 {
			l, r = rule[:i+1], rule[i+2:]
		}
		key := pairKey(idOf(l), idOf(r))
		if _, dup := m.merges[key]; dup {
			continue // the first rule of a pair wins
		}
		m.merges[key] = bpeMerge{rank: int32(rank), result: idOf(l + r)}
	}
	for b := range m.byteSym {
		m.byteSym[b] = -1
		if id, ok := t.ids[byteToUnicode[b]]; ok {
			m.byteSym[b] = id
		} else if id, ok := extra[byteToUnicode[b]]; ok {
			m.byteSym[b] = id
		}
	}
	if len(m.strs) > 1<<30 {
		return nil, fmt.Errorf("tokenizer: %d merges is too many: %w", len(merges), rt.ErrInvalidArgument)
	}
	m.sessions.New = func() any { return new(bpeSession) }
	return m, nil
}

func (m *bpeModel) text(id int32) string {
	if int(id) < len(m.t.texts) {
		return m.t.texts[id]
	}
	return m.strs[int(id)-len(m.t.texts)]
}

// bpeSession holds the buffers of one encoding.
type bpeSession struct {
	cps       cpText
	offs      []int // byte offset of each code point, and the end
	ends, tmp []int
	word, enc []byte
	syms      []bpeSymbol
	q         []bpeBigram
}

type bpeSymbol struct {
	id         int32 // -1: a string no merge names
	n          int32 // bytes of the word; 0 once merged into the symbol on the left
	start      int32
	prev, next int32
}

type bpeBigram struct {
	left, right int32
	lid, rid    int32 // the ids when queued, to tell stale pairs
	rank        int32
	result      int32
}

func (m *bpeModel) encode(text string, frags []fragment, out []int32) ([]int32, error) {
	s := m.sessions.Get().(*bpeSession)
	defer m.sessions.Put(s)
	for _, f := range frags {
		if f.id >= 0 {
			out = append(out, f.id)
			continue
		}
		out = m.encodeText(s, text[f.start:f.end], out)
	}
	return out, nil
}

func (m *bpeModel) encodeText(s *bpeSession, text string, out []int32) []int32 {
	// Code points as llama.cpp decodes them (an invalid byte is U+FFFD).
	s.cps.cp = slices.Grow(s.cps.cp[:0], len(text))
	s.cps.fl = slices.Grow(s.cps.fl[:0], len(text))
	s.offs = slices.Grow(s.offs[:0], len(text)+1)
	valid := true
	for i := 0; i < len(text); {
		r, n := decodeRune(text, i)
		if r == 0xFFFD && n == 1 {
			valid = false
		}
		s.cps.cp = append(s.cps.cp, r)
		s.cps.fl = append(s.cps.fl, flagsOf(r))
		s.offs = append(s.offs, i)
		i += n
	}
	s.offs = append(s.offs, len(text))
	s.ends = m.pre.split(&s.cps, s.ends, s.tmp)
	start := 0
	for _, end := range s.ends {
		var word []byte
		if valid {
			word = unsafeBytes(text[s.offs[start]:s.offs[end]])
		} else {
			s.word = s.word[:0]
			for _, r := range s.cps.cp[start:end] {
				s.word = appendRune(s.word, r)
			}
			word = s.word
		}
		start = end
		if ids, ok := m.cache.get(word); ok {
			out = append(out, ids...)
			continue
		}
		n := len(out)
		out = m.mergeWord(s, word, out)
		m.cache.put(word, append([]int32(nil), out[n:]...))
	}
	return out
}

// mergeWord appends the tokens of one word.
func (m *bpeModel) mergeWord(s *bpeSession, word []byte, out []int32) []int32 {
	s.enc = s.enc[:0]
	for _, b := range word {
		s.enc = append(s.enc, byteToUnicode[b]...)
	}
	if m.ignoreMerges {
		if id, ok := m.t.ids[string(s.enc)]; ok {
			return append(out, id)
		}
	}
	s.syms = s.syms[:0]
	off := int32(0)
	for i, b := range word {
		n := int32(len(byteToUnicode[b]))
		s.syms = append(s.syms, bpeSymbol{id: m.byteSym[b], n: n, start: off, prev: int32(i) - 1, next: int32(i) + 1})
		off += n
	}
	if len(s.syms) == 0 {
		return out
	}
	s.syms[len(s.syms)-1].next = -1
	s.q = s.q[:0]
	for i := 1; i < len(s.syms); i++ {
		m.tryBigram(s, int32(i-1), int32(i))
	}
	for len(s.q) > 0 {
		bg := s.pop()
		l, r := &s.syms[bg.left], &s.syms[bg.right]
		if l.n == 0 || r.n == 0 || l.id != bg.lid || r.id != bg.rid {
			continue
		}
		l.id = bg.result
		l.n += r.n
		r.n = 0
		l.next = r.next
		if r.next >= 0 {
			s.syms[r.next].prev = bg.left
		}
		m.tryBigram(s, l.prev, bg.left)
		m.tryBigram(s, bg.left, l.next)
	}
	for i := int32(0); i >= 0; i = s.syms[i].next {
		sym := s.syms[i]
		if sym.id >= 0 && int(sym.id) < len(m.t.texts) {
			out = append(out, sym.id)
			continue
		}
		// Not a token: each byte of its text that is a token on its own.
		for _, b := range s.enc[sym.start : sym.start+sym.n] {
			if id, ok := m.t.ids[string([]byte{b})]; ok {
				out = append(out, id)
			}
		}
	}
	return out
}

func (m *bpeModel) tryBigram(s *bpeSession, left, right int32) {
	if left < 0 || right < 0 {
		return
	}
	l, r := s.syms[left].id, s.syms[right].id
	if l < 0 || r < 0 {
		return
	}
	mg, ok := m.merges[pairKey(l, r)]
	if !ok {
		return
	}
	s.push(bpeBigram{left: left, right: right, lid: l, rid: r, rank: mg.rank, result: mg.result})
}

func before(a, b bpeBigram) bool {
	if a.rank != b.rank {
		return a.rank < b.rank
	}
	return a.left < b.left
}

func (s *bpeSession) push(b bpeBigram) {
	s.q = append(s.q, b)
	for i := len(s.q) - 1; i > 0; {
		p := (i - 1) / 2
		if !before(s.q[i], s.q[p]) {
			break
		}
		s.q[i], s.q[p] = s.q[p], s.q[i]
		i = p
	}
}

func (s *bpeSession) pop() bpeBigram {
	top := s.q[0]
	last := len(s.q) - 1
	s.q[0] = s.q[last]
	s.q = s.q[:last]
	for i := 0; ; {
		l, r, best := 2*i+1, 2*i+2, i
		if l < last && before(s.q[l], s.q[best]) {
			best = l
		}
		if r < last && before(s.q[r], s.q[best]) {
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
