#include "backends/vulkan/device.h"

#include <algorithm>
#include <cstdlib>
#include <string_view>

#include "core/checked_math.h"
#include "webnn/types.h"

namespace webnn::vulkan {
namespace {

VkInstance createInstance() {
  VkApplicationInfo app{};
  app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  app.pApplicationName = "webnn-cpp";
  app.pEngineName = "webnn-cpp";
  app.apiVersion = VK_API_VERSION_1_2;
  VkInstanceCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  info.pApplicationInfo = &app;
  VkInstance instance = VK_NULL_HANDLE;
  const VkResult result = vkCreateInstance(&info, nullptr, &instance);
  if (result != VK_SUCCESS) {
    throw Error(Error::Kind::NotSupportedError,
                "vulkan: no Vulkan instance (vkCreateInstance returned " +
                    std::to_string(static_cast<int>(result)) + "; is a Vulkan driver installed?)");
  }
  return instance;
}

std::vector<VkPhysicalDevice> physicalDevices(VkInstance instance) {
  uint32_t count = 0;
  check(vkEnumeratePhysicalDevices(instance, &count, nullptr), "vkEnumeratePhysicalDevices");
  std::vector<VkPhysicalDevice> devices(count);
  if (count > 0) {
    check(vkEnumeratePhysicalDevices(instance, &count, devices.data()),
          "vkEnumeratePhysicalDevices");
  }
  devices.resize(count);
  return devices;
}

std::vector<PhysicalDeviceInfo> describe(const std::vector<VkPhysicalDevice>& devices) {
  std::vector<PhysicalDeviceInfo> infos;
  for (uint32_t i = 0; i < devices.size(); ++i) {
    VkPhysicalDeviceProperties properties;
    vkGetPhysicalDeviceProperties(devices[i], &properties);
    infos.push_back({i, properties.deviceName, properties.deviceType});
  }
  return infos;
}

// Lower is better.
int rank(VkPhysicalDeviceType type, MLPowerPreference preference) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
      return preference == MLPowerPreference::LowPower ? 1 : 0;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
      return preference == MLPowerPreference::LowPower ? 0 : 1;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
      return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
      return 4;
    default:
      return 3;
  }
}

uint64_t parseUnsigned(const char* name, const char* value, uint64_t max) {
  const auto parsed = checked::parseInteger<uint64_t>(std::string_view(value));
  if (!parsed || *parsed > max) {
    throwTypeError(std::string("vulkan: ") + name + "='" + value + "' is not a number in [0, " +
                   std::to_string(max) + "]");
  }
  return *parsed;
}

}  // namespace

void check(VkResult result, const char* what) {
  if (result != VK_SUCCESS) {
    throwOperationError(std::string("vulkan: ") + what + " failed (VkResult " +
                        std::to_string(static_cast<int>(result)) + ")");
  }
}

VulkanOptions optionsFromEnvironment(VulkanOptions options) {
  if (const char* value = std::getenv("WEBNN_VULKAN_DEVICE"); value && *value) {
    options.deviceIndex = static_cast<int>(parseUnsigned("WEBNN_VULKAN_DEVICE", value, 1024));
  }
  if (const char* value = std::getenv("WEBNN_VULKAN_DIRECT"); value && *value) {
    options.allowDirect = parseUnsigned("WEBNN_VULKAN_DIRECT", value, 1) == 1;
  }
  if (const char* value = std::getenv("WEBNN_VULKAN_RING_CHUNKS"); value && *value) {
    options.ringChunks =
        static_cast<uint32_t>(parseUnsigned("WEBNN_VULKAN_RING_CHUNKS", value, 64));
  }
  if (const char* value = std::getenv("WEBNN_VULKAN_RING_CHUNK_BYTES"); value && *value) {
    options.ringChunkBytes = parseUnsigned("WEBNN_VULKAN_RING_CHUNK_BYTES", value, 1ull << 30);
  }
  if (options.ringChunks == 0 || options.ringChunkBytes < 4096) {
    throwTypeError("vulkan: the staging ring needs at least 1 chunk of at least 4096 bytes");
  }
  return options;
}

std::vector<PhysicalDeviceInfo> listPhysicalDevices() {
  VkInstance instance = VK_NULL_HANDLE;
  try {
    instance = createInstance();
  } catch (const Error&) {
    return {};
  }
  std::vector<PhysicalDeviceInfo> infos;
  try {
    infos = describe(physicalDevices(instance));
  } catch (const Error&) {
  }
  vkDestroyInstance(instance, nullptr);
  return infos;
}

