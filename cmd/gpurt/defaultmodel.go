package main

import (
	"github.com/gpurt/gpurt/gguf"
	"github.com/gpurt/gpurt/models"
)

// openDefaultModel parses the model embedded in the binary (models/README.md).
func openDefaultModel() (*gguf.File, string, error) {
	f, err := gguf.Parse(models.Default)
	return f, models.DefaultName + " (embedded)", err
}
