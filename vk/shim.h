// Direct calls for the Vulkan commands whose vulkan-go wrappers convert
// slice arguments into C memory that a finalizer frees: the finalizer may
// run (on another goroutine's GC) while the driver still reads the memory.
// These build their arguments on the C stack instead.
#ifndef GPURT_VK_SHIM_H
#define GPURT_VK_SHIM_H

#include <stdint.h>

// gpurt_vk_load_fns resolves the entry points through the instance. It
// returns 0 when one is missing.
int gpurt_vk_load_fns(void *instance);

int32_t gpurt_queue_submit(void *queue, void *cmd, void *fence);
void gpurt_cmd_barrier(void *cmd, uint32_t src_stages, uint32_t dst_stages, uint32_t src_access, uint32_t dst_access);
void gpurt_cmd_copy_buffer(void *cmd, void *src, void *dst, uint64_t src_off, uint64_t dst_off, uint64_t size);
// gpurt_cmd_update_buffer records vkCmdUpdateBuffer: size (a multiple of 4,
// at most 65536) bytes of data go inline into the command buffer.
void gpurt_cmd_update_buffer(void *cmd, void *dst, uint64_t dst_off, uint64_t size, const void *data);
// gpurt_wait_fence blocks until the fence signals and returns the VkResult.
int32_t gpurt_wait_fence(void *device, void *fence);
void gpurt_cmd_wait_event(void *cmd, void *event, uint32_t src_stages, uint32_t dst_stages, uint32_t src_access, uint32_t dst_access);
// gpurt_write_set binds n whole storage buffers to bindings 0..n-1 of set.
void gpurt_write_set(void *device, void *set, void **buffers, uint32_t n);
// gpurt_alloc_set allocates one descriptor set of layout from pool.
int32_t gpurt_alloc_set(void *device, void *pool, void *layout, void **set);
// gpurt_write_set_ranges binds n storage-buffer ranges to bindings 0..n-1.
void gpurt_write_set_ranges(void *device, void *set, void **buffers, const uint64_t *offsets, const uint64_t *ranges, uint32_t n);
// gpurt_create_compute_pipeline creates a pipeline from the module's main
// with specialization constants 0..nspec-1 set to spec, through cache
// (a VkPipelineCache, or NULL), with the shader stage flags given
// (VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT, or 0).
int32_t gpurt_create_compute_pipeline(void *device, void *cache, void *layout, void *module, const uint32_t *spec, uint32_t nspec, uint32_t stage_flags, void **pipeline);

#endif
