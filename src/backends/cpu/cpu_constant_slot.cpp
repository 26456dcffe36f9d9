#include "backends/cpu/cpu_constant_slot.h"

#include "backends/cpu/cpu_op.h"
#include "backends/cpu/half_weights.h"

#include <omp.h>

#include <algorithm>
#include <thread>

#include "webnn/types.h"

namespace webnn::cpu {

// ---------------------------------------------------------------------------------------------
// StagingPool

StagingPool::StagingPool(std::shared_ptr<backend::MemoryAccount> memory, uint32_t capacity)
    : memory_(std::move(memory)), capacity_(std::max(1u, capacity)) {}

StagingPool::Buffer StagingPool::take(uint64_t bytes) {
  std::unique_lock lock(mutex_);
  available_.wait(lock, [&] { return inFlight_ < capacity_; });
  ++inFlight_;
  // The smallest idle buffer that holds `bytes`; else an idle one is dropped for a bigger one,
  // so that the pool never holds more than `capacity` buffers.
  auto best = free_.end();
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    if (it->memory.size() >= bytes &&
        (best == free_.end() || it->memory.size() < best->memory.size()))
      best = it;
  }
  if (best != free_.end()) {
    Buffer buffer = std::move(*best);
    free_.erase(best);
    return buffer;
  }
  if (!free_.empty()) free_.pop_back();
  lock.unlock();
  try {
    Buffer buffer{HostBuffer(bytes), backend::GaugeCharge(memory_->staging, bytes)};
    return buffer;
  } catch (...) {
    lock.lock();
    --inFlight_;
    available_.notify_one();
    throw;
  }
}

void StagingPool::give(Buffer buffer) {
  std::lock_guard lock(mutex_);
  free_.push_back(std::move(buffer));
  --inFlight_;
  available_.notify_one();
}

void StagingPool::release() {
  std::lock_guard lock(mutex_);
  free_.clear();
}

// ---------------------------------------------------------------------------------------------
// PackingSlot

class PackingSlot::Staged final : public backend::StagedWrite {
 public:
  Staged(PackingSlot& slot, uint64_t offset, uint64_t size, StagingPool::Buffer buffer)
      : slot_(slot), offset_(offset), size_(size), buffer_(std::move(buffer)) {}
  ~Staged() override { slot_.pool_.give(std::move(buffer_)); }
  std::span<std::byte> bytes() override { return buffer_.memory.span().subspan(0, size_); }
  // On the loader's thread alone: the loader runs chunks in parallel already (an OpenMP team per
  // chunk would only oversubscribe the cores).
  void commit() override { slot_.scatter(offset_, bytes(), false); }

 private:
  PackingSlot& slot_;
  uint64_t offset_;
  uint64_t size_;
  StagingPool::Buffer buffer_;
};

PackingSlot::PackingSlot(uint64_t byteLength, const BlockedScatter& scatter, uint64_t packedBytes,
                         StagingPool& pool, int threads,
                         std::shared_ptr<backend::MemoryAccount> memory)
    : byteLength_(byteLength),
      scatter_(scatter),
      packed_(packedBytes),
      // A layout with padding (or int8 compensation) keeps bytes no element writes: they must be
      // zero, written at the fill's first chunk (nothing is touched at build).
      zeroBeforeFill_(scatter.hasCompensation() ||
                      scatter.elementCount() * scatter.elementSize() != packedBytes),
      pool_(pool),
      threads_(std::max(1, threads)),
      memory_(std::move(memory)),
      charge_(memory_->constants, packedBytes) {}

std::unique_ptr<backend::StagedWrite> PackingSlot::stage(uint64_t byteOffset, uint64_t size) {
  if (byteOffset > byteLength_ || size > byteLength_ - byteOffset) {
    throw Error(Error::Kind::OperationError, "cpu backend: staged range outside the constant");
  }
  return std::make_unique<Staged>(*this, byteOffset, size, pool_.take(size));
}

void PackingSlot::write(uint64_t byteOffset, std::span<const std::byte> bytes) {
  scatter(byteOffset, bytes, true);  // straight from the caller's bytes: no staging
}

