#include "backends/cpu/cpu_constant_tensor.h"

#include <omp.h>

#include <algorithm>
#include <cstring>

#include "backends/cpu/cpu_constant_slot.h"
#include "backends/cpu/packed_constant.h"
#include "backends/host_storage.h"
#include "webnn/types.h"

namespace webnn::cpu {

// The fill: chunks go to every layout the fill writes (raw bytes copied, packed ones scattered).
class CpuConstantTensor::Slot final : public backend::ConstantSlot {
 public:
  explicit Slot(CpuConstantTensor& tensor) : tensor_(tensor) {}

  uint64_t byteLength() const override { return tensor_.descriptor_.byteLength(); }
  // One element (a byte for 4-bit types): distinct elements land on distinct packed elements.
  uint64_t writeGranularity() const override {
    return std::max<uint64_t>(1, bitsPerElement(tensor_.descriptor_.dataType) / 8);
  }

  void beginFill() override {
    std::lock_guard lock(tensor_.mutex_);
    auto& targets = tensor_.targets_;
    targets.clear();
    for (const auto& weak : tensor_.layouts_) {
      if (auto layout = weak.lock()) targets.push_back(std::move(layout));
    }
    if (targets.empty()) {  // no graph asked yet: the values arrive as they are stored
      auto raw = std::make_shared<Layout>();
      raw->bytes = HostBuffer(byteLength());
      raw->account = tensor_.memory_;
      raw->charge = backend::GaugeCharge(tensor_.memory_->constants, byteLength());
      targets.push_back(tensor_.add(std::move(raw)));
    }
    // The fill writes every byte of each target: mapped in one call each, not page by page.
    for (auto& layout : targets) {
      layout->filled = false;
      layout->bytes.commit();
    }
    tensor_.filling_ = true;
  }

  std::unique_ptr<backend::StagedWrite> stage(uint64_t byteOffset, uint64_t size) override {
    checkRange(byteOffset, size);
    const auto& targets = tensor_.targets_;  // fixed from beginFill to complete
    if (targets.size() == 1 && !targets[0]->scatter) {  // the raw bytes alone: read into them
      return std::make_unique<backend::DirectStagedWrite>(
          targets[0]->bytes.span().subspan(byteOffset, size));
    }
    return std::make_unique<Staged>(*this, byteOffset, size, tensor_.pool_->take(size));
  }

  void write(uint64_t byteOffset, std::span<const std::byte> bytes) override {
    checkRange(byteOffset, bytes.size());
    store(byteOffset, bytes, tensor_.threads_);
  }

  void complete() override {
    std::lock_guard lock(tensor_.mutex_);
    std::shared_ptr<Layout> raw;
    for (auto& layout : tensor_.targets_) {
      if (layout->scatter && layout->scatter->hasCompensation()) {
        layout->scatter->writeCompensation(layout->data(), tensor_.threads_);
      }
      layout->filled = true;
      if (!layout->scatter) raw = layout;
    }
    tensor_.kept_ = raw ? raw : tensor_.targets_.front();
    tensor_.targets_.clear();
    tensor_.filling_ = false;
    tensor_.complete_ = true;
    // Layouts asked for while the fill ran are made from the values now.
    for (const auto& weak : tensor_.layouts_) {
      auto layout = weak.lock();
      if (layout && !layout->filled) tensor_.derive(*layout);
    }
    tensor_.pool_->release();
  }

 private:
  class Staged final : public backend::StagedWrite {
   public:
    Staged(Slot& slot, uint64_t offset, uint64_t size, StagingPool::Buffer buffer)
        : slot_(slot), offset_(offset), size_(size), buffer_(std::move(buffer)) {}
    ~Staged() override { slot_.tensor_.pool_->give(std::move(buffer_)); }
    std::span<std::byte> bytes() override { return buffer_.memory.span().subspan(0, size_); }
    // On the loader's thread alone (the loader runs chunks in parallel already).
    void commit() override { slot_.store(offset_, bytes(), 1); }

   private:
    Slot& slot_;
    uint64_t offset_;
    uint64_t size_;
    StagingPool::Buffer buffer_;
  };

  void checkRange(uint64_t byteOffset, uint64_t size) const {
    if (byteOffset > byteLength() || size > byteLength() - byteOffset) {
      throw Error(Error::Kind::OperationError, "cpu backend: staged range outside the constant");
    }
  }

  void store(uint64_t byteOffset, std::span<const std::byte> bytes, int threads) {
    for (const auto& layout : tensor_.targets_) {
      if (!layout->scatter) {
        if (!bytes.empty()) std::memcpy(layout->data() + byteOffset, bytes.data(), bytes.size());
        continue;
      }
      const uint64_t elementSize = layout->scatter->sourceElementSize();
      if (byteOffset % elementSize != 0 || bytes.size() % elementSize != 0) {
        throw Error(Error::Kind::OperationError,
                    "cpu backend: a write of a packed constant is not aligned to its elements");
      }
      layout->scatter->scatter(bytes.data(), byteOffset / elementSize, bytes.size() / elementSize,
                               layout->data(), threads);
    }
  }

