// argMin/argMax along one axis, input of any numeric data type, int32 or int64 output
// (arg_min_max.comp).
#include "backends/vulkan/kernel.h"

namespace webnn::vulkan {
namespace {

using graph::OpType;

void compileArgMinMax(const OpContext& context, std::vector<Step>& steps) {
  const uint32_t axis = context.operation.attributesAs<graph::ArgMinMaxAttributes>().axis;
  const auto& shape = context.shape(context.input(0));
  elementCount(shape, "the input");
  uint32_t inner = 1;
  for (size_t d = axis + 1; d < shape.size(); ++d) inner *= shape[d];
  const uint32_t count = elementCount(context.shape(context.output()), "the output");
  const bool isMax = context.operation.type == OpType::ArgMax;
  steps.push_back(
      elementwiseStep("arg_min_max", count,
                      {count, shaderTypeCode(context.descriptor(context.input(0)).dataType),
                       isMax ? 1u : 0u, shape.at(axis), inner, context.outputBits()},
                      {context.input(0), context.output()}));
}

}  // namespace

void registerArgMinMaxOps(OpTable& table) {
  // The spec's limits narrow the output to int32 and int64.
  for (OpType type : {OpType::ArgMin, OpType::ArgMax}) {
    table.set(type, {compileArgMinMax, kElementTypes, {}});
  }
}

}  // namespace webnn::vulkan
