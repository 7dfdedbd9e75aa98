package tokenizer

import (
	"testing"
	"unicode"
	"unicode/utf8"
)

// roundTrips reports whether text is valid UTF-8 of printable characters,
// spaces, tabs and newlines only.
func roundTrips(text string) bool {
	if !utf8.ValidString(text) {
		return false
	}
	for _, r := range text {
		if !unicode.IsGraphic(r) && r != '\n' && r != '\t' && r != '\r' {
			return false
		}
	}
	return true
}

// FuzzEncodeDecode: any text, valid UTF-8 or not, with or without special
// tokens parsed, encodes without a panic to ids inside every reference
// vocabulary, which decode (and stream) without error; printable text
// with no special tokens decodes back to itself, as TestDecodeRoundTrip
// has it. (Falcon's vocabulary has no token for some control bytes, and
// llama.cpp drops them as gpurt does.)
func FuzzEncodeDecode(f *testing.F) {
	for _, s := range []string{"", " ", "Hello world", "  leading", "trailing  ", "\n\n\t", "<|im_start|>user\nhi<|im_end|>",
		"<s>[INST] x [/INST]", "日本語のテキスト", "🦙🦙 emoji", "\xff\xfe invalid", "a\x00b", "123456789 3.14", "don't won't I'M",
		"ｆｕｌｌ　ｗｉｄｔｈ", "\u0301\u0301 marks", "<|endoftext|><|endoftext|>", "    \n    \n"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	var toks []*Tokenizer
	for _, name := range sharedVocabs {
		toks = append(toks, sharedVocab(f, name))
	}
	f.Fuzz(func(t *testing.T, text string, special bool) {
		for i, tok := range toks {
			ids, err := tok.Encode(text, EncodeOptions{AddSpecial: true, ParseSpecial: special})
			if err != nil {
				t.Fatalf("%s: encode %q: %v", sharedVocabs[i], text, err)
			}
			for _, id := range ids {
				if !tok.valid(id) {
					t.Fatalf("%s: %q gave id %d outside the vocabulary", sharedVocabs[i], text, id)
				}
			}
			got, err := tok.Decode(ids, DecodeOptions{RemoveSpecial: true})
			if err != nil {
				t.Fatalf("%s: decode %q: %v", sharedVocabs[i], text, err)
			}
			d := NewStreamDecoder(tok, DecodeOptions{})
			for _, id := range ids {
				if _, err := d.Next(id); err != nil {
					t.Fatalf("%s: stream %q: %v", sharedVocabs[i], text, err)
				}
			}
			if special || !roundTrips(text) {
				continue
			}
			want := text
			if tok.cleanSpaces {
				want = string(cleanSpaces([]byte(text)))
			}
			if tok.AddBOS() && tok.AddSpacePrefix() && text != "" {
				want = " " + want
			}
			if got != want {
				t.Errorf("%s: %q decodes to %q, want %q", sharedVocabs[i], text, got, want)
			}
		}
	})
}
