package tokenizer

import (
	"fmt"
	"sort"
	"strings"
	"unicode"
)

// A pre-tokenizer splits text into words before BPE merges, as llama.cpp's
// unicode_regex_split does: a list of steps, each splitting every piece the
// step before left (matches and the gaps between them both stay pieces).
// The steps are written as code rather than regular expressions: Go's regexp
// has no look-ahead for \s+(?!\S), and llama.cpp's own matching (its custom
// GPT-2 and Llama 3 splitters, and std::regex on a category-collapsed text
// for the rest) is what has to be reproduced, quirks included.

// cpText is a fragment's code points and their flags.
type cpText struct {
	cp []rune
	fl []cpFlags
}

// flags is the flags of code point i, or the zero flags at or past end.
func (t *cpText) flags(i, end int) cpFlags {
	if i >= end {
		return cpFlags{}
	}
	return t.fl[i]
}

// is reports whether code point i (before end) is c.
func (t *cpText) is(i, end int, c rune) bool { return i < end && t.cp[i] == c }

func (t *cpText) crlf(i, end int) bool {
	return i < end && (t.cp[i] == '\r' || t.cp[i] == '\n')
}

// run counts code points from i (before end) that satisfy ok.
func (t *cpText) run(i, end int, ok func(r rune, f cpFlags) bool) int {
	n := 0
	for i+n < end && ok(t.cp[i+n], t.fl[i+n]) {
		n++
	}
	return n
}

// splitStep splits the piece [a, b) of t, appending the end of each new
// piece to ends.
type splitStep func(t *cpText, a, b int, ends []int) []int

// matcher is one regular expression: the length of its match at p (0: none),
// with ECMAScript's rule that the first alternative to match wins.
type matcher func(t *cpText, p, end int) int

// byMatches splits as regex_iterator does: at each position from the left,
// take a match if there is one; the text between matches is a piece too.
func byMatches(m matcher) splitStep {
	return func(t *cpText, a, b int, ends []int) []int {
		gap := a
		for p := a; p < b; {
			n := m(t, p, b)
			if n == 0 {
				p++
				continue
			}
			if p > gap {
				ends = append(ends, p)
			}
			p += n
			ends = append(ends, p)
			gap = p
		}
		if gap < b {
			ends = append(ends, b)
		}
		return ends
	}
}

// Character classes. In llama.cpp's collapsed matching, \p{L}, \p{N}, \p{P},
// \p{M} are the general categories and \s is White_Space; \p{S} omits '~',
// which llama.cpp's ASCII table for symbols leaves out.
func isL(_ rune, f cpFlags) bool   { return f.cat == catLetter }
func isN(_ rune, f cpFlags) bool   { return f.cat == catNumber }
func isP(_ rune, f cpFlags) bool   { return f.cat == catPunct }
func isS(r rune, f cpFlags) bool   { return f.cat == catSymbol && r != '~' }
func isLM(_ rune, f cpFlags) bool  { return f.cat == catLetter || f.cat == catMark }
func isPS(r rune, f cpFlags) bool  { return isP(r, f) || isS(r, f) }
func isWS(_ rune, f cpFlags) bool  { return f.space }
func isOth(_ rune, f cpFlags) bool { return f.other() } // [^\s\p{L}\p{N}]
func isCRLF(r rune, _ cpFlags) bool {
	return r == '\r' || r == '\n'
}
func isDigit(r rune, _ cpFlags) bool { return '0' <= r && r <= '9' }

// wide is the code point that llama.cpp's std::wregex matching sees: other
// white space than ASCII becomes \v so that \s matches it.
func wide(r rune, f cpFlags) rune {
	if r > 0x7F && f.space {
		return '\v'
	}
	return r
}

// runeSet is a character class of code point ranges.
type runeSet []struct{ lo, hi rune }

// parseClass reads the inside of a [...] class of literal code points and
// a-b ranges, as written in llama.cpp's pre-tokenizer expressions.
func parseClass(s string) runeSet {
	rs := []rune(s)
	var set runeSet
	for i := 0; i < len(rs); i++ {
		lo, hi := rs[i], rs[i]
		if i+2 < len(rs) && rs[i+1] == '-' {
			hi = rs[i+2]
			i += 2
		}
		set = append(set, struct{ lo, hi rune }{lo, hi})
	}
	sort.Slice(set, func(i, j int) bool { return set[i].lo < set[j].lo })
	return set
}

