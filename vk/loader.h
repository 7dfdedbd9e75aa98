// Minimal loader glue for gpurt's Vulkan backend: it opens the Vulkan loader
// at run time (dlopen; LoadLibrary on Windows) and queries the few Vulkan
// 1.1/1.2 properties that vulkan-go does not wrap. The Vulkan declarations
// come from vkmin.h, so the package builds without the Vulkan development
// headers.
#ifndef GPURT_VK_LOADER_H
#define GPURT_VK_LOADER_H

#include <stdint.h>

#include "vkmin.h"

// gpurt_vk_open loads the Vulkan loader (path, or the default names when path
// is NULL or empty) and returns vkGetInstanceProcAddr, or NULL with a message in err.
void *gpurt_vk_open(const char *path, char *err, int errlen);

// gpurt_vk_gipa returns the vkGetInstanceProcAddr gpurt_vk_open found (shim.c
// resolves its entry points with it); NULL before.
PFN_vkGetInstanceProcAddr gpurt_vk_gipa(void);

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

// gpurt_vk_has_extension reports whether the loader (physical_device NULL)
// or a physical device offers the named extension.
int gpurt_vk_has_extension(void *instance, void *physical_device, const char *name);

#endif
