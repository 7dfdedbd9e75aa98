package tokenizer

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/gpurt/gpurt/gguf"
	rt "github.com/gpurt/gpurt/runtime"
)

// Token types, as stored in tokenizer.ggml.token_type.
const (
	TypeUndefined   int32 = 0
	TypeNormal      int32 = 1
	TypeUnknown     int32 = 2
	TypeControl     int32 = 3
	TypeUserDefined int32 = 4
	TypeUnused      int32 = 5
	TypeByte        int32 = 6
)

// Attr is a token's attributes, llama.cpp's llama_token_attr bits: its
// type, plus what loading adds (control for end-of-generation texts, strip
// rules for some models).
type Attr uint16

// Attribute bits.
const (
	AttrUnknown     Attr = 1 << 0
	AttrUnused      Attr = 1 << 1
	AttrNormal      Attr = 1 << 2
	AttrControl     Attr = 1 << 3
	AttrUserDefined Attr = 1 << 4
	AttrByte        Attr = 1 << 5
	AttrNormalized  Attr = 1 << 6
	AttrLStrip      Attr = 1 << 7 // parsing a special token drops white space before it
	AttrRStrip      Attr = 1 << 8 // ... and after it
	AttrSingleWord  Attr = 1 << 9
)

func attrOfType(t int32) Attr {
	switch t {
	case TypeNormal:
		return AttrNormal
	case TypeUnknown:
		return AttrUnknown
	case TypeControl:
		return AttrControl
	case TypeUserDefined:
		return AttrUserDefined
	case TypeUnused:
		return AttrUnused
	case TypeByte:
		return AttrByte
	}
	return 0
}

// Model names (tokenizer.ggml.model).
const (
	ModelSPM = "llama" // SentencePiece with byte fallback
	ModelBPE = "gpt2"  // byte-level BPE
)

// Vocab is a vocabulary as a GGUF file holds it. Special token ids are -1
// where absent. The optional flags are nil for the model's default, which
// is llama.cpp's.
type Vocab struct {
	Model  string    // ModelSPM or ModelBPE; "" is ModelSPM
	Pre    string    // BPE pre-tokenizer (tokenizer.ggml.pre); "" is "default"
	Name   string    // general.name: llama.cpp gives Phi-3 special tokens strip rules by it
	Tokens []string  // token texts; BPE texts are in GPT-2's byte-to-unicode form
	Scores []float32 // SPM merge scores; nil: all zero
	Types  []int32   // token types; nil: all TypeNormal, as llama.cpp reads a file without them
	Merges []string  // BPE merges, "left right", highest priority first

	BOS, EOS, EOT, EOM, UNK, SEP, PAD int32
	FIMPre, FIMSuf, FIMMid, FIMPad    int32
	FIMRep, FIMSep                    int32
	AddBOS, AddEOS, AddSpacePrefix    *bool
}

// NoSpecial is a Vocab's special ids, all absent; set the ones it has.
func NoSpecial() Vocab {
	return Vocab{BOS: -1, EOS: -1, EOT: -1, EOM: -1, UNK: -1, SEP: -1, PAD: -1,
		FIMPre: -1, FIMSuf: -1, FIMMid: -1, FIMPad: -1, FIMRep: -1, FIMSep: -1}
}