func (s runeSet) has(r rune) bool {
	i := sort.Search(len(s), func(i int) bool { return s[i].hi >= r })
	return i < len(s) && s[i].lo <= r
}

// in is the class as a predicate on the code point std::wregex sees.
func (s runeSet) in(r rune, f cpFlags) bool { return s.has(wide(r, f)) }

// Classes of the DeepSeek pre-tokenizers (literal code point ranges).
var (
	deepseekLetters = parseClass("A-Za-zµÀ-ÖØ-öø-ƺƼ-ƿǄ-ʓʕ-ʯͰ-ͳͶͷͻ-ͽͿΆΈ-ΊΌΎ-ΡΣ-ϵϷ-ҁҊ-ԯԱ-ՖႠ-ჅᎠ-Ᏽᏸ-ᏽᲐ-ᲺᲽ-Ჿᴀ-ᴫᵫ-ᵷᵹ-ᶚḀ-ἕἘ-Ἕἠ-ὅὈ-Ὅὐ-ὗὙὛὝὟ-ώᾀ-ᾴᾶ-ᾼιῂ-ῄῆ-ῌῐ-ΐῖ-Ίῠ-Ῥῲ-ῴῶ-ῼℂℇℊ-ℓℕℙ-ℝℤΩℨK-ℭℯ-ℴℹℼ-ℿⅅ-ⅉⅎↃↄⰀ-ⱻⱾ-ⳤⳫ-ⳮⳲⳳꙀ-ꙭꚀ-ꚛꜢ-ꝯꝱ-ꞇꞋ-ꞎꭰ-ꮿﬀ-ﬆﬓ-ﬗＡ-Ｚａ-ｚ𐐀-𐑏𐒰-𐓓𐓘-𐓻𐲀-𐲲𐳀-𐳲𑢠-𑣟𞤀-𞥃")
	deepseekPunct   = parseClass("!-/:-~！-／：-～‘-‟　-。")
	deepseekCJK     = parseClass("一-龥ࠀ-一가-퟿")
	deepseekV3CJK   = parseClass("一-龥぀-ゟ゠-ヿ")
	asciiPunct      = parseClass("!-/:-@[-`{-~")
	asciiLetters    = parseClass("A-Za-z")
)

// contraction matches 's 't 're 've 'm 'll 'd at p; fold makes the letters
// case-insensitive.
func contraction(t *cpText, p, end int, fold func(rune) rune) int {
	if !t.is(p, end, '\'') || p+1 >= end {
		return 0
	}
	c1 := fold(t.cp[p+1])
	if c1 == 's' || c1 == 't' || c1 == 'm' || c1 == 'd' {
		return 2
	}
	if p+2 < end {
		c2 := fold(t.cp[p+2])
		if c1 == 'r' && c2 == 'e' || c1 == 'v' && c2 == 'e' || c1 == 'l' && c2 == 'l' {
			return 3
		}
	}
	return 0
}

func sameRune(r rune) rune { return r }

// asciiLower folds only A-Z, as the [sS] classes of the adapted expressions.
func asciiLower(r rune) rune {
	if 'A' <= r && r <= 'Z' {
		return r + 'a' - 'A'
	}
	return r
}

// spaceRuns is the white-space tail shared by most expressions:
// \s*[\r\n]+ (when crlf), then \s+(?!\S), then \s+ (when plus).
func spaceRuns(t *cpText, p, end int, crlf, plus bool) int {
	n, lastNL := 0, -1
	for p+n < end && t.fl[p+n].space {
		if t.cp[p+n] == '\r' || t.cp[p+n] == '\n' {
			lastNL = n
		}
		n++
	}
	switch {
	case crlf && lastNL >= 0:
		return lastNL + 1
	case n > 1 && p+n < end:
		return n - 1
	case n > 0 && (plus || p+n == end):
		return n
	}
	return 0
}

