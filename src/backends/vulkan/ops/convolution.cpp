// conv2d (groups, depthwise, dilations, padding, every input and filter layout), direct
// (conv2d.comp): one invocation per output element.
#include "backends/vulkan/kernel.h"
#include "backends/vulkan/ops/layouts.h"

namespace webnn::vulkan {
namespace {

using graph::OpType;
using T = MLOperandDataType;

void compileConv2d(const OpContext& context, std::vector<Step>& steps) {
  const auto& attributes = context.operation.attributesAs<graph::Conv2dAttributes>();
  const auto in = graph::spatialShapeOf(context.shape(context.input(0)), attributes.inputLayout);
  const auto out = graph::spatialShapeOf(context.shape(context.output()), attributes.inputLayout);
  const auto filter =
      graph::conv2dFilterShapeOf(context.shape(context.input(1)), attributes.filterLayout);
  elementCount(context.shape(context.input(0)), "the conv2d input");
  elementCount(context.shape(context.input(1)), "the conv2d filter");
  const uint32_t count = elementCount(context.shape(context.output()), "the conv2d output");
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
  for (uint32_t s : conv2dFilterStrides(filter, attributes.filterLayout)) params.push_back(s);
  for (uint32_t s : activationStrides(out, attributes.inputLayout)) params.push_back(s);
  params.push_back(attributes.bias ? 1 : 0);
  const graph::OperandId bias = attributes.bias ? *attributes.bias : context.input(1);
  steps.push_back(elementwiseStep("conv2d", count, std::move(params),
                                  {context.input(0), context.input(1), bias, context.output()}));
  steps.back().float16 = context.float16();
}

}  // namespace

void registerConvolutionOps(OpTable& table) {
  table.set(OpType::Conv2d, {compileConv2d, {T::Float32, T::Float16}, {}});
}

}  // namespace webnn::vulkan
