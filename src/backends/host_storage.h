// Building blocks for backends whose storage is host memory: a zero-filled host tensor, and a
// staged write that is the slot's final storage itself (the loader reads straight into it).
#pragma once

#include <cstring>
#include <memory>
#include <span>

#include "backends/backend.h"
#include "core/host_buffer.h"

namespace webnn::backend {

class HostTensor final : public BackendTensor {
 public:
  HostTensor(const MLTensorDescriptor& descriptor, std::shared_ptr<MemoryAccount> memory)
      : memory_(std::move(memory)), storage_(descriptor.byteLength()) {
    // HostBuffer memory comes zeroed from the system; small buffers come from the heap.
    if (storage_.size() > 0) std::memset(storage_.data(), 0, storage_.size());
    charge_ = GaugeCharge(memory_->tensors, storage_.size());
  }
  uint64_t byteLength() const override { return storage_.size(); }
  void write(std::span<const std::byte> bytes) override {
    if (!bytes.empty()) std::memcpy(storage_.data(), bytes.data(), bytes.size());
  }
  void read(std::span<std::byte> destination) const override {
    if (!destination.empty()) std::memcpy(destination.data(), storage_.data(), destination.size());
  }
  std::span<std::byte> bytes() { return storage_.span(); }

 private:
  std::shared_ptr<MemoryAccount> memory_;  // outlives the charge
  HostBuffer storage_;
  GaugeCharge charge_;
};

// The host bytes of a tensor bound to a dispatch of a host backend.
inline std::span<std::byte> hostBytes(BackendTensor* tensor) {
  return static_cast<HostTensor*>(tensor)->bytes();
}

// A staged write into final storage: the loader's bytes are already where they belong.
class DirectStagedWrite final : public StagedWrite {
 public:
  explicit DirectStagedWrite(std::span<std::byte> destination) : destination_(destination) {}
  std::span<std::byte> bytes() override { return destination_; }
  void commit() override {}

 private:
  std::span<std::byte> destination_;
};

}  // namespace webnn::backend
