package runtime

import (
	"fmt"
	"math"
)

// arena plans offsets inside the memory of one buffer type without touching
// any memory (ggml's dynamic tensor allocator). Memory comes in chunks of at
// most maxChunk bytes, one device buffer each, so that a graph may need more
// than a buffer type can allocate at once; no tensor crosses a chunk.
type arena struct {
	align    int
	maxChunk int
	chunks   []*arenaChunk
}

// arenaChunk keeps its free blocks sorted by offset. The last block is the
// open tail that reaches to maxChunk; high is how far allocations reached.
type arenaChunk struct {
	free []block
	high int
}

type block struct{ off, size int }

// place is where a tensor's memory starts.
type place struct{ chunk, off int }

func newArena(align, maxSize int) *arena {
	if align < 1 {
		align = 1
	}
	if maxSize <= 0 {
		maxSize = math.MaxInt / 2
	}
	return &arena{align: align, maxChunk: maxSize}
}

// reset forgets every allocation.
func (a *arena) reset() { a.chunks = a.chunks[:0] }

// roundUp is the number of bytes a tensor of size bytes occupies.
func (a *arena) roundUp(size int) int { return AlignUp(size, a.align) }

// alloc takes size bytes (rounded up to the alignment) from the best-fitting
// free block; only when no block between tensors fits does it extend a
// chunk's high-water mark, and only when no chunk can grow enough does it
// open a new chunk.
func (a *arena) alloc(size int) (place, error) {
	size = a.roundUp(size)
	if size > a.maxChunk {
		return place{}, fmt.Errorf("%d bytes exceed the maximum buffer size %d", size, a.maxChunk)
	}
	bestChunk, bestBlock, bestSize := -1, -1, math.MaxInt
	for ci, c := range a.chunks {
		for bi, b := range c.free[:len(c.free)-1] {
			if b.size >= size && b.size < bestSize {
				bestChunk, bestBlock, bestSize = ci, bi, b.size
			}
		}
	}
	if bestChunk < 0 {
		for ci, c := range a.chunks {
			if c.free[len(c.free)-1].size >= size {
				bestChunk, bestBlock = ci, len(c.free)-1
				break
			}
		}
	}
	if bestChunk < 0 {
		a.chunks = append(a.chunks, &arenaChunk{free: []block{{0, a.maxChunk}}})
		bestChunk, bestBlock = len(a.chunks)-1, 0
	}
	c := a.chunks[bestChunk]
	b := &c.free[bestBlock]
	off := b.off
	b.off += size
	b.size -= size
	if b.size == 0 && bestBlock < len(c.free)-1 {
		c.free = append(c.free[:bestBlock], c.free[bestBlock+1:]...)
	}
	c.high = max(c.high, off+size)
	return place{bestChunk, off}, nil
}

// free returns size bytes at p, merging with the neighbouring free blocks.
func (a *arena) free(p place, size int) {
	size = a.roundUp(size)
	c := a.chunks[p.chunk]
	i := 0
	for i < len(c.free) && c.free[i].off < p.off {
		i++
	}
	mergePrev := i > 0 && c.free[i-1].off+c.free[i-1].size == p.off
	mergeNext := i < len(c.free) && p.off+size == c.free[i].off
	switch {
	case mergePrev && mergeNext:
		c.free[i-1].size += size + c.free[i].size
		c.free = append(c.free[:i], c.free[i+1:]...)
	case mergePrev:
		c.free[i-1].size += size
	case mergeNext:
		c.free[i].off = p.off
		c.free[i].size += size
	default:
		c.free = append(c.free, block{})
		copy(c.free[i+1:], c.free[i:])
		c.free[i] = block{p.off, size}
	}
}

// sizes is the number of bytes each chunk needs.
func (a *arena) sizes() []int {
	s := make([]int, len(a.chunks))
	for i, c := range a.chunks {
		s[i] = c.high
	}
	return s
}
