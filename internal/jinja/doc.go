// Package jinja renders Jinja2 templates: the chat templates that GGUF
// files carry in tokenizer.chat_template.
//
// # Origin
//
// It is github.com/ardanlabs/jinja v1.8.0 (Apache License 2.0, see
// LICENSE), copied here so that it can be changed: a chat template is
// data from a model file, often downloaded, and gpurt renders it for
// every chat request.
//
// # Changes from upstream
//
// The files are formatted (gofmt), and this file holds the package comment.
package jinja