// FromGGUF reads a vocabulary from a GGUF file's tokenizer.ggml.* metadata.
// The file may hold no tensors (a vocab-only file).
func FromGGUF(f *gguf.File) (Vocab, error) {
	v := NoSpecial()
	var err error
	if v.Model, err = f.String("tokenizer.ggml.model"); err != nil {
		return v, fmt.Errorf("tokenizer: %w", err)
	}
	switch v.Model {
	case ModelSPM:
		v.BOS, v.EOS, v.UNK = 1, 2, 0
	case ModelBPE:
		v.BOS, v.EOS = 11, 11
		if v.Merges, err = f.StringArray("tokenizer.ggml.merges"); err != nil {
			return v, fmt.Errorf("tokenizer: %w", err)
		}
	default:
		return v, fmt.Errorf("tokenizer: tokenizer model %q is not supported (known: %q SentencePiece, %q byte-level BPE): %w",
			v.Model, ModelSPM, ModelBPE, rt.ErrUnsupported)
	}
	optional := func(key string, read func() error) error {
		if !f.Has(key) {
			return nil
		}
		if err := read(); err != nil {
			return fmt.Errorf("tokenizer: %w", err)
		}
		return nil
	}
	if err := errors.Join(
		optional("tokenizer.ggml.pre", func() (err error) { v.Pre, err = f.String("tokenizer.ggml.pre"); return }),
		optional("general.name", func() (err error) { v.Name, err = f.String("general.name"); return }),
		optional("tokenizer.ggml.scores", func() (err error) { v.Scores, err = f.Float32Array("tokenizer.ggml.scores"); return }),
		optional("tokenizer.ggml.token_type", func() (err error) { v.Types, err = f.Int32Array("tokenizer.ggml.token_type"); return }),
	); err != nil {
		return v, err
	}
	if v.Model == ModelBPE && (v.Pre == "glm4" || v.Pre == "chatglm-bpe") {
		v.BOS = -1 // GLM has no BOS unless the metadata names one
	}
	if v.Tokens, err = f.StringArray("tokenizer.ggml.tokens"); err != nil {
		return v, fmt.Errorf("tokenizer: %w", err)
	}
	for _, id := range []struct {
		key string
		dst *int32
	}{
		{"bos_token_id", &v.BOS}, {"eos_token_id", &v.EOS}, {"eot_token_id", &v.EOT},
		{"eom_token_id", &v.EOM}, {"unknown_token_id", &v.UNK}, {"seperator_token_id", &v.SEP},
		{"padding_token_id", &v.PAD}, {"fim_pre_token_id", &v.FIMPre}, {"fim_suf_token_id", &v.FIMSuf},
		{"fim_mid_token_id", &v.FIMMid}, {"fim_pad_token_id", &v.FIMPad}, {"fim_rep_token_id", &v.FIMRep},
		{"fim_sep_token_id", &v.FIMSep},
		{"prefix_token_id", &v.FIMPre}, {"suffix_token_id", &v.FIMSuf}, {"middle_token_id", &v.FIMMid},
	} {
		if *id.dst >= int32(len(v.Tokens)) {
			*id.dst = -1 // a default outside the vocabulary
		}
		key := "tokenizer.ggml." + id.key
		if !f.Has(key) {
			continue
		}
		n, err := f.Uint32(key)
		if err != nil {
			return v, fmt.Errorf("tokenizer: %w", err)
		}
		if int64(n) < int64(len(v.Tokens)) { // out of range (e.g. 0xFFFFFFFF): keep the default, as llama.cpp
			*id.dst = int32(n)
		}
	}
	for _, b := range []struct {
		key string
		dst **bool
	}{
		{"add_bos_token", &v.AddBOS}, {"add_eos_token", &v.AddEOS}, {"add_space_prefix", &v.AddSpacePrefix},
	} {
		key := "tokenizer.ggml." + b.key
		if !f.Has(key) {
			continue
		}
		x, err := f.Bool(key)
		if err != nil {
			return v, fmt.Errorf("tokenizer: %w", err)
		}
		*b.dst = &x
	}
	return v, nil
}

// Open reads the tokenizer of a GGUF file.
func Open(f *gguf.File) (*Tokenizer, error) {
	v, err := FromGGUF(f)
	if err != nil {
		return nil, err
	}
	return New(v)
}

// eogTexts are the token texts llama.cpp treats as end of generation.
var eogTexts = []string{
	"<|eot_id|>", "<|im_end|>", "<|end|>", "<|return|>", "<|call|>", "<|flush|>", "<|calls|>",
	"<end_of_turn>", "<|endoftext|>", "</s>", "<|eom_id|>", "<EOT>", "_<EOT>", "[EOT]", "[EOS]",
	"<|end_of_text|>", "<end_of_utterance>", "<eos>", "<turn|>", "<|tool_response>",
	"<｜end▁of▁sentence｜>", "[e~[",
}

// Texts by which llama.cpp finds special tokens that the metadata lacks.
var (
	eotTexts = []string{"<|eot_id|>", "<|im_end|>", "<|end|>", "<end_of_turn>", "<|endoftext|>",
		"<|end_of_text|>", "<EOT>", "_<EOT>", "[EOT]", "<｜end▁of▁sentence｜>", "<end_of_utterance>"}
	eomTexts    = []string{"<|eom_id|>"}
	fimPreTexts = []string{"<|fim_prefix|>", "<fim-prefix>", "<fim_prefix>", "<｜fim▁begin｜>", "<PRE>", "▁<PRE>", "<|code_prefix|>", "<|prefix|>"}
	fimSufTexts = []string{"<|fim_suffix|>", "<fim-suffix>", "<fim_suffix>", "<｜fim▁hole｜>", "<SUF>", "▁<SUF>", "<|code_suffix|>", "<|suffix|>"}
	fimMidTexts = []string{"<|fim_middle|>", "<fim-middle>", "<fim_middle>", "<｜fim▁end｜>", "<MID>", "▁<MID>", "<|code_middle|>", "<|middle|>"}
	fimPadTexts = []string{"<|fim_pad|>", "<fim-pad>", "<fim_pad>", "<PAD>", "[PAD]"}
	fimRepTexts = []string{"<|fim_repo|>", "<|repo_name|>", "<fim-repo>", "<REPO>", "<reponame>"}
	fimSepTexts = []string{"<|file_sep|>"}
)