uint32_t choosePhysicalDevice(std::span<const PhysicalDeviceInfo> devices,
                              MLPowerPreference preference) {
  uint32_t best = 0;
  for (uint32_t i = 1; i < devices.size(); ++i) {
    if (rank(devices[i].type, preference) < rank(devices[best].type, preference)) best = i;
  }
  return best;
}

const char* deviceTypeName(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
      return "discrete GPU";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
      return "integrated GPU";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
      return "virtual GPU";
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
      return "CPU";
    default:
      return "other";
  }
}

std::shared_ptr<Device> Device::create(const VulkanOptions& options, MLPowerPreference preference) {
  std::shared_ptr<Device> device(new Device);
  device->instance_ = createInstance();
  const auto handles = physicalDevices(device->instance_);
  if (handles.empty()) {
    throw Error(Error::Kind::NotSupportedError, "vulkan: no Vulkan physical device found");
  }
  const auto infos = describe(handles);
  uint32_t index = choosePhysicalDevice(infos, preference);
  if (options.deviceIndex >= 0) {
    if (static_cast<size_t>(options.deviceIndex) >= handles.size()) {
      throwTypeError("vulkan: device index " + std::to_string(options.deviceIndex) +
                     " is out of range (" + std::to_string(handles.size()) + " devices)");
    }
    index = static_cast<uint32_t>(options.deviceIndex);
  }
  device->physical_ = handles[index];
  device->info_ = infos[index];
  VkPhysicalDeviceProperties properties;
  vkGetPhysicalDeviceProperties(device->physical_, &properties);
  device->limits_ = properties.limits;
  vkGetPhysicalDeviceMemoryProperties(device->physical_, &device->memory_);

  uint32_t familyCount = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(device->physical_, &familyCount, nullptr);
  std::vector<VkQueueFamilyProperties> families(familyCount);
  vkGetPhysicalDeviceQueueFamilyProperties(device->physical_, &familyCount, families.data());
  bool found = false;
  for (uint32_t i = 0; i < familyCount && !found; ++i) {
    if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
      device->queueFamily_ = i;
      device->timestampBits_ = families[i].timestampValidBits;
      found = true;
    }
  }
  if (!found) {
    throw Error(Error::Kind::NotSupportedError,
                "vulkan: device '" + device->info_.name + "' has no compute queue");
  }
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queueInfo{};
  queueInfo.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
  queueInfo.queueFamilyIndex = device->queueFamily_;
  queueInfo.queueCount = 1;
  queueInfo.pQueuePriorities = &priority;
  VkDeviceCreateInfo deviceInfo{};
  deviceInfo.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
  deviceInfo.queueCreateInfoCount = 1;
  deviceInfo.pQueueCreateInfos = &queueInfo;
  VkPhysicalDeviceFeatures available{};
  vkGetPhysicalDeviceFeatures(device->physical_, &available);
  VkPhysicalDeviceFeatures enabled{};
  enabled.shaderInt64 = available.shaderInt64;
  device->int64_ = available.shaderInt64 == VK_TRUE;
  deviceInfo.pEnabledFeatures = &enabled;
  check(vkCreateDevice(device->physical_, &deviceInfo, nullptr, &device->device_),
        "vkCreateDevice");
  vkGetDeviceQueue(device->device_, device->queueFamily_, 0, &device->queue_);
  device->oneShotPool_ = device->createCommandPool();
  device->memoryPool_ = std::make_unique<MemoryPool>(device->device_);
  return device;
}

Device::~Device() {
  if (device_) {
    vkDeviceWaitIdle(device_);
    memoryPool_.reset();
    if (oneShotPool_) vkDestroyCommandPool(device_, oneShotPool_, nullptr);
    vkDestroyDevice(device_, nullptr);
  }
  if (instance_) vkDestroyInstance(instance_, nullptr);
}

int Device::memoryType(uint32_t typeBits, VkMemoryPropertyFlags required,
                       VkMemoryPropertyFlags preferred) const {
  int fallback = -1;
  for (uint32_t i = 0; i < memory_.memoryTypeCount; ++i) {
    if (!(typeBits & (1u << i))) continue;
    const VkMemoryPropertyFlags flags = memory_.memoryTypes[i].propertyFlags;
    if ((flags & required) != required) continue;
    if ((flags & preferred) == preferred) return static_cast<int>(i);
    if (fallback < 0) fallback = static_cast<int>(i);
  }
  return fallback;
}

VkMemoryPropertyFlags Device::memoryFlags(uint32_t type) const {
  return memory_.memoryTypes[type].propertyFlags;
}

