// The state behind MLGraph: the compiled graph, and which hollow constants are filled.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "api/context_state.h"
#include "backends/backend.h"
#include "graph/ir.h"

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

 private:
  uint64_t byteLength_;
  uint64_t coveredBytes_ = 0;
  std::map<uint64_t, uint64_t> ranges_;  // begin -> end, disjoint and non-adjacent
};

struct GraphState {
  std::shared_ptr<ContextState> context;
  std::shared_ptr<const graph::GraphIR> ir;
  std::unique_ptr<backend::CompiledGraph> compiled;

  struct HollowConstant {
    uint32_t operandId;
    Coverage coverage;
  };
  std::vector<HollowConstant> hollow;                 // declaration order
  std::unordered_map<uint32_t, size_t> hollowIndex;  // operand id -> index in hollow

  mutable std::mutex mutex;  // guards everything below and every Coverage
  size_t pendingCount = 0;
  int activeWrites = 0;
  int activeDispatches = 0;
  bool destroyed = false;

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
  };
  WriteTicket beginWrite(const MLOperand& operand, uint64_t byteOffset, uint64_t size,
                         bool wholeTensor, std::string_view method);
  void endWrite(const WriteTicket& ticket, bool written);
  // Zero copy: the constant's storage becomes `bytes` (its whole content), kept alive by `owner`.
  // Returns false when the backend keeps its own storage (the caller then writes).
  bool adopt(const MLOperand& operand, std::shared_ptr<const void> owner,
             std::span<const std::byte> bytes);
  // Throws InvalidStateError naming the pending constants (by label) when any is pending.
  void beginDispatch();
  void endDispatch();
  std::vector<MLOperand> pendingConstants() const;
  void checkAlive(std::string_view method) const;

  // Returns the index in `hollow` of `operand`, or throws TypeError naming why it is not one.
  size_t hollowConstantIndex(const MLOperand& operand, std::string_view method) const;
};

}  // namespace webnn::detail
