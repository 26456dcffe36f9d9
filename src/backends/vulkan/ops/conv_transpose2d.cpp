// convTranspose2d (groups, dilations, padding, output padding and sizes, every input and filter
// layout), gathered (conv_transpose2d.comp): one invocation per output element.
#include "graph/ops/conv_transpose2d.h"
#include "backends/vulkan/kernel.h"
#include "backends/vulkan/ops/layouts.h"

namespace webnn::vulkan {
namespace {

using T = MLOperandDataType;

// Element strides of (input channel, output channel within its group, h, w) in the filter.
std::array<uint32_t, 4> filterStrides(const graph::ConvTranspose2dFilterShape& f,
                                      MLConvTranspose2dFilterOperandLayout layout) {
  const uint32_t I = f.inputChannels, O = f.outputChannelsPerGroup, H = f.height, W = f.width;
  switch (layout) {
    case MLConvTranspose2dFilterOperandLayout::Iohw:
      return {O * H * W, H * W, W, 1};
    case MLConvTranspose2dFilterOperandLayout::Hwoi:
      return {1, I, W * O * I, O * I};
    default:  // ohwi
      return {1, H * W * I, W * I, I};
  }
}

void compileConvTranspose2d(const OpContext& context, std::vector<Step>& steps) {
  const auto& attributes = context.operation.attributesAs<graph::ConvTranspose2dAttributes>();
  const auto in = graph::spatialShapeOf(context.shape(context.input(0)), attributes.inputLayout);
  const auto out = graph::spatialShapeOf(context.shape(context.output()), attributes.inputLayout);
  const auto filter =
      graph::convTranspose2dFilterShapeOf(context.shape(context.input(1)), attributes.filterLayout);
  elementCount(context.shape(context.input(0)), "the convTranspose2d input");
  elementCount(context.shape(context.input(1)), "the convTranspose2d filter");
  const uint32_t count =
      elementCount(context.shape(context.output()), "the convTranspose2d output");
  std::vector<uint32_t> params{in.batches,
                               in.channels,
                               in.height,
                               in.width,
                               out.channels,
                               out.height,
                               out.width,
                               filter.height,
                               filter.width,
                               attributes.groups,
                               attributes.strides[0],
                               attributes.strides[1],
                               attributes.dilations[0],
                               attributes.dilations[1],
                               attributes.padding[0],
                               attributes.padding[2]};
  for (uint32_t s : activationStrides(in, attributes.inputLayout)) params.push_back(s);
  for (uint32_t s : filterStrides(filter, attributes.filterLayout)) params.push_back(s);
  for (uint32_t s : activationStrides(out, attributes.inputLayout)) params.push_back(s);
  params.push_back(attributes.bias ? 1 : 0);
  const graph::OperandId bias = attributes.bias ? *attributes.bias : context.input(1);
  steps.push_back(elementwiseStep("conv_transpose2d", count, std::move(params),
                                  {context.input(0), context.input(1), bias, context.output()}));
  steps.back().float16 = context.float16();
}

}  // namespace

void registerConvTranspose2dOps(OpTable& table) {
  table.set(graph::OpType::ConvTranspose2d, {compileConvTranspose2d, {T::Float32, T::Float16}, {}});
}

}  // namespace webnn::vulkan
