// add, sub, mul, div, max, min, pow: same data type, bidirectional broadcasting.
#include "graph/builder_state.h"
#include "graph/op_limits.h"
#include "graph/ops/validators.h"
#include "graph/validation.h"
#include "webnn/graph_builder.h"

namespace webnn {
namespace graph {

MLOperandDescriptor validateElementwiseBinary(std::string_view type, std::string_view label,
                                              const MLOperandDescriptor& a,
                                              const MLOperandDescriptor& b) {
  checkOperandLimits(type, label, "a", a);
  checkOperandLimits(type, label, "b", b);
  checkSameDataType(type, label, "a", a, "b", b);
  auto shape = broadcastShapes(a.shape, b.shape);
  if (!shape) {
    fail(type, label,
         "shapes " + shapeToString(a.shape) + " and " + shapeToString(b.shape) +
             " are not broadcastable");
  }
  return {a.dataType, *shape};
}

namespace {
[[maybe_unused]] const bool registered = [] {
  for (const char* type : {"add", "sub", "mul", "div", "max", "min", "pow"}) {
    registerOpLimits(type, {{"a", anyRank(types::kNumeric)},
                            {"b", anyRank(types::kNumeric)},
                            {"output", anyRank(types::kNumeric)}});
  }
  return true;
}();

MLOperand binary(MLGraphBuilder& builder, std::string_view type, const MLOperand& a,
                 const MLOperand& b, const MLOperatorOptions& options) {
  auto& state = beginOp(builder, type, options.label, {&a, &b});
  auto output = validateElementwiseBinary(type, options.label, a.descriptor(), b.descriptor());
  return state.addOperation(std::string(type), options.label, {a, b}, {}, output);
}
}  // namespace
}  // namespace graph

MLOperand MLGraphBuilder::add(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& o) {
  return graph::binary(*this, "add", a, b, o);
}
MLOperand MLGraphBuilder::sub(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& o) {
  return graph::binary(*this, "sub", a, b, o);
}
MLOperand MLGraphBuilder::mul(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& o) {
  return graph::binary(*this, "mul", a, b, o);
}
MLOperand MLGraphBuilder::div(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& o) {
  return graph::binary(*this, "div", a, b, o);
}
MLOperand MLGraphBuilder::max(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& o) {
  return graph::binary(*this, "max", a, b, o);
}
MLOperand MLGraphBuilder::min(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& o) {
  return graph::binary(*this, "min", a, b, o);
}
MLOperand MLGraphBuilder::pow(const MLOperand& a, const MLOperand& b, const MLOperatorOptions& o) {
  return graph::binary(*this, "pow", a, b, o);
}

}  // namespace webnn
