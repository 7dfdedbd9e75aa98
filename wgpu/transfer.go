//go:build cgo

package wgpu

import (
	"errors"
	"fmt"

	wg "github.com/oliverbestmann/webgpu/wgpu"
)

// Transfers between host memory and device buffers. All of these run with
// the device mutex held. WebGPU copies and writes work on 4-byte words, and
// maps on 8-byte-aligned offsets; the helpers widen each range to that and
// keep the bytes outside the caller's range intact.

const (
	stagingChunk = 32 << 20 // largest download staged at once
	writeChunk   = 16 << 20 // largest single WriteBuffer (wgpu stages each)
	// Writes from uploadMin bytes go through the device's own upload
	// buffer, uploadChunk at a time: wgpu-native stages each WriteBuffer
	// in fresh memory, whose first touch cost 57 ms per 16 MiB on
	// lavapipe (0.29 GB/s), where a kept buffer is written at memcpy
	// speed.
	uploadMin   = 1 << 20
	uploadChunk = 16 << 20
)

func alignDown(n, a int) int { return n &^ (a - 1) }
func alignUp(n, a int) int   { return (n + a - 1) &^ (a - 1) }

// writeLocked writes data at byte start of b.
func (d *Device) writeLocked(b *buffer, start int, data []byte) error {
	if b.bt.host {
		return d.mappedLocked(b, wg.MapModeWrite, start, data)
	}
	end := start + len(data)
	a0, a1 := alignDown(start, 4), alignUp(end, 4)
	if a0 != start || a1 != end {
		// Merge the partial head and tail words with the bytes already there.
		buf := make([]byte, a1-a0)
		if err := d.readLocked(b, a0, buf[:4]); err != nil {
			return err
		}
		if a1-4 > a0 {
			if err := d.readLocked(b, a1-4, buf[len(buf)-4:]); err != nil {
				return err
			}
		}
		copy(buf[start-a0:], data)
		start, data = a0, buf
	}
	if len(data) >= uploadMin {
		return d.uploadLocked(b, start, data)
	}
	for len(data) > 0 {
		n := min(len(data), writeChunk)
		if err := d.queue.TryWriteBuffer(b.buf, uint64(start), data[:n]); err != nil {
			return err
		}
		d.unsubmittedWrites = true
		start, data = start+n, data[n:]
	}
	return nil
}

// uploadLocked writes data (a multiple of 4 bytes, at a 4-byte aligned
// start) through the upload buffer: map it for writing (which waits for
// the copy out of it before), fill it, unmap, copy. Queue writes still
// pending land first, at that copy's submission, so writes keep their
// order.
func (d *Device) uploadLocked(b *buffer, start int, data []byte) error {
	for len(data) > 0 {
		n := min(len(data), uploadChunk)
		if err := d.ensureUploadLocked(uint64(n)); err != nil {
			return err
		}
		if err := d.mapWaitLocked(d.upload, wg.MapModeWrite, 0, uint64(n)); err != nil {
			return err
		}
		copy(d.upload.GetMappedRange(0, uint(n)), data[:n])
		if err := d.upload.TryUnmap(); err != nil {
			return err
		}
		if err := d.encodeLocked(func(enc *wg.CommandEncoder) error {
			return enc.TryCopyBufferToBuffer(d.upload, 0, b.buf, uint64(start), uint64(n))
		}); err != nil {
			return err
		}
		start, data = start+n, data[n:]
	}
	return nil
}

func (d *Device) ensureUploadLocked(n uint64) error {
	return d.ensureKeptLocked(&d.upload, &d.uploadSize, n, uploadMin, "upload", wg.BufferUsageMapWrite|wg.BufferUsageCopySrc)
}

// readLocked reads len(out) bytes at byte start of b, waiting for queued
// work that writes them.
func (d *Device) readLocked(b *buffer, start int, out []byte) error {
	if b.bt.host {
		return d.mappedLocked(b, wg.MapModeRead, start, out)
	}
	end := start + len(out)
	for pos := alignDown(start, 4); pos < end; {
		n := min(alignUp(end, 4)-pos, stagingChunk)
		if err := d.ensureStagingLocked(uint64(n)); err != nil {
			return err
		}
		if err := d.encodeLocked(func(enc *wg.CommandEncoder) error {
			return enc.TryCopyBufferToBuffer(b.buf, uint64(pos), d.staging, 0, uint64(n))
		}); err != nil {
			return err
		}
		if err := d.mapWaitLocked(d.staging, wg.MapModeRead, 0, uint64(n)); err != nil {
			return err
		}
		m := d.staging.GetMappedRange(0, uint(n))
		// Copy the part of [pos, pos+n) that lies inside [start, end).
		lo, hi := max(pos, start), min(pos+n, end)
		copy(out[lo-start:hi-start], m[lo-pos:hi-pos])
		if err := d.staging.TryUnmap(); err != nil {
			return err
		}
		pos += n
	}
	return nil
}