void PackingSlot::scatter(uint64_t byteOffset, std::span<const std::byte> bytes, bool parallel) {
  const uint64_t elementSize = scatter_.sourceElementSize();
  if (byteOffset % elementSize != 0 || bytes.size() % elementSize != 0 ||
      byteOffset > byteLength_ || bytes.size() > byteLength_ - byteOffset) {
    throw Error(Error::Kind::OperationError,
                "cpu backend: a write of a packed constant is not aligned to its elements");
  }
  // Map the packed bytes in one call, not page by page as the scatter writes them (and zero the
  // padding the scatter does not write, once).
  if (zeroBeforeFill_) {
    packed_.commitZeroed();
  } else {
    packed_.commit();
  }
  // The backend's threads, shared by the scatters running now (a loader commits from several).
  const int active = ++pool_.activeScatters;
  const int threads = parallel ? std::max(1, threads_ / active) : 1;
  try {
    scatter_.scatter(bytes.data(), byteOffset / elementSize, bytes.size() / elementSize,
                     packed_.data(), threads);
  } catch (...) {
    --pool_.activeScatters;
    throw;
  }
  --pool_.activeScatters;
}

void PackingSlot::complete() {
  if (zeroBeforeFill_) packed_.commitZeroed();  // (a constant of no elements had no chunk)
  scatter_.writeCompensation(packed_.data(), threads_);
}

// ---------------------------------------------------------------------------------------------
// CpuConstants

namespace {

uint32_t stagingBuffers() {
  return std::clamp(std::thread::hardware_concurrency(), 2u, 4u);
}

// 1 MiB chunks: a chunk the loader has just read is still in the cache when it is scattered (8 MiB
// chunks scattered ~25% slower, measured); staging is at most 4 MiB whatever the model.
constexpr uint64_t kChunkBytes = 1ull << 20;

}  // namespace

CpuConstants::CpuConstants(const graph::GraphIR& ir, const dnnl::engine& engine,
                           std::shared_ptr<backend::MemoryAccount> memory, uint32_t numThreads,
                           std::vector<bool> arrivesAsFloat16,
                           std::map<graph::OperandId, std::shared_ptr<CpuConstantTensor>> tensors,
                           uint64_t memoryBudget)
    : ir_(ir),
      engine_(engine),
      memory_(std::move(memory)),
      threads_(numThreads > 0 ? static_cast<int>(numThreads) : omp_get_num_procs()),
      pool_(memory_, stagingBuffers()),
      arrivesAsFloat16_(std::move(arrivesAsFloat16)),
      keepsFloat16_(float16FiltersKept(ir, arrivesAsFloat16_)),
      tensors_(std::move(tensors)) {
  fileBacked_ = fileBackedUnderBudget(memoryBudget);
  chunkBytes_ = kChunkBytes;
}

std::vector<bool> CpuConstants::fileBackedUnderBudget(uint64_t budget) const {
  if (budget == 0) return {};
  std::vector<bool> fileBacked(ir_.operands.size(), false);
  uint64_t total = 0;
  std::vector<std::pair<uint64_t, graph::OperandId>> candidates;
  for (const auto& operand : ir_.operands) {
    if (operand->kind != graph::OperandKind::HollowConstant || !ir_.isUsed(operand->id)) continue;
    const uint64_t bytes = operand->descriptor.byteLength();
    total += bytes;
    if (operand->descriptor.dataType == MLOperandDataType::Float32 &&
        !arrivesAsFloat16(operand->id) && !tensors_.contains(operand->id)) {
      candidates.emplace_back(bytes, operand->id);
    }
  }
  std::sort(candidates.begin(), candidates.end(), std::greater<>());
  for (const auto& [bytes, id] : candidates) {
    if (total <= budget) break;
    fileBacked[id] = true;
    total -= bytes;
  }
  return fileBacked;
}

std::shared_ptr<PackedConstant> CpuConstants::request(graph::OperandId id,
                                                      const dnnl::memory::desc& plain,
                                                      const dnnl::memory::desc& packed) {
  auto constant = std::make_shared<PackedConstant>(engine_, plain, packed, memory_);
  requests_.push_back({id, constant});
  return constant;
}

