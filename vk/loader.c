#include "loader.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

typedef void *(*gipa_fn)(void *instance, const char *name);

static gipa_fn gipa;

// gpurt_vk_gipa returns the loader's vkGetInstanceProcAddr (shim.c uses it).
gipa_fn gpurt_vk_gipa(void) { return gipa; }

void *gpurt_vk_open(const char *path, char *err, int errlen) {
	const char *names[] = {"libvulkan.so.1", "libvulkan.so", NULL};
	void *lib = NULL;
	if (path != NULL && path[0] != 0) {
		lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	} else {
		for (int i = 0; names[i] != NULL && lib == NULL; i++) {
			lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
		}
	}
	if (lib == NULL) {
		const char *msg = dlerror();
		snprintf(err, errlen, "%s", msg ? msg : "dlopen failed");
		return NULL;
	}
	gipa = (gipa_fn)dlsym(lib, "vkGetInstanceProcAddr");
	if (gipa == NULL) {
		snprintf(err, errlen, "vkGetInstanceProcAddr not found in the Vulkan loader");
		return NULL;
	}
	return (void *)gipa;
}

// Vulkan structure layouts (vulkan_core.h).
typedef struct {
	uint32_t sType;
	void *pNext;
	uint32_t maxPerSetDescriptors;
	uint64_t maxMemoryAllocationSize;
} maintenance3_props;

typedef struct {
	uint32_t sType;
	void *pNext;
	uint32_t driverID;
	char driverName[256];
	char driverInfo[256];
	uint8_t conformanceVersion[4];
} driver_props;

typedef struct {
	uint32_t sType;
	void *pNext;
	uint32_t subgroupSize;
	uint32_t supportedStages;
	uint32_t supportedOperations;
	uint32_t quadOperationsInAllStages;
} subgroup_props;

typedef struct {
	uint32_t sType;
	void *pNext;
	// VkPhysicalDeviceProperties is about 824 bytes; leave generous room.
	uint64_t properties[256];
} properties2;

typedef void (*get_props2_fn)(void *physical_device, properties2 *props);

int gpurt_vk_query_props2(void *instance, void *physical_device, uint32_t api, gpurt_vk_props2 *out) {
	memset(out, 0, sizeof(*out));
	if (gipa == NULL) {
		return 0;
	}
	get_props2_fn fn = (get_props2_fn)gipa(instance, "vkGetPhysicalDeviceProperties2");
	if (fn == NULL) {
		return 0;
	}
	maintenance3_props m3;
	driver_props drv;
	subgroup_props sg;
	properties2 p2;
	memset(&m3, 0, sizeof m3);
	memset(&drv, 0, sizeof drv);
	memset(&sg, 0, sizeof sg);
	memset(&p2, 0, sizeof p2);
	p2.sType = 1000059001;  // VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2
	m3.sType = 1000168000;  // VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES
	sg.sType = 1000094000;  // VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES
	drv.sType = 1000196000; // VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES
	p2.pNext = &m3;
	m3.pNext = &sg;
	if (api >= ((1u << 22) | (2u << 12))) {
		sg.pNext = &drv;
	}
	fn(physical_device, &p2);
	out->max_memory_allocation_size = m3.maxMemoryAllocationSize;
	out->driver_id = drv.driverID;
	memcpy(out->driver_name, drv.driverName, sizeof out->driver_name);
	memcpy(out->driver_info, drv.driverInfo, sizeof out->driver_info);
	out->driver_name[255] = 0;
	out->driver_info[255] = 0;
	out->subgroup_size = sg.subgroupSize;
	out->subgroup_ops = sg.supportedOperations;
	out->subgroup_stages = sg.supportedStages;
	return 1;
}
