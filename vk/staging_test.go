package vk

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	rt "github.com/gpurt/gpurt/runtime"
	vk "github.com/vulkan-go/vulkan"
)

func TestStagingSize(t *testing.T) {
	for _, c := range []struct{ n, want uint64 }{
		{1, stagingMin},
		{stagingMin, stagingMin},
		{stagingMin + 1, 2 * stagingMin},
		{3 << 20, 4 << 20},
		{stagingChunk, stagingChunk},
		{stagingChunk + 1, stagingChunk + stagingMin},
	} {
		if got := stagingSize(c.n); got != c.want {
			t.Errorf("stagingSize(%d) = %d, want %d", c.n, got, c.want)
		}
	}
}

// TestStagingReuse checks that staged transfers reuse pooled staging buffers:
// 20 set+get pairs of 4 bytes, then one transfer larger than a chunk, create
// at most a few staging buffers and leave the device's memory where it was.
func TestStagingReuse(t *testing.T) {
	dev, _ := testDevice(t)
	staged := &BufferType{dev: dev, memType: dev.localType, staged: true}
	ctx := rt.NewContext()
	small := ctx.NewTensor(rt.I32, 1).SetName("small")
	big := ctx.NewTensor(rt.I32, stagingChunk/4+1000).SetName("big")
	alloc(t, ctx, staged)

	heap := dev.memTypes[dev.localType].heap
	created0, _ := dev.stagingStats()
	var used0 uint64
	for i := 0; i < 20; i++ {
		want := i32Bytes(int32(i * 7))
		if err := rt.TensorSet(small, want, 0); err != nil {
			t.Fatal(err)
		}
		got := make([]byte, 4)
		if err := rt.TensorGet(small, got, 0); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("round trip %d: got %v, want %v", i, got, want)
		}
		if i == 0 {
			used0 = dev.heapUsed(heap)
		}
	}
	if created, _ := dev.stagingStats(); created-created0 > 1 {
		t.Errorf("20 small round trips created %d staging buffers, want at most 1", created-created0)
	}
	if used := dev.heapUsed(heap); used != used0 {
		t.Errorf("device memory went from %d to %d bytes over 20 small round trips", used0, used)
	}

	data := make([]byte, big.Nbytes())
	for i := range data {
		data[i] = byte(i * 31)
	}
	if err := rt.TensorSet(big, data, 0); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, len(data))
	if err := rt.TensorGet(big, got, 0); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, data) {
		t.Fatal("chunked transfer of a tensor larger than a staging chunk differs")
	}
	created, idle := dev.stagingStats()
	if created-created0 > streamDepth+2 {
		t.Errorf("chunked transfers created %d staging buffers, want at most %d", created-created0, streamDepth+2)
	}
	if idle == 0 {
		t.Error("no staging buffer went back to the pool")
	}
}

// TestDiscreteModeEnv checks that GPURT_VK_DISCRETE is read as documented.
func TestDiscreteModeEnv(t *testing.T) {
	for _, c := range []struct {
		v             string
		staged, rebar bool
	}{{"", false, false}, {"0", false, false}, {"1", true, false}, {"yes", true, false}, {"rebar", false, true}} {
		t.Setenv("GPURT_VK_DISCRETE", c.v)
		if staged, rebar := discreteMode(); staged != c.staged || rebar != c.rebar {
			t.Errorf("GPURT_VK_DISCRETE=%q: discreteMode() = %v, %v; want %v, %v", c.v, staged, rebar, c.staged, c.rebar)
		}
	}
}

// BenchmarkTransfer times uploads, downloads and 4-byte set+get round trips
// through mapped device-local memory, through staging (the discrete path),
// and with BAR-style access (writes mapped, reads staged).
func BenchmarkTransfer(b *testing.B) {
	dev, _ := benchDevice(b)
	for _, c := range []struct {
		path string
		bt   *BufferType
	}{
		{"mapped", &BufferType{dev: dev, memType: dev.localType}},
		{"staged", &BufferType{dev: dev, memType: dev.localType, staged: true}},
		{"rebar", &BufferType{dev: dev, memType: dev.localType, stagedReads: true}},
	} {
		for _, size := range []int{4, 16 << 20} {
			b.Run(fmt.Sprintf("%s/%dB", c.path, size), func(b *testing.B) {
				ctx := rt.NewContext()
				x := ctx.NewTensor(rt.I32, size/4).SetName("x")
				buf, err := rt.AllocContextTensors(ctx, c.bt)
				if err != nil {
					b.Fatal(err)
				}
				defer buf.Free()
				data := make([]byte, size)
				got := make([]byte, size)
				b.SetBytes(int64(2 * size))
				b.ResetTimer()
				start := time.Now()
				for i := 0; i < b.N; i++ {
					if err := rt.TensorSet(x, data, 0); err != nil {
						b.Fatal(err)
					}
					if err := rt.TensorGet(x, got, 0); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(time.Since(start).Microseconds())/float64(b.N), "µs/roundtrip")
			})
		}
	}
}