void CpuConstants::createSlots() {
  const size_t count = ir_.operands.size();
  slots_.resize(count);
  packing_.assign(count, nullptr);
  widened_.assign(count, nullptr);
  plain_.assign(count, nullptr);

  // The requests of ops still alive (an op that failed to compile dropped its own), per operand.
  std::vector<std::vector<std::shared_ptr<PackedConstant>>> wanted(count);
  for (const Request& request : requests_) {
    if (auto constant = request.constant.lock()) wanted[request.id].push_back(std::move(constant));
  }
  for (const Request& request : requests_) {
    if (!request.constant.expired()) placed_.push_back(request);
  }
  requests_.clear();
  // How many operand positions read each constant (a packing request is one of them).
  std::vector<size_t> reads(count, 0);
  for (const auto& operation : ir_.operations) {
    for (graph::OperandId input : operation.inputs) ++reads[input];
  }

  uint64_t plainBytes = 0;
  for (const auto& operand : ir_.operands) {
    const graph::OperandId id = operand->id;
    if (!ir_.isUsed(id)) continue;
    auto& constants = wanted[id];
    if (operand->kind == graph::OperandKind::Constant) {
      if (operand->data) plainBytes += operand->data->size();  // the graph's bytes
      for (auto& constant : constants) {
        auto scatter = BlockedScatter::create(constant->plainDesc(), constant->packedDesc());
        if (scatter && scatter->identity()) {
          constant->resolveIdentity();
        } else {
          constant->resolveReordered(true);
        }
        // Packed now, at build(): the graph's bytes are there (later pack() calls do nothing).
        if (operand->data) constant->pack(const_cast<std::byte*>(operand->data->data()));
      }
      continue;
    }
    if (operand->kind != graph::OperandKind::HollowConstant) continue;
    const bool widens = arrivesAsFloat16(id);
    const uint64_t byteLength = widens ? operand->descriptor.elementCount() * sizeof(uint16_t)
                                       : operand->descriptor.byteLength();
    // The layout its bytes arrive in, as a packing request describes them.
    auto arrivingDesc = [widens](const dnnl::memory::desc& plain) {
      if (!widens) return plain;
      dnnl::memory::desc half = plain;
      half.data.data_type = dnnl_f16;
      return half;
    };

    // A constant tensor's: every request reads one of the tensor's layouts (shared with the other
    // graphs that read it), plain readers its raw (or widened) bytes.
    if (auto tensor = tensors_.find(id); tensor != tensors_.end()) {
      bool plainReads = constants.size() < reads[id] || ir_.isGraphOutput(id);
      for (auto& constant : constants) {
        auto layout =
            tensor->second->acquire(arrivingDesc(constant->plainDesc()), constant->packedDesc());
        if (!layout) {  // a layout the tensor cannot scatter into: a copy of the graph's own
          constant->resolveReordered(false);
          plainReads = true;
          continue;
        }
        constant->resolveShared(layout->data(), layout);
        tensorLayouts_.emplace_back(id, std::move(layout));
      }
      if (plainReads) {
        std::shared_ptr<CpuConstantTensor::Layout> plain;
        const auto elements = static_cast<dnnl::memory::dim>(operand->descriptor.elementCount());
        if (widens && elements > 0) {
          const dnnl::memory::dims flat{elements};
          plain = tensor->second->acquire(
              dnnl::memory::desc(flat, dnnl::memory::data_type::f16, dnnl::memory::format_tag::a),
              dnnl::memory::desc(flat, dnnl::memory::data_type::f32, dnnl::memory::format_tag::a));
          if (!plain) throw std::logic_error("cpu backend: no widening scatter");
        } else {
          plain = tensor->second->acquireRaw();
        }
        tensorPlain_[id] = plain;
        tensorLayouts_.emplace_back(id, std::move(plain));
      }
      continue;
    }
    // Packed on arrival: every read of the constant is a request for one and the same layout.
    bool onArrival = !constants.empty() && constants.size() == reads[id] && !ir_.isGraphOutput(id);
    for (const auto& constant : constants) {
      onArrival = onArrival && constant->plainDesc() == constants[0]->plainDesc() &&
                  constant->packedDesc() == constants[0]->packedDesc();
    }
    std::optional<BlockedScatter> scatter;
    if (onArrival) {
      scatter = BlockedScatter::create(arrivingDesc(constants[0]->plainDesc()),
                                       constants[0]->packedDesc());
      // (An identity scatter of float16 bytes: a filter kept 16-bit in the descriptor's layout,
      // half_weights.h; the float32 descriptor's plain slot would take twice the bytes.)
      onArrival = scatter && (!scatter->identity() || widens) &&
                  scatter->elementCount() * scatter->sourceElementSize() == byteLength;
    }
    if (onArrival) {
      auto slot = std::make_unique<PackingSlot>(
          byteLength, *scatter, constants[0]->packedDesc().get_size(), pool_, threads_, memory_);
      for (auto& constant : constants) constant->resolveOnArrival(slot->packedData());
      packing_[id] = slot.get();
      slots_[id] = std::move(slot);
      continue;
    }
    // A plain slot; each request reads it as it is or keeps a reordered copy.
    for (auto& constant : constants) {
      auto layout = BlockedScatter::create(constant->plainDesc(), constant->packedDesc());
      if (layout && layout->identity()) {
        constant->resolveIdentity();
      } else {
        constant->resolveReordered(false);
      }
    }
    const uint64_t elements = operand->descriptor.elementCount();
    if (widens && elements > 0) {
      // float16 bytes in, float32 values stored: a scatter into the plain layout that widens.
      const dnnl::memory::dims flat{static_cast<dnnl::memory::dim>(elements)};
      auto widening = BlockedScatter::create(
          dnnl::memory::desc(flat, dnnl::memory::data_type::f16, dnnl::memory::format_tag::a),
          dnnl::memory::desc(flat, dnnl::memory::data_type::f32, dnnl::memory::format_tag::a));
      if (!widening) throw std::logic_error("cpu backend: no widening scatter");
      auto slot = std::make_unique<PackingSlot>(byteLength, *widening, elements * sizeof(float),
                                                pool_, threads_, memory_);
      widened_[id] = slot.get();
      slots_[id] = std::move(slot);
      continue;
    }
    const uint64_t storedBytes = widens ? 0 : byteLength;
    auto slot = std::make_unique<reference::ReferenceConstantSlot>(storedBytes);
    plainBytes += storedBytes;
    plain_[id] = slot.get();
    slots_[id] = std::move(slot);
  }
  charges_.emplace_back(memory_->constants, plainBytes);
}

