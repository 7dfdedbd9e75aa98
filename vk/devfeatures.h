// Device features and memory budget through vkGetPhysicalDeviceFeatures2 and
// vkGetPhysicalDeviceMemoryProperties2, which vulkan-go does not wrap. The
// feature structures are declared here as arrays of VkBool32 in their
// specified order, so no Vulkan headers are needed.
#ifndef GPURT_VK_FEATURES_H
#define GPURT_VK_FEATURES_H

#include <stdint.h>

// gpurt_vk_features is what the backend may enable, each 1 when offered.
typedef struct {
	uint32_t shader_int16, shader_int64;
	uint32_t storage16, uniform_storage16, push_constant16;
	uint32_t storage8, uniform_storage8, push_constant8;
	uint32_t shader_float16, shader_int8;
	uint32_t subgroup_size_control, compute_full_subgroups;
	uint32_t integer_dot_product;
	uint32_t cooperative_matrix; // VK_KHR_cooperative_matrix, queried only
	uint32_t min_subgroup_size, max_subgroup_size; // from Vulkan 1.3 properties
} gpurt_vk_features;

// gpurt_vk_query_features fills out for a device of the given API version;
// coopmat says whether it offers VK_KHR_cooperative_matrix. It returns 0
// when vkGetPhysicalDeviceFeatures2 is missing.
int gpurt_vk_query_features(void *instance, void *physical_device, uint32_t api, int coopmat, gpurt_vk_features *out);

// gpurt_vk_feature_chain allocates the pNext chain for vkCreateDevice that
// enables the features set in want (all of which must be offered); free it
// with gpurt_vk_free_chain.
void *gpurt_vk_feature_chain(uint32_t api, const gpurt_vk_features *want);
void gpurt_vk_free_chain(void *chain);

// gpurt_vk_memory_budget fills budget and usage (bytes, per heap, up to 16
// heaps) from VK_EXT_memory_budget and returns the heap count, or 0 when the
// query is unavailable.
int gpurt_vk_memory_budget(void *instance, void *physical_device, uint64_t *budget, uint64_t *usage);

#endif
