// Minimal loader glue for gpurt's Vulkan backend: it finds the Vulkan loader
// with dlopen and queries the few Vulkan 1.1/1.2 properties that vulkan-go
// does not wrap. Struct layouts are copied from vulkan_core.h so the package
// builds without the Vulkan development headers.
#ifndef GPURT_VK_LOADER_H
#define GPURT_VK_LOADER_H

#include <stdint.h>

// gpurt_vk_open loads the Vulkan loader (path, or the default names when path
// is NULL or empty) and returns vkGetInstanceProcAddr, or NULL with a message in err.
void *gpurt_vk_open(const char *path, char *err, int errlen);

typedef struct {
	uint64_t max_memory_allocation_size; // 0 when unknown
	uint32_t driver_id;                  // 0 when unknown
	char driver_name[256];
	char driver_info[256];
	uint32_t subgroup_size;
	uint32_t subgroup_ops;
	uint32_t subgroup_stages;
} gpurt_vk_props2;

// gpurt_vk_query_props2 fills out with Vulkan 1.1 properties (1.2 ones when
// api >= 1.2). It returns 0 when vkGetPhysicalDeviceProperties2 is missing.
int gpurt_vk_query_props2(void *instance, void *physical_device, uint32_t api, gpurt_vk_props2 *out);

#endif
