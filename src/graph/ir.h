// The typed graph IR: operands and operations as the builder records them, with a use-def index
// that passes and planners read. Operation types are an enum generated from op_types.inc (no
// backend finds an op by a string); attributes are typed structs holding operand ids
// (attributes.h). A hollow constant is a descriptor and a label, never bytes.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "graph/attributes.h"
#include "webnn/operand.h"
#include "webnn/types.h"

namespace webnn::detail {

enum class OperandKind { Input, Constant, HollowConstant, Intermediate };

struct OperandNode {
  uint64_t builderId = 0;  // which builder made it (operands of other builders are rejected)
  uint32_t id = 0;         // index in GraphIR::operands
  MLOperandDescriptor descriptor;
  OperandKind kind = OperandKind::Intermediate;
  std::string name;  // input name, or constant label
  // Bytes of a classic constant (copied at the builder call); null for every other kind, and for
  // a classic constant that build() found unused (its bytes are released then).
  std::shared_ptr<const std::vector<std::byte>> data;
};

}  // namespace webnn::detail

namespace webnn::graph {

using detail::OperandKind;
using detail::OperandNode;

enum class OpType : uint8_t {
#define WEBNN_OP(name, specName) name,
#include "graph/op_types.inc"
#undef WEBNN_OP
};

inline constexpr size_t kOpTypeCount = 0
#define WEBNN_OP(name, specName) +1
#include "graph/op_types.inc"
#undef WEBNN_OP
    ;

// The spec's name of an op type: the MLGraphBuilder method ("conv2d", "reduceMean", ...).
std::string_view specName(OpType type);
// The op type of a spec name; nullopt when no builder method has that name.
std::optional<OpType> opTypeFromSpecName(std::string_view name);
// Every op type, in op_types.inc order.
std::span<const OpType> allOpTypes();

inline constexpr int32_t kNoProducer = -1;

struct Operation {
  OpType type{};
  std::string label;               // MLOperatorOptions::label
  std::vector<OperandId> inputs;   // required operands first, then the optional ones present
  std::vector<OperandId> outputs;  // operand ids
  Attributes attributes;           // the struct of `type` (attributes.h), or std::monostate

  template <class T>
  const T& attributesAs() const {
    return std::get<T>(attributes);
  }
};

// Who produces and who consumes each operand: operation indices into GraphIR::operations.
struct UseDefIndex {
  std::vector<int32_t> producer;  // per operand; kNoProducer for graph inputs/constants
  std::vector<std::vector<uint32_t>> consumers;  // per operand, in operation order, no repeats

  bool empty() const { return producer.empty(); }
};

struct GraphIR {
  std::vector<std::shared_ptr<OperandNode>> operands;
  std::vector<Operation> operations;  // in a topological order
  std::map<std::string, OperandId> inputs;
  std::map<std::string, OperandId> outputs;
  uint64_t builderId = 0;
  // Filled by indexUses() (build() does it once); passes read it, never rebuild it.
  UseDefIndex uses;

  const MLOperandDescriptor& descriptor(OperandId id) const { return operands[id]->descriptor; }
  const OperandNode& operand(OperandId id) const { return *operands[id]; }
  // Recomputes `uses` from the operations (after building, or after a pass rewires operations).
  void indexUses();
  // The operation producing `id`, or null for inputs and constants.
  const Operation* producerOf(OperandId id) const;
  std::span<const uint32_t> consumersOf(OperandId id) const { return uses.consumers[id]; }
  bool isGraphOutput(OperandId id) const;
  // Whether any operation reads `id` or it is a graph output.
  bool isUsed(OperandId id) const { return !uses.consumers[id].empty() || isGraphOutput(id); }
};

}  // namespace webnn::graph