// gpt2Words is GPT-2's expression, as llama.cpp's custom splitter:
// 's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
func gpt2Words(t *cpText, p, end int) int {
	if n := contraction(t, p, end, sameRune); n > 0 {
		return n
	}
	q, f := p, t.fl[p]
	if t.cp[p] == ' ' {
		q, f = p+1, t.flags(p+1, end)
	}
	switch {
	case f.letter():
		return q - p + t.run(q, end, isL)
	case f.number():
		return q - p + t.run(q, end, isN)
	case f.other():
		return q - p + t.run(q, end, isOth)
	}
	if n := spaceRuns(t, p, end, false, true); n > 0 {
		return n
	}
	return 1
}

// llama3Words is Llama 3's expression, as llama.cpp's custom splitter:
// (?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}|
// ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
func llama3Words(t *cpText, p, end int) int {
	if n := contraction(t, p, end, unicode.ToLower); n > 0 {
		return n
	}
	c, f := t.cp[p], t.fl[p]
	if !(c == '\r' || c == '\n' || f.number()) && (f.letter() || t.flags(p+1, end).letter()) {
		return 1 + t.run(p+1, end, isL)
	}
	if f.number() {
		return min(3, t.run(p, end, isN))
	}
	q, f2 := p, f
	if c == ' ' {
		q, f2 = p+1, t.flags(p+1, end)
	}
	if f2.other() || c == ' ' && q == end {
		q += t.run(q, end, isOth)
		return q - p + t.run(q, end, isCRLF)
	}
	if n := spaceRuns(t, p, end, true, true); n > 0 {
		return n
	}
	return 1
}

// optSpaceRun matches " ?X+" (X by ok): the space only when X follows it.
func optSpaceRun(t *cpText, p, end int, ok func(rune, cpFlags) bool) int {
	if t.cp[p] == ' ' && p+1 < end && ok(t.cp[p+1], t.fl[p+1]) {
		return 1 + t.run(p+1, end, ok)
	}
	return t.run(p, end, ok)
}

// optWSRun matches "\s?X+".
func optWSRun(t *cpText, p, end int, ok func(rune, cpFlags) bool) int {
	if t.fl[p].space && p+1 < end && ok(t.cp[p+1], t.fl[p+1]) {
		return 1 + t.run(p+1, end, ok)
	}
	return t.run(p, end, ok)
}

// letterWord matches "[^\r\n\p{L}\p{N}]?\p{L}+".
func letterWord(t *cpText, p, end int) int {
	c, f := t.cp[p], t.fl[p]
	if !(c == '\r' || c == '\n' || f.letter() || f.number()) {
		if t.flags(p+1, end).letter() {
			return 1 + t.run(p+1, end, isL)
		}
		return 0
	}
	return t.run(p, end, isL)
}

// otherRun matches " ?[^\s\p{L}\p{N}]+[\r\n]*" (slash: [\r\n/]*).
func otherRun(t *cpText, p, end int, slash bool) int {
	n := optSpaceRun(t, p, end, isOth)
	if n == 0 {
		return 0
	}
	tail := isCRLF
	if slash {
		tail = func(r rune, f cpFlags) bool { return r == '\r' || r == '\n' || r == '/' }
	}
	return n + t.run(p+n, end, tail)
}

// qwen2Words is Qwen2's expression (llama.cpp matches it with std::regex):
// (?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|
// [^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
func qwen2Words(t *cpText, p, end int) int {
	if n := contraction(t, p, end, asciiLower); n > 0 {
		return n
	}
	if n := letterWord(t, p, end); n > 0 {
		return n
	}
	if t.fl[p].number() {
		return 1
	}
	if n := otherRun(t, p, end, false); n > 0 {
		return n
	}
	return spaceRuns(t, p, end, true, true)
}

// qwen35Words is Qwen 3.5's expression, Qwen2's with marks in words:
// (?:'[sS]|...)|[^\r\n\p{L}\p{N}]?[\p{L}\p{M}]+|\p{N}| ?[^\s\p{L}\p{M}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
func qwen35Words(t *cpText, p, end int) int {
	if n := contraction(t, p, end, asciiLower); n > 0 {
		return n
	}
	c, f := t.cp[p], t.fl[p]
	if !(c == '\r' || c == '\n' || f.letter() || f.number()) && p+1 < end && isLM(t.cp[p+1], t.fl[p+1]) {
		return 1 + t.run(p+1, end, isLM)
	}
	if n := t.run(p, end, isLM); n > 0 {
		return n
	}
	if f.number() {
		return 1
	}
	notLMN := func(r rune, f cpFlags) bool { return f.other() && f.cat != catMark }
	if n := optSpaceRun(t, p, end, notLMN); n > 0 {
		return n + t.run(p+n, end, isCRLF)
	}
	return spaceRuns(t, p, end, true, true)
}

