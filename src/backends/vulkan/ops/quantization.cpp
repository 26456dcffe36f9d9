// quantizeLinear and dequantizeLinear with blockwise-broadcast scale and zeroPoint
// (quantize.comp), every spec type but int4/uint4.
#include "backends/vulkan/kernel.h"

namespace webnn::vulkan {
namespace {

using graph::OpType;

void compileQuantization(const OpContext& context, std::vector<Step>& steps) {
  const auto& shape = context.shape(context.input(0));
  const uint32_t count = elementCount(shape, "the input");
  // scale's shape padded to the input's rank (validation checked that each extent divides).
  std::vector<uint32_t> scaleShape = context.shape(context.input(1));
  scaleShape.insert(scaleShape.begin(), shape.size() - scaleShape.size(), 1);
  std::vector<uint32_t> blocks(shape.size());
  for (size_t d = 0; d < shape.size(); ++d) blocks[d] = shape[d] / scaleShape[d];
  const auto type = [&](graph::OperandId id) {
    return shaderTypeCode(context.descriptor(id).dataType);
  };
  const MLOperandDataType outType = context.descriptor(context.output()).dataType;
  std::vector<uint32_t> params{context.operation.type == OpType::DequantizeLinear ? 1u : 0u,
                               type(context.input(0)),
                               type(context.input(1)),
                               type(context.input(2)),
                               shaderTypeCode(outType),
                               static_cast<uint32_t>(shape.size())};
  appendPadded(params, shape, 1);
  appendPadded(params, blocks, 1);
  appendPadded(params, contiguousStrides(scaleShape));
  steps.push_back(
      elementsStep("quantize", count, bitsPerElement(outType), std::move(params),
                   {context.input(0), context.input(1), context.input(2), context.output()}));
}

}  // namespace

void registerQuantizationOps(OpTable& table) {
  // The spec's limits narrow each operand: floats for scale and the float side, the quantized
  // types (here without int4/uint4) for zeroPoint and the integer side.
  for (OpType type : {OpType::QuantizeLinear, OpType::DequantizeLinear}) {
    table.set(type, {compileQuantization, kElementTypes, {}});
  }
}

}  // namespace webnn::vulkan
