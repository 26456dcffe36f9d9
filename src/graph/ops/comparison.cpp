// equal, notEqual, greater, greaterOrEqual, lesser, lesserOrEqual (any data type) and logicalNot,
// logicalAnd, logicalOr, logicalXor (uint8): bidirectional broadcasting, uint8 output.
#include "graph/ops/comparison.h"

#include "graph/builder_state.h"
#include "graph/op_limits.h"
#include "graph/validation.h"
#include "webnn/graph_builder.h"

namespace webnn {
namespace graph {

MLOperandDescriptor validateComparison(std::string_view type, std::string_view label,
                                       const MLOperandDescriptor& a, const MLOperandDescriptor& b) {
  checkOperandLimits(type, label, "a", a);
  checkOperandLimits(type, label, "b", b);
  checkSameDataType(type, label, "a", a, "b", b);
  auto shape = broadcastShapes(a.shape, b.shape);
  if (!shape) {
    fail(type, label,
         "shapes " + shapeToString(a.shape) + " and " + shapeToString(b.shape) +
             " are not broadcastable");
  }
  return {MLOperandDataType::Uint8, *shape};
}

MLOperandDescriptor validateLogicalNot(std::string_view label, const MLOperandDescriptor& a) {
  checkOperandLimits("logicalNot", label, "a", a);
  return {MLOperandDataType::Uint8, a.shape};
}

namespace {
[[maybe_unused]] const bool registered = [] {
  for (const char* type :
       {"equal", "notEqual", "greater", "greaterOrEqual", "lesser", "lesserOrEqual"}) {
    registerOpLimits(type, {{"a", anyRank(types::kAll)},
                            {"b", anyRank(types::kAll)},
                            {"output", anyRank(types::kUint8)}});
  }
  for (const char* type : {"logicalAnd", "logicalOr", "logicalXor"}) {
    registerOpLimits(type, {{"a", anyRank(types::kUint8)},
                            {"b", anyRank(types::kUint8)},
                            {"output", anyRank(types::kUint8)}});
  }
  registerOpLimits("logicalNot",
                   {{"a", anyRank(types::kUint8)}, {"output", anyRank(types::kUint8)}});
  return true;
}();

MLOperand compare(MLGraphBuilder& builder, std::string_view type, const MLOperand& a,
                  const MLOperand& b, const MLOperatorOptions& options) {
  auto& state = beginOp(builder, type, options.label, {&a, &b});
  auto output = validateComparison(type, options.label, a.descriptor(), b.descriptor());
  return state.addOperation(std::string(type), options.label, {a, b}, {}, output);
}
}  // namespace
}  // namespace graph

MLOperand MLGraphBuilder::equal(const MLOperand& a, const MLOperand& b,
                                const MLOperatorOptions& o) {
  return graph::compare(*this, "equal", a, b, o);
}
MLOperand MLGraphBuilder::notEqual(const MLOperand& a, const MLOperand& b,
                                   const MLOperatorOptions& o) {
  return graph::compare(*this, "notEqual", a, b, o);
}
MLOperand MLGraphBuilder::greater(const MLOperand& a, const MLOperand& b,
                                  const MLOperatorOptions& o) {
  return graph::compare(*this, "greater", a, b, o);
}
MLOperand MLGraphBuilder::greaterOrEqual(const MLOperand& a, const MLOperand& b,
                                         const MLOperatorOptions& o) {
  return graph::compare(*this, "greaterOrEqual", a, b, o);
}
MLOperand MLGraphBuilder::lesser(const MLOperand& a, const MLOperand& b,
                                 const MLOperatorOptions& o) {
  return graph::compare(*this, "lesser", a, b, o);
}
MLOperand MLGraphBuilder::lesserOrEqual(const MLOperand& a, const MLOperand& b,
                                        const MLOperatorOptions& o) {
  return graph::compare(*this, "lesserOrEqual", a, b, o);
}
MLOperand MLGraphBuilder::logicalAnd(const MLOperand& a, const MLOperand& b,
                                     const MLOperatorOptions& o) {
  return graph::compare(*this, "logicalAnd", a, b, o);
}
MLOperand MLGraphBuilder::logicalOr(const MLOperand& a, const MLOperand& b,
                                    const MLOperatorOptions& o) {
  return graph::compare(*this, "logicalOr", a, b, o);
}
MLOperand MLGraphBuilder::logicalXor(const MLOperand& a, const MLOperand& b,
                                     const MLOperatorOptions& o) {
  return graph::compare(*this, "logicalXor", a, b, o);
}
MLOperand MLGraphBuilder::logicalNot(const MLOperand& a, const MLOperatorOptions& options) {
  auto& state = graph::beginOp(*this, "logicalNot", options.label, {&a});
  auto output = graph::validateLogicalNot(options.label, a.descriptor());
  return state.addOperation("logicalNot", options.label, {a}, {}, output);
}

}  // namespace webnn
