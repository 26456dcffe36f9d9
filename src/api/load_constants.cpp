// MLGraph::loadConstants and MLContext::loadConstants: pull every pending hollow constant of a
// graph, or every constant tensor not yet filled, from a WeightSource, by label.
// Each chunk is read straight into the span its slot stages for it (the final storage when the
// backend keeps the file's layout; upload memory or a bounded chunk buffer otherwise) and then
// committed: one copy. Chunks follow the backend's staging hints (size, writes in flight) and each
// slot's write granularity. With allowMapping, a constant whose final layout equals the file's
// adopts a memory map (zero copy); a derived tensor (TensorInfo::derived) never does.
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <functional>
#include <map>
#include <mutex>
#include <numeric>
#include <shared_mutex>
#include <thread>

#include "api/graph_state.h"
#include "webnn/context.h"
#include "webnn/graph.h"
#include "webnn/weight_source.h"

namespace webnn {
namespace {

struct Planned {
  size_t target;  // index among the sink's targets
  std::string label;
  const TensorInfo* tensor;
};

struct Chunk {
  size_t planned;
  uint64_t offset;
  uint64_t size;
};

std::string describe(const TensorInfo& tensor) {
  return "'" + tensor.name + "' (" + toString(tensor.descriptor()) + ")";
}

// A read-only private mapping of the pages holding [offset, offset + length) of `fd`. Once a slot
// adopted it, its constant's bytes count in the context's memory.mapped for as long as the slot
// keeps it (MLMemoryStats::mappedConstantBytes).
struct FileMapping {
  void* base = nullptr;
  size_t length = 0;
  std::shared_ptr<backend::MemoryAccount> memory;  // outlives the charge
  backend::GaugeCharge adoptedCharge;
  ~FileMapping() {
    if (base) munmap(base, length);
  }
};

std::shared_ptr<FileMapping> mapRange(int fd, uint64_t offset, uint64_t length,
                                      const std::byte** bytes) {
  const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  const uint64_t begin = offset / page * page;
  auto mapping = std::make_shared<FileMapping>();
  mapping->length = static_cast<size_t>(offset + length - begin);
  void* base =
      mmap(nullptr, mapping->length, PROT_READ, MAP_PRIVATE, fd, static_cast<off_t>(begin));
  if (base == MAP_FAILED) return nullptr;
  mapping->base = base;
  *bytes = static_cast<const std::byte*>(base) + (offset - begin);
  return mapping;
}

// LoadOptions' limits, before anything is read or allocated.
void checkLoadLimits(const std::vector<Planned>& plan, const LoadOptions& options,
                     const std::string& where) {
  uint64_t total = 0;
  for (const Planned& planned : plan) {
    const uint64_t bytes = planned.tensor->byteLength;
    if (bytes > options.maxTensorBytes) {
      throwTypeError(where + ": constant '" + planned.label + "' is " + std::to_string(bytes) +
                     " bytes, above LoadOptions::maxTensorBytes (" +
                     std::to_string(options.maxTensorBytes) + ")");
    }
    total = bytes > UINT64_MAX - total ? UINT64_MAX : total + bytes;
    if (total > options.maxTotalBytes) {
      throwTypeError(where + ": the constants to load take more than LoadOptions::maxTotalBytes (" +
                     std::to_string(options.maxTotalBytes) + " bytes; reached at '" +
                     planned.label + "')");
    }
  }
}

// Where loaded bytes go: the hollow constants of a graph, or constant tensors. Targets are indexed
// as planned.
class ConstantSink {
 public:
  virtual ~ConstantSink() = default;
  virtual backend::StagingHints stagingHints() const = 0;
  virtual uint64_t granularity(size_t target) const = 0;
  // Zero copy: the target's storage becomes `bytes`; false when the backend keeps its own.
  virtual bool adopt(size_t target, std::shared_ptr<const void> owner,
                     std::span<const std::byte> bytes) = 0;
  // One chunk: checks and registers the write, stages [offset, offset + size), lets `read` fill the
  // staged span, commits it and marks the range written (not written when `read` throws).
  virtual void write(size_t target, uint64_t offset, uint64_t size,
                     const std::function<void(std::span<std::byte>)>& read) = 0;
};

struct Target {
  std::string label;
  MLOperandDescriptor descriptor;
};

// Matches targets to the source's tensors by label and checks them, before anything is read.
std::vector<Planned> planLoad(const std::vector<Target>& targets, const WeightSource& source,
                              const LoadOptions& options, const std::string& where,
                              std::vector<std::string>& missing) {
  std::vector<Planned> plan;
  for (size_t i = 0; i < targets.size(); ++i) {
    const std::string& label = targets[i].label;
    const std::string name = options.nameMapping ? options.nameMapping(label) : label;
    const TensorInfo* tensor = source.find(name);
    if (!tensor) {
      missing.push_back(label == name ? "'" + label + "'" : "'" + label + "' (as '" + name + "')");
      continue;
    }
    if (!tensor->supported) {
      throw Error(Error::Kind::NotSupportedError,
                  where + ": constant '" + label + "': " + tensor->unsupportedReason);
    }
    const MLOperandDescriptor& descriptor = targets[i].descriptor;
    if (tensor->dataType != descriptor.dataType || tensor->shape != descriptor.shape) {
      throwTypeError(where + ": constant '" + label + "' is " + toString(descriptor) +
                     " but the file's tensor " + describe(*tensor) + " differs");
    }
    plan.push_back({i, label, tensor});
  }
  checkLoadLimits(plan, options, where);
  return plan;
}

void throwMissing(const std::vector<std::string>& missing, const LoadOptions& options,
                  const std::string& where) {
  if (missing.empty() || !options.requireAll) return;
  std::string names;
  for (size_t i = 0; i < missing.size() && i < 16; ++i) names += (i ? ", " : "") + missing[i];
  if (missing.size() > 16) names += ", ... (" + std::to_string(missing.size()) + " in all)";
  throwTypeError(where + ": the file holds no tensor for " + std::to_string(missing.size()) +
                 " constant(s), which stay pending: " + names);
}

// Reads the planned constants into `sink`: adopted maps where allowed, else chunks in parallel.
void loadInto(ConstantSink& sink, const std::vector<Planned>& plan, const WeightSource& source,
              const LoadOptions& options, const std::string& where,
              const std::shared_ptr<backend::MemoryAccount>& memory) {
  // Zero copy where allowed and the backend adopts the file's bytes as they are. A range the file
  // no longer holds (truncated since open) is not mapped (touching it would raise SIGBUS): the
  // read path then reports the truncation.
  std::vector<bool> adopted(plan.size(), false);
  uint64_t adoptedBytes = 0;
  if (options.allowMapping) {
    std::map<int, uint64_t> fileSizes;  // each file's size now
    for (size_t i = 0; i < plan.size(); ++i) {
      const TensorInfo& tensor = *plan[i].tensor;
      // Derived tensors (their bytes computed on read) have no range.
      const std::optional<WeightSource::FileRange> range = source.fileRangeOf(tensor);
      if (!range || range->fd < 0) continue;
      auto [sizeOf, unknown] = fileSizes.emplace(range->fd, 0);
      if (unknown) {
        struct stat status {};
        if (fstat(range->fd, &status) == 0) sizeOf->second = static_cast<uint64_t>(status.st_size);
      }
      const uint64_t fileSize = sizeOf->second;
      const uint32_t bits = bitsPerElement(tensor.dataType);
      const uint64_t alignment = std::max<uint64_t>(1, bits / 8);
      if (tensor.byteLength == 0 || range->offset % alignment != 0) continue;
      if (range->offset > fileSize || tensor.byteLength > fileSize - range->offset) continue;
      const std::byte* bytes = nullptr;
      auto mapping = mapRange(range->fd, range->offset, tensor.byteLength, &bytes);
      if (!mapping) continue;
      adopted[i] = sink.adopt(plan[i].target, mapping, {bytes, tensor.byteLength});
      if (adopted[i]) {
        adoptedBytes += tensor.byteLength;
        mapping->memory = memory;
        mapping->adoptedCharge = backend::GaugeCharge(memory->mapped, tensor.byteLength);
      }
    }
  }

  // Chunks, biggest constants first so that threads finish together. A chunk is at most the
  // backend's staging chunk (when it stages), and its boundaries fall on whole elements and on the
  // slot's write granularity, so that no two chunks share a byte of final storage.
  const backend::StagingHints hints = sink.stagingHints();
  uint64_t chunkBytes = std::max<uint64_t>(options.chunkBytes, 64 * 1024);
  if (!hints.direct) chunkBytes = std::min(chunkBytes, std::max<uint64_t>(hints.chunkBytes, 1));
  std::vector<Chunk> chunks;
  uint64_t totalBytes = adoptedBytes;
  for (size_t i = 0; i < plan.size(); ++i) {
    if (adopted[i]) continue;
    const uint64_t length = plan[i].tensor->byteLength;
    totalBytes += length;
    const uint32_t bits = bitsPerElement(plan[i].tensor->dataType);
    const uint64_t unit =
        std::lcm<uint64_t>(std::max<uint64_t>(1, bits / 8), sink.granularity(plan[i].target));
    const uint64_t step = std::max(unit, chunkBytes / unit * unit);
    for (uint64_t offset = 0; offset < length; offset += step) {
      chunks.push_back({i, offset, std::min(step, length - offset)});
    }
  }
  std::stable_sort(chunks.begin(), chunks.end(), [&](const Chunk& a, const Chunk& b) {
    return plan[a.planned].tensor->byteLength > plan[b.planned].tensor->byteLength;
  });

  const uint32_t hardware = std::max(1u, std::thread::hardware_concurrency());
  uint64_t threadLimit = options.threads ? options.threads : std::min(hardware, 8u);
  if (hints.maxChunksInFlight > 0)
    threadLimit = std::min<uint64_t>(threadLimit, hints.maxChunksInFlight);
  const uint32_t threadCount =
      static_cast<uint32_t>(std::min<uint64_t>(threadLimit, std::max<size_t>(1, chunks.size())));
  std::atomic<size_t> next{0};
  std::atomic<bool> stopped{false};  // an error that ends the whole load (not a read fault)
  std::mutex errorMutex;
  std::exception_ptr firstError;
  std::vector<std::string> failedConstants;  // read faults: the others keep loading
  // Constants with a failed chunk: their other chunks are skipped (they stay pending anyway).
  std::unique_ptr<std::atomic<bool>[]> constantFailed(new std::atomic<bool>[plan.size()]);
  for (size_t i = 0; i < plan.size(); ++i) constantFailed[i] = false;
  std::mutex progressMutex;
  uint64_t doneBytes = adoptedBytes;

  // Records the error of a chunk of constant `planned`; a read fault stops only that constant.
  auto fail = [&](size_t planned, std::exception_ptr error, bool stopAll) {
    std::lock_guard lock(errorMutex);
    if (!firstError) firstError = error;
    if (planned < plan.size() && !constantFailed[planned].exchange(true)) {
      failedConstants.push_back("'" + plan[planned].label + "'");
    }
    if (stopAll) stopped = true;
  };
  auto report = [&](uint64_t bytes) {
    std::lock_guard lock(progressMutex);
    doneBytes += bytes;
    options.progress(doneBytes, totalBytes);
  };

  auto work = [&] {
    for (size_t c = next++; c < chunks.size() && !stopped; c = next++) {
      const Chunk& chunk = chunks[c];
      const Planned& planned = plan[chunk.planned];
      if (constantFailed[chunk.planned]) continue;
      try {
        sink.write(planned.target, chunk.offset, chunk.size, [&](std::span<std::byte> staged) {
          source.read(*planned.tensor, chunk.offset, staged);
        });
      } catch (const Error& error) {
        if (error.kind() == Error::Kind::OperationError) {  // the read failed: name the constant
          fail(chunk.planned,
               std::make_exception_ptr(Error(
                   error.kind(),
                   where + ": constant '" + planned.label + "' stays pending: " + error.message())),
               false);
          continue;
        }
        fail(chunk.planned, std::current_exception(), true);
        return;
      } catch (...) {
        fail(chunk.planned, std::current_exception(), true);
        return;
      }
      if (options.progress) {
        try {
          report(chunk.size);
        } catch (...) {  // a throwing callback cancels the load
          fail(plan.size(), std::current_exception(), true);
          return;
        }
      }
    }
  };

  if (options.progress && adoptedBytes > 0) report(0);
  if (threadCount <= 1) {
    work();
  } else {
    std::vector<std::thread> threads;
    for (uint32_t t = 0; t < threadCount; ++t) threads.emplace_back(work);
    for (auto& thread : threads) thread.join();
  }
  if (firstError) {
    if (failedConstants.size() > 1 && !stopped) {
      try {
        std::rethrow_exception(firstError);
      } catch (const Error& error) {
        std::string names;
        for (size_t i = 0; i < failedConstants.size() && i < 16; ++i) {
          names += (i ? ", " : "") + failedConstants[i];
        }
        throw Error(error.kind(), error.message() + " (reads failed for " +
                                      std::to_string(failedConstants.size()) +
                                      " constants, which stay pending: " + names + ")");
      }
    }
    std::rethrow_exception(firstError);
  }
}

// The hollow constants of a graph (MLGraph::loadConstants).
class GraphSink final : public ConstantSink {
 public:
  GraphSink(detail::GraphState& state, std::vector<MLOperand> constants)
      : state_(state), constants_(std::move(constants)) {}
  backend::StagingHints stagingHints() const override { return state_.compiled->stagingHints(); }
  uint64_t granularity(size_t target) const override {
    return state_.hollow[state_.hollowConstantIndex(constants_[target], "loadConstants")]
        .granularity;
  }
  bool adopt(size_t target, std::shared_ptr<const void> owner,
             std::span<const std::byte> bytes) override {
    return state_.adopt(constants_[target], std::move(owner), bytes);
  }
  void write(size_t target, uint64_t offset, uint64_t size,
             const std::function<void(std::span<std::byte>)>& read) override {
    auto ticket = state_.beginWrite(constants_[target], offset, size, false, "loadConstants");
    bool written = false;
    try {
      detail::GraphState::WriteTicket::Lock lock(ticket, *state_.hollow[ticket.index].writeLock);
      auto staged = ticket.slot->stage(offset, size);
      read(staged->bytes());
      staged->commit();
      written = true;
    } catch (...) {
      state_.endWrite(ticket, false);
      throw;
    }
    state_.endWrite(ticket, written);
  }

