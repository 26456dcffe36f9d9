// cast between float32, float16, int32, uint32, int64, uint64, int8 and uint8 (cast.comp; needs
// shaderInt64). One invocation per output word, so that no two write one word.
#include "backends/vulkan/kernel.h"

namespace webnn::vulkan {
namespace {

using T = MLOperandDataType;

void compileCast(const OpContext& context, std::vector<Step>& steps) {
  const uint32_t count = elementCount(context.shape(context.output()), "the cast output");
  const T to = context.descriptor(context.output()).dataType;
  const uint32_t perWord = to == T::Int8 || to == T::Uint8 ? 4 : to == T::Float16 ? 2 : 1;
  const uint32_t invocations = count / perWord + (count % perWord ? 1 : 0);
  steps.push_back(elementwiseStep(
      "cast", invocations,
      {count, shaderTypeCode(context.descriptor(context.input(0)).dataType), shaderTypeCode(to), 0},
      {context.input(0), context.output()}));
}

}  // namespace

void registerCastOps(OpTable& table) {
  table.set(graph::OpType::Cast,
            {compileCast,
             {T::Float32, T::Float16, T::Int32, T::Uint32, T::Int64, T::Uint64, T::Int8, T::Uint8},
             {}});
}

}  // namespace webnn::vulkan
