package vk

import (
	"encoding/binary"
	"fmt"
	"strings"
	"sync"

	"github.com/gpurt/gpurt/shaders"
	vk "github.com/vulkan-go/vulkan"
)

// Every pipeline shares one layout: five storage buffers (sources 0..2 at
// bindings 0..2, the destination at 3, source 3 at 4, which only
// FLASH_ATTN_EXT's mask uses) and 128 bytes of push constants.
const (
	numBindings      = 5
	dstBinding       = 3
	pushConstantSize = 128
)

// srcBinding is the binding of source i.
func srcBinding(i int) int {
	if i < dstBinding {
		return i
	}
	return i + 1
}

// pushConsts is the push-constant block; shaders read the words they declare.
type pushConsts [pushConstantSize / 4]uint32

func (d *Device) createLayouts() error {
	bindings := make([]vk.DescriptorSetLayoutBinding, numBindings)
	for i := range bindings {
		bindings[i] = vk.DescriptorSetLayoutBinding{
			Binding:         uint32(i),
			DescriptorType:  vk.DescriptorTypeStorageBuffer,
			DescriptorCount: 1,
			StageFlags:      vk.ShaderStageFlags(vk.ShaderStageComputeBit),
		}
	}
	dsInfo := &vk.DescriptorSetLayoutCreateInfo{
		SType:        vk.StructureTypeDescriptorSetLayoutCreateInfo,
		BindingCount: numBindings,
		PBindings:    bindings,
	}
	var dsl vk.DescriptorSetLayout
	res := vk.CreateDescriptorSetLayout(d.dev, dsInfo, nil, &dsl)
	dsInfo.Free()
	if err := d.check(res, "create descriptor set layout"); err != nil {
		return err
	}
	d.dsLayout = dsl
	plInfo := &vk.PipelineLayoutCreateInfo{
		SType:                  vk.StructureTypePipelineLayoutCreateInfo,
		SetLayoutCount:         1,
		PSetLayouts:            []vk.DescriptorSetLayout{dsl},
		PushConstantRangeCount: 1,
		PPushConstantRanges: []vk.PushConstantRange{{
			StageFlags: vk.ShaderStageFlags(vk.ShaderStageComputeBit),
			Size:       pushConstantSize,
		}},
	}
	var pl vk.PipelineLayout
	res = vk.CreatePipelineLayout(d.dev, plInfo, nil, &pl)
	plInfo.Free()
	if err := d.check(res, "create pipeline layout"); err != nil {
		return err
	}
	d.pipeLayout = pl
	return nil
}

// pipelineKey names a shader variant with its specialization constants
// (id 0 the workgroup size, then what each shader declares).
type pipelineKey struct {
	variant string
	spec    [7]uint32
}

type pipeline struct {
	handle vk.Pipeline
	module vk.ShaderModule
}

// pipelineCache creates pipelines on first use and keeps them until the
// device is released. Drivers such as Mesa compile the shader on the first
// dispatch, so the set of variants is kept small.
type pipelineCache struct {
	mu sync.Mutex
	m  map[pipelineKey]*pipeline
	// created counts pipelines created since the device opened.
	created int
}

func (c *pipelineCache) init() { c.m = map[pipelineKey]*pipeline{} }

// destroy destroys every pipeline and its shader module.
func (c *pipelineCache) destroy(d *Device) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range c.m {
		vk.DestroyPipeline(d.dev, p.handle, nil)
		vk.DestroyShaderModule(d.dev, p.module, nil)
	}
	c.m = nil
}

func (d *Device) pipeline(key pipelineKey) (*pipeline, error) {
	d.pipes.mu.Lock()
	defer d.pipes.mu.Unlock()
	if d.pipes.m == nil {
		return nil, fmt.Errorf("vulkan %s: %w", d.name, errReleased)
	}
	if p := d.pipes.m[key]; p != nil {
		return p, nil
	}
	p, err := d.createPipeline(key)
	if err != nil {
		return nil, err
	}
	d.pipes.m[key] = p
	return p, nil
}

// requireFullSubgroups is VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT.
const requireFullSubgroups = 0x2

// stageFlags requires full subgroups for the shuffle-based tiled MUL_MAT,
// which assumes the subgroup invocation id is the local id modulo the
// subgroup size, where the device can guarantee it (computeFullSubgroups,
// and a workgroup width that is a multiple of the largest subgroup size).
func (d *Device) stageFlags(key pipelineKey) uint32 {
	v := key.variant
	tiled := strings.HasPrefix(v, "mul_mat_") && !strings.HasPrefix(v, "mul_mat_vec") && !strings.HasSuffix(v, "_nosg")
	if tiled && d.feat.fullSubgroups && d.feat.maxSubgroupSize > 0 && key.spec[0] != 0 && key.spec[0]%d.feat.maxSubgroupSize == 0 {
		return requireFullSubgroups
	}
	return 0
}

// loadSPIRV returns a variant's SPIR-V (tests substitute experiments).
var loadSPIRV = shaders.VulkanSPIRV

func (d *Device) createPipeline(key pipelineKey) (*pipeline, error) {
	spv, err := loadSPIRV(key.variant)
	if err != nil {
		return nil, fmt.Errorf("vulkan %s: %w", d.name, err)
	}
	code := make([]uint32, len(spv)/4)
	for i := range code {
		code[i] = binary.LittleEndian.Uint32(spv[4*i:])
	}
	smInfo := &vk.ShaderModuleCreateInfo{
		SType:    vk.StructureTypeShaderModuleCreateInfo,
		CodeSize: uint(len(spv)),
		PCode:    code,
	}
	var mod vk.ShaderModule
	res := vk.CreateShaderModule(d.dev, smInfo, nil, &mod)
	smInfo.Free()
	if err := d.check(res, "create shader module %s", key.variant); err != nil {
		return nil, err
	}

	// Every variant gets all its specialization constants; ids a shader
	// does not declare are ignored.
	handle, res := createComputePipeline(d.dev, d.pipeCache, d.pipeLayout, mod, key.spec[:], d.stageFlags(key))
	if err := d.check(res, "create compute pipeline %s", key.variant); err != nil {
		vk.DestroyShaderModule(d.dev, mod, nil)
		return nil, err
	}
	d.pipes.created++
	return &pipeline{handle: handle, module: mod}, nil
}
