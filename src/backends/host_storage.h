// Building blocks for backends whose storage is host memory: a zero-filled host tensor, a staged
// write that is the slot's final storage itself (the loader reads straight into it), a constant
// slot in the descriptor's layout (HostConstantSlot) and the default constant tensor
// (HostConstantTensor: such a slot, shared by the graphs that read it).
#pragma once

#include <atomic>
#include <cstring>
#include <memory>
#include <mutex>
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


// A constant's bytes in the descriptor's layout, in the slot's own host storage (loaders read
// straight into it) or in a memory map it adopted (zero copy).
class HostConstantSlot final : public ConstantSlot {
 public:
  explicit HostConstantSlot(uint64_t byteLength) : storage_(byteLength) {}

  uint64_t byteLength() const override { return storage_.size(); }

  std::unique_ptr<StagedWrite> stage(uint64_t byteOffset, uint64_t size) override {
    return std::make_unique<DirectStagedWrite>(ownStorage().subspan(byteOffset, size));
  }

  void write(uint64_t byteOffset, std::span<const std::byte> bytes) override {
    std::memcpy(ownStorage().data() + byteOffset, bytes.data(), bytes.size());
  }

  // The slot's own storage (a write after adopt() goes back to it), committed at the fill's first
  // write: the fill writes every byte (HostBuffer::commit).
  std::span<std::byte> ownStorage() {
    if (adopted_.load(std::memory_order_acquire)) {  // back to our own storage
      std::lock_guard lock(adoptMutex_);
      adoptedOwner_.reset();
      adopted_.store(false, std::memory_order_release);
    }
    storage_.commit();
    return storage_.span();
  }

  bool adopt(std::shared_ptr<const void> owner, std::span<const std::byte> bytes) override {
    if (bytes.size() != storage_.size()) return false;
    std::lock_guard lock(adoptMutex_);
    storage_.discard();
    adoptedOwner_ = std::move(owner);
    adoptedBytes_ = bytes.data();
    adopted_.store(true, std::memory_order_release);
    return true;
  }

  std::byte* data() {
    return adopted_.load(std::memory_order_acquire) ? const_cast<std::byte*>(adoptedBytes_)
                                                    : storage_.data();
  }

 private:
  HostBuffer storage_;
  std::mutex adoptMutex_;
  std::atomic<bool> adopted_{false};
  std::shared_ptr<const void> adoptedOwner_;
  const std::byte* adoptedBytes_ = nullptr;
};


// The default constant tensor: a HostConstantSlot, charged to memory.constants. Graphs of a backend
// that does not read it itself adopt its bytes into their own slots (no copy where they can).
class HostConstantTensor final : public BackendConstantTensor {
 public:
  HostConstantTensor(uint64_t byteLength, std::shared_ptr<MemoryAccount> memory)
      : slot_(byteLength), memory_(std::move(memory)), charge_(memory_->constants, byteLength) {}
  ConstantSlot& slot() override { return slot_; }
  StagingHints stagingHints() const override { return {.direct = true}; }
  std::span<const std::byte> hostBytes(std::shared_ptr<const void>* owner) override {
    (void)owner;  // the caller holds the tensor
    return {slot_.data(), slot_.byteLength()};
  }

 private:
  HostConstantSlot slot_;
  std::shared_ptr<MemoryAccount> memory_;  // outlives the charge
  GaugeCharge charge_;
};

}  // namespace webnn::backend
