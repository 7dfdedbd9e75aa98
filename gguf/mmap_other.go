//go:build !unix

package gguf

// mapFile reads the whole file where this platform has no syscall.Mmap.
func mapFile(path string) ([]byte, func() error, error) { return readWholeFile(path) }

// prefault does nothing where the file was read rather than mapped.
func prefault([]byte) {}
