package tokenizer

import (
	"strings"
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
			if want := roundTripText(tok, text); got != want {
				t.Errorf("%s: %q decodes to %q, want %q", sharedVocabs[i], text, got, want)
			}
		}
	})
}

// FuzzVocab: a vocabulary made of any tokens, types, scores, merges and
// special ids (a hostile file's tokenizer.ggml.* arrays) is refused by New
// with an error, or encodes any text to ids inside it and decodes them,
// without a panic.
func FuzzVocab(f *testing.F) {
	f.Add(false, "a\x00b\x00ab\x00<s>\x00</s>", "\x01\x01\x01\x03\x03", "a b", int32(3), int32(4), int32(-1), "aab<s>b")
	f.Add(true, "a\x00b\x00ab\x00Ġ\x00Ġa", "\x01\x01\x01\x06\x01", "a b\x00Ġ a\x00x y", int32(0), int32(9), int32(2), " a ab ba")
	f.Add(false, "<unk>\x00<s>\x00</s>\x00<0x41>\x00▁a", "\x02\x03\x03\x06\x01", "", int32(1), int32(2), int32(0), "A a \xff")
	f.Fuzz(func(t *testing.T, bpe bool, tokens, types, merges string, bos, eos, unk int32, text string) {
		v := NoSpecial()
		v.Model = ModelSPM
		if bpe {
			v.Model = ModelBPE
			if merges != "" {
				v.Merges = strings.Split(merges, "\x00")
			}
		}
		v.Tokens = strings.Split(tokens, "\x00")
		if len(v.Tokens) > 1000 {
			return
		}
		v.Scores = make([]float32, len(v.Tokens))
		for i := range v.Scores {
			v.Scores[i] = float32(len(v.Tokens) - i)
		}
		if types != "" {
			v.Types = make([]int32, len(v.Tokens))
			for i := range v.Types {
				v.Types[i] = int32(types[i%len(types)]) % 8
			}
		}
		v.BOS, v.EOS, v.UNK = bos, eos, unk
		tok, err := New(v)
		if err != nil {
			return
		}
		for _, special := range []bool{false, true} {
			ids, err := tok.Encode(text, EncodeOptions{AddSpecial: true, ParseSpecial: special})
			if err != nil {
				continue
			}
			for _, id := range ids {
				if !tok.valid(id) {
					t.Fatalf("id %d outside a vocabulary of %d", id, tok.NVocab())
				}
			}
			tok.Decode(ids, DecodeOptions{RemoveSpecial: special})
			d := NewStreamDecoder(tok, DecodeOptions{})
			for _, id := range ids {
				d.Next(id)
			}
		}
	})
}
