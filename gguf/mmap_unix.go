//go:build unix

package gguf

import (
	"fmt"
	"os"
	"syscall"
)

// mapFile maps path read-only into memory, so tensor data is paged in on
// demand instead of being copied to the Go heap.
func mapFile(path string) ([]byte, func() error, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	size := st.Size()
	if size == 0 {
		return []byte{}, func() error { return nil }, nil
	}
	if int64(int(size)) != size {
		return nil, nil, fmt.Errorf("file of %d bytes is too large to map", size)
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		// Some file systems cannot be mapped; reading the file still works.
		return readWholeFile(path)
	}
	return data, func() error { return syscall.Munmap(data) }, nil
}
