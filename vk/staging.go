package vk

import (
	"fmt"
	"math/bits"
	"os"
)

// Staging buffers carry data between the host and memory the host cannot map
// (device-local memory of a discrete GPU). They are pooled per device: a
// transfer takes a mapped buffer at least as large as it needs, and the stream
// returns it once the command buffer that used it completes, so a model step's
// small uploads and downloads reuse the same few buffers instead of creating a
// VkBuffer (and possibly a 64 MiB memory block) each time.
//
// Sizes are powers of two from stagingMin to stagingChunk; synchronous
// transfers larger than stagingChunk go through chunks of that size, several
// in flight at once. Idle buffers beyond stagingKeep bytes are destroyed.
const (
	stagingMin   = 64 << 10
	stagingChunk = 4 << 20
	stagingKeep  = 64 << 20
)

// stagingSize is the pooled size class for a transfer of n bytes.
func stagingSize(n uint64) uint64 {
	if n <= stagingMin {
		return stagingMin
	}
	if n > stagingChunk {
		return alignUp(n, stagingMin) // one-off, not kept
	}
	return 1 << bits.Len64(n-1)
}

// takeStaging returns an idle mapped staging buffer of at least n bytes,
// creating one when none is idle.
func (d *Device) takeStaging(n uint64) (*devBuffer, error) {
	size := stagingSize(n)
	d.stagingMu.Lock()
	best := -1
	for i, b := range d.stagingIdle {
		if b.size >= size && (best < 0 || b.size < d.stagingIdle[best].size) {
			best = i
		}
	}
	if best >= 0 {
		b := d.stagingIdle[best]
		d.stagingIdle = append(d.stagingIdle[:best], d.stagingIdle[best+1:]...)
		d.stagingIdleBytes -= b.size
		d.stagingMu.Unlock()
		return b, nil
	}
	d.stagingMu.Unlock()
	b, err := d.newDevBuffer(size, d.hostType)
	if err != nil {
		return nil, err
	}
	if b.bytes() == nil {
		b.destroy()
		return nil, fmt.Errorf("vulkan %s: staging memory type %d is not mapped", d.name, d.hostType)
	}
	d.stagingMu.Lock()
	d.stagingCreated++
	d.stagingMu.Unlock()
	return b, nil
}

// returnStaging puts a staging buffer whose transfer completed (or never ran)
// back in the pool, or destroys it when the pool holds enough.
func (d *Device) returnStaging(b *devBuffer) {
	d.stagingMu.Lock()
	if b.size <= stagingChunk && d.stagingIdleBytes+b.size <= stagingKeep && !d.released.Load() {
		d.stagingIdle = append(d.stagingIdle, b)
		d.stagingIdleBytes += b.size
		d.stagingMu.Unlock()
		return
	}
	d.stagingMu.Unlock()
	b.destroy()
}

// destroyStaging destroys the idle staging buffers (at device release, once
// no stream holds any).
func (d *Device) destroyStaging() {
	d.stagingMu.Lock()
	defer d.stagingMu.Unlock()
	for _, b := range d.stagingIdle {
		b.destroy()
	}
	d.stagingIdle, d.stagingIdleBytes = nil, 0
}

// stagingStats reports how many staging buffers were created in the device's
// life and how many are idle (tests check that transfers reuse them).
func (d *Device) stagingStats() (created, idle int) {
	d.stagingMu.Lock()
	defer d.stagingMu.Unlock()
	return d.stagingCreated, len(d.stagingIdle)
}

// discreteMode reads GPURT_VK_DISCRETE, which makes device-local buffers
// behave as on a discrete GPU, so that tests and benchmarks run those paths
// on UMA and software devices: "rebar" as BAR memory (host writes mapped,
// reads staged), any other value but "" and "0" as memory the host cannot map
// (every transfer staged).
func discreteMode() (staged, rebar bool) {
	switch v := os.Getenv("GPURT_VK_DISCRETE"); v {
	case "", "0":
		return false, false
	case "rebar":
		return false, true
	default:
		return true, false
	}
}
