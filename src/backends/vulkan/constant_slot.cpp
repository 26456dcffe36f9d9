#include "backends/vulkan/constant_slot.h"

#include <algorithm>
#include <cstring>

#include "backends/host_storage.h"

namespace webnn::vulkan {
namespace {

// A range staged in a chunk of the ring: commit() copies it into the constant's buffer.
class RingStagedWrite final : public backend::StagedWrite {
 public:
  RingStagedWrite(StagingRing& ring, StagingRing::Lease lease, VkBuffer destination,
                  uint64_t offset)
      : ring_(ring), lease_(lease), destination_(destination), offset_(offset) {}
  ~RingStagedWrite() override {
    if (!committed_) ring_.release(lease_);
  }
  std::span<std::byte> bytes() override { return lease_.bytes; }
  void commit() override {
    committed_ = true;
    ring_.commit(lease_, destination_, offset_);
  }

 private:
  StagingRing& ring_;
  StagingRing::Lease lease_;
  VkBuffer destination_;
  uint64_t offset_;
  bool committed_ = false;
};

// A range larger than a ring chunk (a loader that ignored the staging hints): its own one-chunk
// ring of that size, charged to staging while it lives.
class OversizedStagedWrite final : public backend::StagedWrite {
 public:
  OversizedStagedWrite(std::shared_ptr<Device> device, uint64_t size,
                       std::shared_ptr<backend::MemoryAccount> memory, VkBuffer destination,
                       uint64_t offset)
      : ring_(std::move(device), 1, size, std::move(memory)),
        lease_(ring_.acquire(size)),
        destination_(destination),
        offset_(offset) {}
  ~OversizedStagedWrite() override {
    if (!committed_) ring_.release(lease_);
  }
  std::span<std::byte> bytes() override { return lease_.bytes; }
  void commit() override {
    committed_ = true;
    ring_.commit(lease_, destination_, offset_);
    ring_.drain();
  }

 private:
  StagingRing ring_;
  StagingRing::Lease lease_;
  VkBuffer destination_;
  uint64_t offset_;
  bool committed_ = false;
};

}  // namespace

VulkanConstantSlot::VulkanConstantSlot(std::shared_ptr<Runtime> runtime, uint64_t byteLength,
                                       std::function<StagingRing&()> ring,
                                       std::shared_ptr<backend::MemoryAccount> memory)
    : runtime_(std::move(runtime)),
      byteLength_(byteLength),
      ring_(std::move(ring)),
      memory_(std::move(memory)) {
  buffer_ = std::make_unique<Buffer>(runtime_->device, byteLength_, runtime_->direct,
                                     /*preferDeviceLocal=*/true);
}

std::unique_ptr<backend::StagedWrite> VulkanConstantSlot::stage(uint64_t byteOffset,
                                                                uint64_t size) {
  if (runtime_->direct) {
    return std::make_unique<backend::DirectStagedWrite>(
        std::span<std::byte>(buffer_->mapped() + byteOffset, static_cast<size_t>(size)));
  }
  StagingRing& ring = ring_();
  if (size > ring.chunkBytes()) {
    return std::make_unique<OversizedStagedWrite>(runtime_->device, size, memory_,
                                                  buffer_->handle(), byteOffset);
  }
  return std::make_unique<RingStagedWrite>(ring, ring.acquire(size), buffer_->handle(), byteOffset);
}

void VulkanConstantSlot::write(uint64_t byteOffset, std::span<const std::byte> bytes) {
  if (runtime_->direct) {
    if (!bytes.empty()) std::memcpy(buffer_->mapped() + byteOffset, bytes.data(), bytes.size());
    return;
  }
  StagingRing& ring = ring_();
  for (uint64_t done = 0; done < bytes.size(); done += ring.chunkBytes()) {
    const uint64_t size = std::min<uint64_t>(ring.chunkBytes(), bytes.size() - done);
    auto staged = stage(byteOffset + done, size);
    std::memcpy(staged->bytes().data(), bytes.data() + done, size);
    staged->commit();
  }
}

}  // namespace webnn::vulkan
