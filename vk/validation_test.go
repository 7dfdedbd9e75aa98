package vk

import (
	"os"
	"strings"
	"testing"

	vk "github.com/vulkan-go/vulkan"
)

// TestValidationLayerActive provokes a known validation error (a fence
// create info with a wrong sType) and checks that the layer logs it, so
// that a silent log really means a clean run.
func TestValidationLayerActive(t *testing.T) {
	if vlog == nil {
		t.Skip("validation disabled by GPURT_VK_NO_VALIDATION")
	}
	dev, _ := testDevice(t)
	if err := dev.open(); err != nil {
		t.Fatal(err)
	}
	start := logSize()
	info := &vk.FenceCreateInfo{SType: vk.StructureTypeEventCreateInfo}
	var f vk.Fence
	res := vk.CreateFence(dev.dev, info, nil, &f)
	info.Free()
	if res == vk.Success {
		vk.DestroyFence(dev.dev, f, nil)
	}
	end := logSize()
	vlog.Ignore(start, end)
	b, err := os.ReadFile(vlog.Path())
	if err != nil || end == start || !strings.Contains(string(b[start:end]), "VUID-VkFenceCreateInfo-sType-sType") {
		t.Fatalf("the validation layer did not report a wrong sType (log: %v)", err)
	}
}
