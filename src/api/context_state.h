// The state behind MLContext, MLTensor and MLGraph handles.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <span>
#include <string>
#include <vector>

#include "backends/backend.h"
#include "graph/ir.h"
#include "graph/op_limits.h"
#include "webnn/tensor.h"

namespace webnn::detail {

// Which byte ranges of one hollow constant hold data of the current fill.
class Coverage {
 public:
  explicit Coverage(uint64_t byteLength) : byteLength_(byteLength) {}
  // Marks [begin, end) written. Returns true when the constant is covered after this.
  bool add(uint64_t begin, uint64_t end);
  void clear();
  bool complete() const { return coveredBytes_ == byteLength_; }
  uint64_t coveredBytes() const { return coveredBytes_; }
  uint64_t byteLength() const { return byteLength_; }

 private:
  uint64_t byteLength_;
  uint64_t coveredBytes_ = 0;
  std::map<uint64_t, uint64_t> ranges_;  // begin -> end, disjoint and non-adjacent
};

struct ContextState {
  std::unique_ptr<backend::Backend> backend;
  // The backend's opSupportLimits(), read once: every builder call on the context checks its
  // operands against it.
  graph::OpLimitsTable limits;
  std::shared_ptr<backend::MemoryAccount> memory = std::make_shared<backend::MemoryAccount>();
  std::atomic<bool> destroyed{false};

  void checkAlive(std::string_view method) const;
};

// The fill of a constant tensor (MLContext::createConstantTensor): written once, in chunks in any
// order, then complete and unchanging. Graphs that read it hold `storage`.
struct ConstantFill {
  ConstantFill(std::string label, uint64_t byteLength,
               std::shared_ptr<backend::BackendConstantTensor> storage);
  std::string label;
  std::shared_ptr<backend::BackendConstantTensor> storage;
  uint64_t granularity = 1;  // the slot's writeGranularity()
  // Writes that respect the granularity share this; one that does not takes it alone.
  std::shared_mutex writeLock;
  mutable std::mutex mutex;  // guards what follows
  Coverage coverage;
  bool filling = false;  // the slot was told beginFill
  int activeWrites = 0;
  std::atomic<bool> complete{false};

  // "constant tensor 'label' (float32 [3, 3], 36 bytes)"
  std::string describe(const MLOperandDescriptor& descriptor) const;
  // Checks a write of [byteOffset, +size) (TypeError / InvalidStateError, nothing changed) and
  // registers it; returns whether it respects the granularity.
  bool beginWrite(const MLOperandDescriptor& descriptor, uint64_t byteOffset, uint64_t size,
                  const std::string& where);
  // Unregisters it; when `written`, marks the range filled (and completes the tensor when covered:
  // the slot is told complete()).
  void endWrite(uint64_t byteOffset, uint64_t size, bool written);
  // beginWrite, the slot's write (one copy from `data`), endWrite.
  void write(const MLOperandDescriptor& descriptor, uint64_t byteOffset,
             std::span<const std::byte> data, const std::string& where);
};

struct TensorState {
  std::weak_ptr<ContextState> context;
  MLTensorDescriptor descriptor;
  // The backend's storage. A dispatch holds its own reference while it runs, so destroy() (which
  // drops this one) never frees memory a running dispatch reads.
  std::shared_ptr<backend::BackendTensor> storage;
  // A constant tensor's fill (its storage is there; `storage` above is null).
  std::shared_ptr<ConstantFill> constant;
  mutable std::mutex mutex;  // guards storage against destroy()
  std::atomic<bool> destroyed{false};

  // The storage, or InvalidStateError when the tensor is destroyed.
  std::shared_ptr<backend::BackendTensor> acquire(std::string_view method) const;
};

}  // namespace webnn::detail
