package main

import (
	"fmt"
	"strings"

	"github.com/gpurt/gpurt/cpu"
	rt "github.com/gpurt/gpurt/runtime"
)

// selectBackends turns a --device choice into a scheduler backend list:
// the chosen device first, the CPU last. "auto" takes the best hardware
// device (never a software GPU); a family name ("vulkan", "webgpu") or a
// device name ("Vulkan0") takes that device even when it is emulated.
func selectBackends(choice string, threads int) ([]rt.Backend, error) {
	cpuBackend, err := cpu.NewBackend(threads)
	if err != nil {
		return nil, err
	}
	var dev rt.Device
	switch strings.ToLower(choice) {
	case "", "auto":
		if dev, err = rt.BestDevice(); err != nil {
			return nil, err
		}
	case "cpu":
		dev = cpu.Device()
	default:
		if devs := rt.DevicesOf(choice); len(devs) > 0 {
			dev = devs[0]
		} else if dev, err = rt.DeviceByName(choice); err != nil {
			return nil, fmt.Errorf("--device %s: no such device or backend family (see gpurt devices)", choice)
		}
	}
	if dev.Props().Type == rt.DeviceCPU {
		return []rt.Backend{cpuBackend}, nil
	}
	b, err := dev.NewBackend()
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", dev.Name(), err)
	}
	return []rt.Backend{b, cpuBackend}, nil
}

func closeBackends(bs []rt.Backend) {
	for _, b := range bs {
		b.Close()
	}
}