// resolveSpecial completes the special ids and attributes as llama.cpp's
// loader does: ids found by text, the texts that look like control tokens
// made control, and the end-of-generation set.
func (t *Tokenizer) resolveSpecial(v *Vocab) {
	findText := func(dst *int32, texts []string) {
		if *dst >= 0 {
			return
		}
		// llama.cpp takes the first match in its hash order; the first text
		// of the list is the deterministic choice (<|eot_id|> before
		// <|end_of_text|> in Llama 3, <|im_end|> before <|endoftext|> in Qwen).
		for _, s := range texts {
			if id, ok := t.ids[s]; ok {
				*dst = id
				break
			}
		}
		if *dst >= 0 {
			t.attrs[*dst] |= AttrControl
		}
	}
	findText(&v.EOT, eotTexts)
	findText(&v.EOM, eomTexts)
	findText(&v.FIMPre, fimPreTexts)
	findText(&v.FIMSuf, fimSufTexts)
	findText(&v.FIMMid, fimMidTexts)
	findText(&v.FIMPad, fimPadTexts)
	findText(&v.FIMRep, fimRepTexts)
	findText(&v.FIMSep, fimSepTexts)

	for id := range t.attrs {
		if t.attrs[id]&AttrControl != 0 && strings.Contains(t.texts[id], "unused") {
			t.attrs[id] |= AttrUnused
		}
	}

	eog := map[int32]bool{}
	for _, id := range []int32{v.FIMPad, v.FIMRep, v.FIMSep} {
		if id >= 0 {
			eog[id] = true
		}
	}
	for _, s := range eogTexts {
		if id, ok := t.ids[s]; ok {
			eog[id] = true
			t.attrs[id] |= AttrControl
		}
	}
	// gpt-oss always renders these; llama.cpp makes them user-defined.
	for _, s := range []string{"<|channel|>", "<|message|>", "<|start|>", "<|constrain|>"} {
		if id, ok := t.ids[s]; ok {
			t.attrs[id] = AttrUserDefined
		}
	}
	for _, id := range []int32{v.EOS, v.EOT, v.EOM} {
		if id >= 0 {
			eog[id] = true
		}
	}
	// o200k_harmony and solar-open: <|end|> ends a message, not generation.
	has := func(s string) bool { id, ok := t.ids[s]; return ok && eog[id] }
	if end, ok := t.ids["<|end|>"]; ok && eog[end] &&
		(has("<|return|>") && has("<|call|>") || (has("<|call|>") || has("<|calls|>")) && has("<|flush|>")) {
		delete(eog, end)
		t.attrs[end] = AttrUserDefined
	}
	// Gemma 4 and PaddleOCR: </s> is not end of generation.
	if s, ok := t.ids["</s>"]; ok && eog[s] && has("<|tool_response>") {
		delete(eog, s)
		t.attrs[s] = AttrNormal
	}
	for id := range eog {
		t.eog = append(t.eog, id)
	}
	slices.Sort(t.eog)
	t.eot, t.eom = v.EOT, v.EOM
}

// stripRules gives tokens llama.cpp's per-model strip attributes.
func (t *Tokenizer) stripRules(name string) {
	name = strings.ToLower(name)
	if !strings.Contains(name, "phi-3") && !strings.Contains(name, "phi3") {
		return
	}
	for _, id := range t.special {
		t.attrs[id] |= AttrRStrip
	}
	set := func(s string, on bool) {
		if id, ok := t.ids[s]; ok {
			if on {
				t.attrs[id] |= AttrRStrip
			} else {
				t.attrs[id] &^= AttrRStrip
			}
		}
	}
	set("</s>", true)
	for _, s := range []string{"<unk>", "<s>", "<|endoftext|>"} {
		set(s, false)
	}
}