bool Device::hasHostVisibleDeviceLocal() const {
  const VkMemoryPropertyFlags wanted = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT |
                                       VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                       VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  return memoryType(~0u, wanted, wanted) >= 0;
}

uint64_t Device::maxBindingBytes() const {
  return limits_.maxStorageBufferRange;
}

VkCommandPool Device::createCommandPool() {
  VkCommandPoolCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
  info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  info.queueFamilyIndex = queueFamily_;
  VkCommandPool pool = VK_NULL_HANDLE;
  check(vkCreateCommandPool(device_, &info, nullptr, &pool), "vkCreateCommandPool");
  return pool;
}

void Device::submit(VkCommandBuffer commands, VkFence fence) {
  VkSubmitInfo submitInfo{};
  submitInfo.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  submitInfo.commandBufferCount = 1;
  submitInfo.pCommandBuffers = &commands;
  std::lock_guard lock(queueMutex_);
  check(vkQueueSubmit(queue_, 1, &submitInfo, fence), "vkQueueSubmit");
}

void Device::submitAndWait(const std::function<void(VkCommandBuffer)>& record) {
  VkCommandBuffer commands = VK_NULL_HANDLE;
  {
    std::lock_guard lock(poolMutex_);
    VkCommandBufferAllocateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
    info.commandPool = oneShotPool_;
    info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    info.commandBufferCount = 1;
    check(vkAllocateCommandBuffers(device_, &info, &commands), "vkAllocateCommandBuffers");
  }
  VkFence fence = VK_NULL_HANDLE;
  auto release = [&] {
    if (fence) vkDestroyFence(device_, fence, nullptr);
    std::lock_guard lock(poolMutex_);
    vkFreeCommandBuffers(device_, oneShotPool_, 1, &commands);
  };
  try {
    VkCommandBufferBeginInfo begin{};
    begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    check(vkBeginCommandBuffer(commands, &begin), "vkBeginCommandBuffer");
    record(commands);
    check(vkEndCommandBuffer(commands), "vkEndCommandBuffer");
    VkFenceCreateInfo fenceInfo{};
    fenceInfo.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
    check(vkCreateFence(device_, &fenceInfo, nullptr, &fence), "vkCreateFence");
    submit(commands, fence);
    check(vkWaitForFences(device_, 1, &fence, VK_TRUE, UINT64_MAX), "vkWaitForFences");
  } catch (...) {
    release();
    throw;
  }
  release();
}

Buffer::Buffer(std::shared_ptr<Device> device, uint64_t byteLength, bool hostVisible,
               bool preferDeviceLocal)
    : device_(std::move(device)), byteLength_(byteLength) {
  // Vulkan has no empty buffers: an empty operand gets 16 bytes nobody reads.
  // (Sizes are whole 32-bit words: shaders read uint8 operands four bytes at a time.)
  const uint64_t size = (std::max<uint64_t>(byteLength, 16) + 3) & ~uint64_t{3};
  VkBufferCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  info.size = size;
  info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
               VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VkDevice vk = device_->handle();
  check(vkCreateBuffer(vk, &info, nullptr, &buffer_), "vkCreateBuffer");
  VkMemoryRequirements requirements;
  vkGetBufferMemoryRequirements(vk, buffer_, &requirements);
  VkMemoryPropertyFlags required = 0;
  VkMemoryPropertyFlags preferred = 0;
  if (hostVisible) {
    required = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  }
  if (preferDeviceLocal) preferred = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
  preferred |= required;
  const int type = device_->memoryType(requirements.memoryTypeBits, required, preferred);
  if (type < 0) {
    vkDestroyBuffer(vk, buffer_, nullptr);
    throwOperationError("vulkan: no memory type for a buffer of " + std::to_string(size) +
                        " bytes");
  }
  deviceLocal_ = device_->memoryFlags(type) & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
  const bool mappable = device_->memoryFlags(type) & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
  try {
    allocation_ = device_->memoryPool().allocate(static_cast<uint32_t>(type), requirements.size,
                                                 requirements.alignment, mappable);
    check(vkBindBufferMemory(vk, buffer_, allocation_.memory, allocation_.offset),
          "vkBindBufferMemory");
  } catch (...) {
    device_->memoryPool().free(allocation_);
    vkDestroyBuffer(vk, buffer_, nullptr);
    throw;
  }
  mapped_ = allocation_.mapped;
}

Buffer::~Buffer() {
  vkDestroyBuffer(device_->handle(), buffer_, nullptr);
  device_->memoryPool().free(allocation_);
}

}  // namespace webnn::vulkan
