// Package llama runs decoder-only language models from GGUF files on any
// gpurt backend: the model layer (architectures, hyperparameters, weights,
// blocks), a multi-sequence KV cache with a llama_decode-like API,
// perplexity and KL divergence as llama-perplexity measures them, and the
// tokenizer and sampler.
//
// # Architectures
//
// general.architecture selects an Architecture from a registry; each lives
// in its own arch_*.go file and registers itself: llama (Llama 1-3,
// Mistral, SmolLM), qwen2, qwen3, gemma2, gemma3 and phi3. An unknown name
// is an error (rt.ErrUnsupported) that lists the supported ones
// (Architectures). An architecture gives its rope mode, its own
// hyperparameter defaults (Configure), its layer's weight struct and its
// block, written with the shared blocks as llama.cpp's src/models/*.cpp.
//
// # Hyperparameters
//
// readHparams reads the ARCH.* keys every architecture shares with their
// defaults: head sizes from attention.key_length/value_length, rope base,
// dimension count and scaling (linear, YaRN, LongRoPE), sliding window and
// its pattern, soft-caps, norm epsilon. Hparams.Validate and the weight
// shapes check them against each other and against the file's tensors
// before anything is sized by them: a block_count, vocab_size or tokenizer
// that disagrees with the tensors is an error wrapping rt.ErrCorruptFile.
//
// # Weights
//
// Weights are bound by name through struct tags (weights.go): a field
//
//	Q *rt.Tensor `gguf:"attn_q.weight" shape:"embd,q"`
//
// names its tensor inside the block ("blk.N." is prefixed), optional ones
// are marked `optional`, shared ones (rope_freqs) `global`, and the shape is
// checked in terms of the hyperparameters. Weight groups (attnWeights,
// fusedAttnWeights, qkNormWeights, ffnWeights, fusedFFNWeights,
// ropeFactors) are shared between architectures. Blocks go to devices by
// Options.GPULayers and Options.TensorSplit as llama.cpp's layer split
// (split.go deals the offloaded blocks by proportion); on the CPU the weights are
// used in place from the file's memory map unless Options.NoMmap.
//
// # Blocks
//
// blocks.go holds the reusable pieces: RMSNorm and LayerNorm, projections
// with optional biases, separate or fused q/k/v, per-head q/k norms, rope
// (normal or NEOX, partial, with frequency factors and YaRN through
// RopeExt), attention with GQA, sliding-window masks and logit soft-capping,
// SwiGLU and GeGLU feed-forwards (separate or fused gate/up). graph.go
// adds embedding scaling, the output norm, tied embeddings and the final
// soft-cap around the architecture's blocks.
//
// # KV cache and batches
//
// The cache (kvcache.go) has Options.NCtx cells (default: the trained
// context) of dtype F16, F32 or Q8_0. With Options.NSeq sequences it is
// split, as llama.cpp's default non-unified cache, into one stream of
// NCtx/NSeq cells per sequence. Decode takes a Batch of tokens with their
// positions and sequence ids, places each in a free cell of its
// sequence's stream, and runs it as ubatches (llama.cpp's equal split):
// t tokens of each of a run of adjacent streams in one forward pass,
// whose attention is one batched product over [streams] of each stream's
// own cells, so that a step of one token per sequence reads each
// sequence's cache once rather than every sequence's; an idle stream
// between busy ones gets padding tokens (in its free cells, seen by no
// one), so that the step stays one ubatch and one graph. The mask limits a
// token to the earlier positions of its own sequence (and the window on
// local layers); the logits of the marked tokens are kept for Logits.
// SeqRemove frees a sequence. Eval and Generate are sequence 0 on top.
// Graphs are reused while the ubatch's shape (tokens per stream, streams,
// the padded number of cells attended, outputs) stays the same.
//
// # Perplexity and KL divergence
//
// Model.Perplexity and Model.KLDivergence follow llama-perplexity: chunks
// of n_ctx tokens with BOS first, the second half of each scored, and
// llama.cpp's logits file (ReadKLDBase, written by Perplexity) for the
// KL-divergence base, so results compare with llama.cpp's one for one.
package llama
