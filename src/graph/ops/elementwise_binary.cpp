// add, sub, mul, div, max, min, pow: same data type, bidirectional broadcasting.
#include "graph/builder_state.h"
#include "graph/op_limits.h"
#include "graph/ops/registration.h"
#include "graph/ops/validators.h"
#include "graph/validation.h"
#include "webnn/graph_builder.h"

namespace webnn {
namespace graph {

MLOperandDescriptor validateElementwiseBinary(const OpCall& call, const MLOperandDescriptor& a,
                                              const MLOperandDescriptor& b) {
  const std::string_view type = call.name(), label = call.label;
  checkOperandLimits(call, "a", a);
  checkOperandLimits(call, "b", b);
  checkSameDataType(type, label, "a", a, "b", b);
  auto shape = broadcastShapes(a.shape, b.shape);
  if (!shape) {
    fail(type, label,
         "shapes " + shapeToString(a.shape) + " and " + shapeToString(b.shape) +
             " are not broadcastable");
  }
  return {a.dataType, *shape};
}

void registerElementwiseBinaryLimits(OpLimitsTable& table) {
  for (OpType type : {OpType::Add, OpType::Sub, OpType::Mul, OpType::Div, OpType::Max, OpType::Min,
                      OpType::Pow}) {
    table.set(type, {{"a", anyRank(types::kNumeric)},
                     {"b", anyRank(types::kNumeric)},
                     {"output", anyRank(types::kNumeric)}});
  }
}

namespace {
MLOperand binary(MLGraphBuilder& builder, OpType type, const MLOperand& a, const MLOperand& b,
                 const MLOperatorOptions& options) {
  OpBuilder op(builder, type, options.label, {&a, &b});
  auto output = validateElementwiseBinary(op.call(), a.descriptor(), b.descriptor());
  return op.record({a, b}, {}, output);
}
}  // namespace
}  // namespace graph

MLOperand MLGraphBuilder::add(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& o) {
  return graph::binary(*this, graph::OpType::Add, a, b, o);
}
MLOperand MLGraphBuilder::sub(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& o) {
  return graph::binary(*this, graph::OpType::Sub, a, b, o);
}
MLOperand MLGraphBuilder::mul(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& o) {
  return graph::binary(*this, graph::OpType::Mul, a, b, o);
}
MLOperand MLGraphBuilder::div(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& o) {
  return graph::binary(*this, graph::OpType::Div, a, b, o);
}
MLOperand MLGraphBuilder::max(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& o) {
  return graph::binary(*this, graph::OpType::Max, a, b, o);
}
MLOperand MLGraphBuilder::min(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& o) {
  return graph::binary(*this, graph::OpType::Min, a, b, o);
}
MLOperand MLGraphBuilder::pow(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& o) {
  return graph::binary(*this, graph::OpType::Pow, a, b, o);
}

}  // namespace webnn
