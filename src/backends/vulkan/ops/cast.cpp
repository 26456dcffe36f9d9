// cast between every pair of data types (cast.comp; needs shaderInt64). One invocation per output
// word, so that no two write one word.
#include "backends/vulkan/kernel.h"

namespace webnn::vulkan {
namespace {

using T = MLOperandDataType;

void compileCast(const OpContext& context, std::vector<Step>& steps) {
  const uint32_t count = elementCount(context.shape(context.output()), "the cast output");
  const T to = context.descriptor(context.output()).dataType;
  const uint32_t bits = bitsPerElement(to);
  const uint32_t perWord = bits < 32 ? 32 / bits : 1;
  const uint32_t invocations = count / perWord + (count % perWord ? 1 : 0);
  steps.push_back(elementwiseStep(
      "cast", invocations,
      {count, shaderTypeCode(context.descriptor(context.input(0)).dataType), shaderTypeCode(to), 0},
      {context.input(0), context.output()}));
}

}  // namespace

void registerCastOps(OpTable& table) {
  table.set(graph::OpType::Cast, {compileCast, kElementTypes, {}});
}

}  // namespace webnn::vulkan
