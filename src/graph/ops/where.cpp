// where(condition, trueValue, falseValue): condition uint8 (non-zero is true), trueValue and
// falseValue of one data type; the three shapes broadcast bidirectionally.
#include "graph/ops/where.h"

#include "graph/builder_state.h"
#include "graph/op_limits.h"
#include "graph/ops/registration.h"
#include "graph/validation.h"
#include "webnn/graph_builder.h"

namespace webnn {
namespace graph {

MLOperandDescriptor validateWhere(const OpCall& call, const MLOperandDescriptor& condition,
                                  const MLOperandDescriptor& trueValue,
                                  const MLOperandDescriptor& falseValue) {
  const std::string_view type = call.name(), label = call.label;
  checkOperandLimits(call, "condition", condition);
  checkOperandLimits(call, "trueValue", trueValue);
  checkOperandLimits(call, "falseValue", falseValue);
  checkSameDataType(type, label, "trueValue", trueValue, "falseValue", falseValue);
  auto values = broadcastShapes(trueValue.shape, falseValue.shape);
  if (!values) {
    fail(type, label,
         "trueValue " + shapeToString(trueValue.shape) + " and falseValue " +
             shapeToString(falseValue.shape) + " are not broadcastable");
  }
  auto shape = broadcastShapes(condition.shape, *values);
  if (!shape) {
    fail(type, label,
         "condition " + shapeToString(condition.shape) + " is not broadcastable with the values' " +
             shapeToString(*values));
  }
  return {trueValue.dataType, *shape};
}

void registerWhereLimits(OpLimitsTable& table) {
  table.set(OpType::Where, {{"condition", anyRank(types::kUint8)},
                            {"trueValue", anyRank(types::kAll)},
                            {"falseValue", anyRank(types::kAll)},
                            {"output", anyRank(types::kAll)}});
}

}  // namespace graph

MLOperand MLGraphBuilder::where(const MLOperand& condition, const MLOperand& trueValue,
                                const MLOperand& falseValue, const MLOperatorOptions& options) {
  graph::OpBuilder op(*this, graph::OpType::Where, options.label,
                      {&condition, &trueValue, &falseValue});
  auto output = graph::validateWhere(op.call(), condition.descriptor(), trueValue.descriptor(),
                                     falseValue.descriptor());
  return op.record({condition, trueValue, falseValue}, {}, output);
}

}  // namespace webnn
