package vk

import (
	"encoding/binary"
	"errors"
	"os"
	"testing"

	rt "github.com/gpurt/gpurt/runtime"
	vk "github.com/vulkan-go/vulkan"
)

func TestCheckPipelineCacheData(t *testing.T) {
	uuid := [16]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}
	header := func(length, version, vendor, device uint32, id [16]byte) []byte {
		b := make([]byte, 40)
		binary.LittleEndian.PutUint32(b, length)
		binary.LittleEndian.PutUint32(b[4:], version)
		binary.LittleEndian.PutUint32(b[8:], vendor)
		binary.LittleEndian.PutUint32(b[12:], device)
		copy(b[16:], id[:])
		return b
	}
	for _, c := range []struct {
		name string
		data []byte
		want error // nil: accepted
	}{
		{"valid", header(32, 1, 0x10de, 0x2335, uuid), nil},
		{"truncated", header(32, 1, 0x10de, 0x2335, uuid)[:20], rt.ErrCorruptFile},
		{"short header length", header(8, 1, 0x10de, 0x2335, uuid), rt.ErrCorruptFile},
		{"header past the end", header(64, 1, 0x10de, 0x2335, uuid), rt.ErrCorruptFile},
		{"unknown version", header(32, 2, 0x10de, 0x2335, uuid), rt.ErrCorruptFile},
		{"other vendor", header(32, 1, 0x1002, 0x2335, uuid), rt.ErrInvalidArgument},
		{"other device", header(32, 1, 0x10de, 0x1, uuid), rt.ErrInvalidArgument},
		{"other driver build", header(32, 1, 0x10de, 0x2335, [16]byte{}), rt.ErrInvalidArgument},
	} {
		err := checkPipelineCacheData(c.data, 0x10de, 0x2335, uuid)
		if (err == nil) != (c.want == nil) || (c.want != nil && !errors.Is(err, c.want)) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
}

// TestPipelineCacheRoundTrip saves the shared device's pipeline cache, checks
// the file, and seeds a second VkPipelineCache from it.
func TestPipelineCacheRoundTrip(t *testing.T) {
	dev, be := testDevice(t)
	add := computeAdd(t, be, dev.BufferType()) // at least one pipeline
	if err := add.buf.Free(); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := dev.savePipelineCache(dir); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(dev.pipelineCachePath(dir))
	if err != nil {
		t.Fatalf("no cache file after save: %v", err)
	}
	if err := checkPipelineCacheData(data, dev.vendorID, dev.deviceID, dev.cacheUUID); err != nil {
		t.Fatalf("saved cache: %v", err)
	}

	t.Setenv("GPURT_VK_PIPELINE_CACHE", dir)
	saved, loaded := dev.pipeCache, dev.pipeCacheLoaded
	defer func() { dev.pipeCache, dev.pipeCacheLoaded = saved, loaded }()
	if err := dev.createPipelineCache(); err != nil {
		t.Fatal(err)
	}
	vk.DestroyPipelineCache(dev.dev, dev.pipeCache, nil)
	if dev.pipeCacheLoaded != len(data) {
		t.Errorf("seeded the cache with %d bytes, want the file's %d", dev.pipeCacheLoaded, len(data))
	}

	// A file for another device is ignored, not an error.
	binary.LittleEndian.PutUint32(data[8:], dev.vendorID+1)
	if err := os.WriteFile(dev.pipelineCachePath(dir), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := dev.createPipelineCache(); err != nil {
		t.Fatal(err)
	}
	vk.DestroyPipelineCache(dev.dev, dev.pipeCache, nil)
	if dev.pipeCacheLoaded != 0 {
		t.Errorf("seeded the cache with a foreign file (%d bytes)", dev.pipeCacheLoaded)
	}
}

func TestPipelineCacheDir(t *testing.T) {
	t.Setenv("GPURT_VK_PIPELINE_CACHE", "off")
	if d := pipelineCacheDir(); d != "" {
		t.Errorf("off: dir %q", d)
	}
	t.Setenv("GPURT_VK_PIPELINE_CACHE", "/some/dir")
	if d := pipelineCacheDir(); d != "/some/dir" {
		t.Errorf("explicit: dir %q", d)
	}
}

func TestStageFlags(t *testing.T) {
	d := &Device{feat: features{fullSubgroups: true, maxSubgroupSize: 32}}
	for _, c := range []struct {
		variant string
		wg      uint32
		want    uint32
	}{
		{"mul_mat_f32", 64, requireFullSubgroups},
		{"mul_mat_q4_0", 256, requireFullSubgroups},
		{"mul_mat_f32", 48, 0}, // not a multiple of the largest subgroup
		{"mul_mat_f32_nosg", 64, 0},
		{"mul_mat_vec_f32", 64, 0},
		{"unary", 64, 0},
	} {
		if got := d.stageFlags(pipelineKey{variant: c.variant, spec: [7]uint32{c.wg}}); got != c.want {
			t.Errorf("%s wg %d: flags %#x, want %#x", c.variant, c.wg, got, c.want)
		}
	}
	d.feat.fullSubgroups = false
	if got := d.stageFlags(pipelineKey{variant: "mul_mat_f32", spec: [7]uint32{64}}); got != 0 {
		t.Errorf("without computeFullSubgroups: flags %#x", got)
	}
}
