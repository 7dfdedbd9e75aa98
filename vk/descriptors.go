package vk

import (
	"sync"

	vk "github.com/vulkan-go/vulkan"
)

// Tensors are bound as whole VkBuffers (offset 0, which satisfies any
// minStorageBufferOffsetAlignment) and addressed by byte offsets in push
// constants. A descriptor set therefore depends only on which buffers an op
// touches, so sets are cached per buffer tuple and reused across graph
// computes; a graph typically needs a handful. Sets naming a buffer are
// freed when the buffer is.

const setsPerPool = 256

type descKey [numBindings]vk.Buffer

type descEntry struct {
	set  vk.DescriptorSet
	pool *descPool
}

type descPool struct {
	pool vk.DescriptorPool
	live int
}

type descCache struct {
	d     *Device
	mu    sync.Mutex
	sets  map[descKey]descEntry
	pools []*descPool
}

func newDescCache(d *Device) *descCache {
	return &descCache{d: d, sets: map[descKey]descEntry{}}
}

// get returns the set binding the four buffers, creating it on first use.
func (c *descCache) get(key descKey) (vk.DescriptorSet, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.sets[key]; ok {
		return e.set, nil
	}
	set, pool, err := c.alloc()
	if err != nil {
		return nil, err
	}
	writeSet(c.d.dev, set, key[:])
	c.sets[key] = descEntry{set: set, pool: pool}
	return set, nil
}

func (c *descCache) alloc() (vk.DescriptorSet, *descPool, error) {
	d := c.d
	for _, p := range c.pools {
		if p.live < setsPerPool {
			set, err := c.allocFrom(p)
			if err == nil {
				return set, p, nil
			}
		}
	}
	info := &vk.DescriptorPoolCreateInfo{
		SType:         vk.StructureTypeDescriptorPoolCreateInfo,
		Flags:         vk.DescriptorPoolCreateFlags(vk.DescriptorPoolCreateFreeDescriptorSetBit),
		MaxSets:       setsPerPool,
		PoolSizeCount: 1,
		PPoolSizes: []vk.DescriptorPoolSize{{
			Type:            vk.DescriptorTypeStorageBuffer,
			DescriptorCount: setsPerPool * numBindings,
		}},
	}
	var pool vk.DescriptorPool
	res := vk.CreateDescriptorPool(d.dev, info, nil, &pool)
	info.Free()
	if err := d.check(res, "create descriptor pool"); err != nil {
		return nil, nil, err
	}
	p := &descPool{pool: pool}
	c.pools = append(c.pools, p)
	set, err := c.allocFrom(p)
	return set, p, err
}

func (c *descCache) allocFrom(p *descPool) (vk.DescriptorSet, error) {
	info := &vk.DescriptorSetAllocateInfo{
		SType:              vk.StructureTypeDescriptorSetAllocateInfo,
		DescriptorPool:     p.pool,
		DescriptorSetCount: 1,
		PSetLayouts:        []vk.DescriptorSetLayout{c.d.dsLayout},
	}
	var set vk.DescriptorSet
	res := vk.AllocateDescriptorSets(c.d.dev, info, &set)
	info.Free()
	if err := c.d.check(res, "allocate descriptor set"); err != nil {
		return nil, err
	}
	p.live++
	return set, nil
}

// forget frees the sets that bind buf, which is about to be destroyed.
func (c *descCache) forget(buf vk.Buffer) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for key, e := range c.sets {
		for _, b := range key {
			if b == buf {
				set := e.set
				vk.FreeDescriptorSets(c.d.dev, e.pool.pool, 1, &set)
				e.pool.live--
				delete(c.sets, key)
				break
			}
		}
	}
	// Drop empty pools beyond the first so memory follows use.
	kept := c.pools[:0]
	for i, p := range c.pools {
		if p.live == 0 && i > 0 {
			vk.DestroyDescriptorPool(c.d.dev, p.pool, nil)
			continue
		}
		kept = append(kept, p)
	}
	c.pools = kept
}
