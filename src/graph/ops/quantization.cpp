// quantizeLinear: output = saturate(roundEven(input / scale) + zeroPoint) in zeroPoint's type.
// dequantizeLinear: output = (input - zeroPoint) * scale in scale's type.
// scale and zeroPoint have one shape, blockwise broadcastable to the input. The spec (since webnn
// PR #805, 2025-02) requires that shape to have the input's rank; the WPT conformance vectors of
// March 2025 (and ONNX's per-tensor scales) use a lower rank, meaning leading 1s. We accept the
// lower rank with that meaning: every graph the spec accepts behaves exactly as specified.
#include "graph/ops/quantization.h"

#include "graph/builder_state.h"
#include "graph/op_limits.h"
#include "graph/ops/registration.h"
#include "graph/validation.h"
#include "webnn/graph_builder.h"

namespace webnn {
namespace graph {
namespace {

using T = MLOperandDataType;
// The quantized types: the spec's table (uint8, int8, uint32, int32) plus int4/uint4.
const std::vector<T> kQuantized = {T::Int4, T::Uint4, T::Int8, T::Uint8, T::Int32, T::Uint32};

void checkScaleAndZeroPoint(std::string_view type, std::string_view label,
                            const MLOperandDescriptor& input, const MLOperandDescriptor& scale,
                            const MLOperandDescriptor& zeroPoint) {
  const size_t rank = input.shape.size();
  if (scale.shape.size() > rank || zeroPoint.shape.size() > rank) {
    fail(type, label,
         "scale " + shapeToString(scale.shape) + " and zeroPoint " +
             shapeToString(zeroPoint.shape) + " must not have a higher rank than input " +
             shapeToString(input.shape));
  }
  if (scale.shape != zeroPoint.shape) {
    fail(type, label,
         "scale " + shapeToString(scale.shape) + " and zeroPoint " +
             shapeToString(zeroPoint.shape) + " must have the same shape");
  }
  if (!isBlockwiseBroadcastable(padToRank(scale.shape, rank), input.shape)) {
    fail(type, label,
         "scale " + shapeToString(scale.shape) + " is not blockwise broadcastable to input " +
             shapeToString(input.shape) + " (each dimension must divide the input's)");
  }
}

}  // namespace

std::vector<uint32_t> padToRank(const std::vector<uint32_t>& shape, size_t rank) {
  std::vector<uint32_t> padded(rank > shape.size() ? rank - shape.size() : 0, 1);
  padded.insert(padded.end(), shape.begin(), shape.end());
  return padded;
}

bool isBlockwiseBroadcastable(const std::vector<uint32_t>& from, const std::vector<uint32_t>& to) {
  if (from.size() != to.size()) return false;
  for (size_t i = 0; i < to.size(); ++i) {
    if (from[i] == 0 || to[i] % from[i] != 0) return false;
  }
  return true;
}

MLOperandDescriptor validateQuantizeLinear(const OpCall& call, const MLOperandDescriptor& input,
                                           const MLOperandDescriptor& scale,
                                           const MLOperandDescriptor& zeroPoint) {
  const std::string_view type = call.name(), label = call.label;
  checkOperandLimits(call, "input", input);
  checkOperandLimits(call, "scale", scale);
  checkOperandLimits(call, "zeroPoint", zeroPoint);
  checkSameDataType(type, label, "input", input, "scale", scale);
  checkScaleAndZeroPoint(type, label, input, scale, zeroPoint);
  return {zeroPoint.dataType, input.shape};
}

MLOperandDescriptor validateDequantizeLinear(const OpCall& call, const MLOperandDescriptor& input,
                                             const MLOperandDescriptor& scale,
                                             const MLOperandDescriptor& zeroPoint) {
  const std::string_view type = call.name(), label = call.label;
  checkOperandLimits(call, "input", input);
  checkOperandLimits(call, "scale", scale);
  checkOperandLimits(call, "zeroPoint", zeroPoint);
  checkSameDataType(type, label, "input", input, "zeroPoint", zeroPoint);
  checkScaleAndZeroPoint(type, label, input, scale, zeroPoint);
  return {scale.dataType, input.shape};
}

void registerQuantizationLimits(OpLimitsTable& table) {
  table.set(OpType::QuantizeLinear, {{"input", anyRank(types::kFloat)},
                                     {"scale", anyRank(types::kFloat)},
                                     {"zeroPoint", anyRank(kQuantized)},
                                     {"output", anyRank(kQuantized)}});
  table.set(OpType::DequantizeLinear, {{"input", anyRank(kQuantized)},
                                       {"scale", anyRank(types::kFloat)},
                                       {"zeroPoint", anyRank(kQuantized)},
                                       {"output", anyRank(types::kFloat)}});
}

}  // namespace graph

MLOperand MLGraphBuilder::quantizeLinear(const MLOperand& input, const MLOperand& scale,
                                         const MLOperand& zeroPoint,
                                         const MLOperatorOptions& options) {
  graph::OpBuilder op(*this, graph::OpType::QuantizeLinear, options.label,
                      {&input, &scale, &zeroPoint});
  auto output = graph::validateQuantizeLinear(op.call(), input.descriptor(), scale.descriptor(),
                                              zeroPoint.descriptor());
  return op.record({input, scale, zeroPoint}, {}, output);
}

MLOperand MLGraphBuilder::dequantizeLinear(const MLOperand& input, const MLOperand& scale,
                                           const MLOperand& zeroPoint,
                                           const MLOperatorOptions& options) {
  graph::OpBuilder op(*this, graph::OpType::DequantizeLinear, options.label,
                      {&input, &scale, &zeroPoint});
  auto output = graph::validateDequantizeLinear(op.call(), input.descriptor(), scale.descriptor(),
                                                zeroPoint.descriptor());
  return op.record({input, scale, zeroPoint}, {}, output);
}

}  // namespace webnn
