// Compile-time check that ../vkmin.h declares what vulkan_core.h declares.
// TestVkminMatchesVulkanHeaders compiles it (-fsyntax-only -Werror) with
// the real headers' directory added with -idirafter, for each target it can.
//
// The real header comes first, with the structs, enums and function pointer
// types that vkmin.h redefines renamed to real_*; both sets are then compared
// field by field. Everything else vkmin.h declares is declared again as is:
// C11 allows repeating a typedef only with the same type, and -Werror turns a
// macro redefined differently into an error.

#define VkResult real_VkResult
#define VK_SUCCESS real_VK_SUCCESS
#define VK_ERROR_OUT_OF_HOST_MEMORY real_VK_ERROR_OUT_OF_HOST_MEMORY
#define VK_RESULT_MAX_ENUM real_VK_RESULT_MAX_ENUM
#define VkStructureType real_VkStructureType
#define VK_STRUCTURE_TYPE_SUBMIT_INFO real_VK_STRUCTURE_TYPE_SUBMIT_INFO
#define VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO real_VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO
#define VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO real_VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO
#define VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO real_VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO
#define VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET real_VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET
#define VK_STRUCTURE_TYPE_MEMORY_BARRIER real_VK_STRUCTURE_TYPE_MEMORY_BARRIER
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES real_VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2 real_VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES real_VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES real_VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES
#define VK_STRUCTURE_TYPE_MAX_ENUM real_VK_STRUCTURE_TYPE_MAX_ENUM
#define VkDescriptorType real_VkDescriptorType
#define VK_DESCRIPTOR_TYPE_STORAGE_BUFFER real_VK_DESCRIPTOR_TYPE_STORAGE_BUFFER
#define VK_DESCRIPTOR_TYPE_MAX_ENUM real_VK_DESCRIPTOR_TYPE_MAX_ENUM
#define VkShaderStageFlagBits real_VkShaderStageFlagBits
#define VK_SHADER_STAGE_COMPUTE_BIT real_VK_SHADER_STAGE_COMPUTE_BIT
#define VK_SHADER_STAGE_FLAG_BITS_MAX_ENUM real_VK_SHADER_STAGE_FLAG_BITS_MAX_ENUM
#define VkDriverId real_VkDriverId
#define VK_DRIVER_ID_MAX_ENUM real_VK_DRIVER_ID_MAX_ENUM
#define VkSubmitInfo real_VkSubmitInfo
#define VkMemoryBarrier real_VkMemoryBarrier
#define VkBufferCopy real_VkBufferCopy
#define VkDescriptorBufferInfo real_VkDescriptorBufferInfo
#define VkWriteDescriptorSet real_VkWriteDescriptorSet
#define VkDescriptorSetAllocateInfo real_VkDescriptorSetAllocateInfo
#define VkSpecializationMapEntry real_VkSpecializationMapEntry
#define VkSpecializationInfo real_VkSpecializationInfo
#define VkPipelineShaderStageCreateInfo real_VkPipelineShaderStageCreateInfo
#define VkComputePipelineCreateInfo real_VkComputePipelineCreateInfo
#define VkPhysicalDeviceMaintenance3Properties real_VkPhysicalDeviceMaintenance3Properties
#define VkConformanceVersion real_VkConformanceVersion
#define VkPhysicalDeviceDriverProperties real_VkPhysicalDeviceDriverProperties
#define VkPhysicalDeviceSubgroupProperties real_VkPhysicalDeviceSubgroupProperties
#define VkPhysicalDeviceProperties2 real_VkPhysicalDeviceProperties2
#define PFN_vkQueueSubmit real_PFN_vkQueueSubmit
#define PFN_vkCreateComputePipelines real_PFN_vkCreateComputePipelines
#define PFN_vkAllocateDescriptorSets real_PFN_vkAllocateDescriptorSets
#define PFN_vkUpdateDescriptorSets real_PFN_vkUpdateDescriptorSets
#define PFN_vkCmdCopyBuffer real_PFN_vkCmdCopyBuffer
#define PFN_vkCmdUpdateBuffer real_PFN_vkCmdUpdateBuffer
#define PFN_vkWaitForFences real_PFN_vkWaitForFences
#define PFN_vkCmdWaitEvents real_PFN_vkCmdWaitEvents
#define PFN_vkCmdPipelineBarrier real_PFN_vkCmdPipelineBarrier
#define PFN_vkGetPhysicalDeviceProperties2 real_PFN_vkGetPhysicalDeviceProperties2
#define VkExtensionProperties real_VkExtensionProperties
#define PFN_vkEnumerateInstanceExtensionProperties real_PFN_vkEnumerateInstanceExtensionProperties
#define PFN_vkEnumerateDeviceExtensionProperties real_PFN_vkEnumerateDeviceExtensionProperties

