package shaders

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
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
	// Compile two at a time: glslc is single-threaded.
	errs := make([]string, len(vs))
	sem := make(chan struct{}, 2)
	var wg sync.WaitGroup
	for i, v := range vs {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			errs[i] = checkVariant(glslc, dir, v)
		})
	}
	wg.Wait()
	for _, e := range errs {
		if e != "" {
			t.Error(e)
		}
	}
}

// checkVariant compiles v into dir and compares it with the embedded .spv.
func checkVariant(glslc, dir string, v VulkanVariant) string {
	out := filepath.Join(dir, v.Name+".spv")
	args := append([]string{"--target-env=vulkan1.1", "-O"}, v.Defines...)
	args = append(args, filepath.Join("vk", v.Source), "-o", out)
	if msg, err := exec.Command(glslc, args...).CombinedOutput(); err != nil {
		return fmt.Sprintf("%s: glslc failed: %v\n%s", v.Name, err, msg)
	}
	fresh, err := os.ReadFile(out)
	if err != nil {
		return err.Error()
	}
	committed, err := VulkanSPIRV(v.Name)
	if err != nil {
		return fmt.Sprintf("%s: %v (run `make shaders`)", v.Name, err)
	}
	if !bytes.Equal(fresh, committed) {
		return fmt.Sprintf("%s: committed vk/%s.spv is stale (run `make shaders`)", v.Name, v.Name)
	}
	return ""
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