// seedCoderWords is Seed-Coder's expression:
// (?:'[sS]|...)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1}| ?[^\s\p{L}\p{N}\r\n]+|\s*[\r\n]+|\s+(?!\S)|\s+
func seedCoderWords(t *cpText, p, end int) int {
	if n := contraction(t, p, end, asciiLower); n > 0 {
		return n
	}
	if n := letterWord(t, p, end); n > 0 {
		return n
	}
	if t.fl[p].number() {
		return 1
	}
	if n := optSpaceRun(t, p, end, isOth); n > 0 {
		return n
	}
	return spaceRuns(t, p, end, true, true)
}

// ufakzekaWords is Qwen2's expression without the contractions.
func ufakzekaWords(t *cpText, p, end int) int {
	if n := letterWord(t, p, end); n > 0 {
		return n
	}
	if t.fl[p].number() {
		return 1
	}
	if n := otherRun(t, p, end, false); n > 0 {
		return n
	}
	return spaceRuns(t, p, end, true, true)
}

// minicpm5Words is MiniCPM5's second expression, Qwen2's with \p{N}+.
func minicpm5Words(t *cpText, p, end int) int {
	if n := contraction(t, p, end, asciiLower); n > 0 {
		return n
	}
	if n := letterWord(t, p, end); n > 0 {
		return n
	}
	if n := t.run(p, end, isN); n > 0 {
		return n
	}
	if n := otherRun(t, p, end, false); n > 0 {
		return n
	}
	return spaceRuns(t, p, end, true, true)
}

// bloomStops are the characters that end a word in " ?[^(\s|.,!?…。，、।۔،)]+".
var bloomStops = parseClass("(|.,!?…。，、।۔،)")

// bloomWords is BLOOM's (and Poro's, Viking's) expression.
func bloomWords(t *cpText, p, end int) int {
	return optSpaceRun(t, p, end, func(r rune, f cpFlags) bool { return !f.space && !bloomStops.has(r) })
}

// deepseekV3Words is the third expression of DeepSeek V3:
// [!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~][A-Za-z]+|[^\r\n\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+|
// ?[\p{P}\p{S}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
func deepseekV3Words(t *cpText, p, end int) int {
	c, f := t.cp[p], t.fl[p]
	if asciiPunct.has(c) && p+1 < end && asciiLetters.has(t.cp[p+1]) {
		return 1 + t.run(p+1, end, func(r rune, _ cpFlags) bool { return asciiLetters.has(r) })
	}
	if !(c == '\r' || c == '\n' || isL(c, f) || isPS(c, f)) && p+1 < end && isLM(t.cp[p+1], t.fl[p+1]) {
		return 1 + t.run(p+1, end, isLM)
	}
	if n := t.run(p, end, isLM); n > 0 {
		return n
	}
	if n := optSpaceRun(t, p, end, isPS); n > 0 {
		return n + t.run(p+n, end, isCRLF)
	}
	return spaceRuns(t, p, end, true, true)
}

// casedWords is the cased-word expression of GPT-4o (contractions true,
// digits up to 3) and Tekken (no contractions, single digits):
// [^\r\n\p{L}\p{N}]?U*W+C?|[^\r\n\p{L}\p{N}]?U+W*C?|\p{N}{1,3}|
// ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+
// where U is a letter other than a-z and W a letter other than A-Z, written
// in the expressions as ((?=[\p{L}])([^a-z])) and ((?=[\p{L}])([^A-Z])).
func casedWords(contractions bool, maxDigits int) matcher {
	isU := func(r rune, f cpFlags) bool { return f.cat == catLetter && !('a' <= r && r <= 'z') }
	isW := func(r rune, f cpFlags) bool { return f.cat == catLetter && !('A' <= r && r <= 'Z') }
	suffix := func(t *cpText, e, end int) int {
		if !contractions {
			return e
		}
		return e + contraction(t, e, end, asciiLower)
	}
	return func(t *cpText, p, end int) int {
		c, f := t.cp[p], t.fl[p]
		q := p
		if !(c == '\r' || c == '\n' || f.letter() || f.number()) {
			q = p + 1 // the optional leading character
		}
		if u := t.run(q, end, isU); u > 0 || t.flags(q, end).letter() {
			// U*W+: the longest U run that a W follows, giving back U's
			// that are also W's (letters of no ASCII case) as backtracking does.
			for k := u; k >= 0; k-- {
				if w := t.run(q+k, end, isW); w > 0 {
					return suffix(t, q+k+w, end) - p
				}
			}
			// U+W*
			e := q + u
			return suffix(t, e+t.run(e, end, isW), end) - p
		}
		if f.number() {
			return min(maxDigits, t.run(p, end, isN))
		}
		if n := otherRun(t, p, end, true); n > 0 {
			return n
		}
		return spaceRuns(t, p, end, true, true)
	}
}

