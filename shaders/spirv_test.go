package shaders

import (
	"bytes"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestSPIRVUpToDate recompiles every variant and fails when a committed .spv
// differs from what its GLSL source gives now (run `make shaders`).
func TestSPIRVUpToDate(t *testing.T) {
	glslc, err := exec.LookPath("glslc")
	if err != nil {
		t.Skip("glslc not installed; cannot check the committed SPIR-V")
	}
	dir := t.TempDir()
	vs := VulkanVariants()
	if len(vs) == 0 {
		t.Fatal("no variants listed in vk/variants.txt")
	}
	for _, v := range vs {
		out := filepath.Join(dir, v.Name+".spv")
		args := append([]string{"--target-env=vulkan1.1", "-O"}, v.Defines...)
		args = append(args, filepath.Join("vk", v.Source), "-o", out)
		if msg, err := exec.Command(glslc, args...).CombinedOutput(); err != nil {
			t.Errorf("%s: glslc failed: %v\n%s", v.Name, err, msg)
			continue
		}
		fresh, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		committed, err := VulkanSPIRV(v.Name)
		if err != nil {
			t.Errorf("%s: %v (run `make shaders`)", v.Name, err)
			continue
		}
		if !bytes.Equal(fresh, committed) {
			t.Errorf("%s: committed vk/%s.spv is stale (run `make shaders`)", v.Name, v.Name)
		}
	}
}

// TestSPIRVEmbedded checks every listed variant is embedded and is SPIR-V.
func TestSPIRVEmbedded(t *testing.T) {
	for _, v := range VulkanVariants() {
		b, err := VulkanSPIRV(v.Name)
		if err != nil {
			t.Error(err)
			continue
		}
		if len(b) < 20 || len(b)%4 != 0 || binary.LittleEndian.Uint32(b) != 0x07230203 {
			t.Errorf("%s: not a SPIR-V module (%d bytes)", v.Name, len(b))
		}
	}
	if _, err := VulkanSPIRV("no-such-shader"); err == nil {
		t.Error("VulkanSPIRV accepted an unknown name")
	}
}
