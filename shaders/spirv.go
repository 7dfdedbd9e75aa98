package shaders

import (
	"bufio"
	"bytes"
	"embed"
	"fmt"
	"strings"
)

// The Vulkan compute shaders, compiled by compile_spirv.sh (`make shaders`)
// from the GLSL in vk/ and committed.
//
//go:embed vk/*.spv vk/variants.txt
var vulkanFS embed.FS

// VulkanVariant is one compiled shader: a GLSL source built with a set of
// glslc defines.
type VulkanVariant struct {
	Name    string
	Source  string   // file in vk/
	Defines []string // glslc -D flags
}

// VulkanVariants lists every SPIR-V variant, as vk/variants.txt declares them.
func VulkanVariants() []VulkanVariant {
	raw, err := vulkanFS.ReadFile("vk/variants.txt")
	if err != nil {
		panic(err) // embedded at build time
	}
	var out []VulkanVariant
	sc := bufio.NewScanner(bytes.NewReader(raw))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 2 || strings.HasPrefix(f[0], "#") {
			continue
		}
		out = append(out, VulkanVariant{Name: f[0], Source: f[1], Defines: f[2:]})
	}
	return out
}

// VulkanSPIRV returns the SPIR-V binary of a variant (see VulkanVariants).
func VulkanSPIRV(name string) ([]byte, error) {
	b, err := vulkanFS.ReadFile("vk/" + name + ".spv")
	if err != nil {
		return nil, fmt.Errorf("shaders: no Vulkan shader variant %q", name)
	}
	return b, nil
}