  CpuConstantTensor& tensor_;
};

CpuConstantTensor::CpuConstantTensor(const MLOperandDescriptor& descriptor,
                                     std::shared_ptr<backend::MemoryAccount> memory,
                                     uint32_t numThreads, std::shared_ptr<StagingPool> pool)
    : descriptor_(descriptor),
      memory_(std::move(memory)),
      threads_(numThreads > 0 ? static_cast<int>(numThreads) : omp_get_num_procs()),
      engine_(dnnl::engine::kind::cpu, 0),
      slot_(std::make_unique<Slot>(*this)),
      pool_(std::move(pool)) {}

CpuConstantTensor::~CpuConstantTensor() = default;

backend::ConstantSlot& CpuConstantTensor::slot() {
  return *slot_;
}

backend::StagingHints CpuConstantTensor::stagingHints() const {
  backend::StagingHints hints;
  hints.direct = false;
  hints.chunkBytes = 1ull << 20;  // as a graph's packing slots (cpu_constant_slot.cpp)
  hints.maxChunksInFlight = pool_->capacity();
  return hints;
}

std::span<const std::byte> CpuConstantTensor::hostBytes(std::shared_ptr<const void>* owner) {
  auto raw = acquireRaw();
  *owner = raw;
  return {raw->data(), descriptor_.byteLength()};
}

size_t CpuConstantTensor::layoutCount() const {
  std::lock_guard lock(mutex_);
  return static_cast<size_t>(std::count_if(layouts_.begin(), layouts_.end(),
                                           [](const auto& weak) { return !weak.expired(); }));
}

std::shared_ptr<CpuConstantTensor::Layout> CpuConstantTensor::find(
    const std::optional<dnnl::memory::desc>& plain,
    const std::optional<dnnl::memory::desc>& packed) const {
  for (const auto& weak : layouts_) {
    auto layout = weak.lock();
    if (layout && layout->plain == plain && layout->packed == packed) return layout;
  }
  return nullptr;
}

std::shared_ptr<CpuConstantTensor::Layout> CpuConstantTensor::add(std::shared_ptr<Layout> layout) {
  std::erase_if(layouts_, [](const auto& weak) { return weak.expired(); });
  layouts_.push_back(layout);
  return layout;
}

std::shared_ptr<CpuConstantTensor::Layout> CpuConstantTensor::acquireRaw() {
  std::lock_guard lock(mutex_);
  if (auto layout = find(std::nullopt, std::nullopt)) return layout;
  auto layout = std::make_shared<Layout>();
  layout->bytes = HostBuffer(descriptor_.byteLength());
  layout->account = memory_;
  layout->charge = backend::GaugeCharge(memory_->constants, descriptor_.byteLength());
  add(layout);
  if (complete_) {
    derive(*layout);
    preferKept(layout);
  }
  return layout;
}

std::shared_ptr<CpuConstantTensor::Layout> CpuConstantTensor::acquire(
    const dnnl::memory::desc& plain, const dnnl::memory::desc& packed) {
  auto scatter = BlockedScatter::create(plain, packed);
  if (!scatter ||
      scatter->elementCount() * scatter->sourceElementSize() != descriptor_.byteLength()) {
    return nullptr;
  }
  if (scatter->identity() && !scatter->widens()) return acquireRaw();
  std::lock_guard lock(mutex_);
  if (auto layout = find(plain, packed)) return layout;
  auto layout = std::make_shared<Layout>();
  layout->plain = plain;
  layout->packed = packed;
  layout->scatter = scatter;
  layout->bytes = zeroedPackedBuffer(packed.get_size());
  layout->account = memory_;
  layout->charge = backend::GaugeCharge(memory_->constants, packed.get_size());
  add(layout);
  if (complete_) {
    derive(*layout);
    preferKept(layout);
  }
  // Not complete: the next fill scatters into it (or, during one, complete() derives it).
  return layout;
}

namespace {

// `desc` without the extra data oneDNN keeps after int8 weights (compensation): the weights
// themselves, as a reorder may read them.
dnnl::memory::desc withoutExtra(const dnnl::memory::desc& desc) {
  dnnl_memory_desc_t data = desc.data;
  data.extra = dnnl_memory_extra_desc_t{};
  return dnnl::memory::desc(data);
}

}  // namespace

void CpuConstantTensor::derive(Layout& layout) {
  // The raw bytes: a raw layout that holds the values, or a transient copy made from the kept one.
  const Layout* raw = nullptr;
  for (const auto& weak : layouts_) {
    auto other = weak.lock();
    if (other && other.get() != &layout && other->filled && !other->scatter) raw = other.get();
  }
  HostBuffer transient;
  backend::GaugeCharge transientCharge;
  const std::byte* rawBytes = raw ? raw->bytes.data() : nullptr;
  dnnl::stream stream(engine_);
  if (!raw) {
    if (!kept_ || !kept_->filled || !kept_->scatter) {
      throw Error(Error::Kind::OperationError, "cpu backend: a constant tensor lost its values");
    }
    std::byte* into = layout.scatter ? nullptr : layout.data();
    if (!into) {
      transient = HostBuffer(descriptor_.byteLength());
      transientCharge = backend::GaugeCharge(memory_->staging, descriptor_.byteLength());
      into = transient.data();
    }
    dnnl::memory from(withoutExtra(*kept_->packed), engine_, kept_->data());
    dnnl::memory to(*kept_->plain, engine_, into);
    dnnl::reorder(from, to).execute(stream, from, to);
    stream.wait();
    rawBytes = into;
  }
  layout.bytes.commit();  // written whole below
  if (layout.scatter) {
    dnnl::memory from(*layout.plain, engine_, const_cast<std::byte*>(rawBytes));
    dnnl::memory to(*layout.packed, engine_, layout.data());
    dnnl::reorder(from, to).execute(stream, from, to);
    stream.wait();
  } else if (rawBytes != layout.data() && descriptor_.byteLength() > 0) {
    std::memcpy(layout.data(), rawBytes, descriptor_.byteLength());
  }
  layout.filled = true;
}

void CpuConstantTensor::preferKept(const std::shared_ptr<Layout>& layout) {
  // Nothing but the tensor reads the kept layout: the new one keeps the values instead.
  if (!kept_ || kept_.use_count() == 1) kept_ = layout;
}

}  // namespace webnn::cpu