#include <vulkan/vulkan_core.h>

#undef VkResult
#undef VK_SUCCESS
#undef VK_ERROR_OUT_OF_HOST_MEMORY
#undef VK_RESULT_MAX_ENUM
#undef VkStructureType
#undef VK_STRUCTURE_TYPE_SUBMIT_INFO
#undef VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO
#undef VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO
#undef VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO
#undef VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET
#undef VK_STRUCTURE_TYPE_MEMORY_BARRIER
#undef VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES
#undef VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2
#undef VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES
#undef VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES
#undef VK_STRUCTURE_TYPE_MAX_ENUM
#undef VkDescriptorType
#undef VK_DESCRIPTOR_TYPE_STORAGE_BUFFER
#undef VK_DESCRIPTOR_TYPE_MAX_ENUM
#undef VkShaderStageFlagBits
#undef VK_SHADER_STAGE_COMPUTE_BIT
#undef VK_SHADER_STAGE_FLAG_BITS_MAX_ENUM
#undef VkDriverId
#undef VK_DRIVER_ID_MAX_ENUM
#undef VkSubmitInfo
#undef VkMemoryBarrier
#undef VkBufferCopy
#undef VkDescriptorBufferInfo
#undef VkWriteDescriptorSet
#undef VkDescriptorSetAllocateInfo
#undef VkSpecializationMapEntry
#undef VkSpecializationInfo
#undef VkPipelineShaderStageCreateInfo
#undef VkComputePipelineCreateInfo
#undef VkPhysicalDeviceMaintenance3Properties
#undef VkConformanceVersion
#undef VkPhysicalDeviceDriverProperties
#undef VkPhysicalDeviceSubgroupProperties
#undef VkPhysicalDeviceProperties2
#undef PFN_vkQueueSubmit
#undef PFN_vkCreateComputePipelines
#undef PFN_vkAllocateDescriptorSets
#undef PFN_vkUpdateDescriptorSets
#undef PFN_vkCmdCopyBuffer
#undef PFN_vkCmdUpdateBuffer
#undef PFN_vkWaitForFences
#undef PFN_vkCmdWaitEvents
#undef PFN_vkCmdPipelineBarrier
#undef PFN_vkGetPhysicalDeviceProperties2
#undef VkExtensionProperties
#undef PFN_vkEnumerateInstanceExtensionProperties
#undef PFN_vkEnumerateDeviceExtensionProperties

// vkmin.h decides pointer or uint64_t handles by its own test; a different
// answer makes its handle typedefs conflict with the real ones.
#undef VK_USE_64_BIT_PTR_DEFINES

#include "../vkmin.h"

