// cumulativeSum along one axis (exclusive, reversed), any numeric data type
// (cumulative_sum.comp).
#include "backends/vulkan/kernel.h"

namespace webnn::vulkan {
namespace {

void compileCumulativeSum(const OpContext& context, std::vector<Step>& steps) {
  const auto& attributes = context.operation.attributesAs<graph::CumulativeSumAttributes>();
  const auto& shape = context.shape(context.input(0));
  const uint32_t count = elementCount(shape, "the input");
  uint32_t inner = 1;
  for (size_t d = attributes.axis + 1; d < shape.size(); ++d) inner *= shape[d];
  const MLOperandDataType type = context.descriptor(context.output()).dataType;
  steps.push_back(elementsStep("cumulative_sum", count, bitsPerElement(type),
                               {shaderTypeCode(type), shape.at(attributes.axis), inner,
                                attributes.exclusive ? 1u : 0u, attributes.reversed ? 1u : 0u},
                               {context.input(0), context.output()}));
}

}  // namespace

void registerCumulativeSumOps(OpTable& table) {
  table.set(graph::OpType::CumulativeSum, {compileCumulativeSum, kElementTypes, {}});
}

}  // namespace webnn::vulkan
