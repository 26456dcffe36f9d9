// scatterElements and scatterND of elements of any size, with int32, uint32 or int64 indices
// (scatter_elements.comp, scatter_nd.comp): each output element finds the last update that
// addresses it (the reference applies them in row-major order, so the last write to a duplicated
// index wins), else keeps the input's; indices resolve as gather's.
#include "backends/vulkan/kernel.h"

namespace webnn::vulkan {
namespace {

void compileScatterElements(const OpContext& context, std::vector<Step>& steps) {
  const uint32_t axis = context.operation.attributesAs<graph::ScatterAttributes>().axis;
  const auto& out = context.shape(context.output());
  const auto& indices = context.shape(context.input(1));
  const uint32_t count = elementCount(out, "the output");
  elementCount(indices, "the indices");
  std::vector<uint32_t> params{
      static_cast<uint32_t>(out.size()), axis, indexTypeOf(context), indices.at(axis), 0, 0};
  appendPadded(params, out, 1);
  appendPadded(params, contiguousStrides(indices));
  steps.push_back(
      elementsStep("scatter_elements", count, context.outputBits(), std::move(params),
                   {context.input(0), context.input(1), context.input(2), context.output()}));
}

void compileScatterND(const OpContext& context, std::vector<Step>& steps) {
  const auto& out = context.shape(context.output());
  const auto& indices = context.shape(context.input(1));
  const uint32_t count = elementCount(out, "the output");
  const uint32_t indexCount = elementCount(indices, "the indices");
  const uint32_t coordinateSize = indices.back();
  const uint32_t tuples = coordinateSize == 0
                              ? elementCount(std::span(indices).first(indices.size() - 1), "tuples")
                              : indexCount / coordinateSize;
  uint32_t inner = 1;
  for (size_t d = coordinateSize; d < out.size(); ++d) inner *= out[d];
  std::vector<uint32_t> params{coordinateSize, indexTypeOf(context), inner, tuples, 0, 0};
  appendPadded(params, out, 1);
  appendPadded(params, contiguousStrides(out));
  steps.push_back(
      elementsStep("scatter_nd", count, context.outputBits(), std::move(params),
                   {context.input(0), context.input(1), context.input(2), context.output()}));
}

}  // namespace

void registerScatterOps(OpTable& table) {
  // The spec's limits narrow the indices to int32, uint32 and int64.
  table.set(graph::OpType::ScatterElements, {compileScatterElements, kElementTypes, {}});
  table.set(graph::OpType::ScatterND, {compileScatterND, kElementTypes, {}});
}

}  // namespace webnn::vulkan