// Matchers for single classes.
func runOf(ok func(rune, cpFlags) bool) matcher {
	return func(t *cpText, p, end int) int { return t.run(p, end, ok) }
}

func oneOf(ok func(rune, cpFlags) bool) matcher {
	return func(t *cpText, p, end int) int {
		if ok(t.cp[p], t.fl[p]) {
			return 1
		}
		return 0
	}
}

func upTo(n int, ok func(rune, cpFlags) bool) matcher {
	return func(t *cpText, p, end int) int { return min(n, t.run(p, end, ok)) }
}

// threeDigits is [0-9][0-9][0-9].
func threeDigits(t *cpText, p, end int) int {
	if p+3 <= end && isDigit(t.cp[p], cpFlags{}) && isDigit(t.cp[p+1], cpFlags{}) && isDigit(t.cp[p+2], cpFlags{}) {
		return 3
	}
	return 0
}

// trailingSpace is \s+$: the white space that ends the piece.
func trailingSpace(t *cpText, a, b int, ends []int) []int {
	s := b
	for s > a && t.fl[s-1].space {
		s--
	}
	if s > a && s < b {
		ends = append(ends, s)
	}
	return append(ends, b)
}

func punctOrSymbols(extra string) func(rune, cpFlags) bool {
	return func(r rune, f cpFlags) bool { return isP(r, f) || r < 0x80 && strings.ContainsRune(extra, r) }
}

// preTokenizer is one of llama.cpp's pre-tokenizer types.
type preTokenizer struct {
	steps        []splitStep
	ignoreMerges bool // a word that is a token is taken whole (Llama 3)
	addBOS       bool // the default of add_bos_token
	cleanSpaces  bool // detokenizing removes spaces before punctuation
}

var (
	gpt2Step   = byMatches(gpt2Words)
	stepsGPT2  = []splitStep{gpt2Step}
	stepsLlama = []splitStep{byMatches(llama3Words)}
	stepsQwen2 = []splitStep{byMatches(qwen2Words)}
)

