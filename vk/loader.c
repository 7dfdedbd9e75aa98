#include "loader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _WIN32
#include <windows.h>
#else
#include <dlfcn.h>
#endif

static PFN_vkGetInstanceProcAddr gipa;

PFN_vkGetInstanceProcAddr gpurt_vk_gipa(void) { return gipa; }

#ifdef _WIN32
static const char *default_names[] = {"vulkan-1.dll", NULL};
#elif defined(__APPLE__)
// The Vulkan loader (LunarG SDK in /usr/local/lib, or Homebrew, whose prefix
// on Apple silicon is outside dyld's search path), then MoltenVK on its own.
static const char *default_names[] = {
    "libvulkan.1.dylib", "libvulkan.dylib", "/opt/homebrew/lib/libvulkan.1.dylib",
    "libMoltenVK.dylib", "/opt/homebrew/lib/libMoltenVK.dylib", NULL,
};
#else
static const char *default_names[] = {"libvulkan.so.1", "libvulkan.so", NULL};
#endif

static void *open_lib(const char *name) {
#ifdef _WIN32
	return (void *)LoadLibraryA(name);
#else
	return dlopen(name, RTLD_NOW | RTLD_LOCAL);
#endif
}

static void *lib_sym(void *lib, const char *name) {
#ifdef _WIN32
	return (void *)GetProcAddress((HMODULE)lib, name);
#else
	return dlsym(lib, name);
#endif
}

static void open_error(const char *tried, char *err, int errlen) {
#ifdef _WIN32
	snprintf(err, errlen, "LoadLibrary(%s) failed with error %lu", tried, (unsigned long)GetLastError());
#else
	(void)tried; // dlerror names the library
	const char *msg = dlerror();
	snprintf(err, errlen, "%s", msg ? msg : "dlopen failed");
#endif
}

void *gpurt_vk_open(const char *path, char *err, int errlen) {
	void *lib = NULL;
	const char *tried = path;
	if (path != NULL && path[0] != 0) {
		lib = open_lib(path);
	} else {
		for (int i = 0; default_names[i] != NULL && lib == NULL; i++) {
			tried = default_names[i];
			lib = open_lib(tried);
		}
	}
	if (lib == NULL) {
		char detail[384];
		open_error(tried, detail, sizeof detail);
		if (path != NULL && path[0] != 0) {
			snprintf(err, errlen, "%s", detail);
			return NULL;
		}
		// Name every default that was tried; the error is the last one's.
		int n = snprintf(err, errlen, "tried");
		for (int i = 0; default_names[i] != NULL && n >= 0 && n < errlen; i++) {
			n += snprintf(err + n, errlen - n, " %s", default_names[i]);
		}
		if (n >= 0 && n < errlen) {
			snprintf(err + n, errlen - n, "; %s", detail);
		}
		return NULL;
	}
	gipa = (PFN_vkGetInstanceProcAddr)lib_sym(lib, "vkGetInstanceProcAddr");
	if (gipa == NULL) {
		snprintf(err, errlen, "vkGetInstanceProcAddr not found in the Vulkan loader");
		return NULL;
	}
	return (void *)gipa;
}

int gpurt_vk_query_props2(void *instance, void *physical_device, uint32_t api, gpurt_vk_props2 *out) {
	memset(out, 0, sizeof(*out));
	if (gipa == NULL) {
		return 0;
	}
	PFN_vkGetPhysicalDeviceProperties2 fn =
	    (PFN_vkGetPhysicalDeviceProperties2)gipa((VkInstance)instance, "vkGetPhysicalDeviceProperties2");
	if (fn == NULL) {
		return 0;
	}
	VkPhysicalDeviceMaintenance3Properties m3;
	VkPhysicalDeviceDriverProperties drv;
	VkPhysicalDeviceSubgroupProperties sg;
	VkPhysicalDeviceProperties2 p2;
	memset(&m3, 0, sizeof m3);
	memset(&drv, 0, sizeof drv);
	memset(&sg, 0, sizeof sg);
	memset(&p2, 0, sizeof p2);
	p2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
	m3.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES;
	sg.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES;
	drv.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES;
	p2.pNext = &m3;
	m3.pNext = &sg;
	// The driver properties structure is core in Vulkan 1.2 only.
	if (api >= ((1u << 22) | (2u << 12))) {
		sg.pNext = &drv;
	}
	fn((VkPhysicalDevice)physical_device, &p2);
	out->max_memory_allocation_size = m3.maxMemoryAllocationSize;
	out->driver_id = (uint32_t)drv.driverID;
	memcpy(out->driver_name, drv.driverName, sizeof out->driver_name);
	memcpy(out->driver_info, drv.driverInfo, sizeof out->driver_info);
	out->driver_name[255] = 0;
	out->driver_info[255] = 0;
	out->subgroup_size = sg.subgroupSize;
	out->subgroup_ops = sg.supportedOperations;
	out->subgroup_stages = sg.supportedStages;
	return 1;
}

int gpurt_vk_has_extension(void *instance, void *physical_device, const char *name) {
	if (gipa == NULL) {
		return 0;
	}
	PFN_vkEnumerateInstanceExtensionProperties inst_fn = NULL;
	PFN_vkEnumerateDeviceExtensionProperties dev_fn = NULL;
	if (physical_device == NULL) {
		inst_fn = (PFN_vkEnumerateInstanceExtensionProperties)gipa(NULL, "vkEnumerateInstanceExtensionProperties");
		if (inst_fn == NULL) {
			return 0;
		}
	} else {
		dev_fn = (PFN_vkEnumerateDeviceExtensionProperties)gipa((VkInstance)instance, "vkEnumerateDeviceExtensionProperties");
		if (dev_fn == NULL) {
			return 0;
		}
	}
	uint32_t n = 0;
	VkResult res = inst_fn ? inst_fn(NULL, &n, NULL) : dev_fn((VkPhysicalDevice)physical_device, NULL, &n, NULL);
	if ((int)res < 0 || n == 0) {
		return 0;
	}
	VkExtensionProperties *props = calloc(n, sizeof *props);
	if (props == NULL) {
		return 0;
	}
	// Success codes (VK_INCOMPLETE among them) are non-negative.
	res = inst_fn ? inst_fn(NULL, &n, props) : dev_fn((VkPhysicalDevice)physical_device, NULL, &n, props);
	int found = 0;
	for (uint32_t i = 0; (int)res >= 0 && i < n && !found; i++) {
		found = strncmp(props[i].extensionName, name, VK_MAX_EXTENSION_NAME_SIZE) == 0;
	}
	free(props);
	return found;
}
