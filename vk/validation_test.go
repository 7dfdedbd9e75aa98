package vk

import (
	"strings"
	"testing"

	vk "github.com/vulkan-go/vulkan"
)

// TestValidationLayerActive provokes a known validation error (a fence
// create info with a wrong sType) and checks that the layer logs it, so
// that a silent log really means a clean run.
func TestValidationLayerActive(t *testing.T) {
	if validationLog == "" {
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
	expected = append(expected, [2]int64{start, end})
	if msg := validationMessages(0); end == start || !strings.Contains(readLog(start, end), "VUID-VkFenceCreateInfo-sType-sType") {
		t.Fatalf("the validation layer did not report a wrong sType (log: %q)", msg)
	}
}

func readLog(from, to int64) string {
	expectedSave := expected
	expected = nil
	defer func() { expected = expectedSave }()
	s := validationMessages(from)
	if int64(len(s)) > to-from {
		s = s[:to-from]
	}
	return s
}
