package vk

import (
	"fmt"

	rt "github.com/gpurt/gpurt/runtime"
)

// Event marks a point of a backend's stream: the submission that ends
// there, whose fence the host waits for.
//
// It needs no VkEvent. All streams of a device submit to its one queue, and
// every command buffer begins with a full compute/transfer barrier, so work
// recorded after Record is already ordered after the marked point on the
// GPU. (Setting a VkEvent from the stream and waiting for it with
// vkCmdWaitEvents deadlocked when a wait was recorded into a command buffer
// before the set of the next Record went into the same buffer; and the
// host-side reset raced with waits still queued.)
type Event struct {
	d     *Device
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
	e := &Event{d: d}
	d.track(func(l *liveObjects) { l.events[e] = true })
	return e, nil
}

func (e *Event) errorf(format string, args ...any) error {
	return fmt.Errorf("vulkan %s: event: "+format, append([]any{e.d.name}, args...)...)
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
		return e.errorf("record: %w", err)
	}
	vb, ok := b.(*Backend)
	if !ok || vb.d != e.d {
		return e.errorf("record: backend %s is not on this device: %w", b.Name(), rt.ErrInvalidArgument)
	}
	vb.mu.Lock()
	defer vb.mu.Unlock()
	if vb.closed {
		return e.errorf("record: backend %w", vb.closedErr())
	}
	// Submit what is recorded, so the marked point has a fence; with
	// nothing recorded the point is the last submission (or nothing).
	if vb.s.cur != nil {
		sl := vb.s.cur
		if err := vb.flush(); err != nil {
			return err
		}
		e.b, e.slot, e.gen = vb, sl, sl.gen
		return nil
	}
	if n := len(vb.s.order); n > 0 {
		sl := vb.s.order[n-1]
		e.b, e.slot, e.gen = vb, sl, sl.gen
		return nil
	}
	e.b, e.slot = nil, nil
	return nil
}

// Wait makes work queued later on b wait for the event. A backend of the
// same device needs nothing: its later command buffers go to the same queue
// after the marked submission and begin with a full barrier. A backend of
// another device waits on the host.
func (e *Event) Wait(b rt.Backend) error {
	if err := e.unusable(); err != nil {
		return e.errorf("wait: %w", err)
	}
	vb, ok := b.(*Backend)
	if !ok || vb.d != e.d {
		return e.Synchronize()
	}
	return nil
}

// Synchronize blocks until the recorded work has completed.
func (e *Event) Synchronize() error {
	if err := e.unusable(); err != nil {
		return e.errorf("synchronize: %w", err)
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
}
