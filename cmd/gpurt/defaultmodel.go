package main

import (
	"errors"

	"github.com/gpurt/gpurt/gguf"
)

func openDefaultModel() (*gguf.File, string, error) {
	return nil, "", errors.New("no default model embedded yet; pass -m MODEL.gguf")
}