 private:
  detail::GraphState& state_;
  std::vector<MLOperand> constants_;
};

// Constant tensors (MLContext::loadConstants).
class TensorSink final : public ConstantSink {
 public:
  TensorSink(std::vector<std::shared_ptr<detail::TensorState>> tensors, std::string where)
      : tensors_(std::move(tensors)), where_(std::move(where)) {}
  backend::StagingHints stagingHints() const override {
    // The strictest of the tensors' hints (one backend: usually all alike).
    backend::StagingHints hints;
    hints.direct = true;
    for (const auto& tensor : tensors_) {
      const auto own = tensor->constant->storage->stagingHints();
      if (own.direct) continue;
      if (hints.direct || own.chunkBytes < hints.chunkBytes) hints.chunkBytes = own.chunkBytes;
      if (own.maxChunksInFlight > 0 &&
          (hints.maxChunksInFlight == 0 || own.maxChunksInFlight < hints.maxChunksInFlight)) {
        hints.maxChunksInFlight = own.maxChunksInFlight;
      }
      hints.direct = false;
    }
    return hints;
  }
  uint64_t granularity(size_t target) const override {
    return tensors_[target]->constant->granularity;
  }
  bool adopt(size_t target, std::shared_ptr<const void> owner,
             std::span<const std::byte> bytes) override {
    auto& fill = *tensors_[target]->constant;
    std::lock_guard lock(fill.mutex);
    if (fill.complete || fill.activeWrites > 0 || bytes.size() != fill.coverage.byteLength()) {
      return false;
    }
    fill.storage->slot().beginFill();
    if (!fill.storage->slot().adopt(std::move(owner), bytes)) return false;
    fill.coverage.add(0, bytes.size());
    fill.storage->slot().complete();
    fill.filling = false;
    fill.complete.store(true, std::memory_order_release);
    return true;
  }
  void write(size_t target, uint64_t offset, uint64_t size,
             const std::function<void(std::span<std::byte>)>& read) override {
    auto& tensor = *tensors_[target];
    auto& fill = *tensor.constant;
    const bool aligned = fill.beginWrite(tensor.descriptor, offset, size, where_);
    bool written = false;
    try {
      std::shared_lock shared(fill.writeLock, std::defer_lock);
      std::unique_lock exclusive(fill.writeLock, std::defer_lock);
      if (aligned) {
        shared.lock();
      } else {
        exclusive.lock();
      }
      auto staged = fill.storage->slot().stage(offset, size);
      read(staged->bytes());
      staged->commit();
      written = true;
    } catch (...) {
      fill.endWrite(offset, size, false);
      throw;
    }
    fill.endWrite(offset, size, written);
  }

