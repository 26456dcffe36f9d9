// A hollow constant's slot on the device: its final storage is a device-local buffer. On the
// direct path (mapped device-local memory) stage() hands out the buffer's own bytes; otherwise
// it leases a chunk of the graph's staging ring and commit() copies the chunk into the buffer.
#pragma once

#include <functional>
#include <memory>

#include "backends/backend.h"
#include "backends/vulkan/runtime.h"
#include "backends/vulkan/staging_ring.h"

namespace webnn::vulkan {

class VulkanConstantSlot final : public backend::ConstantSlot {
 public:
  // `ring` returns the graph's staging ring (created on first use).
  VulkanConstantSlot(std::shared_ptr<Runtime> runtime, uint64_t byteLength,
                     std::function<StagingRing&()> ring,
                     std::shared_ptr<backend::MemoryAccount> memory);

  uint64_t byteLength() const override { return byteLength_; }
  std::unique_ptr<backend::StagedWrite> stage(uint64_t byteOffset, uint64_t size) override;
  void write(uint64_t byteOffset, std::span<const std::byte> bytes) override;
  VkBuffer buffer() const { return buffer_->handle(); }

 private:
  std::shared_ptr<Runtime> runtime_;
  uint64_t byteLength_;
  std::function<StagingRing&()> ring_;
  std::shared_ptr<backend::MemoryAccount> memory_;
  std::unique_ptr<Buffer> buffer_;
};

}  // namespace webnn::vulkan
