//go:build !unix

package gguf

import "errors"

func mkfifo(string) error { return errors.New("FIFOs are a unix feature") }
