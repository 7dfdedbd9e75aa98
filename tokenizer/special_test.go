package tokenizer

import (
	"slices"
	"testing"
)

// TestLlamaCppSpecial checks special-token parsing, strip rules and invalid
// UTF-8 against ids that llama-tokenize (../shared/tools/llama.cpp, see its
// README) printed for these texts, with --no-bos --no-parse-special
// (plain) and without (special).
func TestLlamaCppSpecial(t *testing.T) {
	for _, c := range []struct {
		vocab, text    string
		plain, special []int32
	}{
		{"qwen2", "<|im_start|>user\x0aHello</s><|im_end|>\x0a", []int32{27, 91, 318, 4906, 91, 29, 872, 198, 9707, 522, 82, 1784, 91, 318, 6213, 91, 397}, []int32{151644, 872, 198, 9707, 128247, 151645, 198}},
		{"qwen2", "a\xc3 b\xff\xfe c \xe2\x82", []int32{64, 5691, 293, 9973, 272, 220, 9973}, []int32{64, 5691, 293, 9973, 272, 220, 9973}},
		{"llama3", "<|begin_of_text|><|start_header_id|>user<|end_header_id|>\x0a\x0aHi<|eot_id|>", []int32{27, 91, 7413, 3659, 4424, 91, 1822, 91, 2527, 8932, 851, 91, 29, 882, 27, 91, 408, 8932, 851, 91, 1363, 13347, 27, 91, 68, 354, 851, 91, 29}, []int32{128000, 128000, 128006, 882, 128007, 271, 13347, 128009}},
		{"llama3", "x\xc3 y\xff", []int32{87, 5809, 379, 5809}, []int32{128000, 87, 5809, 379, 5809}},
		{"phi-3", "<|user|>\x0aHi </s>  <|end|>\x0a<|assistant|> ok", []int32{529, 29989, 1792, 29989, 29958, 13, 18567, 1533, 29879, 29958, 29871, 529, 29989, 355, 29989, 29958, 13, 29966, 29989, 465, 22137, 29989, 29958, 3431}, []int32{1, 32010, 6324, 29871, 2, 32007, 32001, 3431}},
		{"phi-3", "\xc3 a\xff b", []int32{29871, 198, 229, 153, 132, 29874, 258, 229, 153, 132, 29890}, []int32{1, 29871, 198, 229, 153, 132, 29874, 258, 229, 153, 132, 29890}},
		{"llama-spm", "<s>Hello</s> world <unk>", []int32{529, 29879, 29958, 10994, 829, 29879, 29958, 3186, 529, 2960, 29958}, []int32{1, 1, 15043, 2, 29871, 3186, 29871, 0}},
		{"llama-spm", "\xc3 a\xff b \xe6\x97", []int32{29871, 198, 229, 153, 132, 29874, 258, 229, 153, 132, 29890, 29871, 233, 154}, []int32{1, 29871, 198, 229, 153, 132, 29874, 258, 229, 153, 132, 29890, 29871, 233, 154}},
		{"gemma3", "<start_of_turn>user\x0aHi<end_of_turn>\x0a", []int32{236820, 3041, 236779, 1340, 236779, 887, 236813, 2364, 107, 10979, 236820, 643, 236779, 1340, 236779, 887, 236813, 107}, []int32{2, 105, 2364, 107, 10979, 106, 107}},
		{"gemma3", "a    b\x0a\x0a\x0ac  [multimodal] <mask>", []int32{236746, 140, 236763, 109, 236755, 138, 5, 655, 1080, 236813}, []int32{2, 236746, 140, 236763, 109, 236755, 138, 5, 236743, 4}},
		{"deepseek-coder", "<\xef\xbd\x9cfim\xe2\x96\x81begin\xef\xbd\x9c>def f():<\xef\xbd\x9cfim\xe2\x96\x81hole\xef\xbd\x9c>\xc3\xb5\xc3\xb7", []int32{27, 169, 121, 237, 69, 308, 11028, 210, 946, 169, 121, 237, 29, 1551, 267, 10942, 27, 169, 121, 237, 69, 308, 11028, 210, 19496, 169, 121, 237, 29, 32000, 32001}, []int32{32013, 32016, 1551, 267, 10942, 32015, 32000, 32001}},
		{"gpt-2", "<|endoftext|>Hi<|endoftext|>", []int32{27, 91, 437, 1659, 5239, 91, 29, 17250, 27, 91, 437, 1659, 5239, 91, 29}, []int32{50256, 17250, 50256}},
		{"falcon", ">>TITLE<<Hello>>ABSTRACT<< x", []int32{500, 6539, 503, 9856, 500, 20305, 503, 1859}, []int32{0, 9856, 1, 1859}},
	} {
		tok := sharedVocab(t, c.vocab)
		for _, mode := range []struct {
			opts EncodeOptions
			want []int32
		}{{EncodeOptions{}, c.plain}, {EncodeOptions{AddSpecial: true, ParseSpecial: true}, c.special}} {
			got, err := tok.Encode(c.text, mode.opts)
			if err != nil || !slices.Equal(got, mode.want) {
				t.Errorf("%s %q %+v:\n got %v %v\nwant %v", c.vocab, c.text, mode.opts, got, err, mode.want)
			}
		}
	}
}
