// Package server is gpurt's OpenAI-compatible HTTP server: the API, the
// engine that runs generations on a llama.Model, the sampling chain and
// the chat templates. cmd/gpurt's serve and chat subcommands are built on
// it.
//
// # Endpoints
//
// POST /v1/chat/completions and /v1/completions take OpenAI's requests
// (and llama-server's n_predict, top_k, min_p, repeat_penalty,
// repeat_last_n) and answer whole or, with "stream": true, as server-sent
// events ending with "data: [DONE]"; the last chunk carries usage. GET
// /v1/models lists the model, /health says ok, /metrics gives Prometheus
// text (requests by endpoint and status, prompt and generated tokens,
// tokens/s, queue depth, busy slots). GET / is a chat page embedded in the
// binary (web/index.html, no network use). /v1/embeddings returns the
// mean-pooled final hidden states (llama.Model.Embed), computed in free
// cells of a slot's stream (an idle slot's kept cache is dropped when no
// stream has room).
//
// # Bad input and security
//
// Every malformed request gets a 4xx with an OpenAI error object
// {"error": {"message", "type", "param", "code"}}: bad JSON, known fields
// of the wrong type, out-of-range values, a prompt that fills the
// context (code context_length_exceeded), a body over Options.MaxBodyBytes
// (413). With Options.APIKey every endpoint but /health and the page
// wants "Authorization: Bearer KEY" (401 otherwise). CORS headers are sent
// only with Options.CORSOrigin. Server.HTTPServer sets header, body and
// idle timeouts; Options.RequestTimeout bounds a generation.
//
// # Engine
//
// Engine owns the model and batches continuously: N slots are N sequences
// of llama's multi-sequence KV cache (a stream of NCtx/N cells each, so a
// slot's tokens attend over its own cells only), and every step
// is one llama.Model.Decode holding the next token of each generating
// slot and chunks of new prompts (MaxBatch tokens at most), so a job
// waiting in the bounded queue joins at the next step; a job beyond the
// queue gets ErrQueueFull (HTTP 503). A cancelled request context (the
// client went away, or the timeout) ends its job at the next step and
// frees the slot. A slot keeps its cache after its job: a prompt that
// extends it (the next turn of a chat) evaluates only its new tokens.
//
// # Throughput
//
// With N slots a step costs far less than N single-slot steps on the
// CPU, since every op of the step gets N rows for one dispatch; what does
// grow with N is the attention, one KV stream per slot. Three things keep
// the step from costing more (docs/performance.md, section 8): a prompt
// joining the slots no longer makes the next step rebuild the decode graph
// (llama keeps decode steps on a scheduler of their own); the CPU pool's
// dispatcher runs the share of a helper that has not started instead of
// waiting for it, which matters here because the HTTP handlers share the
// process's cores with the helper; and a streamed chunk is written from a
// per-request template, with only its text encoded. On the CPU the
// step's attention runs as one fused op, one task per (kv head, slot),
// split over the workers when big enough (cpu's doc.go), the weight
// products of 4 slots
// on a 4-column tile kernel (AVX-512), and the ROPE tables of a step's
// positions are computed once for every layer. BenchmarkEngineSlots
// (the engine alone) and BenchmarkServeLoad (over HTTP, against
// llama-server when ../shared/tools/llama.cpp has it) measure the 4-slot
// against the 1-slot tokens/s; llama's BenchmarkDecodeSeqsCPU times one
// decode step of 1 and of 4 sequences.
//
// # Sampling
//
// The chain applies the repetition penalty (llama.cpp's: a positive logit
// divided, a negative one multiplied, over the last repeat_last_n tokens)
// and min-p (tokens under min_p times the top probability dropped) to the
// logits, then llama.Sampler's top-k, top-p and temperature.
//
// # Chat templates
//
// A model's own Jinja template (tokenizer.chat_template) is rendered with
// internal/jinja, a copy of github.com/ardanlabs/jinja (JinjaTemplate),
// which gives the built-in formats' text exactly for the templates of
// llama.cpp's Qwen2, Llama 3 and Gemma 3 vocab files (template_test.go).
// Built-ins render chatml, llama2, llama3, gemma, phi3 and mistral for
// files without one, or by name (ChooseTemplate; --chat-template
// NAME|FILE). A template that does not compile or render falls back to the
// built-in its markers name, as llama.cpp's llm_chat_detect_template, else
// chatml (its Refused says why; serve and chat print it). Templates render
// under internal/jinja's limits (recursion, nesting, work and time), so
// that a hostile model file's template fails, not crashes or hangs the
// server: one that runs away on a request's messages makes that request a
// 400 naming the template. Rendered prompts are tokenized with
// special-token parsing (a leading BOS text is left to the tokenizer);
// generation stops at every end-of-generation token and at the format's
// end-of-turn texts.
package server
