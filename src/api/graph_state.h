// The state behind MLGraph: the compiled graph, and which hollow constants are filled.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "api/context_state.h"
#include "backends/backend.h"
#include "graph/ir.h"

namespace webnn::detail {

struct GraphState {
  std::shared_ptr<ContextState> context;
  std::shared_ptr<const graph::GraphIR> ir;
  // Null once destroyed; a running dispatch or write holds its own reference.
  std::shared_ptr<backend::CompiledGraph> compiled;
  std::mutex dispatchMutex;  // serializes dispatches when the backend says it must

  struct HollowConstant {
    uint32_t operandId;
    Coverage coverage;
    backend::ConstantSlot* slot = nullptr;
    uint64_t granularity = 1;  // the slot's writeGranularity()
    // Writes that respect the granularity share this; one that does not takes it alone (it may
    // touch a granule another write also touches).
    std::unique_ptr<std::shared_mutex> writeLock = std::make_unique<std::shared_mutex>();
  };
  std::vector<HollowConstant> hollow;                // declaration order
  std::unordered_map<uint32_t, size_t> hollowIndex;  // operand id -> index in hollow

  // Hollow constants that are constant tensors' (MLGraphBuilder::constant(tensor)): filled through
  // the tensor, never through the graph.
  struct TensorConstant {
    uint32_t operandId;
    std::shared_ptr<ConstantFill> fill;
    // The graph's own slot, when the backend does not read the tensor itself
    // (CompiledGraph::readsConstantTensor): given the tensor's bytes once it is complete.
    backend::ConstantSlot* slot = nullptr;
    bool delivered = false;
  };
  std::vector<TensorConstant> tensorConstants;

  mutable std::mutex mutex;  // guards everything below and every Coverage
  // Constants whose current fill has begun (the slot was told beginFill) and is not complete.
  std::vector<bool> filling;
  size_t pendingCount = 0;
  int activeWrites = 0;
  int activeDispatches = 0;
  bool destroyed = false;
  bool tensorConstantsReady = false;  // every constant tensor is complete (and delivered)

  // Delivers the constant tensors that completed since the last call; when they all have and no
  // hollow constant is pending, tells the compiled graph constantsComplete (once for them). Needs
  // `mutex`.
  void deliverTensorConstants();

  // Checks and performs one write of `data` at `byteOffset` into hollow constant `operand`.
  void write(const MLOperand& operand, uint64_t byteOffset, std::span<const std::byte> data,
             bool wholeTensor);

  // The two halves of a write, for writers that produce the bytes themselves (loadConstants):
  // beginWrite checks the call (TypeError / InvalidStateError, nothing changed) and registers a
  // running write; endWrite unregisters it and, when `written`, marks the range as filled.
  struct WriteTicket {
    size_t index;
    uint32_t operandId;
    uint64_t begin;
    uint64_t end;
    backend::ConstantSlot* slot;
    bool aligned;  // respects the slot's write granularity

    // Holds the constant's writeLock for the write: shared when aligned, exclusive otherwise.
    class Lock {
     public:
      Lock(const WriteTicket& ticket, std::shared_mutex& mutex);
      ~Lock();
      Lock(const Lock&) = delete;
      Lock& operator=(const Lock&) = delete;

     private:
      std::shared_mutex& mutex_;
      bool shared_;
    };
  };
  WriteTicket beginWrite(const MLOperand& operand, uint64_t byteOffset, uint64_t size,
                         bool wholeTensor, std::string_view method);
  void endWrite(const WriteTicket& ticket, bool written);
  // Zero copy: the constant's storage becomes `bytes` (its whole content), kept alive by `owner`.
  // Returns false when the backend keeps its own storage (the caller then writes). The caller has
  // started the constant's fill (startFill).
  bool adopt(const MLOperand& operand, std::shared_ptr<const void> owner,
             std::span<const std::byte> bytes);
  // Throws InvalidStateError naming the pending constants (by label) when any is pending.
  // Returns the compiled graph, held for the dispatch.
  std::shared_ptr<backend::CompiledGraph> beginDispatch();
  void endDispatch();
  std::vector<MLOperand> pendingConstants() const;
  void checkAlive(std::string_view method) const;

  // Returns the index in `hollow` of `operand`, or throws TypeError naming why it is not one.
  size_t hollowConstantIndex(const MLOperand& operand, std::string_view method) const;
  // Starts a new fill of constant `index` if it is complete (a re-fill) or `force` (a load that
  // rewrites everything); the slot is told. Needs `mutex`.
  void startFill(size_t index, bool force);

 private:
  // Marks [begin, end) of constant `index` filled; when that completes the constant, tells the
  // slot, and when it completes the graph, tells the compiled graph. Needs `mutex`.
  void markFilled(size_t index, uint64_t begin, uint64_t end);
};

}  // namespace webnn::detail
