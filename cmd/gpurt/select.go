package main

import (
	"fmt"
	"strings"

	"github.com/gpurt/gpurt/cpu"
	rt "github.com/gpurt/gpurt/runtime"
)

// selectBackends turns a --device choice into a scheduler backend list:
// the chosen devices first, in the order given, the CPU last. "auto" takes
// the best hardware device (never a software GPU); a family name
// ("vulkan", "webgpu") or a device name ("Vulkan0") takes that device even
// when it is emulated; "A,B" takes several.
func selectBackends(choice string, threads int) (backends []rt.Backend, err error) {
	devs, err := parseDevices(choice)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			closeBackends(backends)
			backends = nil
		}
	}()
	for _, dev := range devs {
		b, err := dev.NewBackend()
		if err != nil {
			return backends, fmt.Errorf("start %s: %w", dev.Name(), err)
		}
		backends = append(backends, b)
	}
	cpuBackend, err := cpu.NewBackend(threads)
	if err != nil {
		return backends, err
	}
	return append(backends, cpuBackend), nil
}

// parseDevices resolves a comma-separated --device list to its non-CPU
// devices, refusing unknown names and the same device twice.
func parseDevices(choice string) ([]rt.Device, error) {
	var devs []rt.Device
	seen := map[string]bool{}
	for _, name := range strings.Split(choice, ",") {
		name = strings.TrimSpace(name)
		var dev rt.Device
		switch strings.ToLower(name) {
		case "", "auto":
			best, err := rt.BestDevice()
			if err != nil {
				return nil, err
			}
			dev = best
		case "cpu":
			continue // the CPU is always last
		default:
			if ds := rt.DevicesOf(name); len(ds) > 0 {
				dev = ds[0]
			} else if d, err := rt.DeviceByName(name); err == nil {
				dev = d
			} else {
				return nil, fmt.Errorf("%s: no such device or backend family (see gpurt devices)", name)
			}
		}
		if dev.Props().Type == rt.DeviceCPU {
			continue
		}
		if seen[dev.Name()] {
			return nil, fmt.Errorf("%s: device %s is given twice", choice, dev.Name())
		}
		seen[dev.Name()] = true
		devs = append(devs, dev)
	}
	return devs, nil
}

func closeBackends(bs []rt.Backend) {
	for _, b := range bs {
		b.Close()
	}
}
