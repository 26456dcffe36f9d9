// averagePool2d, l2Pool2d, maxPool2d in either layout (pool2d.comp).
#include "backends/vulkan/kernel.h"
#include "backends/vulkan/ops/layouts.h"

namespace webnn::vulkan {
namespace {

using graph::OpType;
using T = MLOperandDataType;

void compilePool2d(const OpContext& context, std::vector<Step>& steps) {
  const auto& attributes = context.operation.attributesAs<graph::Pool2dAttributes>();
  const auto in = graph::spatialShapeOf(context.shape(context.input(0)), attributes.layout);
  const auto out = graph::spatialShapeOf(context.shape(context.output()), attributes.layout);
  elementCount(context.shape(context.input(0)), "the pooling input");
  const uint32_t count = elementCount(context.shape(context.output()), "the pooling output");
  const uint32_t mode = context.operation.type == OpType::AveragePool2d ? 0
                        : context.operation.type == OpType::L2Pool2d    ? 1
                                                                        : 2;
  std::vector<uint32_t> params{in.batches,
                               in.channels,
                               in.height,
                               in.width,
                               out.height,
                               out.width,
                               attributes.windowDimensions[0],
                               attributes.windowDimensions[1],
                               attributes.strides[0],
                               attributes.strides[1],
                               attributes.dilations[0],
                               attributes.dilations[1],
                               attributes.padding[0],
                               attributes.padding[2],
                               mode,
                               0};
  for (uint32_t s : activationStrides(in, attributes.layout)) params.push_back(s);
  for (uint32_t s : activationStrides(out, attributes.layout)) params.push_back(s);
  steps.push_back(
      elementwiseStep("pool2d", count, std::move(params), {context.input(0), context.output()}));
  steps.back().float16 = context.float16();
}

}  // namespace

void registerPoolingOps(OpTable& table) {
  for (OpType type : {OpType::AveragePool2d, OpType::L2Pool2d, OpType::MaxPool2d}) {
    table.set(type, {compilePool2d, {T::Float32, T::Float16}, {}});
  }
}

}  // namespace webnn::vulkan
