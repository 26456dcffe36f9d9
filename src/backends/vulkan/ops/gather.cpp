// gather of 32-bit elements with int32, uint32 or int64 indices (gather.comp).
#include "backends/vulkan/kernel.h"

namespace webnn::vulkan {
namespace {

using T = MLOperandDataType;

void compileGather(const OpContext& context, std::vector<Step>& steps) {
  const uint32_t axis = context.operation.attributesAs<graph::GatherAttributes>().axis;
  const auto& shape = context.shape(context.input(0));
  elementCount(shape, "the gather input");
  uint32_t outer = 1, inner = 1;
  for (size_t d = 0; d < axis; ++d) outer *= shape[d];
  for (size_t d = axis + 1; d < shape.size(); ++d) inner *= shape[d];
  const uint32_t indexCount = elementCount(context.shape(context.input(1)), "the gather indices");
  const uint32_t count = elementCount(context.shape(context.output()), "the gather output");
  const T indexType = context.descriptor(context.input(1)).dataType;
  const uint32_t typeCode = indexType == T::Int32 ? 0 : indexType == T::Uint32 ? 1 : 2;
  (void)outer;
  steps.push_back(elementwiseStep("gather", count,
                                  {count, shape.at(axis), indexCount, inner, typeCode},
                                  {context.input(0), context.input(1), context.output()}));
}

}  // namespace

void registerGatherOps(OpTable& table) {
  table.set(graph::OpType::Gather, {compileGather,
                                    {T::Float32, T::Int32, T::Uint32},
                                    {{"indices", {T::Int32, T::Uint32, T::Int64}}}});
}

}  // namespace webnn::vulkan