std::shared_ptr<PackedConstant> CpuConstants::placed(graph::OperandId id,
                                                     const dnnl::memory::desc& plain,
                                                     const dnnl::memory::desc& packed) const {
  for (const Request& request : placed_) {
    if (request.id != id) continue;
    auto constant = request.constant.lock();
    if (constant && constant->plainDesc() == plain && constant->packedDesc() == packed) {
      return constant;
    }
  }
  return nullptr;
}

std::shared_ptr<PackedConstant> CpuConstants::copyOfPlaced(graph::OperandId id,
                                                           const dnnl::memory::desc& plain,
                                                           const dnnl::memory::desc& packed) {
  if (packed.data_type() != dnnl::memory::data_type::f32) return nullptr;
  for (const Request& request : placed_) {
    if (request.id != id) continue;
    auto source = request.constant.lock();
    if (!source || source->plainDesc() != plain ||
        source->packedDesc().data_type() != dnnl::memory::data_type::f32) {
      continue;
    }
    const uint64_t bytes = packed.get_size();
    if (aloneCopyBytes_ + bytes > kAloneCopyBudget) return nullptr;
    aloneCopyBytes_ += bytes;
    auto copy = std::make_shared<PackedConstant>(engine_, plain, packed, memory_);
    copy->resolveCopyOf(std::move(source));
    return copy;
  }
  return nullptr;
}

std::optional<dnnl::memory::desc> CpuConstants::placedLayout(graph::OperandId id) const {
  for (const Request& request : placed_) {
    if (request.id != id) continue;
    if (auto constant = request.constant.lock()) return constant->packedDesc();
  }
  return std::nullopt;
}

bool CpuConstants::anyHollow() const {
  return !tensors_.empty() || std::any_of(slots_.begin(), slots_.end(),
                                          [](const auto& slot) { return slot != nullptr; });
}

backend::ConstantSlot& CpuConstants::slot(graph::OperandId id) {
  if (id >= slots_.size() || !slots_[id]) {
    throw std::logic_error("cpu backend: constant #" + std::to_string(id) + " has no slot");
  }
  return *slots_[id];
}

