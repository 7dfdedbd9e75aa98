package vk

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
)

func TestDeviceProps(t *testing.T) {
	dev, _ := testDevice(t)
	p := dev.Props()
	if p.Name != "Vulkan0" || dev.Name() != "Vulkan0" {
		t.Errorf("name %q, want Vulkan0", p.Name)
	}
	if p.Description == "" || p.MemoryTotal == 0 || p.MemoryFree > p.MemoryTotal {
		t.Errorf("props %+v", p)
	}
	if !p.Caps.Async || !p.Caps.Events || !p.Caps.HostBuffer || p.Caps.BufferFromHostPtr {
		t.Errorf("caps %+v", p.Caps)
	}
	if strings.Contains(p.Description, "llvmpipe") {
		if !p.Software || p.Type != rt.DeviceIGPU {
			t.Errorf("lavapipe: software %v type %v, want software IGPU", p.Software, p.Type)
		}
		if !strings.Contains(p.Description, "Mesa") {
			t.Errorf("description %q does not name the driver", p.Description)
		}
	}
	if _, err := dev.BufferFromHost(make([]byte, 64), 64); err == nil {
		t.Error("BufferFromHost succeeded without the capability")
	}

	local, host := dev.BufferType(), dev.HostBufferType()
	if local.IsHost() || !host.IsHost() || local.Name() == host.Name() {
		t.Errorf("buffer types %q (host %v) and %q (host %v)", local.Name(), local.IsHost(), host.Name(), host.IsHost())
	}
	if !dev.SupportsBufferType(local) || !dev.SupportsBufferType(host) {
		t.Error("device does not support its own buffer types")
	}
	if max := uint64(local.MaxSize()); max > dev.lim.maxStorageRange || (dev.lim.maxAllocationSize != 0 && max > dev.lim.maxAllocationSize) {
		t.Errorf("max buffer size %d exceeds maxStorageBufferRange %d or maxMemoryAllocationSize %d", max, dev.lim.maxStorageRange, dev.lim.maxAllocationSize)
	}
	if a := local.Alignment(); uint64(a)%dev.lim.storageAlign != 0 {
		t.Errorf("alignment %d is not a multiple of minStorageBufferOffsetAlignment %d", a, dev.lim.storageAlign)
	}

	// The registry lists the device under "vulkan"; a software device is
	// never the automatic choice.
	found := false
	for _, d := range rt.DevicesOf("vulkan") {
		found = found || d == rt.Device(dev)
	}
	if !found {
		t.Error("device not registered under vulkan")
	}
	if best, err := rt.BestDevice(); err == nil && p.Software && best == rt.Device(dev) {
		t.Error("BestDevice chose a software Vulkan device")
	}
}

func TestDeviceFilterParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want []int
		ok   bool
	}{
		{"", 3, []int{0, 1, 2}, true},
		{"0", 3, []int{0}, true},
		{"2, 0,2", 3, []int{2, 0}, true},
		{"3", 3, nil, false},
		{"-1", 3, nil, false},
		{"a", 3, nil, false},
		{"0,,1", 3, nil, false},
	} {
		got, err := parseDeviceFilter(tc.in, tc.n)
		if (err == nil) != tc.ok || !slices.Equal(got, tc.want) {
			t.Errorf("parseDeviceFilter(%q, %d) = %v, %v; want %v (ok %v)", tc.in, tc.n, got, err, tc.want, tc.ok)
		}
	}
}

// TestNoVulkan runs this test binary again without a usable Vulkan (no
// loader library, no driver, a filter that selects nothing) and checks that
// discovery reports an error and zero devices instead of crashing.
func TestNoVulkan(t *testing.T) {
	if os.Getenv("GPURT_VK_CHILD") != "" {
		devs, err := Devices()
		regErr := error(nil)
		for _, r := range rt.Regs() {
			if r.Name == "vulkan" {
				regErr = r.Err
				if len(r.Devices) != 0 {
					t.Fatalf("registry lists %d devices", len(r.Devices))
				}
			}
		}
		if len(devs) != 0 || err == nil || regErr == nil {
			t.Fatalf("devices %d, error %v, registry error %v", len(devs), err, regErr)
		}
		os.Stdout.WriteString("CHILD-ERR: " + err.Error() + "\n")
		return
	}
	for _, tc := range []struct {
		name, env, want string
	}{
		{"no loader", "GPURT_VK_LOADER=/nonexistent/libvulkan.so.1", "cannot load the Vulkan loader"},
		{"no driver", "VK_ICD_FILENAMES=/nonexistent/icd.json", "vulkan"},
		{"filter", "GPURT_VK_DEVICES=99", "does not exist"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestNoVulkan$", "-test.count=1")
			cmd.Env = append(os.Environ(), "GPURT_VK_CHILD=1", tc.env)
			if tc.name == "no driver" {
				cmd.Env = append(cmd.Env, "VK_DRIVER_FILES=/nonexistent/icd.json")
			}
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("child failed: %v\n%s", err, out)
			}
			if !strings.Contains(string(out), "CHILD-ERR: ") || !strings.Contains(string(out), tc.want) {
				t.Fatalf("child output lacks %q:\n%s", tc.want, out)
			}
			t.Logf("%s", strings.TrimSpace(string(out)))
		})
	}
}
