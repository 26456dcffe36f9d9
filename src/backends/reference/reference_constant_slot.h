// The reference backend's constant slot: the constant's bytes in the descriptor's layout, in
// its own host storage (loaders read straight into it) or in a memory map it adopted (zero copy).
// Shared with backends that keep constants as the reference does (the cpu backend's plain ones).
#pragma once

#include <atomic>
#include <cstring>
#include <memory>
#include <mutex>

#include "backends/host_storage.h"
#include "core/host_buffer.h"

namespace webnn::reference {

class ReferenceConstantSlot final : public backend::ConstantSlot {
 public:
  explicit ReferenceConstantSlot(uint64_t byteLength) : storage_(byteLength) {}

  uint64_t byteLength() const override { return storage_.size(); }

  std::unique_ptr<backend::StagedWrite> stage(uint64_t byteOffset, uint64_t size) override {
    return std::make_unique<backend::DirectStagedWrite>(ownStorage().subspan(byteOffset, size));
  }

  void write(uint64_t byteOffset, std::span<const std::byte> bytes) override {
    std::memcpy(ownStorage().data() + byteOffset, bytes.data(), bytes.size());
  }

  // The slot's own storage (a write after adopt() goes back to it).
  std::span<std::byte> ownStorage() {
    if (adopted_.load(std::memory_order_acquire)) {  // back to our own storage
      std::lock_guard lock(adoptMutex_);
      adoptedOwner_.reset();
      adopted_.store(false, std::memory_order_release);
    }
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

}  // namespace webnn::reference