std::byte* CpuConstants::plainData(graph::OperandId id) {
  if (auto plain = tensorPlain_.find(id); plain != tensorPlain_.end()) return plain->second->data();
  if (widened_[id]) return widened_[id]->packedData();
  return plain_[id] ? plain_[id]->data() : nullptr;
}

backend::StagingHints CpuConstants::stagingHints() const {
  backend::StagingHints hints;
  const auto some = [](const std::vector<PackingSlot*>& slots) {
    return std::any_of(slots.begin(), slots.end(), [](const PackingSlot* slot) { return slot; });
  };
  const bool anyPacking = some(packing_) || some(widened_);
  if (!anyPacking) {
    hints.direct = true;  // every slot is final storage in the file's layout
    return hints;
  }
  hints.direct = false;
  hints.chunkBytes = chunkBytes_;
  hints.maxChunksInFlight = pool_.capacity();
  return hints;
}

void CpuConstants::constantsComplete() {
  // Each packing slot wrote its compensation when its own bytes were complete.
  pool_.release();
}

std::vector<std::string> CpuConstants::describe() const {
  std::vector<std::string> lines;
  for (const auto& operand : ir_.operands) {
    const graph::OperandId id = operand->id;
    if (tensors_.contains(id)) {
      std::string line = std::to_string(id) + " " + operand->name + ": constant tensor (";
      bool first = true;
      for (const auto& [operandId, layout] : tensorLayouts_) {
        if (operandId != id) continue;
        line += first ? "" : ", ";
        line += layout->scatter ? "packed " + std::to_string(layout->bytes.size()) + " bytes"
                                : "raw " + std::to_string(layout->bytes.size()) + " bytes";
        first = false;
      }
      lines.push_back(line + (first ? "no layout)" : ")"));
      continue;
    }
    if (id >= slots_.size() || !slots_[id]) continue;
    std::string line = std::to_string(id) + " " + operand->name + ": ";
    if (packing_[id]) {
      const char* fromHalf = !arrivesAsFloat16(id)    ? ")"
                             : packing_[id]->widens() ? ", widened from float16)"
                                                      : ", kept float16)";
      line += "packed on arrival (" + std::to_string(packing_[id]->packedBytes()) + " bytes" +
              (packing_[id]->compensated() ? ", compensation computed" : "") + fromHalf;
    } else if (widened_[id]) {
      line +=
          "plain, widened from float16 (" + std::to_string(widened_[id]->packedBytes()) + " bytes)";
    } else {
      line +=
          fileBacked(id) ? "plain, read as stored (file-backed under the memory budget)" : "plain";
    }
    lines.push_back(line);
  }
  return lines;
}

}  // namespace webnn::cpu

namespace webnn::cpu {

dnnl::memory::desc OpCompileContext::weightsLayout(graph::OperandId id,
                                                   const dnnl::memory::desc& any,
                                                   const dnnl::memory::desc* plain) const {
  // A constant kept in the file's layout (the memory budget): the primitive reads it as stored.
  if (plain && constants && constants->fileBacked(id) && plain->dims() == any.dims() &&
      plain->data_type() == any.data_type()) {
    return *plain;
  }
  if (!constants || !shareConstants || !forceSharedLayouts) return any;
  auto layout = constants->placedLayout(id);
  if (!layout || layout->dims() != any.dims()) return any;
  dnnl_memory_desc_t asFloat = layout->data;
  asFloat.data_type = dnnl_f32;
  return dnnl::memory::desc(asFloat);
}

std::shared_ptr<PackedConstant> OpCompileContext::packedConstant(
    graph::OperandId id, const dnnl::memory::desc& plain, const dnnl::memory::desc& packed) const {
  if (constants && shareConstants) {
    if (auto placed = constants->placed(id, plain, packed)) return placed;
    if (copyConstants) {
      if (auto copy = constants->copyOfPlaced(id, plain, packed)) return copy;
    }
    throw dnnl::error(dnnl_unimplemented, "the constant is not kept in this layout");
  }
  if (constants) return constants->request(id, plain, packed);
  // No graph to place it (an op compiled on its own): a reordered copy of our own.
  auto constant = std::make_shared<PackedConstant>(engine, plain, packed, memory);
  constant->resolveReordered(ir.operand(id).kind == graph::OperandKind::Constant);
  return constant;
}

}  // namespace webnn::cpu
