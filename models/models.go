// Package models embeds gpurt's default model, a small llama trained on Jane
// Austen's novels by train.py and exported by export/ (see README.md), so
// that `gpurt run` works with no model file at hand.
package models

import _ "embed"

// DefaultName is the default model's file name in this directory.
const DefaultName = "austen.gguf"

// Default is the default model's GGUF image; gguf.Parse reads it in place.
//
//go:embed austen.gguf
var Default []byte
