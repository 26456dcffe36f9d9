// resample2d, nearest-neighbor and linear, on any two axes of a 4-D tensor (resample2d.comp).
#include "backends/vulkan/kernel.h"

namespace webnn::vulkan {
namespace {

using T = MLOperandDataType;

void compileResample2d(const OpContext& context, std::vector<Step>& steps) {
  const auto& attributes = context.operation.attributesAs<graph::Resample2dAttributes>();
  const auto& in = context.shape(context.input(0));
  const auto& out = context.shape(context.output());
  elementCount(in, "the resample2d input");
  const uint32_t count = elementCount(out, "the resample2d output");
  std::vector<uint32_t> params{count,
                               attributes.mode == MLInterpolationMode::Linear ? 1u : 0u,
                               attributes.axes[0],
                               attributes.axes[1],
                               floatBits(attributes.scales[0]),
                               floatBits(attributes.scales[1]),
                               0,
                               0};
  for (uint32_t extent : out) params.push_back(extent);
  for (uint32_t stride : contiguousStrides(in)) params.push_back(stride);
  params.push_back(in.at(attributes.axes[0]));
  params.push_back(in.at(attributes.axes[1]));
  steps.push_back(elementwiseStep("resample2d", count, std::move(params),
                                  {context.input(0), context.output()}));
  steps.back().float16 = context.float16();
}

}  // namespace

void registerResample2dOps(OpTable& table) {
  table.set(graph::OpType::Resample2d, {compileResample2d, {T::Float32, T::Float16}, {}});
}

}  // namespace webnn::vulkan
