// The Vulkan device a vulkan backend computes on: the instance, the physical device chosen by
// powerPreference (or by index), one logical device with a compute queue, memory types, buffers
// and one-shot command submission. Shared by every context on the backend (one per backend).
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "backends/vulkan/memory_pool.h"
#include "webnn/context.h"

namespace webnn::vulkan {

// Throws OperationError naming `what` and the VkResult when `result` is not VK_SUCCESS.
void check(VkResult result, const char* what);

// What a vulkan backend may be told beyond MLContextOptions (the environment variables of
// docs/vulkan.md fill it in).
struct VulkanOptions {
  // The physical device by index (vkEnumeratePhysicalDevices order); -1: by powerPreference.
  int deviceIndex = -1;
  // Whether constants may be written straight into mapped device-local memory when a memory type
  // is both device-local and host-visible. False forces the staging ring.
  bool allowDirect = true;
  // The staging ring: how many chunks, of how many bytes each.
  uint32_t ringChunks = 4;
  uint64_t ringChunkBytes = 4ull << 20;
};

// Reads WEBNN_VULKAN_DEVICE, WEBNN_VULKAN_DIRECT, WEBNN_VULKAN_RING_CHUNKS and
// WEBNN_VULKAN_RING_CHUNK_BYTES over `defaults`; throws TypeError naming a malformed one.
VulkanOptions optionsFromEnvironment(VulkanOptions defaults = {});

struct PhysicalDeviceInfo {
  uint32_t index = 0;
  std::string name;
  VkPhysicalDeviceType type = VK_PHYSICAL_DEVICE_TYPE_OTHER;
};

// Every Vulkan physical device the loader finds (empty when there is no Vulkan driver).
std::vector<PhysicalDeviceInfo> listPhysicalDevices();
// Which of `devices` `preference` picks: high-performance prefers discrete GPUs, low-power
// integrated ones, default discrete then integrated; CPU devices always come last.
uint32_t choosePhysicalDevice(std::span<const PhysicalDeviceInfo> devices,
                              MLPowerPreference preference);
const char* deviceTypeName(VkPhysicalDeviceType type);

class Device;

// A VkBuffer in memory from the device's pool (memory_pool.h); mapped() is non-null when the
// memory is host-visible.
class Buffer {
 public:
  Buffer(std::shared_ptr<Device> device, uint64_t byteLength, bool hostVisible,
         bool preferDeviceLocal);
  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  VkBuffer handle() const { return buffer_; }
  uint64_t byteLength() const { return byteLength_; }
  std::byte* mapped() const { return mapped_; }
  bool deviceLocal() const { return deviceLocal_; }

 private:
  std::shared_ptr<Device> device_;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  MemoryAllocation allocation_;
  uint64_t byteLength_ = 0;
  std::byte* mapped_ = nullptr;
  bool deviceLocal_ = false;
};

class Device : public std::enable_shared_from_this<Device> {
 public:
  // Creates the instance and the logical device on the physical device `options` and
  // `preference` choose. Throws NotSupportedError when there is no Vulkan device.
  static std::shared_ptr<Device> create(const VulkanOptions& options, MLPowerPreference preference);
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  VkDevice handle() const { return device_; }
  const PhysicalDeviceInfo& info() const { return info_; }
  const VkPhysicalDeviceLimits& limits() const { return limits_; }
  // A memory type index with `required` flags (and `preferred` ones where one has them);
  // -1 when none has `required`.
  int memoryType(uint32_t typeBits, VkMemoryPropertyFlags required,
                 VkMemoryPropertyFlags preferred) const;
  VkMemoryPropertyFlags memoryFlags(uint32_t type) const;
  // Whether some memory type is device-local, host-visible and host-coherent.
  bool hasHostVisibleDeviceLocal() const;
  // Whether shaders may use 64-bit integers (shaderInt64: int64/uint64 operands, cast).
  bool hasInt64() const { return int64_; }
  // Whether the compute queue writes timestamps (profiling), and their valid bits.
  uint32_t timestampBits() const { return timestampBits_; }
  // The largest byte length one storage buffer binding may have.
  uint64_t maxBindingBytes() const;

  // Where every Buffer's memory comes from.
  MemoryPool& memoryPool() { return *memoryPool_; }

  // Records commands with `record`, submits them on the compute queue and waits for them.
  void submitAndWait(const std::function<void(VkCommandBuffer)>& record);
  // Submits `commands` with `fence` (queue access is serialized here).
  void submit(VkCommandBuffer commands, VkFence fence);
  VkCommandPool createCommandPool();

 private:
  Device() = default;

  VkInstance instance_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  uint32_t queueFamily_ = 0;
  PhysicalDeviceInfo info_;
  VkPhysicalDeviceLimits limits_{};
  VkPhysicalDeviceMemoryProperties memory_{};
  bool int64_ = false;
  uint32_t timestampBits_ = 0;
  std::mutex queueMutex_;
  std::mutex poolMutex_;
  VkCommandPool oneShotPool_ = VK_NULL_HANDLE;
  std::unique_ptr<MemoryPool> memoryPool_;
};

}  // namespace webnn::vulkan