 private:
  std::vector<std::shared_ptr<detail::TensorState>> tensors_;
  std::string where_;
};

}  // namespace

void MLContext::loadConstants(const std::vector<MLTensor>& tensors, const WeightSource& source,
                              const LoadOptions& options) {
  const std::string where = "MLContext.loadConstants(" + source.path() + ")";
  if (!state_) throwInvalidStateError(where + ": the context is empty");
  state_->checkAlive("loadConstants");
  // The tensors still to fill (each once, however often listed); everything is checked first.
  std::vector<std::shared_ptr<detail::TensorState>> pending;
  std::vector<Target> targets;
  for (const MLTensor& tensor : tensors) {
    const auto& state = tensor.state();
    if (!state) throwTypeError(where + ": a tensor is empty");
    if (state->context.lock() != state_) {
      throwTypeError(where + ": a tensor belongs to another context");
    }
    if (!state->constant) {
      throwTypeError(where +
                     ": a tensor is not a constant tensor (MLContext.createConstantTensor)");
    }
    if (state->destroyed) {
      throwInvalidStateError(where + ": constant tensor '" + state->constant->label +
                             "' is destroyed");
    }
    if (state->constant->complete) continue;
    if (std::find(pending.begin(), pending.end(), state) != pending.end()) continue;
    pending.push_back(state);
    targets.push_back({state->constant->label, state->descriptor});
  }
  std::vector<std::string> missing;
  const std::vector<Planned> plan = planLoad(targets, source, options, where, missing);
  std::vector<std::shared_ptr<detail::TensorState>> planned;
  for (const Planned& entry : plan) planned.push_back(pending[entry.target]);
  // A load rewrites every byte of its tensors: what an earlier failed load covered starts over.
  for (const auto& tensor : planned) {
    auto& fill = *tensor->constant;
    std::lock_guard lock(fill.mutex);
    if (fill.activeWrites > 0) {
      throwInvalidStateError(where + ": " + fill.describe(tensor->descriptor) +
                             " is being written");
    }
    fill.coverage.clear();
    fill.filling = false;
  }
  std::vector<Planned> renumbered = plan;
  for (size_t i = 0; i < renumbered.size(); ++i) renumbered[i].target = i;
  TensorSink sink(std::move(planned), where);
  loadInto(sink, renumbered, source, options, where, state_->memory);
  throwMissing(missing, options, where);
}

void MLGraph::loadConstants(const WeightSource& source, const LoadOptions& options) {
  if (!state_) throwInvalidStateError("MLGraph.loadConstants: the graph is empty");
  detail::GraphState& state = *state_;
  {
    std::lock_guard lock(state.mutex);
    state.checkAlive("loadConstants");
  }
  const std::string where = "MLGraph.loadConstants(" + source.path() + ")";

  // Plan and check everything before reading a byte: a mismatch changes nothing.
  std::vector<MLOperand> constants = options.reload ? hollowConstants() : pendingConstants();
  std::vector<Target> targets;
  for (const MLOperand& constant : constants) {
    targets.push_back({constant.label(), constant.descriptor()});
  }
  std::vector<std::string> missing;
  const std::vector<Planned> plan = planLoad(targets, source, options, where, missing);

  // Every planned constant starts a new fill: whatever an earlier, failed load (or a partial
  // writeConstantData) covered is read again. Without this, a chunk could complete the constant
  // while others of this load are still to come, and the next one would then start yet another
  // fill (leaving the constant pending with one chunk covered).
  if (!plan.empty()) {
    std::lock_guard lock(state.mutex);
    state.checkAlive("loadConstants");
    if (state.activeDispatches > 0) {
      throwInvalidStateError(where + ": cannot write constants while a dispatch runs on the graph");
    }
    for (const Planned& planned : plan) {
      state.startFill(state.hollowConstantIndex(constants[planned.target], "loadConstants"), true);
    }
  }
  GraphSink sink(state, std::move(constants));
  loadInto(sink, plan, source, options, where, state.context->memory);
  throwMissing(missing, options, where);
}

}  // namespace webnn
