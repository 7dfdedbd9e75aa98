package runtime

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
)

// Reg is a backend family (cpu, vulkan, webgpu) that finds its devices.
// Backend packages register one from init(); device discovery happens lazily
// on first use, so importing a backend costs nothing until it is asked for.
// A family that holds driver resources (instances, logical devices,
// pipelines, memory) also implements io.Closer; see Release.
type Reg interface {
	Name() string
	// Devices enumerates the family's devices. A non-nil error explains why
	// there are none (no loader, no driver), for `gpurt devices`.
	Devices() ([]Device, error)
}

type regEntry struct {
	reg      Reg
	priority int

	mu     sync.Mutex
	loaded bool
	devs   []Device
	err    error
}

var registry struct {
	mu   sync.Mutex
	regs []*regEntry
}

// Register adds a backend family. Higher priority families come first among
// devices of the same type; the CPU is always last.
func Register(r Reg, priority int) {
	registry.mu.Lock()
	defer registry.mu.Unlock()
	for _, e := range registry.regs {
		if e.reg.Name() == r.Name() {
			panic(fmt.Sprintf("runtime: backend %q registered twice", r.Name()))
		}
	}
	registry.regs = append(registry.regs, &regEntry{reg: r, priority: priority})
	sort.SliceStable(registry.regs, func(i, j int) bool { return registry.regs[i].priority > registry.regs[j].priority })
}

func (e *regEntry) load() ([]Device, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.loaded {
		e.devs, e.err = e.reg.Devices()
		e.loaded = true
	}
	return e.devs, e.err
}

// release closes the family if its devices were discovered.
func (e *regEntry) release() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.loaded {
		return nil
	}
	e.loaded, e.devs, e.err = false, nil, nil
	if c, ok := e.reg.(io.Closer); ok {
		if err := c.Close(); err != nil {
			return fmt.Errorf("release %s: %w", e.reg.Name(), err)
		}
	}
	return nil
}

// Release frees the driver resources of every backend family whose devices
// were discovered: logical devices, pipelines, device memory and instances.
// Call it when done with gpurt, after freeing buffers and closing backends;
// the error names what was still open (it is released all the same).
// Devices, backends and buffers obtained earlier must not be used
// afterwards; the next registry call discovers the devices afresh.
func Release() error {
	registry.mu.Lock()
	regs := append([]*regEntry(nil), registry.regs...)
	registry.mu.Unlock()
	var errs []error
	for _, e := range regs {
		errs = append(errs, e.release())
	}
	return errors.Join(errs...)
}

// RegStatus is one backend family with its devices or the reason it has none.
type RegStatus struct {
	Name    string
	Devices []Device
	Err     error
}

// Regs lists the registered families in priority order.
func Regs() []RegStatus {
	registry.mu.Lock()
	regs := append([]*regEntry(nil), registry.regs...)
	registry.mu.Unlock()
	out := make([]RegStatus, 0, len(regs))
	for _, e := range regs {
		devs, err := e.load()
		out = append(out, RegStatus{Name: e.reg.Name(), Devices: devs, Err: err})
	}
	return out
}

// typeRank orders device types: dedicated GPUs first, the CPU last.
func typeRank(t DeviceType) int {
	switch t {
	case DeviceGPU:
		return 0
	case DeviceIGPU:
		return 1
	case DeviceAccel:
		return 2
	}
	return 3
}

// Devices lists every device in priority order: GPUs, integrated GPUs,
// accelerators, then CPUs; ties keep family priority and discovery order.
func Devices() []Device {
	var devs []Device
	for _, r := range Regs() {
		devs = append(devs, r.Devices...)
	}
	sortDevices(devs)
	return devs
}

func sortDevices(devs []Device) {
	sort.SliceStable(devs, func(i, j int) bool {
		return typeRank(devs[i].Props().Type) < typeRank(devs[j].Props().Type)
	})
}

// DeviceByName finds a device by exact name, case-insensitively.
func DeviceByName(name string) (Device, error) {
	for _, d := range Devices() {
		if strings.EqualFold(d.Name(), name) {
			return d, nil
		}
	}
	return nil, fmt.Errorf("no device named %q", name)
}

// DevicesByType lists the devices of one type, in priority order.
func DevicesByType(t DeviceType) []Device {
	var out []Device
	for _, d := range Devices() {
		if d.Props().Type == t {
			out = append(out, d)
		}
	}
	return out
}

// DevicesOf lists the devices of a backend family ("cpu", "vulkan",
// "webgpu"), discovering only that family.
func DevicesOf(family string) []Device {
	devs, _ := FamilyDevices(family)
	return devs
}

// FamilyDevices discovers one backend family's devices, without touching
// the other families, or says why it has none.
func FamilyDevices(family string) ([]Device, error) {
	registry.mu.Lock()
	var entry *regEntry
	for _, e := range registry.regs {
		if strings.EqualFold(e.reg.Name(), family) {
			entry = e
			break
		}
	}
	registry.mu.Unlock()
	if entry == nil {
		return nil, fmt.Errorf("no backend family %q is registered", family)
	}
	return entry.load()
}

// BestDevice is the automatic choice: the first hardware GPU or accelerator,
// else the CPU. Software GPUs are never chosen automatically, because gpurt's
// CPU backend is faster than them.
func BestDevice() (Device, error) { return bestOf(Devices()) }

// bestOf picks from devices in priority order.
func bestOf(devs []Device) (Device, error) {
	var cpu Device
	for _, d := range devs {
		p := d.Props()
		if p.Type == DeviceCPU {
			if cpu == nil {
				cpu = d
			}
			continue
		}
		if !p.Software {
			return d, nil
		}
	}
	if cpu == nil {
		return nil, fmt.Errorf("no device registered (import github.com/gpurt/gpurt/cpu)")
	}
	return cpu, nil
}
