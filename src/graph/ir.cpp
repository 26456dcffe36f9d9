#include "graph/ir.h"

#include <algorithm>
#include <array>

namespace webnn::graph {
namespace {

constexpr std::array<std::string_view, kOpTypeCount> kSpecNames = {
#define WEBNN_OP(name, specName) specName,
#include "graph/op_types.inc"
#undef WEBNN_OP
};

constexpr std::array<OpType, kOpTypeCount> kAllOpTypes = {
#define WEBNN_OP(name, specName) OpType::name,
#include "graph/op_types.inc"
#undef WEBNN_OP
};

}  // namespace

std::string_view specName(OpType type) {
  return kSpecNames[static_cast<size_t>(type)];
}

std::optional<OpType> opTypeFromSpecName(std::string_view name) {
  // op_types.inc is sorted by spec name.
  auto it = std::lower_bound(kSpecNames.begin(), kSpecNames.end(), name);
  if (it == kSpecNames.end() || *it != name) return std::nullopt;
  return kAllOpTypes[static_cast<size_t>(it - kSpecNames.begin())];
}

std::span<const OpType> allOpTypes() {
  return kAllOpTypes;
}

void GraphIR::indexUses() {
  uses.producer.assign(operands.size(), kNoProducer);
  uses.consumers.assign(operands.size(), {});
  for (size_t i = 0; i < operations.size(); ++i) {
    const auto index = static_cast<uint32_t>(i);
    for (OperandId output : operations[i].outputs) uses.producer[output] = static_cast<int32_t>(i);
    for (OperandId input : operations[i].inputs) {
      auto& consumers = uses.consumers[input];
      if (consumers.empty() || consumers.back() != index) consumers.push_back(index);
    }
  }
}

const Operation* GraphIR::producerOf(OperandId id) const {
  const int32_t producer = uses.producer[id];
  return producer == kNoProducer ? nullptr : &operations[static_cast<size_t>(producer)];
}

bool GraphIR::isGraphOutput(OperandId id) const {
  for (const auto& [name, output] : outputs) {
    if (output == id) return true;
  }
  return false;
}

}  // namespace webnn::graph
