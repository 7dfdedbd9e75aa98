package vk

import vk "github.com/vulkan-go/vulkan"

// Apple's Vulkan (MoltenVK over Metal) is a portability implementation:
// current loaders list it only to instances that ask for portability
// drivers, and its devices must be created with VK_KHR_portability_subset
// enabled. Elsewhere neither extension exists and nothing changes.
const (
	extPortabilityEnumeration = "VK_KHR_portability_enumeration"
	extPortabilitySubset      = "VK_KHR_portability_subset"
	// VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR
	instanceCreateEnumeratePortability vk.InstanceCreateFlags = 0x1
)

// instancePortability returns the extensions and flags an instance needs
// to see portability drivers, given whether the loader offers them.
func instancePortability(has func(name string) bool) (exts []string, flags vk.InstanceCreateFlags) {
	if !has(extPortabilityEnumeration) {
		return nil, 0
	}
	return []string{extPortabilityEnumeration + "\x00"}, instanceCreateEnumeratePortability
}

// devicePortability returns the device extensions a portability device
// requires, given whether the physical device offers them.
func devicePortability(has func(name string) bool) []string {
	if !has(extPortabilitySubset) {
		return nil
	}
	return []string{extPortabilitySubset + "\x00"}
}
