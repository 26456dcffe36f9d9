// softmax along any axis (softmax.comp): one invocation per row.
#include "backends/vulkan/kernel.h"

namespace webnn::vulkan {
namespace {

using T = MLOperandDataType;

void compileSoftmax(const OpContext& context, std::vector<Step>& steps) {
  const uint32_t axis = context.operation.attributesAs<graph::SoftmaxAttributes>().axis;
  const auto& shape = context.shape(context.input(0));
  elementCount(shape, "the softmax input");
  uint32_t outer = 1, inner = 1;
  for (size_t d = 0; d < axis; ++d) outer *= shape[d];
  for (size_t d = axis + 1; d < shape.size(); ++d) inner *= shape[d];
  steps.push_back(elementwiseStep("softmax", outer * inner, {outer, shape.at(axis), inner},
                                  {context.input(0), context.output()}));
  steps.back().float16 = context.float16();
}

}  // namespace

void registerSoftmaxOps(OpTable& table) {
  table.set(graph::OpType::Softmax, {compileSoftmax, {T::Float32, T::Float16}, {}});
}

}  // namespace webnn::vulkan
