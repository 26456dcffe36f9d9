// The seam between the graph layer and the backends. A backend compiles a GraphIR into a
// CompiledGraph that owns one ConstantSlot per constant: the constant's final storage. Weights
// reach a slot through ConstantSlot::write, the one copy (a backend that needs another layout
// transforms while it copies, in bounded chunks).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "backends/memory_account.h"
#include "graph/ir.h"
#include "webnn/op_support_limits.h"

namespace webnn::backend {

class ConstantSlot {
 public:
  virtual ~ConstantSlot() = default;
  // Bytes in the layout of the constant's descriptor (what callers write).
  virtual uint64_t byteLength() const = 0;
  // Copies `bytes` (the constant's bytes at byteOffset, in descriptor layout) into final storage.
  // Called concurrently for disjoint ranges of one slot and for different slots.
  virtual void write(uint64_t byteOffset, std::span<const std::byte> bytes) = 0;
  // Where the slot's final storage is already in descriptor layout, that storage, so that a loader
  // can read file bytes straight into it (then no write() is needed for those bytes). Empty when
  // the backend transforms bytes on the way in (then loaders stage a bounded chunk and write()).
  virtual std::span<std::byte> directStorage() { return {}; }
  // Zero copy: makes the slot use `bytes` (the whole constant, in descriptor layout, alive as long
  // as `owner` is). Returns false when the backend needs its own storage.
  virtual bool adopt(std::shared_ptr<const void> owner, std::span<const std::byte> bytes) {
    (void)owner;
    (void)bytes;
    return false;
  }
};

class CompiledGraph {
 public:
  virtual ~CompiledGraph() = default;
  // The slot of hollow constant `operandId`.
  virtual ConstantSlot& constantSlot(uint32_t operandId) = 0;
  // Runs the graph. Inputs and outputs are validated by the caller (names, byte lengths); output
  // spans do not overlap input spans. May run concurrently with other dispatches.
  virtual void dispatch(const std::map<std::string, std::span<const std::byte>>& inputs,
                        const std::map<std::string, std::span<std::byte>>& outputs) = 0;
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string_view name() const = 0;
  virtual MLOpSupportLimits opSupportLimits() const = 0;
  // Throws NotSupportedError (naming the op) when the backend cannot run an operation.
  virtual std::unique_ptr<CompiledGraph> compile(std::shared_ptr<const graph::GraphIR> ir,
                                                 std::shared_ptr<MemoryAccount> memory) = 0;
};

using BackendFactory = std::function<std::unique_ptr<Backend>()>;
// Backends register themselves (one line in their own folder). The highest priority is the default.
bool registerBackend(std::string name, int priority, BackendFactory factory);
std::unique_ptr<Backend> createBackend(std::string_view name);
std::vector<std::string> backendNames();

}  // namespace webnn::backend
