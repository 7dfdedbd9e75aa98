#include "shim.h"

#include "loader.h"
#include "vkmin.h"

// The Go side passes every handle as a pointer (vulkan-go's 64-bit handle
// types), which cannot carry the uint64_t non-dispatchable handles of 32-bit
// targets.
#if VK_USE_64_BIT_PTR_DEFINES != 1
#error "gpurt's Vulkan backend needs a 64-bit target"
#endif

static PFN_vkQueueSubmit queue_submit;
static PFN_vkCmdPipelineBarrier cmd_pipeline_barrier;
static PFN_vkCmdCopyBuffer cmd_copy_buffer;
static PFN_vkCmdWaitEvents cmd_wait_events;
static PFN_vkUpdateDescriptorSets update_descriptor_sets;
static PFN_vkCreateComputePipelines create_compute_pipelines;
static PFN_vkAllocateDescriptorSets allocate_descriptor_sets;
static PFN_vkCmdUpdateBuffer cmd_update_buffer;
static PFN_vkWaitForFences wait_for_fences;

int gpurt_vk_load_fns(void *instance) {
	PFN_vkGetInstanceProcAddr gipa = gpurt_vk_gipa();
	if (gipa == NULL) {
		return 0;
	}
	VkInstance inst = (VkInstance)instance;
	queue_submit = (PFN_vkQueueSubmit)gipa(inst, "vkQueueSubmit");
	cmd_pipeline_barrier = (PFN_vkCmdPipelineBarrier)gipa(inst, "vkCmdPipelineBarrier");
	cmd_copy_buffer = (PFN_vkCmdCopyBuffer)gipa(inst, "vkCmdCopyBuffer");
	cmd_wait_events = (PFN_vkCmdWaitEvents)gipa(inst, "vkCmdWaitEvents");
	update_descriptor_sets = (PFN_vkUpdateDescriptorSets)gipa(inst, "vkUpdateDescriptorSets");
	create_compute_pipelines = (PFN_vkCreateComputePipelines)gipa(inst, "vkCreateComputePipelines");
	allocate_descriptor_sets = (PFN_vkAllocateDescriptorSets)gipa(inst, "vkAllocateDescriptorSets");
	cmd_update_buffer = (PFN_vkCmdUpdateBuffer)gipa(inst, "vkCmdUpdateBuffer");
	wait_for_fences = (PFN_vkWaitForFences)gipa(inst, "vkWaitForFences");
	return queue_submit && cmd_pipeline_barrier && cmd_copy_buffer && cmd_wait_events &&
	       update_descriptor_sets && create_compute_pipelines && allocate_descriptor_sets &&
	       cmd_update_buffer && wait_for_fences;
}

int32_t gpurt_queue_submit(void *queue, void *cmd, void *fence) {
	VkCommandBuffer cb = (VkCommandBuffer)cmd;
	VkSubmitInfo si = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
		.commandBufferCount = 1,
		.pCommandBuffers = &cb,
	};
	return queue_submit((VkQueue)queue, 1, &si, (VkFence)fence);
}

void gpurt_cmd_barrier(void *cmd, uint32_t src_stages, uint32_t dst_stages, uint32_t src_access, uint32_t dst_access) {
	VkMemoryBarrier mb = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
		.srcAccessMask = src_access,
		.dstAccessMask = dst_access,
	};
	cmd_pipeline_barrier((VkCommandBuffer)cmd, src_stages, dst_stages, 0, 1, &mb, 0, NULL, 0, NULL);
}

void gpurt_cmd_copy_buffer(void *cmd, void *src, void *dst, uint64_t src_off, uint64_t dst_off, uint64_t size) {
	VkBufferCopy region = {.srcOffset = src_off, .dstOffset = dst_off, .size = size};
	cmd_copy_buffer((VkCommandBuffer)cmd, (VkBuffer)src, (VkBuffer)dst, 1, &region);
}

void gpurt_cmd_update_buffer(void *cmd, void *dst, uint64_t dst_off, uint64_t size, const void *data) {
	cmd_update_buffer((VkCommandBuffer)cmd, (VkBuffer)dst, dst_off, size, data);
}

int32_t gpurt_wait_fence(void *device, void *fence) {
	VkFence f = (VkFence)fence;
	return wait_for_fences((VkDevice)device, 1, &f, 1 /* VK_TRUE */, UINT64_MAX);
}

void gpurt_cmd_wait_event(void *cmd, void *event, uint32_t src_stages, uint32_t dst_stages, uint32_t src_access, uint32_t dst_access) {
	VkEvent ev = (VkEvent)event;
	VkMemoryBarrier mb = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
		.srcAccessMask = src_access,
		.dstAccessMask = dst_access,
	};
	cmd_wait_events((VkCommandBuffer)cmd, 1, &ev, src_stages, dst_stages, 1, &mb, 0, NULL, 0, NULL);
}

int32_t gpurt_alloc_set(void *device, void *pool, void *layout, void **set) {
	VkDescriptorSetLayout l = (VkDescriptorSetLayout)layout;
	VkDescriptorSetAllocateInfo info = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
		.descriptorPool = (VkDescriptorPool)pool,
		.descriptorSetCount = 1,
		.pSetLayouts = &l,
	};
	VkDescriptorSet s = VK_NULL_HANDLE;
	VkResult res = allocate_descriptor_sets((VkDevice)device, &info, &s);
	*set = (void *)s;
	return res;
}

void gpurt_write_set_ranges(void *device, void *set, void **buffers, const uint64_t *offsets, const uint64_t *ranges, uint32_t n) {
	VkDescriptorBufferInfo info[8];
	VkWriteDescriptorSet writes[8];
	if (n > 8) {
		n = 8;
	}
	for (uint32_t i = 0; i < n; i++) {
		info[i] = (VkDescriptorBufferInfo){.buffer = (VkBuffer)buffers[i], .offset = offsets[i], .range = ranges[i]};
		writes[i] = (VkWriteDescriptorSet){
			.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
			.dstSet = (VkDescriptorSet)set,
			.dstBinding = i,
			.descriptorCount = 1,
			.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
			.pBufferInfo = &info[i],
		};
	}
	update_descriptor_sets((VkDevice)device, n, writes, 0, NULL);
}

int32_t gpurt_create_compute_pipeline(void *device, void *cache, void *layout, void *module, const uint32_t *spec, uint32_t nspec, uint32_t stage_flags, void **pipeline) {
	VkSpecializationMapEntry entries[16];
	if (nspec > 16) {
		nspec = 16;
	}
	for (uint32_t i = 0; i < nspec; i++) {
		entries[i] = (VkSpecializationMapEntry){.constantID = i, .offset = 4 * i, .size = 4};
	}
	VkSpecializationInfo si = {
		.mapEntryCount = nspec,
		.pMapEntries = entries,
		.dataSize = 4 * nspec,
		.pData = spec,
	};
	VkComputePipelineCreateInfo info = {
		.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
		.stage = {
			.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
			.flags = stage_flags,
			.stage = VK_SHADER_STAGE_COMPUTE_BIT,
			.module = (VkShaderModule)module,
			.pName = "main",
			.pSpecializationInfo = nspec ? &si : NULL,
		},
		.layout = (VkPipelineLayout)layout,
		.basePipelineIndex = -1,
	};
	VkPipeline p = VK_NULL_HANDLE;
	VkResult res = create_compute_pipelines((VkDevice)device, (VkPipelineCache)cache, 1, &info, NULL, &p);
	*pipeline = (void *)p;
	return res;
}
