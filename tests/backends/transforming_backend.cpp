#include "backends/transforming_backend.h"

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <set>
#include <vector>

#include "backends/host_storage.h"
#include "backends/reference/reference_backend.h"
#include "core/host_buffer.h"

namespace webnn::testing {
namespace {

std::mutex optionsMutex;
TransformingBackendOptions currentOptions;

TransformingBackendOptions optionsNow() {
  std::lock_guard lock(optionsMutex);
  return currentOptions;
}

// The stored layout: byte i of the constant lives at length - 1 - i, XORed with a key of i.
std::byte key(uint64_t index) {
  return static_cast<std::byte>((index * 131 + 7) & 0xff);
}

// A bounded pool of staging buffers shared by every slot of one graph, charged to
// memory.staging while it holds them, and released when the graph's constants are complete.
class StagingPool {
 public:
  StagingPool(std::shared_ptr<backend::MemoryAccount> memory, uint64_t bufferBytes,
              uint32_t buffers)
      : memory_(std::move(memory)), bufferBytes_(bufferBytes), capacity_(buffers) {}

  HostBuffer take() {
    std::unique_lock lock(mutex_);
    available_.wait(lock, [&] { return inFlight_ < capacity_; });
    ++inFlight_;
    auto& stats = transformingStats();
    uint32_t peak = stats.peakInFlight.load();
    while (inFlight_ > peak && !stats.peakInFlight.compare_exchange_weak(peak, inFlight_)) {
    }
    if (!free_.empty()) {
      HostBuffer buffer = std::move(free_.back());
      free_.pop_back();
      return buffer;
    }
    charges_.emplace_back(memory_->staging, bufferBytes_);
    return HostBuffer(bufferBytes_);
  }

  void give(HostBuffer buffer) {
    std::lock_guard lock(mutex_);
    free_.push_back(std::move(buffer));
    --inFlight_;
    available_.notify_one();
  }

  // Frees every idle buffer (transient memory, dropped before the first dispatch).
  void release() {
    std::lock_guard lock(mutex_);
    if (inFlight_ > 0) transformingStats().violations++;
    free_.clear();
    charges_.clear();
  }

  uint64_t bufferBytes() const { return bufferBytes_; }

 private:
  std::shared_ptr<backend::MemoryAccount> memory_;
  uint64_t bufferBytes_;
  uint32_t capacity_;
  std::mutex mutex_;
  std::condition_variable available_;
  uint32_t inFlight_ = 0;
  std::vector<HostBuffer> free_;
  std::vector<backend::GaugeCharge> charges_;
};

class TransformingSlot final : public backend::ConstantSlot {
 public:
  TransformingSlot(uint64_t byteLength, uint64_t granularity, StagingPool& pool)
      : storage_(byteLength), granularity_(granularity), pool_(pool) {}

  uint64_t byteLength() const override { return storage_.size(); }
  uint64_t writeGranularity() const override { return granularity_; }

  std::unique_ptr<backend::StagedWrite> stage(uint64_t byteOffset, uint64_t size) override {
    if (size > pool_.bufferBytes() || byteOffset + size > storage_.size()) {
      transformingStats().violations++;
      throwOperationError("transforming backend: staged range exceeds the hints or the constant");
    }
    transformingStats().stagedWrites++;
    enter(byteOffset, size);
    return std::make_unique<Staged>(*this, byteOffset, size, pool_.take());
  }

  void write(uint64_t byteOffset, std::span<const std::byte> bytes) override {
    transformingStats().directWrites++;
    enter(byteOffset, bytes.size());
    encode(byteOffset, bytes);
    leave(byteOffset, bytes.size());
  }

  void beginFill() override {
    std::lock_guard lock(mutex_);
    complete_ = false;
  }

  void complete() override {
    std::lock_guard lock(mutex_);
    transformingStats().completions++;
    if (complete_ || !granulesInFlight_.empty()) transformingStats().violations++;
    complete_ = true;
  }

  bool isComplete() const {
    std::lock_guard lock(mutex_);
    return complete_;
  }

  // The constant in descriptor layout.
  void decode(std::span<std::byte> destination) const {
    const uint64_t length = storage_.size();
    for (uint64_t i = 0; i < length; ++i) {
      destination[i] = storage_.data()[length - 1 - i] ^ key(i);
    }
  }

 private:
  class Staged final : public backend::StagedWrite {
   public:
    Staged(TransformingSlot& slot, uint64_t offset, uint64_t size, HostBuffer buffer)
        : slot_(slot), offset_(offset), size_(size), buffer_(std::move(buffer)) {}
    ~Staged() override {
      slot_.leave(offset_, size_);
      slot_.pool_.give(std::move(buffer_));
    }
    std::span<std::byte> bytes() override { return buffer_.span().subspan(0, size_); }
    void commit() override { slot_.encode(offset_, bytes()); }

   private:
    TransformingSlot& slot_;
    uint64_t offset_;
    uint64_t size_;
    HostBuffer buffer_;
  };

  void encode(uint64_t byteOffset, std::span<const std::byte> bytes) {
    const uint64_t length = storage_.size();
    for (uint64_t i = 0; i < bytes.size(); ++i) {
      const uint64_t index = byteOffset + i;
      storage_.data()[length - 1 - index] = bytes[i] ^ key(index);
    }
  }

