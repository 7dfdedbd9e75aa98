#include "devfeatures.h"

#include <stdlib.h>
#include <string.h>

#include "loader.h"

// Structure types (Vulkan registry values).
enum {
	ST_FEATURES_2 = 1000059000,
	ST_MEMORY_PROPERTIES_2 = 1000059006,
	ST_16BIT_STORAGE = 1000083000,
	ST_VULKAN_1_1_FEATURES = 49,
	ST_VULKAN_1_2_FEATURES = 51,
	ST_VULKAN_1_3_FEATURES = 53,
	ST_VULKAN_1_3_PROPERTIES = 54,
	ST_PROPERTIES_2 = 1000059001,
	ST_COOPMAT_FEATURES = 1000506001,
	ST_MEMORY_BUDGET = 1000237000,
};

// Member positions inside each structure's VkBool32 list.
enum {
	CORE_SHADER_INT64 = 40,
	CORE_SHADER_INT16 = 41,
	CORE_COUNT = 55,
	V11_STORAGE16 = 0,
	V11_UNIFORM_STORAGE16 = 1,
	V11_PUSH_CONSTANT16 = 2,
	V11_COUNT = 12,
	V12_STORAGE8 = 2,
	V12_UNIFORM_STORAGE8 = 3,
	V12_PUSH_CONSTANT8 = 4,
	V12_SHADER_FLOAT16 = 7,
	V12_SHADER_INT8 = 8,
	V12_COUNT = 47,
	V13_SUBGROUP_SIZE_CONTROL = 7,
	V13_COMPUTE_FULL_SUBGROUPS = 8,
	V13_INTEGER_DOT_PRODUCT = 13,
	V13_COUNT = 15,
};

typedef struct {
	VkStructureType sType;
	void *pNext;
} chain_head;

typedef struct {
	chain_head h;
	VkBool32 f[CORE_COUNT];
} features2;

typedef struct {
	chain_head h;
	VkBool32 f[V11_COUNT];
} features11;

typedef struct {
	chain_head h;
	VkBool32 f[4];
} storage16;

typedef struct {
	chain_head h;
	VkBool32 f[V12_COUNT];
} features12;

typedef struct {
	chain_head h;
	VkBool32 f[V13_COUNT];
} features13;

typedef struct {
	chain_head h;
	VkBool32 f[2];
} coopmat_features;

// VkPhysicalDeviceVulkan13Properties begins with the subgroup size range.
typedef struct {
	chain_head h;
	uint32_t minSubgroupSize, maxSubgroupSize, maxComputeWorkgroupSubgroups;
	uint32_t requiredSubgroupSizeStages;
	uint8_t rest[512]; // later members, unread
} properties13;

typedef struct {
	uint32_t propertyFlags, heapIndex;
} memory_type;

typedef struct {
	VkDeviceSize size;
	uint32_t flags;
} memory_heap;

typedef struct {
	chain_head h;
	uint32_t memoryTypeCount;
	memory_type memoryTypes[32];
	uint32_t memoryHeapCount;
	memory_heap memoryHeaps[16];
} memory_properties2;

typedef struct {
	chain_head h;
	VkDeviceSize heapBudget[16];
	VkDeviceSize heapUsage[16];
} memory_budget;

typedef void (*pfn_get_features2)(void *physical_device, void *features);
typedef void (*pfn_get_properties2)(void *physical_device, void *properties);

#define API_1_2 ((1u << 22) | (2u << 12))
#define API_1_3 ((1u << 22) | (3u << 12))

int gpurt_vk_query_features(void *instance, void *physical_device, uint32_t api, int coopmat, gpurt_vk_features *out) {
	memset(out, 0, sizeof(*out));
	PFN_vkGetInstanceProcAddr gipa = gpurt_vk_gipa();
	if (gipa == NULL) {
		return 0;
	}
	pfn_get_features2 fn = (pfn_get_features2)gipa((VkInstance)instance, "vkGetPhysicalDeviceFeatures2");
	if (fn == NULL) {
		return 0;
	}
	features2 f2;
	features11 f11;
	storage16 s16;
	features12 f12;
	features13 f13;
	coopmat_features cm;
	memset(&f2, 0, sizeof f2);
	memset(&f11, 0, sizeof f11);
	memset(&s16, 0, sizeof s16);
	memset(&f12, 0, sizeof f12);
	memset(&f13, 0, sizeof f13);
	memset(&cm, 0, sizeof cm);
	f2.h.sType = ST_FEATURES_2;
	f11.h.sType = ST_VULKAN_1_1_FEATURES;
	s16.h.sType = ST_16BIT_STORAGE;
	f12.h.sType = ST_VULKAN_1_2_FEATURES;
	f13.h.sType = ST_VULKAN_1_3_FEATURES;
	cm.h.sType = ST_COOPMAT_FEATURES;
	void **tail = &f2.h.pNext;
	if (api >= API_1_2) {
		*tail = &f11;
		tail = &f11.h.pNext;
		*tail = &f12;
		tail = &f12.h.pNext;
	} else {
		*tail = &s16;
		tail = &s16.h.pNext;
	}
	if (api >= API_1_3) {
		*tail = &f13;
		tail = &f13.h.pNext;
	}
	if (coopmat) {
		*tail = &cm;
		tail = &cm.h.pNext;
	}
	fn(physical_device, &f2);
	out->shader_int16 = f2.f[CORE_SHADER_INT16];
	out->shader_int64 = f2.f[CORE_SHADER_INT64];
	if (api >= API_1_2) {
		out->storage16 = f11.f[V11_STORAGE16];
		out->uniform_storage16 = f11.f[V11_UNIFORM_STORAGE16];
		out->push_constant16 = f11.f[V11_PUSH_CONSTANT16];
		out->storage8 = f12.f[V12_STORAGE8];
		out->uniform_storage8 = f12.f[V12_UNIFORM_STORAGE8];
		out->push_constant8 = f12.f[V12_PUSH_CONSTANT8];
		out->shader_float16 = f12.f[V12_SHADER_FLOAT16];
		out->shader_int8 = f12.f[V12_SHADER_INT8];
	} else {
		out->storage16 = s16.f[0];
		out->uniform_storage16 = s16.f[1];
		out->push_constant16 = s16.f[2];
	}
	if (api >= API_1_3) {
		out->subgroup_size_control = f13.f[V13_SUBGROUP_SIZE_CONTROL];
		out->compute_full_subgroups = f13.f[V13_COMPUTE_FULL_SUBGROUPS];
		out->integer_dot_product = f13.f[V13_INTEGER_DOT_PRODUCT];
		pfn_get_properties2 pfn = (pfn_get_properties2)gipa((VkInstance)instance, "vkGetPhysicalDeviceProperties2");
		if (pfn != NULL) {
			// VkPhysicalDeviceProperties2 is large; only its chain is read.
			struct {
				chain_head h;
				uint8_t props[2048];
			} p2;
			properties13 p13;
			memset(&p2, 0, sizeof p2);
			memset(&p13, 0, sizeof p13);
			p2.h.sType = ST_PROPERTIES_2;
			p13.h.sType = ST_VULKAN_1_3_PROPERTIES;
			p2.h.pNext = &p13;
			pfn(physical_device, &p2);
			out->min_subgroup_size = p13.minSubgroupSize;
			out->max_subgroup_size = p13.maxSubgroupSize;
		}
	}
	out->cooperative_matrix = coopmat ? cm.f[0] : 0;
	return 1;
}

