// matmul: [..., M, K] x [..., K, N] -> [..., M, N]; batch dimensions broadcast; rank >= 2.
#include "graph/builder_state.h"
#include "graph/op_limits.h"
#include "graph/ops/registration.h"
#include "graph/ops/validators.h"
#include "graph/validation.h"
#include "webnn/graph_builder.h"

namespace webnn {
namespace graph {

MLOperandDescriptor validateMatmul(const OpCall& call, const MLOperandDescriptor& a,
                                   const MLOperandDescriptor& b) {
  const std::string_view type = call.name(), label = call.label;
  checkOperandLimits(call, "a", a);
  checkOperandLimits(call, "b", b);
  checkSameDataType(type, label, "a", a, "b", b);
  const size_t rankA = a.shape.size();
  const size_t rankB = b.shape.size();
  if (a.shape[rankA - 1] != b.shape[rankB - 2]) {
    fail(type, label,
         "the inner dimensions differ: a " + shapeToString(a.shape) + ", b " +
             shapeToString(b.shape));
  }
  std::vector<uint32_t> batchA(a.shape.begin(), a.shape.end() - 2);
  std::vector<uint32_t> batchB(b.shape.begin(), b.shape.end() - 2);
  auto batch = broadcastShapes(batchA, batchB);
  if (!batch) {
    fail(type, label,
         "batch dimensions of " + shapeToString(a.shape) + " and " + shapeToString(b.shape) +
             " are not broadcastable");
  }
  batch->push_back(a.shape[rankA - 2]);
  batch->push_back(b.shape[rankB - 1]);
  return {a.dataType, *batch};
}

void registerMatmulLimits(OpLimitsTable& table) {
  table.set(OpType::Matmul, {{"a", rank(types::kFloat, 2, kMaxRank)},
                             {"b", rank(types::kFloat, 2, kMaxRank)},
                             {"output", rank(types::kFloat, 2, kMaxRank)}});
}

}  // namespace graph

MLOperand MLGraphBuilder::matmul(const MLOperand& a, const MLOperand& b,
                                 const MLOperatorOptions& options) {
  graph::OpBuilder op(*this, graph::OpType::Matmul, options.label, {&a, &b});
  auto output = graph::validateMatmul(op.call(), a.descriptor(), b.descriptor());
  return op.record({a, b}, {}, output);
}

}  // namespace webnn
