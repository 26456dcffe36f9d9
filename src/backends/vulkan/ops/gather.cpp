// gather, gatherElements and gatherND of elements of any size, with int32, uint32 or int64
// indices (gather.comp, gather_elements.comp, gather_nd.comp): negative indices wrap once,
// out-of-range ones clamp, as the reference backend's.
#include "backends/vulkan/kernel.h"

namespace webnn::vulkan {
namespace {

void compileGather(const OpContext& context, std::vector<Step>& steps) {
  const uint32_t axis = context.operation.attributesAs<graph::GatherAttributes>().axis;
  const auto& shape = context.shape(context.input(0));
  elementCount(shape, "the gather input");
  uint32_t inner = 1;
  for (size_t d = axis + 1; d < shape.size(); ++d) inner *= shape[d];
  const uint32_t indexCount = elementCount(context.shape(context.input(1)), "the gather indices");
  const uint32_t count = elementCount(context.shape(context.output()), "the gather output");
  steps.push_back(elementsStep("gather", count, context.outputBits(),
                               {shape.at(axis), indexCount, inner, indexTypeOf(context)},
                               {context.input(0), context.input(1), context.output()}));
}

void compileGatherElements(const OpContext& context, std::vector<Step>& steps) {
  const uint32_t axis = context.operation.attributesAs<graph::GatherAttributes>().axis;
  const auto& shape = context.shape(context.input(0));
  elementCount(shape, "the input");
  const auto& out = context.shape(context.output());
  const uint32_t count = elementCount(out, "the output");
  std::vector<uint32_t> params{
      static_cast<uint32_t>(out.size()), axis, indexTypeOf(context), shape.at(axis), 0, 0};
  appendPadded(params, out, 1);
  appendPadded(params, contiguousStrides(shape));
  steps.push_back(elementsStep("gather_elements", count, context.outputBits(), std::move(params),
                               {context.input(0), context.input(1), context.output()}));
}

void compileGatherND(const OpContext& context, std::vector<Step>& steps) {
  const auto& shape = context.shape(context.input(0));
  elementCount(shape, "the input");
  elementCount(context.shape(context.input(1)), "the indices");
  const uint32_t coordinateSize = context.shape(context.input(1)).back();
  uint32_t inner = 1;
  for (size_t d = coordinateSize; d < shape.size(); ++d) inner *= shape[d];
  const uint32_t count = elementCount(context.shape(context.output()), "the output");
  std::vector<uint32_t> params{coordinateSize, indexTypeOf(context), inner, 0, 0, 0};
  appendPadded(params, shape, 1);
  appendPadded(params, contiguousStrides(shape));
  steps.push_back(elementsStep("gather_nd", count, context.outputBits(), std::move(params),
                               {context.input(0), context.input(1), context.output()}));
}

}  // namespace

void registerGatherOps(OpTable& table) {
  // The spec's limits narrow the indices to int32, uint32 and int64.
  table.set(graph::OpType::Gather, {compileGather, kElementTypes, {}});
  table.set(graph::OpType::GatherElements, {compileGatherElements, kElementTypes, {}});
  table.set(graph::OpType::GatherND, {compileGatherND, kElementTypes, {}});
}

}  // namespace webnn::vulkan
