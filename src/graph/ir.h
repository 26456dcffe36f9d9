// The graph IR: operands and operations, as the builder records them. A hollow constant is a
// descriptor and a label, never bytes.
#pragma once

#include <any>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

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
  // Bytes of a classic constant (copied at the builder call); null for every other kind.
  std::shared_ptr<const std::vector<std::byte>> data;
};

}  // namespace webnn::detail

namespace webnn::graph {

using detail::OperandKind;
using detail::OperandNode;

struct Operation {
  std::string type;   // the builder method's name: "conv2d", "add", ...
  std::string label;  // MLOperatorOptions::label
  std::vector<uint32_t> inputs;   // operand ids, required operands first, then optional ones
  std::vector<uint32_t> outputs;  // operand ids
  // The op's options struct (e.g. MLConv2dOptions) with defaults resolved by validation, or a
  // small op-specific struct (see the op's file in src/graph/ops).
  std::any attributes;
};

struct GraphIR {
  std::vector<std::shared_ptr<OperandNode>> operands;
  std::vector<Operation> operations;  // in a topological order
  std::map<std::string, uint32_t> inputs;
  std::map<std::string, uint32_t> outputs;
  uint64_t builderId = 0;

  const MLOperandDescriptor& descriptor(uint32_t id) const { return operands[id]->descriptor; }
};

}  // namespace webnn::graph
