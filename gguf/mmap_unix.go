//go:build unix

package gguf

import (
	"fmt"
	"os"
	"sync/atomic"
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

// madvPopulateRead is Linux's MADV_POPULATE_READ (5.14 and later).
const madvPopulateRead = 22

// prefault maps the pages of b, which starts on a page boundary of a
// file mapping: in one call where the kernel can (MADV_POPULATE_READ),
// else by reading a byte of every page.
func prefault(b []byte) {
	if len(b) == 0 || syscall.Madvise(b, madvPopulateRead) == nil {
		return
	}
	page := os.Getpagesize()
	var sink byte
	for i := 0; i < len(b); i += page {
		sink += b[i]
	}
	prefaultSink.Store(uint32(sink))
}

// prefaultSink keeps the page reads of prefault from being optimised away.
var prefaultSink atomic.Uint32
