// Package tokenizer turns text into the token ids of a model's vocabulary
// and back, exactly as llama.cpp's llama_vocab does, for the two kinds of
// vocabulary most GGUF models carry.
//
// # Vocabularies
//
// A [Vocab] is read from a GGUF file's tokenizer.ggml.* metadata with
// [FromGGUF] (vocab-only files, with no tensors, work) or built by hand;
// [New] makes a [Tokenizer] of it, and [Open] does both.
//
//   - "llama" is SentencePiece (Llama 2, Phi-3, Gemma): spaces become "▁",
//     a space is prefixed to the text unless add_space_prefix is false,
//     adjacent pieces merge by score, and what is no token falls back to
//     <0xNN> byte tokens. An invalid UTF-8 byte is a symbol of the length
//     its lead bits claim, as in llama.cpp.
//   - "gpt2" is byte-level BPE (Llama 3, Qwen 2/3, GPT-2, DeepSeek, Falcon,
//     StarCoder, SmolLM, Mistral's Tekken, GPT-4o's o200k): a pre-tokenizer
//     chosen by tokenizer.ggml.pre splits the text into words, each word's
//     bytes are mapped to GPT-2's printable code points, and pairs merge by
//     the rank of tokenizer.ggml.merges. Llama 3 and Tekken take a word that
//     is already a token whole (llama.cpp's ignore_merges). An unknown pre
//     is an error naming it and the known ones.
//
// # Pre-tokenizers
//
// llama.cpp splits words with regular expressions that Go's regexp cannot
// run (\s+(?!\S) needs look-ahead), partly through hand-written splitters
// and partly through std::regex over a text whose code points are collapsed
// to their Unicode category. Each expression is written here as code over
// the categories of Go's unicode tables, with ECMAScript's rule that the
// first alternative that matches wins, so that the splits, and the ids,
// are llama.cpp's.
//
// # Special tokens
//
// [EncodeOptions] choose whether BOS/EOS are added (AddSpecial, as the
// vocabulary's add_bos_token and add_eos_token say) and whether the texts
// of control tokens such as <|im_start|> or [INST] are matched as those
// tokens (ParseSpecial). User-defined tokens are matched in both modes, as
// llama.cpp does. [Tokenizer.IsEOG] is true for every end-of-generation
// token: EOS, EOT, EOM and the texts llama.cpp treats as such (<|im_end|>,
// <|eot_id|>, <end_of_turn>, <|endoftext|>, </s>, ...).
//
// # Decoding
//
// [Tokenizer.Decode] is llama_detokenize, with [DecodeOptions] to render or
// skip control tokens; [Tokenizer.Piece] and [Tokenizer.RenderPiece] are one
// token's bytes. A
// [StreamDecoder] turns tokens into text as they are generated, holding
// back the bytes of a character split across tokens until it is complete.
//
// # Speed
//
// Merging runs on a linked list of symbols with a binary heap of candidate
// pairs keyed by integer ids, reusing its buffers between words, and a
// cache keeps the ids of words seen before.
package tokenizer
