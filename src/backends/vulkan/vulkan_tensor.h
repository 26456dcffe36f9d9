// An MLTensor on the device: a device-local buffer, written and read through mapped memory where
// it is host-visible and device-local (direct), else through a one-chunk staging ring.
#pragma once

#include <memory>

#include "backends/backend.h"
#include "backends/vulkan/runtime.h"

namespace webnn::vulkan {

class VulkanTensor final : public backend::BackendTensor {
 public:
  VulkanTensor(std::shared_ptr<Runtime> runtime, const MLTensorDescriptor& descriptor,
               std::shared_ptr<backend::MemoryAccount> memory);
  uint64_t byteLength() const override { return byteLength_; }
  void write(std::span<const std::byte> bytes) override;
  void read(std::span<std::byte> destination) const override;
  VkBuffer buffer() const { return buffer_->handle(); }

 private:
  std::shared_ptr<Runtime> runtime_;
  std::shared_ptr<backend::MemoryAccount> memory_;
  uint64_t byteLength_;
  std::unique_ptr<Buffer> buffer_;
  backend::GaugeCharge charge_;
};

// Writes `bytes` into `destination` at `offset` through a staging ring of one chunk (at most
// options.ringChunkBytes), waiting for the copies.
void uploadThroughStaging(Runtime& runtime, std::shared_ptr<backend::MemoryAccount> account,
                          VkBuffer destination, uint64_t offset, std::span<const std::byte> bytes);

}  // namespace webnn::vulkan
