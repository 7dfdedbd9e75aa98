//go:build cgo

package wgpu

import (
	"fmt"

	wg "github.com/oliverbestmann/webgpu/wgpu"
)

// bindLayout is the bind-group and pipeline layout shared by kernels with
// the same storage bindings: binding 0 is the params uniform (with a
// dynamic offset into the params arena), bindings 1..n are storage
// buffers, read-only where the slot's bit in ro is set (kernel.ro) and
// read_write otherwise.
type bindLayout struct {
	layoutKey
	bgl *wg.BindGroupLayout
	pl  *wg.PipelineLayout
}

type layoutKey struct {
	n  int
	ro uint8
}

func (l *bindLayout) release() {
	l.pl.Release()
	l.bgl.Release()
}

func (d *Device) layoutLocked(n int, ro uint8) (*bindLayout, error) {
	key := layoutKey{n, ro}
	if l := d.layouts[key]; l != nil {
		return l, nil
	}
	entries := []wg.BindGroupLayoutEntry{{
		Binding: 0, Visibility: wg.ShaderStageCompute,
		Buffer: wg.BufferBindingLayout{Type: wg.BufferBindingTypeUniform, HasDynamicOffset: true, MinBindingSize: paramsSize},
	}}
	for i := 1; i <= n; i++ {
		typ := wg.BufferBindingTypeStorage
		if ro&(1<<(i-1)) != 0 {
			typ = wg.BufferBindingTypeReadOnlyStorage
		}
		entries = append(entries, wg.BindGroupLayoutEntry{
			Binding: uint32(i), Visibility: wg.ShaderStageCompute,
			Buffer: wg.BufferBindingLayout{Type: typ},
		})
	}
	bgl, err := d.dev.TryCreateBindGroupLayout(&wg.BindGroupLayoutDescriptor{Label: fmt.Sprintf("gpurt %d bindings, read-only %b", n, ro), Entries: entries})
	if err != nil {
		return nil, err
	}
	pl, err := d.dev.TryCreatePipelineLayout(&wg.PipelineLayoutDescriptor{BindGroupLayouts: []*wg.BindGroupLayout{bgl}})
	if err != nil {
		bgl.Release()
		return nil, err
	}
	l := &bindLayout{layoutKey: key, bgl: bgl, pl: pl}
	d.layouts[key] = l
	return l, nil
}

// pipeline is a compiled kernel variant.
type pipeline struct {
	k      kernel
	layout *bindLayout
	cp     *wg.ComputePipeline
	err    error // a failed compile is remembered, not retried
}

func (p *pipeline) release() {
	if p.cp != nil {
		p.cp.Release()
		p.cp = nil
	}
}

// pipelineLocked returns k's pipeline, compiling it on first use.
func (d *Device) pipelineLocked(k kernel) (*pipeline, error) {
	key := k.key()
	if p, ok := d.pipes[key]; ok {
		return p, p.err
	}
	p := &pipeline{k: k}
	p.err = d.compileLocked(p)
	d.pipes[key] = p
	return p, p.err
}

func (d *Device) compileLocked(p *pipeline) error {
	k := p.k
	if len(k.binds) == 0 || len(k.binds) > maxSlots {
		return fmt.Errorf("%s: kernel %s has %d bindings", d.name, k.file, len(k.binds))
	}
	layout, err := d.layoutLocked(len(k.binds), k.ro)
	if err != nil {
		return fmt.Errorf("%s: layout for %s: %w", d.name, k.file, err)
	}
	src, err := buildSource(k, d.f16)
	if err != nil {
		return fmt.Errorf("%s: %w", d.name, err)
	}
	mod, err := d.dev.TryCreateShaderModule(&wg.ShaderModuleDescriptor{Label: k.file, WGSLSource: &wg.ShaderSourceWGSL{Code: src.code}})
	if err != nil {
		return compileError(d.name, k, src, err)
	}
	defer mod.Release()
	cp, err := d.dev.TryCreateComputePipeline(&wg.ComputePipelineDescriptor{
		Label:   k.key(),
		Layout:  layout.pl,
		Compute: wg.ProgrammableStageDescriptor{Module: mod, EntryPoint: "main"},
	})
	if err != nil {
		return compileError(d.name, k, src, err)
	}
	p.layout, p.cp = layout, cp
	return nil
}

// bindKey identifies a bind group: the layout and each storage binding's
// buffer and range. The params binding uses a dynamic offset, so it is not
// part of the key.
type bindKey struct {
	layout layoutKey
	arena  uint64 // id of the params arena buffer
	slots  [maxSlots]bindRange
}

type bindRange struct {
	id        uint64
	off, size uint64
}

// bindCache keeps bind groups for reuse across graph computes, which
// repeat the same bindings (e.g. every token of a model). Groups naming a
// buffer are dropped when it is freed: submitting a group with a destroyed
// buffer aborts the process in wgpu-native.
type bindCache struct {
	groups map[bindKey]*wg.BindGroup
	byBuf  map[uint64][]bindKey
}

const maxBindGroups = 4096

func (c *bindCache) init() {
	c.groups = map[bindKey]*wg.BindGroup{}
	c.byBuf = map[uint64][]bindKey{}
}

func (c *bindCache) dropBuffer(id uint64) {
	for _, k := range c.byBuf[id] {
		if g, ok := c.groups[k]; ok {
			g.Release()
			delete(c.groups, k)
		}
	}
	delete(c.byBuf, id)
}

func (c *bindCache) releaseAll() {
	for _, g := range c.groups {
		g.Release()
	}
	c.init()
}

// bindGroupLocked returns the bind group for the given buffers and ranges
// under layout l, with the params arena at binding 0.
func (d *Device) bindGroupLocked(l *bindLayout, arena *wg.Buffer, arenaID uint64, bufs []*buffer, ranges []bindRange) (*wg.BindGroup, error) {
	key := bindKey{layout: l.layoutKey, arena: arenaID}
	copy(key.slots[:], ranges)
	if g, ok := d.binds.groups[key]; ok {
		return g, nil
	}
	if len(d.binds.groups) >= maxBindGroups {
		d.binds.releaseAll()
	}
	entries := []wg.BindGroupEntry{{Binding: 0, Buffer: arena, Offset: 0, Size: paramsSize}}
	for i, b := range bufs {
		entries = append(entries, wg.BindGroupEntry{Binding: uint32(i + 1), Buffer: b.buf, Offset: ranges[i].off, Size: ranges[i].size})
	}
	g, err := d.dev.TryCreateBindGroup(&wg.BindGroupDescriptor{Layout: l.bgl, Entries: entries})
	if err != nil {
		return nil, err
	}
	d.binds.groups[key] = g
	for _, r := range ranges {
		d.binds.byBuf[r.id] = append(d.binds.byBuf[r.id], key)
	}
	d.binds.byBuf[arenaID] = append(d.binds.byBuf[arenaID], key)
	return g, nil
}