// TestFreeDefersWhileQueued frees a buffer while a compute that uses it is
// still submitted: Free must not wait for the queue, and the VkBuffer must
// outlive the work (the validation layer reports a buffer destroyed in use).
func TestFreeDefersWhileQueued(t *testing.T) {
	dev, be := testDevice(t)
	add := computeAdd(t, be, dev.BufferType())
	if err := be.GraphCompute(add.g); err != nil {
		t.Fatal(err)
	}
	dev.graveMu.Lock()
	before := len(dev.grave)
	dev.graveMu.Unlock()
	if err := add.buf.Free(); err != nil {
		t.Fatal(err)
	}
	dev.graveMu.Lock()
	deferred := len(dev.grave) - before
	dev.graveMu.Unlock()
	if deferred != 1 {
		t.Errorf("free with queued work deferred %d buffers, want 1", deferred)
	}
	if err := be.Synchronize(); err != nil {
		t.Fatal(err)
	}
	dev.graveMu.Lock()
	left := len(dev.grave)
	dev.graveMu.Unlock()
	if left != 0 {
		t.Errorf("%d deferred frees left after Synchronize", left)
	}
}

func TestPickQueueFamily(t *testing.T) {
	const (
		g = vk.QueueFlags(vk.QueueGraphicsBit)
		c = vk.QueueFlags(vk.QueueComputeBit)
		x = vk.QueueFlags(vk.QueueTransferBit)
	)
	for _, tc := range []struct {
		name  string
		flags []vk.QueueFlags
		want  uint32
		ok    bool
	}{
		{"nvidia", []vk.QueueFlags{g | c | x, x, c | x}, 2, true},
		{"one family", []vk.QueueFlags{g | c | x}, 0, true},
		{"graphics first without compute", []vk.QueueFlags{g, g | c}, 1, true},
		{"empty family skipped", []vk.QueueFlags{0, c}, 1, true},
		{"no compute", []vk.QueueFlags{g, x}, 0, false},
	} {
		got, ok := pickQueueFamily(tc.flags)
		if got != tc.want || ok != tc.ok {
			t.Errorf("%s: pickQueueFamily = %d, %v; want %d, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}

func TestPickTransferFamily(t *testing.T) {
	const (
		g      = vk.QueueFlags(vk.QueueGraphicsBit)
		c      = vk.QueueFlags(vk.QueueComputeBit)
		x      = vk.QueueFlags(vk.QueueTransferBit)
		sparse = vk.QueueFlags(vk.QueueSparseBindingBit)
	)
	for _, tc := range []struct {
		name    string
		flags   []vk.QueueFlags
		compute uint32
		want    uint32
		ok      bool
	}{
		{"nvidia", []vk.QueueFlags{g | c | x | sparse, x | sparse, c | x | sparse, queueVideoDecode | x}, 2, 1, true},
		{"amd", []vk.QueueFlags{g | c | x | sparse, c | x | sparse, x | sparse}, 1, 2, true},
		{"lavapipe: one family", []vk.QueueFlags{g | c | x}, 0, 0, false},
		{"video families are not copy engines", []vk.QueueFlags{g | c | x, queueVideoDecode | x, queueVideoEncode | x}, 0, 0, false},
		{"a family without queues", []vk.QueueFlags{g | c | x, 0, x}, 0, 2, true},
		{"compute family with only the transfer bit is skipped", []vk.QueueFlags{x, g | c | x}, 0, 0, false},
	} {
		got, ok := pickTransferFamily(tc.flags, tc.compute)
		if got != tc.want || ok != tc.ok {
			t.Errorf("%s: pickTransferFamily = %d, %v; want %d, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}

// TestFeaturesQueried checks the feature query against what Mesa's lavapipe
// (22.3 and later) is known to offer, and that gpurt devices gets a report.
func TestFeaturesQueried(t *testing.T) {
	dev, _ := testDevice(t)
	lines := dev.Features()
	if len(lines) == 0 || !strings.Contains(strings.Join(lines, "\n"), "fp16=") {
		t.Fatalf("Features() = %q, want the feature report", lines)
	}
	if !dev.software || !strings.Contains(dev.desc, "llvmpipe") || min(dev.api, instanceAPI) < vk.MakeVersion(1, 3, 0) {
		t.Skipf("not lavapipe with Vulkan 1.3 (%s): the expected features are unknown", dev.desc)
	}
	f := dev.feat
	for name, ok := range map[string]bool{
		"storageBuffer16BitAccess": f.storage16,
		"storageBuffer8BitAccess":  f.storage8,
		"shaderFloat16":            f.shaderFloat16,
		"shaderInt8":               f.shaderInt8,
		"subgroupSizeControl":      f.subgroupSizeControl,
		"computeFullSubgroups":     f.fullSubgroups,
		"shaderIntegerDotProduct":  f.integerDot,
	} {
		if !ok {
			t.Errorf("lavapipe offers %s, the query says no", name)
		}
	}
	if f.minSubgroupSize == 0 || f.maxSubgroupSize < f.minSubgroupSize {
		t.Errorf("subgroup size range %d-%d", f.minSubgroupSize, f.maxSubgroupSize)
	}
}
