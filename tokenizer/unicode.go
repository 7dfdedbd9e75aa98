package tokenizer

import (
	"sync"
	"unicode"
)

// Code point classes, as llama.cpp's unicode_cpt_flags: one general category
// (or undefined for unassigned code points) plus the White_Space property.
const (
	catUndefined uint8 = 1 << iota // assigned to no category (Cn)
	catNumber                      // \p{N}
	catLetter                      // \p{L}
	catSeparator                   // \p{Z}
	catMark                        // \p{M}
	catPunct                       // \p{P}
	catSymbol                      // \p{S}
	catControl                     // \p{C}
)

// cpFlags are the flags of one code point: a category and whether it is
// white space. The zero value is "outside the text", which matches nothing.
type cpFlags struct {
	cat   uint8
	space bool
}

func (f cpFlags) letter() bool { return f.cat == catLetter }
func (f cpFlags) number() bool { return f.cat == catNumber }

// other reports [^\s\p{L}\p{N}] for a code point inside the text.
func (f cpFlags) other() bool {
	return f.cat != 0 && !f.space && f.cat != catLetter && f.cat != catNumber
}

const maxCodePoint = 0x10FFFF

var (
	bmpFlagsOnce sync.Once
	bmpFlags     []cpFlags // flags of the Basic Multilingual Plane, built once
)

// flagsOf classifies a code point with Go's Unicode tables. The BMP is a
// table; the rarer planes are classified on the fly.
func flagsOf(r rune) cpFlags {
	if r < 0x80 {
		return asciiFlags[r]
	}
	if r < 0x10000 {
		bmpFlagsOnce.Do(buildBMPFlags)
		return bmpFlags[r]
	}
	return classify(r)
}

var asciiFlags = func() (t [128]cpFlags) {
	for r := range rune(128) {
		t[r] = classify(r)
	}
	return t
}()

func buildBMPFlags() {
	bmpFlags = make([]cpFlags, 0x10000)
	for r := range rune(0x10000) {
		bmpFlags[r] = classify(r)
	}
}

func classify(r rune) cpFlags {
	var f cpFlags
	switch {
	case r > maxCodePoint:
		f.cat = catUndefined
	case unicode.IsLetter(r):
		f.cat = catLetter
	case unicode.IsNumber(r):
		f.cat = catNumber
	case unicode.IsMark(r):
		f.cat = catMark
	case unicode.IsPunct(r):
		f.cat = catPunct
	case unicode.IsSymbol(r):
		f.cat = catSymbol
	case unicode.Is(unicode.Z, r):
		f.cat = catSeparator
	case unicode.Is(unicode.C, r):
		f.cat = catControl
	default:
		f.cat = catUndefined
	}
	f.space = r <= maxCodePoint && unicode.Is(unicode.White_Space, r)
	return f
}

// utf8Len is the length llama.cpp gives a UTF-8 sequence from its first byte
// alone (unicode_len_utf8): continuation bytes count as one, and a lead byte
// claims its full length even when the bytes after it do not continue it.
func utf8Len(b byte) int {
	switch b >> 4 {
	case 0xC, 0xD:
		return 2
	case 0xE:
		return 3
	case 0xF:
		return 4
	}
	return 1
}

// decodeRune decodes one code point as llama.cpp's unicode_cpt_from_utf8
// does: it checks only the lead and continuation bits (so overlong forms and
// surrogates pass), and an invalid sequence is U+FFFD consuming one byte.
func decodeRune(s string, i int) (rune, int) {
	c := s[i]
	switch {
	case c < 0x80:
		return rune(c), 1
	case c&0x40 == 0:
		return 0xFFFD, 1
	case c&0x20 == 0:
		if i+1 < len(s) && s[i+1]&0xC0 == 0x80 {
			return rune(c&0x1F)<<6 | rune(s[i+1]&0x3F), 2
		}
	case c&0x10 == 0:
		if i+2 < len(s) && s[i+1]&0xC0 == 0x80 && s[i+2]&0xC0 == 0x80 {
			return rune(c&0x0F)<<12 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F), 3
		}
	case c&0x08 == 0:
		if i+3 < len(s) && s[i+1]&0xC0 == 0x80 && s[i+2]&0xC0 == 0x80 && s[i+3]&0xC0 == 0x80 {
			return rune(c&0x07)<<18 | rune(s[i+1]&0x3F)<<12 | rune(s[i+2]&0x3F)<<6 | rune(s[i+3]&0x3F), 4
		}
	}
	return 0xFFFD, 1
}

// appendRune appends r's UTF-8 encoding without Go's replacement of
// surrogates, as llama.cpp's unicode_cpt_to_utf8 does. Code points beyond
// U+10FFFF (which llama.cpp rejects) become U+FFFD.
func appendRune(b []byte, r rune) []byte {
	switch {
	case r < 0x80:
		return append(b, byte(r))
	case r < 0x800:
		return append(b, 0xC0|byte(r>>6), 0x80|byte(r)&0x3F)
	case r < 0x10000:
		return append(b, 0xE0|byte(r>>12), 0x80|byte(r>>6)&0x3F, 0x80|byte(r)&0x3F)
	case r <= maxCodePoint:
		return append(b, 0xF0|byte(r>>18), 0x80|byte(r>>12)&0x3F, 0x80|byte(r>>6)&0x3F, 0x80|byte(r)&0x3F)
	}
	return append(b, 0xEF, 0xBF, 0xBD)
}

// byteToUnicode is GPT-2's map from a byte to the printable code point that
// stands for it in byte-level BPE vocabularies: printable Latin-1 bytes map
// to themselves, the rest to U+0100 onwards in byte order.
var byteToUnicode, unicodeToByte = func() (enc [256]string, dec map[rune]byte) {
	dec = make(map[rune]byte, 256)
	n := rune(0)
	for b := range 256 {
		r := rune(b)
		if !(b >= 0x21 && b <= 0x7E || b >= 0xA1 && b <= 0xAC || b >= 0xAE && b <= 0xFF) {
			r = 256 + n
			n++
		}
		enc[b] = string(r)
		dec[r] = byte(b)
	}
	return enc, dec
}()