#define SAME_STRUCT(T) \
	_Static_assert(sizeof(T) == sizeof(real_##T) && _Alignof(T) == _Alignof(real_##T), #T ": size or alignment differs");
#define SAME_FIELD(T, f)                                                               \
	_Static_assert(offsetof(T, f) == offsetof(real_##T, f) &&                         \
	                   sizeof(((T *)0)->f) == sizeof(((real_##T *)0)->f),             \
	               #T "." #f ": offset or size differs");
// Unary plus promotes an enum to its underlying type: int or unsigned int.
#define SIGNED(T) _Generic(+(T)0, int: 1, unsigned int: 0, default: 2)
#define SAME_ENUM(T) \
	_Static_assert(sizeof(T) == sizeof(real_##T) && SIGNED(T) == SIGNED(real_##T), #T ": size or signedness differs");
#define SAME_CONST(c) _Static_assert((long long)(c) == (long long)(real_##c), #c ": value differs");
// SAME_PFN checks both function pointer types against one signature, whose
// renamed types are spelled P##name.
#define SAME_PFN(name, SIG)                                                           \
	_Static_assert(_Generic((name)0, SIG(): 1, default: 0), #name ": differs");       \
	_Static_assert(_Generic((real_##name)0, SIG(real_): 1, default: 0), "real " #name ": differs");

SAME_ENUM(VkResult)
SAME_CONST(VK_SUCCESS)
SAME_CONST(VK_ERROR_OUT_OF_HOST_MEMORY)
SAME_CONST(VK_RESULT_MAX_ENUM)
SAME_ENUM(VkStructureType)
SAME_CONST(VK_STRUCTURE_TYPE_SUBMIT_INFO)
SAME_CONST(VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO)
SAME_CONST(VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO)
SAME_CONST(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO)
SAME_CONST(VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET)
SAME_CONST(VK_STRUCTURE_TYPE_MEMORY_BARRIER)
SAME_CONST(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES)
SAME_CONST(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2)
SAME_CONST(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES)
SAME_CONST(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES)
SAME_CONST(VK_STRUCTURE_TYPE_MAX_ENUM)
SAME_ENUM(VkDescriptorType)
SAME_CONST(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER)
SAME_CONST(VK_DESCRIPTOR_TYPE_MAX_ENUM)
SAME_ENUM(VkShaderStageFlagBits)
SAME_CONST(VK_SHADER_STAGE_COMPUTE_BIT)
SAME_CONST(VK_SHADER_STAGE_FLAG_BITS_MAX_ENUM)
SAME_ENUM(VkDriverId)
SAME_CONST(VK_DRIVER_ID_MAX_ENUM)

SAME_STRUCT(VkSubmitInfo)
SAME_FIELD(VkSubmitInfo, sType)
SAME_FIELD(VkSubmitInfo, pNext)
SAME_FIELD(VkSubmitInfo, waitSemaphoreCount)
SAME_FIELD(VkSubmitInfo, pWaitSemaphores)
SAME_FIELD(VkSubmitInfo, pWaitDstStageMask)
SAME_FIELD(VkSubmitInfo, commandBufferCount)
SAME_FIELD(VkSubmitInfo, pCommandBuffers)
SAME_FIELD(VkSubmitInfo, signalSemaphoreCount)
SAME_FIELD(VkSubmitInfo, pSignalSemaphores)

SAME_STRUCT(VkMemoryBarrier)
SAME_FIELD(VkMemoryBarrier, sType)
SAME_FIELD(VkMemoryBarrier, pNext)
SAME_FIELD(VkMemoryBarrier, srcAccessMask)
SAME_FIELD(VkMemoryBarrier, dstAccessMask)

SAME_STRUCT(VkBufferCopy)
SAME_FIELD(VkBufferCopy, srcOffset)
SAME_FIELD(VkBufferCopy, dstOffset)
SAME_FIELD(VkBufferCopy, size)

SAME_STRUCT(VkDescriptorBufferInfo)
SAME_FIELD(VkDescriptorBufferInfo, buffer)
SAME_FIELD(VkDescriptorBufferInfo, offset)
SAME_FIELD(VkDescriptorBufferInfo, range)

SAME_STRUCT(VkWriteDescriptorSet)
SAME_FIELD(VkWriteDescriptorSet, sType)
SAME_FIELD(VkWriteDescriptorSet, pNext)
SAME_FIELD(VkWriteDescriptorSet, dstSet)
SAME_FIELD(VkWriteDescriptorSet, dstBinding)
SAME_FIELD(VkWriteDescriptorSet, dstArrayElement)
SAME_FIELD(VkWriteDescriptorSet, descriptorCount)
SAME_FIELD(VkWriteDescriptorSet, descriptorType)
SAME_FIELD(VkWriteDescriptorSet, pImageInfo)
SAME_FIELD(VkWriteDescriptorSet, pBufferInfo)
SAME_FIELD(VkWriteDescriptorSet, pTexelBufferView)

SAME_STRUCT(VkDescriptorSetAllocateInfo)
SAME_FIELD(VkDescriptorSetAllocateInfo, sType)
SAME_FIELD(VkDescriptorSetAllocateInfo, pNext)
SAME_FIELD(VkDescriptorSetAllocateInfo, descriptorPool)
SAME_FIELD(VkDescriptorSetAllocateInfo, descriptorSetCount)
SAME_FIELD(VkDescriptorSetAllocateInfo, pSetLayouts)

SAME_STRUCT(VkSpecializationMapEntry)
SAME_FIELD(VkSpecializationMapEntry, constantID)
SAME_FIELD(VkSpecializationMapEntry, offset)
SAME_FIELD(VkSpecializationMapEntry, size)

SAME_STRUCT(VkSpecializationInfo)
SAME_FIELD(VkSpecializationInfo, mapEntryCount)
SAME_FIELD(VkSpecializationInfo, pMapEntries)
SAME_FIELD(VkSpecializationInfo, dataSize)
SAME_FIELD(VkSpecializationInfo, pData)

SAME_STRUCT(VkPipelineShaderStageCreateInfo)
SAME_FIELD(VkPipelineShaderStageCreateInfo, sType)
SAME_FIELD(VkPipelineShaderStageCreateInfo, pNext)
SAME_FIELD(VkPipelineShaderStageCreateInfo, flags)
SAME_FIELD(VkPipelineShaderStageCreateInfo, stage)
SAME_FIELD(VkPipelineShaderStageCreateInfo, module)
SAME_FIELD(VkPipelineShaderStageCreateInfo, pName)
SAME_FIELD(VkPipelineShaderStageCreateInfo, pSpecializationInfo)

SAME_STRUCT(VkComputePipelineCreateInfo)
SAME_FIELD(VkComputePipelineCreateInfo, sType)
SAME_FIELD(VkComputePipelineCreateInfo, pNext)
SAME_FIELD(VkComputePipelineCreateInfo, flags)
SAME_FIELD(VkComputePipelineCreateInfo, stage)
SAME_FIELD(VkComputePipelineCreateInfo, layout)
SAME_FIELD(VkComputePipelineCreateInfo, basePipelineHandle)
SAME_FIELD(VkComputePipelineCreateInfo, basePipelineIndex)

SAME_STRUCT(VkPhysicalDeviceMaintenance3Properties)
SAME_FIELD(VkPhysicalDeviceMaintenance3Properties, sType)
SAME_FIELD(VkPhysicalDeviceMaintenance3Properties, pNext)
SAME_FIELD(VkPhysicalDeviceMaintenance3Properties, maxPerSetDescriptors)
SAME_FIELD(VkPhysicalDeviceMaintenance3Properties, maxMemoryAllocationSize)

SAME_STRUCT(VkConformanceVersion)
SAME_FIELD(VkConformanceVersion, major)
SAME_FIELD(VkConformanceVersion, minor)
SAME_FIELD(VkConformanceVersion, subminor)
SAME_FIELD(VkConformanceVersion, patch)

SAME_STRUCT(VkPhysicalDeviceDriverProperties)
SAME_FIELD(VkPhysicalDeviceDriverProperties, sType)
SAME_FIELD(VkPhysicalDeviceDriverProperties, pNext)
SAME_FIELD(VkPhysicalDeviceDriverProperties, driverID)
SAME_FIELD(VkPhysicalDeviceDriverProperties, driverName)
SAME_FIELD(VkPhysicalDeviceDriverProperties, driverInfo)
SAME_FIELD(VkPhysicalDeviceDriverProperties, conformanceVersion)

SAME_STRUCT(VkPhysicalDeviceSubgroupProperties)
SAME_FIELD(VkPhysicalDeviceSubgroupProperties, sType)
SAME_FIELD(VkPhysicalDeviceSubgroupProperties, pNext)
SAME_FIELD(VkPhysicalDeviceSubgroupProperties, subgroupSize)
SAME_FIELD(VkPhysicalDeviceSubgroupProperties, supportedStages)
SAME_FIELD(VkPhysicalDeviceSubgroupProperties, supportedOperations)
SAME_FIELD(VkPhysicalDeviceSubgroupProperties, quadOperationsInAllStages)

SAME_STRUCT(VkExtensionProperties)
SAME_FIELD(VkExtensionProperties, extensionName)
SAME_FIELD(VkExtensionProperties, specVersion)

// The opaque properties member only has to hold the real one.
_Static_assert(sizeof(VkPhysicalDeviceProperties2) >= sizeof(real_VkPhysicalDeviceProperties2) &&
                   _Alignof(VkPhysicalDeviceProperties2) == _Alignof(real_VkPhysicalDeviceProperties2),
               "VkPhysicalDeviceProperties2: too small or aligned differently");
SAME_FIELD(VkPhysicalDeviceProperties2, sType)
SAME_FIELD(VkPhysicalDeviceProperties2, pNext)
_Static_assert(offsetof(VkPhysicalDeviceProperties2, properties) == offsetof(real_VkPhysicalDeviceProperties2, properties),
               "VkPhysicalDeviceProperties2.properties: offset differs");

#define SIG_QUEUE_SUBMIT(P) P##VkResult (VKAPI_PTR *)(VkQueue, uint32_t, const P##VkSubmitInfo *, VkFence)
#define SIG_CREATE_COMPUTE_PIPELINES(P) \
	P##VkResult (VKAPI_PTR *)(VkDevice, VkPipelineCache, uint32_t, const P##VkComputePipelineCreateInfo *, const VkAllocationCallbacks *, VkPipeline *)
#define SIG_ALLOCATE_DESCRIPTOR_SETS(P) P##VkResult (VKAPI_PTR *)(VkDevice, const P##VkDescriptorSetAllocateInfo *, VkDescriptorSet *)
#define SIG_UPDATE_DESCRIPTOR_SETS(P) \
	void (VKAPI_PTR *)(VkDevice, uint32_t, const P##VkWriteDescriptorSet *, uint32_t, const VkCopyDescriptorSet *)
#define SIG_CMD_COPY_BUFFER(P) void (VKAPI_PTR *)(VkCommandBuffer, VkBuffer, VkBuffer, uint32_t, const P##VkBufferCopy *)
#define SIG_CMD_UPDATE_BUFFER(P) void (VKAPI_PTR *)(VkCommandBuffer, VkBuffer, VkDeviceSize, VkDeviceSize, const void *)
#define SIG_WAIT_FOR_FENCES(P) P##VkResult (VKAPI_PTR *)(VkDevice, uint32_t, const VkFence *, VkBool32, uint64_t)
#define SIG_CMD_WAIT_EVENTS(P)                                                                                  \
	void (VKAPI_PTR *)(VkCommandBuffer, uint32_t, const VkEvent *, VkPipelineStageFlags, VkPipelineStageFlags, \
	                   uint32_t, const P##VkMemoryBarrier *, uint32_t, const VkBufferMemoryBarrier *, uint32_t,   \
	                   const VkImageMemoryBarrier *)
#define SIG_CMD_PIPELINE_BARRIER(P)                                                                                    \
	void (VKAPI_PTR *)(VkCommandBuffer, VkPipelineStageFlags, VkPipelineStageFlags, VkDependencyFlags, uint32_t,     \
	                   const P##VkMemoryBarrier *, uint32_t, const VkBufferMemoryBarrier *, uint32_t,                \
	                   const VkImageMemoryBarrier *)
#define SIG_GET_PHYSICAL_DEVICE_PROPERTIES2(P) void (VKAPI_PTR *)(VkPhysicalDevice, P##VkPhysicalDeviceProperties2 *)
#define SIG_ENUMERATE_INSTANCE_EXTENSIONS(P) P##VkResult (VKAPI_PTR *)(const char *, uint32_t *, P##VkExtensionProperties *)
#define SIG_ENUMERATE_DEVICE_EXTENSIONS(P) \
	P##VkResult (VKAPI_PTR *)(VkPhysicalDevice, const char *, uint32_t *, P##VkExtensionProperties *)

SAME_PFN(PFN_vkQueueSubmit, SIG_QUEUE_SUBMIT)
SAME_PFN(PFN_vkCreateComputePipelines, SIG_CREATE_COMPUTE_PIPELINES)
SAME_PFN(PFN_vkAllocateDescriptorSets, SIG_ALLOCATE_DESCRIPTOR_SETS)
SAME_PFN(PFN_vkUpdateDescriptorSets, SIG_UPDATE_DESCRIPTOR_SETS)
SAME_PFN(PFN_vkCmdCopyBuffer, SIG_CMD_COPY_BUFFER)
SAME_PFN(PFN_vkCmdUpdateBuffer, SIG_CMD_UPDATE_BUFFER)
SAME_PFN(PFN_vkWaitForFences, SIG_WAIT_FOR_FENCES)
SAME_PFN(PFN_vkCmdWaitEvents, SIG_CMD_WAIT_EVENTS)
SAME_PFN(PFN_vkCmdPipelineBarrier, SIG_CMD_PIPELINE_BARRIER)
SAME_PFN(PFN_vkGetPhysicalDeviceProperties2, SIG_GET_PHYSICAL_DEVICE_PROPERTIES2)
SAME_PFN(PFN_vkEnumerateInstanceExtensionProperties, SIG_ENUMERATE_INSTANCE_EXTENSIONS)
SAME_PFN(PFN_vkEnumerateDeviceExtensionProperties, SIG_ENUMERATE_DEVICE_EXTENSIONS)