typedef struct {
	features2 f2;
	features11 f11;
	storage16 s16;
	features12 f12;
	features13 f13;
} feature_chain;

void *gpurt_vk_feature_chain(uint32_t api, const gpurt_vk_features *want) {
	feature_chain *c = calloc(1, sizeof *c);
	if (c == NULL) {
		return NULL;
	}
	c->f2.h.sType = ST_FEATURES_2;
	c->f11.h.sType = ST_VULKAN_1_1_FEATURES;
	c->s16.h.sType = ST_16BIT_STORAGE;
	c->f12.h.sType = ST_VULKAN_1_2_FEATURES;
	c->f13.h.sType = ST_VULKAN_1_3_FEATURES;
	c->f2.f[CORE_SHADER_INT16] = want->shader_int16 != 0;
	c->f2.f[CORE_SHADER_INT64] = want->shader_int64 != 0;
	if (api >= API_1_2) {
		c->f2.h.pNext = &c->f11;
		c->f11.h.pNext = &c->f12;
		c->f11.f[V11_STORAGE16] = want->storage16 != 0;
		c->f11.f[V11_UNIFORM_STORAGE16] = want->uniform_storage16 != 0;
		c->f11.f[V11_PUSH_CONSTANT16] = want->push_constant16 != 0;
		c->f12.f[V12_STORAGE8] = want->storage8 != 0;
		c->f12.f[V12_UNIFORM_STORAGE8] = want->uniform_storage8 != 0;
		c->f12.f[V12_PUSH_CONSTANT8] = want->push_constant8 != 0;
		c->f12.f[V12_SHADER_FLOAT16] = want->shader_float16 != 0;
		c->f12.f[V12_SHADER_INT8] = want->shader_int8 != 0;
		if (api >= API_1_3) {
			c->f12.h.pNext = &c->f13;
			c->f13.f[V13_SUBGROUP_SIZE_CONTROL] = want->subgroup_size_control != 0;
			c->f13.f[V13_COMPUTE_FULL_SUBGROUPS] = want->compute_full_subgroups != 0;
			c->f13.f[V13_INTEGER_DOT_PRODUCT] = want->integer_dot_product != 0;
		}
	} else {
		c->f2.h.pNext = &c->s16;
		c->s16.f[0] = want->storage16 != 0;
		c->s16.f[1] = want->uniform_storage16 != 0;
		c->s16.f[2] = want->push_constant16 != 0;
	}
	return c;
}

void gpurt_vk_free_chain(void *chain) { free(chain); }

int gpurt_vk_memory_budget(void *instance, void *physical_device, uint64_t *budget, uint64_t *usage) {
	PFN_vkGetInstanceProcAddr gipa = gpurt_vk_gipa();
	if (gipa == NULL) {
		return 0;
	}
	pfn_get_properties2 fn = (pfn_get_properties2)gipa((VkInstance)instance, "vkGetPhysicalDeviceMemoryProperties2");
	if (fn == NULL) {
		return 0;
	}
	memory_properties2 mp;
	memory_budget mb;
	memset(&mp, 0, sizeof mp);
	memset(&mb, 0, sizeof mb);
	mp.h.sType = ST_MEMORY_PROPERTIES_2;
	mb.h.sType = ST_MEMORY_BUDGET;
	mp.h.pNext = &mb;
	fn(physical_device, &mp);
	uint32_t n = mp.memoryHeapCount;
	if (n > 16) {
		n = 16;
	}
	for (uint32_t i = 0; i < n; i++) {
		budget[i] = mb.heapBudget[i];
		usage[i] = mb.heapUsage[i];
	}
	return (int)n;
}