// preTokenizers maps tokenizer.ggml.pre to its splitter, with the names that
// llama.cpp treats as the same type.
var preTokenizers = func() map[string]preTokenizer {
	m := map[string]preTokenizer{}
	add := func(p preTokenizer, names ...string) {
		for _, n := range names {
			m[n] = p
		}
	}
	add(preTokenizer{steps: []splitStep{
		byMatches(runOf(punctOrSymbols("$+<=>^~|"))), gpt2Step,
		byMatches(runOf(isN)), byMatches(threeDigits),
	}, cleanSpaces: true}, "default")
	add(preTokenizer{steps: stepsGPT2, cleanSpaces: true},
		"gpt-2", "phi-2", "jina-es", "jina-de", "gigachat", "jina-v2-es", "jina-v2-de",
		"a.x-4.0", "mellum", "modern-bert", "mpt", "olmo", "gpt-neox", "exaone4", "jais")
	add(preTokenizer{steps: stepsGPT2}, "trillion", "granite-docling")
	add(preTokenizer{steps: stepsLlama, ignoreMerges: true, addBOS: true, cleanSpaces: true},
		"llama3", "llama-v3", "llama-bpe", "falcon3", "falcon-h1", "pixtral", "midm-2.0", "lfm2")
	add(preTokenizer{steps: stepsLlama, cleanSpaces: true}, "dbrx", "smaug-bpe", "glm4", "chatglm-bpe")
	add(preTokenizer{steps: []splitStep{byMatches(upTo(3, isN)), byMatches(minicpm5Words)}, ignoreMerges: true, cleanSpaces: true},
		"minicpm5")
	add(preTokenizer{steps: stepsQwen2}, "qwen2", "deepseek-r1-qwen", "kormo", "f2llmv2",
		"hunyuan", "solar-open", "grok-2", "bailingmoe", "bailingmoe2", "llada-moe")
	add(preTokenizer{steps: stepsQwen2, cleanSpaces: true}, "stablelm2", "megrez")
	add(preTokenizer{steps: []splitStep{byMatches(qwen35Words)}}, "qwen35")
	add(preTokenizer{steps: []splitStep{byMatches(seedCoderWords)}}, "seed-coder")
	add(preTokenizer{steps: []splitStep{byMatches(ufakzekaWords)}}, "ufakzeka")
	add(preTokenizer{steps: []splitStep{byMatches(bloomWords)}}, "poro-chat")
	add(preTokenizer{steps: []splitStep{byMatches(bloomWords)}, cleanSpaces: true}, "bloom", "gpt3-finnish")
	add(preTokenizer{steps: []splitStep{byMatches(bloomWords), byMatches(oneOf(isN))}}, "viking")
	add(preTokenizer{steps: []splitStep{
		byMatches(oneOf(isCRLF)),
		byMatches(func(t *cpText, p, end int) int { return optWSRun(t, p, end, deepseekLetters.in) }),
		byMatches(func(t *cpText, p, end int) int { return optWSRun(t, p, end, deepseekPunct.in) }),
		trailingSpace,
		byMatches(runOf(deepseekCJK.in)),
		byMatches(runOf(isN)),
	}}, "deepseek-llm")
	add(preTokenizer{steps: []splitStep{
		byMatches(oneOf(isCRLF)),
		byMatches(func(t *cpText, p, end int) int { return optWSRun(t, p, end, isL) }),
		byMatches(func(t *cpText, p, end int) int { return optWSRun(t, p, end, isP) }),
		byMatches(runOf(deepseekCJK.in)),
		byMatches(oneOf(isN)),
	}}, "deepseek-coder")
	add(preTokenizer{steps: []splitStep{
		byMatches(upTo(3, isN)),
		byMatches(runOf(deepseekV3CJK.in)),
		byMatches(deepseekV3Words),
	}}, "deepseek-v3", "hunyuan-dense", "joyai-llm", "hy_v4")
	add(preTokenizer{steps: []splitStep{
		byMatches(runOf(punctOrSymbols("$+<=>^~|`"))), gpt2Step, byMatches(threeDigits),
	}, cleanSpaces: true}, "falcon")
	add(preTokenizer{steps: []splitStep{byMatches(oneOf(isN)), gpt2Step}, cleanSpaces: true},
		"starcoder", "refact", "codeshell", "exaone", "minerva-7b", "mellum2")
	add(preTokenizer{steps: []splitStep{byMatches(oneOf(isN)), gpt2Step}},
		"smollm", "command-r")
	add(preTokenizer{steps: []splitStep{byMatches(casedWords(true, 3))}},
		"gpt-4o", "llama4", "kanana2", "minimax-m2")
	add(preTokenizer{steps: []splitStep{byMatches(casedWords(false, 1))}, ignoreMerges: true, addBOS: true},
		"tekken")
	return m
}()

// lookupPre finds the pre-tokenizer named by tokenizer.ggml.pre ("" is
// "default", as in llama.cpp).
func lookupPre(name string) (preTokenizer, error) {
	if name == "" {
		name = "default"
	}
	p, ok := preTokenizers[name]
	if !ok {
		known := make([]string, 0, len(preTokenizers))
		for n := range preTokenizers {
			known = append(known, n)
		}
		sort.Strings(known)
		return p, fmt.Errorf("pre-tokenizer %q is not supported (known: %s)", name, strings.Join(known, ", "))
	}
	return p, nil
}

// split runs the pre-tokenizer over t, returning the end of every word.
func (p *preTokenizer) split(t *cpText, ends, spare []int) []int {
	ends = append(ends[:0], len(t.cp))
	for _, step := range p.steps {
		next, start := spare[:0], 0
		for _, e := range ends {
			next = step(t, start, e, next)
			start = e
		}
		ends, spare = next, ends
	}
	return ends
}