  // Records the granules [offset, offset + size) touches; two writes in one granule at once break
  // the seam's promise.
  struct Granules {
    uint64_t begin, end;  // granule indices [begin, end)
    bool operator==(const Granules&) const = default;
  };
  Granules granulesOf(uint64_t offset, uint64_t size) const {
    return {offset / granularity_, (offset + size + granularity_ - 1) / granularity_};
  }
  void enter(uint64_t offset, uint64_t size) {
    const Granules range = granulesOf(offset, size);
    std::lock_guard lock(mutex_);
    if (complete_) transformingStats().violations++;  // a write without beginFill
    for (const Granules& other : granulesInFlight_) {
      if (range.begin < other.end && other.begin < range.end) transformingStats().violations++;
    }
    granulesInFlight_.push_back(range);
  }
  void leave(uint64_t offset, uint64_t size) {
    const Granules range = granulesOf(offset, size);
    std::lock_guard lock(mutex_);
    auto it = std::find(granulesInFlight_.begin(), granulesInFlight_.end(), range);
    if (it != granulesInFlight_.end()) granulesInFlight_.erase(it);
  }

  HostBuffer storage_;
  uint64_t granularity_;
  StagingPool& pool_;
  mutable std::mutex mutex_;
  std::vector<Granules> granulesInFlight_;  // writes in flight
  bool complete_ = false;
};

class TransformingGraph final : public backend::CompiledGraph {
 public:
  TransformingGraph(std::shared_ptr<const graph::GraphIR> ir,
                    std::shared_ptr<backend::MemoryAccount> memory,
                    const TransformingBackendOptions& options)
      : ir_(ir),
        pool_(memory, options.chunkBytes, options.maxChunksInFlight),
        options_(options),
        // The kernels are the reference backend's; it sees the constants only once decoded.
        reference_(reference::createReferenceBackend()->compile(ir, memory)) {
    slots_.resize(ir_->operands.size());
    for (const auto& operand : ir_->operands) {
      if (operand->kind == detail::OperandKind::HollowConstant && ir_->isUsed(operand->id)) {
        slots_[operand->id] = std::make_unique<TransformingSlot>(operand->descriptor.byteLength(),
                                                                 options.writeGranularity, pool_);
      }
    }
  }

  backend::ConstantSlot& constantSlot(graph::OperandId operandId) override {
    return *slots_.at(operandId);
  }

  backend::StagingHints stagingHints() const override {
    backend::StagingHints hints;
    hints.chunkBytes = options_.chunkBytes;
    hints.maxChunksInFlight = options_.maxChunksInFlight;
    return hints;
  }

  void constantsComplete() override {
    transformingStats().graphCompletions++;
    pool_.release();
    for (graph::OperandId id = 0; id < slots_.size(); ++id) {
      const auto& slot = slots_[id];
      if (!slot) continue;
      if (!slot->isComplete()) transformingStats().violations++;
      std::vector<std::byte> decoded(slot->byteLength());
      slot->decode(decoded);
      reference_->constantSlot(id).write(0, decoded);
    }
    decoded_ = true;
  }

  bool concurrentDispatch() const override { return false; }

  void dispatch(const backend::BoundTensors& inputs,
                const backend::BoundTensors& outputs) override {
    bool hasHollow = false;
    for (const auto& slot : slots_) {
      if (!slot) continue;
      hasHollow = true;
      if (!slot->isComplete()) transformingStats().violations++;
    }
    if (hasHollow && !decoded_) transformingStats().violations++;
    reference_->dispatch(inputs, outputs);
  }

 private:
  std::shared_ptr<const graph::GraphIR> ir_;
  StagingPool pool_;
  TransformingBackendOptions options_;
  std::unique_ptr<backend::CompiledGraph> reference_;
  std::vector<std::unique_ptr<TransformingSlot>> slots_;
  bool decoded_ = false;
};

class TransformingBackend final : public backend::Backend {
 public:
  TransformingBackend() : reference_(reference::createReferenceBackend()) {}
  std::string_view name() const override { return kTransformingBackend; }
  MLOpSupportLimits opSupportLimits() const override { return reference_->opSupportLimits(); }
  std::unique_ptr<backend::CompiledGraph> compile(
      std::shared_ptr<const graph::GraphIR> ir,
      std::shared_ptr<backend::MemoryAccount> memory) override {
    return std::make_unique<TransformingGraph>(std::move(ir), std::move(memory), optionsNow());
  }
  std::unique_ptr<backend::BackendTensor> createTensor(
      const MLTensorDescriptor& descriptor,
      std::shared_ptr<backend::MemoryAccount> memory) override {
    return std::make_unique<backend::HostTensor>(descriptor, std::move(memory));
  }

 private:
  std::unique_ptr<backend::Backend> reference_;
};

}  // namespace

TransformingStats& transformingStats() {
  static TransformingStats stats;
  return stats;
}

void resetTransformingStats() {
  auto& stats = transformingStats();
  stats.stagedWrites = 0;
  stats.directWrites = 0;
  stats.completions = 0;
  stats.graphCompletions = 0;
  stats.violations = 0;
  stats.peakInFlight = 0;
}

void setTransformingBackendOptions(const TransformingBackendOptions& options) {
  std::lock_guard lock(optionsMutex);
  currentOptions = options;
}

std::unique_ptr<backend::Backend> createTransformingBackend() {
  return std::make_unique<TransformingBackend>();
}

void registerTransformingBackend() {
  backend::registerBackend(kTransformingBackend, -10, [] { return createTransformingBackend(); });
}

}  // namespace webnn::testing
