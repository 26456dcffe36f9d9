#include "backends/vulkan/vulkan_tensor.h"

#include <algorithm>
#include <cstring>

#include "backends/vulkan/staging_ring.h"

namespace webnn::vulkan {

void uploadThroughStaging(Runtime& runtime, std::shared_ptr<backend::MemoryAccount> account,
                          VkBuffer destination, uint64_t offset, std::span<const std::byte> bytes) {
  if (bytes.empty()) return;
  const uint64_t chunk = std::min<uint64_t>(bytes.size(), runtime.options.ringChunkBytes);
  StagingRing ring(runtime.device, 1, chunk, std::move(account));
  for (uint64_t done = 0; done < bytes.size(); done += chunk) {
    const uint64_t size = std::min<uint64_t>(chunk, bytes.size() - done);
    const auto lease = ring.acquire(size);
    std::memcpy(lease.bytes.data(), bytes.data() + done, size);
    ring.commit(lease, destination, offset + done);
  }
  ring.drain();
}

VulkanTensor::VulkanTensor(std::shared_ptr<Runtime> runtime, const MLTensorDescriptor& descriptor,
                           std::shared_ptr<backend::MemoryAccount> memory)
    : runtime_(std::move(runtime)),
      memory_(std::move(memory)),
      byteLength_(descriptor.byteLength()) {
  buffer_ = std::make_unique<Buffer>(runtime_->device, byteLength_, runtime_->direct,
                                     /*preferDeviceLocal=*/true);
  if (runtime_->direct) {
    std::memset(buffer_->mapped(), 0, buffer_->byteLength());
  } else {
    VkBuffer handle = buffer_->handle();
    runtime_->device->submitAndWait(
        [&](VkCommandBuffer commands) { vkCmdFillBuffer(commands, handle, 0, VK_WHOLE_SIZE, 0); });
  }
  charge_ = backend::GaugeCharge(memory_->tensors, byteLength_);
}

void VulkanTensor::write(std::span<const std::byte> bytes) {
  if (bytes.empty()) return;
  if (runtime_->direct) {
    std::memcpy(buffer_->mapped(), bytes.data(), bytes.size());
    return;
  }
  uploadThroughStaging(*runtime_, memory_, buffer_->handle(), 0, bytes);
}

void VulkanTensor::read(std::span<std::byte> destination) const {
  if (destination.empty()) return;
  if (runtime_->direct) {
    std::memcpy(destination.data(), buffer_->mapped(), destination.size());
    return;
  }
  const uint64_t chunk = std::min<uint64_t>(destination.size(), runtime_->options.ringChunkBytes);
  StagingRing ring(runtime_->device, 1, chunk, memory_);
  for (uint64_t done = 0; done < destination.size(); done += chunk) {
    const uint64_t size = std::min<uint64_t>(chunk, destination.size() - done);
    const auto lease = ring.acquire(size);
    ring.readInto(lease, buffer_->handle(), done);
    std::memcpy(destination.data() + done, lease.bytes.data(), size);
    ring.release(lease);
  }
}

}  // namespace webnn::vulkan
