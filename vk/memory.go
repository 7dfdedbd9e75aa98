package vk

import (
	"fmt"
	"sort"
	"sync"
	"unsafe"

	vk "github.com/vulkan-go/vulkan"
)

// Device memory is suballocated: a memPool owns large VkDeviceMemory blocks
// of one memory type and hands out aligned spans of them, so that many small
// buffers do not each cost an allocation (drivers limit their number).
// Host-visible blocks are mapped once, for their whole life.

const defaultBlockSize = 64 << 20

type memPool struct {
	dev       *Device
	typeIndex int
	mappable  bool
	blockSize uint64

	mu     sync.Mutex
	blocks []*memBlock
}

type memBlock struct {
	mem    vk.DeviceMemory
	size   uint64
	mapped unsafe.Pointer // nil when not host-visible
	free   []span         // sorted, coalesced
	used   uint64
}

type span struct{ off, size uint64 }

// memAlloc is a span of a block.
type memAlloc struct {
	block *memBlock
	off   uint64
	size  uint64
}

// ptr returns the host address of the allocation, or nil.
func (a memAlloc) ptr() unsafe.Pointer {
	if a.block == nil || a.block.mapped == nil {
		return nil
	}
	return unsafe.Add(a.block.mapped, a.off)
}

func (d *Device) pool(typeIndex int) *memPool {
	d.poolsMu.Lock()
	defer d.poolsMu.Unlock()
	p := d.pools[typeIndex]
	if p == nil {
		bs := uint64(defaultBlockSize)
		if m := d.lim.maxAllocationSize; m != 0 && m < bs {
			bs = m
		}
		if typeIndex == d.barType && !d.bar.all {
			// A small BAR window holds a few small buffers.
			bs = min(bs, max(d.bar.budget/4, 1<<20))
		}
		p = &memPool{
			dev:       d,
			typeIndex: typeIndex,
			mappable:  d.memTypes[typeIndex].has(vk.MemoryPropertyHostVisibleBit),
			blockSize: bs,
		}
		d.pools[typeIndex] = p
	}
	return p
}

func (p *memPool) allocated() uint64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	var n uint64
	for _, b := range p.blocks {
		n += b.size
	}
	return n
}

func alignUp(n, a uint64) uint64 {
	if a <= 1 {
		return n
	}
	return (n + a - 1) / a * a
}

// alloc returns size bytes aligned to align. Requests larger than half a
// block get a dedicated block.
func (p *memPool) alloc(size, align uint64) (memAlloc, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if size <= p.blockSize/2 {
		for _, b := range p.blocks {
			if off, ok := b.take(size, align); ok {
				return memAlloc{block: b, off: off, size: size}, nil
			}
		}
	}
	bs := p.blockSize
	if size > bs/2 {
		bs = alignUp(size, 4096)
	}
	b, err := p.newBlock(bs)
	if err != nil {
		return memAlloc{}, err
	}
	off, _ := b.take(size, align)
	return memAlloc{block: b, off: off, size: size}, nil
}

func (p *memPool) newBlock(size uint64) (*memBlock, error) {
	d := p.dev
	info := &vk.MemoryAllocateInfo{
		SType:           vk.StructureTypeMemoryAllocateInfo,
		AllocationSize:  vk.DeviceSize(size),
		MemoryTypeIndex: uint32(p.typeIndex),
	}
	var mem vk.DeviceMemory
	res := vk.AllocateMemory(d.dev, info, nil, &mem)
	info.Free()
	d.memBlocksMade.Add(1)
	if res != vk.Success {
		return nil, fmt.Errorf("vulkan %s: allocate %d bytes of device memory (type %d): %w", d.name, size, p.typeIndex, vk.Error(res))
	}
	b := &memBlock{mem: mem, size: size, free: []span{{0, size}}}
	if p.mappable {
		var ptr unsafe.Pointer
		if res := vk.MapMemory(d.dev, mem, 0, vk.DeviceSize(vk.WholeSize), 0, &ptr); res != vk.Success {
			vk.FreeMemory(d.dev, mem, nil)
			return nil, fmt.Errorf("vulkan %s: map %d bytes of device memory: %w", d.name, size, vk.Error(res))
		}
		b.mapped = ptr
	}
	p.blocks = append(p.blocks, b)
	return b, nil
}

// take carves an aligned span out of the block's free list (first fit).
func (b *memBlock) take(size, align uint64) (uint64, bool) {
	for i, s := range b.free {
		off := alignUp(s.off, align)
		if off+size > s.off+s.size {
			continue
		}
		end := s.off + s.size
		var repl []span
		if off > s.off {
			repl = append(repl, span{s.off, off - s.off})
		}
		if off+size < end {
			repl = append(repl, span{off + size, end - off - size})
		}
		b.free = append(b.free[:i], append(repl, b.free[i+1:]...)...)
		b.used += size
		return off, true
	}
	return 0, false
}

// release returns an allocation; an empty block is freed at once so memory
// use follows the live buffers.
func (p *memPool) release(a memAlloc) {
	if a.block == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	b := a.block
	b.free = append(b.free, span{a.off, a.size})
	sort.Slice(b.free, func(i, j int) bool { return b.free[i].off < b.free[j].off })
	merged := b.free[:1]
	for _, s := range b.free[1:] {
		last := &merged[len(merged)-1]
		if last.off+last.size == s.off {
			last.size += s.size
		} else {
			merged = append(merged, s)
		}
	}
	b.free = merged
	b.used -= a.size
	if b.used == 0 {
		for i, x := range p.blocks {
			if x == b {
				p.blocks = append(p.blocks[:i], p.blocks[i+1:]...)
				break
			}
		}
		if b.mapped != nil {
			vk.UnmapMemory(p.dev.dev, b.mem)
		}
		vk.FreeMemory(p.dev.dev, b.mem, nil)
	}
}

// destroy frees every block, whatever is still allocated in it; the device
// is being released and no buffer uses the memory any more.
func (p *memPool) destroy() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, b := range p.blocks {
		if b.mapped != nil {
			vk.UnmapMemory(p.dev.dev, b.mem)
		}
		vk.FreeMemory(p.dev.dev, b.mem, nil)
	}
	p.blocks = nil
}
