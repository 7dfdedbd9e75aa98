package vk

import (
	"fmt"

	rt "github.com/gpurt/gpurt/runtime"
	vk "github.com/vulkan-go/vulkan"
)

// Event is a VkEvent set at a point of a backend's stream. Backends of the
// same device wait for it on the GPU (vkCmdWaitEvents); the host and other
// backends wait for the fence of the submission that sets it.
type Event struct {
	d     *Device
	ev    vk.Event
	b     *Backend // recording backend
	slot  *slot
	gen   uint64
	freed bool
}

// NewEvent creates an event on the device.
func (d *Device) NewEvent() (rt.Event, error) {
	if err := d.open(); err != nil {
		return nil, err
	}
	info := &vk.EventCreateInfo{SType: vk.StructureTypeEventCreateInfo}
	var ev vk.Event
	res := vk.CreateEvent(d.dev, info, nil, &ev)
	info.Free()
	if err := d.check(res, "create event"); err != nil {
		return nil, err
	}
	e := &Event{d: d, ev: ev}
	d.track(func(l *liveObjects) { l.events[e] = true })
	return e, nil
}

const eventStages = vk.PipelineStageFlags(vk.PipelineStageComputeShaderBit | vk.PipelineStageTransferBit)

func (e *Event) errorf(format string, args ...any) error {
	return fmt.Errorf("vulkan %s: event: %s", e.d.name, fmt.Sprintf(format, args...))
}

// unusable says why the event cannot be used (freed, or released with its
// device), or nil.
func (e *Event) unusable() error {
	if e.d.released.Load() {
		return errReleased
	}
	if e.freed {
		return errClosed
	}
	return nil
}

// Record marks the current end of b's stream and submits it.
func (e *Event) Record(b rt.Backend) error {
	if err := e.unusable(); err != nil {
		return e.errorf("record: %v", err)
	}
	vb, ok := b.(*Backend)
	if !ok || vb.d != e.d {
		return e.errorf("record: backend %s is not on this device", b.Name())
	}
	// The event is reset on the host, so that a wait recorded later sees
	// this point and not an earlier Record; the earlier point must be
	// complete first (it usually is: events are reused once waited for).
	if err := e.Synchronize(); err != nil {
		return err
	}
	if err := e.d.check(vk.ResetEvent(e.d.dev, e.ev), "reset event"); err != nil {
		return err
	}
	vb.mu.Lock()
	defer vb.mu.Unlock()
	if vb.closed {
		return e.errorf("record: backend %v", vb.closedErr())
	}
	cmd, err := vb.cmd()
	if err != nil {
		return err
	}
	vk.CmdSetEvent(cmd, e.ev, eventStages)
	sl := vb.s.cur
	if err := vb.flush(); err != nil {
		return err
	}
	e.b, e.slot, e.gen = vb, sl, sl.gen
	return nil
}

// Wait makes work queued later on b wait for the event: on the GPU for a
// backend of the same device, on the host otherwise.
func (e *Event) Wait(b rt.Backend) error {
	if err := e.unusable(); err != nil {
		return e.errorf("wait: %v", err)
	}
	vb, ok := b.(*Backend)
	if !ok || vb.d != e.d {
		return e.Synchronize()
	}
	if e.slot == nil {
		return nil
	}
	vb.mu.Lock()
	defer vb.mu.Unlock()
	if vb.closed {
		return e.errorf("wait: backend %v", vb.closedErr())
	}
	cmd, err := vb.cmd()
	if err != nil {
		return err
	}
	cmdWaitEvent(cmd, e.ev, eventStages, eventStages, gpuWrites, gpuAccess)
	return nil
}

// Synchronize blocks until the recorded work has completed.
func (e *Event) Synchronize() error {
	if err := e.unusable(); err != nil {
		return e.errorf("synchronize: %v", err)
	}
	vb := e.b
	if vb == nil {
		return nil
	}
	vb.mu.Lock()
	defer vb.mu.Unlock()
	if vb.closed || e.slot.gen != e.gen || !e.slot.pending {
		return nil // the slot was waited for (and maybe reused) since
	}
	return vb.s.wait(e.slot)
}

// Free destroys the event. The caller must not free an event that queued
// work still waits for. Freeing an event released with its device does
// nothing.
func (e *Event) Free() {
	if e.freed || e.d.released.Load() {
		return
	}
	e.destroy()
	e.d.track(func(l *liveObjects) { delete(l.events, e) })
}

func (e *Event) destroy() {
	e.freed = true
	vk.DestroyEvent(e.d.dev, e.ev, nil)
}
