// equal, notEqual, greater, greaterOrEqual, lesser, lesserOrEqual (any data type) and logicalNot,
// logicalAnd, logicalOr, logicalXor (uint8): bidirectional broadcasting, uint8 output.
#include "graph/ops/comparison.h"

#include "graph/builder_state.h"
#include "graph/op_limits.h"
#include "graph/ops/registration.h"
#include "graph/validation.h"
#include "webnn/graph_builder.h"

namespace webnn {
namespace graph {

MLOperandDescriptor validateComparison(const OpCall& call, const MLOperandDescriptor& a,
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
  return {MLOperandDataType::Uint8, *shape};
}

MLOperandDescriptor validateLogicalNot(const OpCall& call, const MLOperandDescriptor& a) {
  checkOperandLimits(call, "a", a);
  return {MLOperandDataType::Uint8, a.shape};
}

void registerComparisonLimits(OpLimitsTable& table) {
  for (OpType type : {OpType::Equal, OpType::NotEqual, OpType::Greater, OpType::GreaterOrEqual,
                      OpType::Lesser, OpType::LesserOrEqual}) {
    table.set(type, {{"a", anyRank(types::kAll)},
                     {"b", anyRank(types::kAll)},
                     {"output", anyRank(types::kUint8)}});
  }
  for (OpType type : {OpType::LogicalAnd, OpType::LogicalOr, OpType::LogicalXor}) {
    table.set(type, {{"a", anyRank(types::kUint8)},
                     {"b", anyRank(types::kUint8)},
                     {"output", anyRank(types::kUint8)}});
  }
  table.set(OpType::LogicalNot,
            {{"a", anyRank(types::kUint8)}, {"output", anyRank(types::kUint8)}});
}

namespace {
MLOperand compare(MLGraphBuilder& builder, OpType type, const MLOperand& a, const MLOperand& b,
                  const MLOperatorOptions& options) {
  OpBuilder op(builder, type, options.label, {&a, &b});
  auto output = validateComparison(op.call(), a.descriptor(), b.descriptor());
  return op.record({a, b}, {}, output);
}
}  // namespace
}  // namespace graph

MLOperand MLGraphBuilder::equal(const MLOperand& a, const MLOperand& b,
                                const MLOperatorOptions& o) {
  return graph::compare(*this, graph::OpType::Equal, a, b, o);
}
MLOperand MLGraphBuilder::notEqual(const MLOperand& a, const MLOperand& b,
                                   const MLOperatorOptions& o) {
  return graph::compare(*this, graph::OpType::NotEqual, a, b, o);
}
MLOperand MLGraphBuilder::greater(const MLOperand& a, const MLOperand& b,
                                  const MLOperatorOptions& o) {
  return graph::compare(*this, graph::OpType::Greater, a, b, o);
}
MLOperand MLGraphBuilder::greaterOrEqual(const MLOperand& a, const MLOperand& b,
                                         const MLOperatorOptions& o) {
  return graph::compare(*this, graph::OpType::GreaterOrEqual, a, b, o);
}
MLOperand MLGraphBuilder::lesser(const MLOperand& a, const MLOperand& b,
                                 const MLOperatorOptions& o) {
  return graph::compare(*this, graph::OpType::Lesser, a, b, o);
}
MLOperand MLGraphBuilder::lesserOrEqual(const MLOperand& a, const MLOperand& b,
                                        const MLOperatorOptions& o) {
  return graph::compare(*this, graph::OpType::LesserOrEqual, a, b, o);
}
MLOperand MLGraphBuilder::logicalAnd(const MLOperand& a, const MLOperand& b,
                                     const MLOperatorOptions& o) {
  return graph::compare(*this, graph::OpType::LogicalAnd, a, b, o);
}
MLOperand MLGraphBuilder::logicalOr(const MLOperand& a, const MLOperand& b,
                                    const MLOperatorOptions& o) {
  return graph::compare(*this, graph::OpType::LogicalOr, a, b, o);
}
MLOperand MLGraphBuilder::logicalXor(const MLOperand& a, const MLOperand& b,
                                     const MLOperatorOptions& o) {
  return graph::compare(*this, graph::OpType::LogicalXor, a, b, o);
}
MLOperand MLGraphBuilder::logicalNot(const MLOperand& a, const MLOperatorOptions& options) {
  graph::OpBuilder op(*this, graph::OpType::LogicalNot, options.label, {&a});
  auto output = graph::validateLogicalNot(op.call(), a.descriptor());
  return op.record({a}, {}, output);
}

}  // namespace webnn