// mappedLocked maps the range of a host-visible buffer covering [start,
// start+len(data)) and reads it into data (MapModeRead) or writes data into
// it (MapModeWrite). Mapping waits for queued work that uses the buffer.
func (d *Device) mappedLocked(b *buffer, mode wg.MapMode, start int, data []byte) error {
	end := start + len(data)
	a0, a1 := alignDown(start, 8), alignUp(end, 4)
	if err := d.mapWaitLocked(b.buf, mode, uint64(a0), uint64(a1-a0)); err != nil {
		return err
	}
	m := b.buf.GetMappedRange(uint(a0), uint(a1-a0))
	if mode == wg.MapModeWrite {
		copy(m[start-a0:], data)
	} else {
		copy(data, m[start-a0:end-a0])
	}
	return b.buf.TryUnmap()
}

// mapWaitLocked maps [off, off+size) of buf and polls until the map
// completes. The callback runs inside Poll, on this goroutine.
func (d *Device) mapWaitLocked(buf *wg.Buffer, mode wg.MapMode, off, size uint64) error {
	done := false
	var status wg.MapAsyncStatus
	err := buf.TryMapAsync(mode, off, size, func(s wg.MapAsyncStatus) {
		status, done = s, true
	})
	if err != nil {
		return err
	}
	for i := 0; !done && i < 1000; i++ {
		d.dev.Poll(true, nil)
	}
	d.doneSubmit = d.lastSubmit // Poll(true, nil) waited for the whole queue
	if err := d.sink.take(); err != nil {
		return err
	}
	if !done {
		return errors.New("buffer map did not complete")
	}
	if status != wg.MapAsyncStatusSuccess {
		return fmt.Errorf("buffer map failed: %v", status)
	}
	return nil
}

func (d *Device) ensureStagingLocked(n uint64) error {
	return d.ensureKeptLocked(&d.staging, &d.stagingSize, n, 1<<16, "staging", wg.BufferUsageMapRead|wg.BufferUsageCopyDst)
}

// ensureKeptLocked makes *buf (of *size bytes) a buffer with usage of at
// least max(n, least) bytes, replacing a smaller one.
func (d *Device) ensureKeptLocked(buf **wg.Buffer, size *uint64, n, least uint64, label string, usage wg.BufferUsage) error {
	if *buf != nil && *size >= n {
		return nil
	}
	want := max(n, least)
	nb, err := d.createBuffer(&wg.BufferDescriptor{Label: d.name + " " + label, Size: want, Usage: usage})
	if err != nil {
		return err
	}
	if *buf != nil {
		(*buf).Destroy()
		(*buf).Release()
	}
	*buf, *size = nb, want
	return nil
}

// fillLocked sets size bytes at start of b to value.
func (d *Device) fillLocked(b *buffer, start, size int, value byte) error {
	if value == 0 && !b.bt.host && start%4 == 0 && size%4 == 0 {
		return d.encodeLocked(func(enc *wg.CommandEncoder) error {
			return enc.TryClearBuffer(b.buf, uint64(start), uint64(size))
		})
	}
	chunk := make([]byte, min(size, 4<<20))
	for i := range chunk {
		chunk[i] = value
	}
	for size > 0 {
		n := min(size, len(chunk))
		if err := d.writeLocked(b, start, chunk[:n]); err != nil {
			return err
		}
		start, size = start+n, size-n
	}
	return nil
}

// copyLocked copies n bytes between device buffers; offsets and n are
// multiples of 4 and the ranges do not overlap.
func (d *Device) copyLocked(src *buffer, s int, dst *buffer, t, n int) error {
	return d.encodeLocked(func(enc *wg.CommandEncoder) error {
		return enc.TryCopyBufferToBuffer(src.buf, uint64(s), dst.buf, uint64(t), uint64(n))
	})
}
