// Comparisons (equal, notEqual, greater, greaterOrEqual, lesser, lesserOrEqual) of any data type,
// logical ops (logicalAnd, logicalOr, logicalXor, logicalNot) of uint8, and isNaN/isInfinite of
// floats: a uint8 output, with broadcasting (compare.comp).
#include "backends/vulkan/kernel.h"

namespace webnn::vulkan {
namespace {

using graph::OpType;

uint32_t predicateCode(OpType type) {
  switch (type) {
    case OpType::Equal:
      return 0;
    case OpType::NotEqual:
      return 1;
    case OpType::Greater:
      return 2;
    case OpType::GreaterOrEqual:
      return 3;
    case OpType::Lesser:
      return 4;
    case OpType::LesserOrEqual:
      return 5;
    case OpType::LogicalAnd:
      return 6;
    case OpType::LogicalOr:
      return 7;
    case OpType::LogicalXor:
      return 8;
    case OpType::LogicalNot:
      return 9;
    case OpType::IsNaN:
      return 10;
    default:
      return 11;  // isInfinite
  }
}

void compileComparison(const OpContext& context, std::vector<Step>& steps) {
  const auto& out = context.shape(context.output());
  const uint32_t count = elementCount(out, "the output");
  // A unary op binds its input as both operands.
  const graph::OperandId a = context.input(0);
  const graph::OperandId b = context.operation.inputs.size() > 1 ? context.input(1) : a;
  std::vector<uint32_t> params{count, static_cast<uint32_t>(out.size()),
                               predicateCode(context.operation.type),
                               shaderTypeCode(context.descriptor(a).dataType)};
  appendPadded(params, out, 1);
  appendPadded(params, broadcastStrides(context.shape(a), out));
  appendPadded(params, broadcastStrides(context.shape(b), out));
  // One invocation per output word of four uint8.
  steps.push_back(elementwiseStep("compare", count / 4 + (count % 4 ? 1 : 0), std::move(params),
                                  {a, b, context.output()}));
}

}  // namespace

void registerComparisonOps(OpTable& table) {
  // The spec's limits narrow these: logical ops to uint8, isNaN/isInfinite to floats, outputs to
  // uint8.
  for (OpType type : {OpType::Equal, OpType::NotEqual, OpType::Greater, OpType::GreaterOrEqual,
                      OpType::Lesser, OpType::LesserOrEqual, OpType::LogicalAnd, OpType::LogicalOr,
                      OpType::LogicalXor, OpType::LogicalNot, OpType::IsNaN, OpType::IsInfinite}) {
    table.set(type, {compileComparison, kElementTypes, {}});
  }
}

}  // namespace webnn::vulkan
