package vk

import (
	vk "github.com/vulkan-go/vulkan"
)

// Each dispatch binds its tensors as storage-buffer ranges: the range starts
// at the tensor's offset rounded down to minStorageBufferOffsetAlignment (the
// rest of the offset travels in push constants) and ends at the tensor's
// last 32-bit word. Descriptor sets come from pools owned by the stream's
// command-buffer slots: a slot resets its pools when it is reused (its
// previous submission has completed), so the pools serve every compute,
// and within one command buffer a set is shared by the dispatches that bind
// the same ranges.

// binding is one storage-buffer range of a descriptor set.
type binding struct {
	buf        *devBuffer
	base, size uint64
}

type setKey [numBindings]struct {
	buf        vk.Buffer
	base, size uint64
}

const setsPerPool = 256

// descriptors are a slot's descriptor pools and the sets allocated so far.
type descriptors struct {
	pools []vk.DescriptorPool
	used  int // sets taken from the last pool
	sets  map[setKey]vk.DescriptorSet
}

// set returns a descriptor set binding binds, allocated in this slot.
func (ds *descriptors) set(d *Device, binds *[numBindings]binding) (vk.DescriptorSet, error) {
	var key setKey
	for i, b := range binds {
		key[i].buf, key[i].base, key[i].size = b.buf.buf, b.base, b.size
	}
	if s, ok := ds.sets[key]; ok {
		return s, nil
	}
	if len(ds.pools) == 0 || ds.used == setsPerPool {
		if err := ds.grow(d); err != nil {
			return nil, err
		}
	}
	s, res := allocSet(d.dev, ds.pools[len(ds.pools)-1], d.dsLayout)
	if err := d.check(res, "allocate descriptor set"); err != nil {
		return nil, err
	}
	ds.used++
	writeSet(d.dev, s, binds)
	if ds.sets == nil {
		ds.sets = map[setKey]vk.DescriptorSet{}
	}
	ds.sets[key] = s
	return s, nil
}

func (ds *descriptors) grow(d *Device) error {
	info := &vk.DescriptorPoolCreateInfo{
		SType:         vk.StructureTypeDescriptorPoolCreateInfo,
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
		return err
	}
	ds.pools = append(ds.pools, pool)
	ds.used = 0
	return nil
}

// reset returns every set to the pools; the slot's previous submission
// must have completed. One pool is kept; more were needed only by a
// command buffer with many dispatches and are recreated when needed again.
func (ds *descriptors) reset(d *Device) error {
	clear(ds.sets)
	if len(ds.pools) == 0 {
		return nil
	}
	for _, p := range ds.pools[1:] {
		vk.DestroyDescriptorPool(d.dev, p, nil)
	}
	ds.pools = ds.pools[:1]
	ds.used = 0
	return d.check(vk.ResetDescriptorPool(d.dev, ds.pools[0], 0), "reset descriptor pool")
}

func (ds *descriptors) destroy(d *Device) {
	for _, p := range ds.pools {
		vk.DestroyDescriptorPool(d.dev, p, nil)
	}
	ds.pools = nil
	ds.sets = nil
}
