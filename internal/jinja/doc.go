// Package jinja renders Jinja2 templates: the chat templates that GGUF
// files carry in tokenizer.chat_template.
//
// # Origin
//
// It is github.com/ardanlabs/jinja v1.8.0 (Apache License 2.0, see
// LICENSE), copied here so that it could be changed: a chat template is
// data from a model file, often downloaded, and gpurt renders it for
// every chat request. Upstream, a template could crash the process (a
// macro that calls itself, or a list that holds itself, overflows the
// stack; "a" * -1 panics) or hang it (range(10**11), a string doubled
// in a loop), as llama.cpp's own Jinja engine could until it took
// recursion limits.
//
// # Limits
//
// Compile fails, with an error wrapping ErrLimit, on expressions or
// blocks nested more than 200 deep. A render fails with ErrLimit when it
//
//   - has more than 100 macro or caller() calls in progress, or evaluates
//     expressions more than 2000 deep;
//   - walks (prints, compares or encodes) lists and dicts nested more than
//     100 deep, which a list that holds itself is;
//   - does more than 2²⁵ units of work: a unit a node or expression
//     evaluated, loop pass and value walked, a unit a byte of a string made
//     or written, 16 a list item or dict entry made (range, repeats,
//     replaces and indents are charged before they are made);
//   - or takes more than 2 s.
//
// A chat of 20,000 messages through Qwen3's template renders well inside
// them (TestLongChatWithinLimits). Renders run one at a time, so that the
// builtins charge the render in progress; a panic in the engine comes
// back from Render as an error.
//
// # Changes from upstream
//
// The limits above (limits.go, and the charges and depth counts in the
// evaluator, the parser, the value walks and the builtins); s * n is
// empty for n <= 0, as in Python; range is computed without overflowing
// near the int64 limit; and the files are formatted (gofmt), with this
// file holding the package comment. Upstream's test that renders every
// template with Python's Jinja2 (through uv) is left out.
package jinja
