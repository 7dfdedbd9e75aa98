package vk

import (
	"slices"
	"testing"
)

func TestPortabilityExtensions(t *testing.T) {
	offers := func(names ...string) func(string) bool {
		return func(n string) bool { return slices.Contains(names, n) }
	}
	tests := []struct {
		name     string
		has      func(string) bool
		instExts []string
		flags    uint32
		devExts  []string
	}{
		{"ordinary driver", offers("VK_KHR_surface"), nil, 0, nil},
		{"MoltenVK through a current loader", offers(extPortabilityEnumeration, extPortabilitySubset),
			[]string{"VK_KHR_portability_enumeration\x00"}, 1, []string{"VK_KHR_portability_subset\x00"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			exts, flags := instancePortability(tc.has)
			if !slices.Equal(exts, tc.instExts) || uint32(flags) != tc.flags {
				t.Errorf("instance: %q, flags %#x; want %q, %#x", exts, flags, tc.instExts, tc.flags)
			}
			if got := devicePortability(tc.has); !slices.Equal(got, tc.devExts) {
				t.Errorf("device: %q, want %q", got, tc.devExts)
			}
		})
	}
}

// The extension queries reach the loader and the driver: lavapipe offers
// VK_KHR_shader_float16_int8 (the validation layer's own extensions count
// for the instance), and nobody offers a made-up name.
func TestHasExtension(t *testing.T) {
	d, _ := testDevice(t)
	if !hasExtension(nil, nil, "VK_EXT_debug_utils") && !hasExtension(nil, nil, "VK_EXT_debug_report") {
		t.Errorf("the loader offers neither debug extension")
	}
	if !hasExtension(d.inst, d.phys, "VK_KHR_shader_float16_int8") {
		t.Errorf("%s does not offer VK_KHR_shader_float16_int8", d.name)
	}
	for _, pd := range []bool{false, true} {
		inst, phys := d.inst, d.phys
		if !pd {
			inst, phys = nil, nil
		}
		if hasExtension(inst, phys, "VK_GPURT_no_such_extension") {
			t.Errorf("a made-up extension is offered (device query %v)", pd)
		}
	}
}
