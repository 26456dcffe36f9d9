// batchNormalization (batchnorm.comp), instanceNormalization and layerNormalization
// (normalize.comp: one invocation per normalized group).
#include <algorithm>

#include "backends/vulkan/kernel.h"
#include "backends/vulkan/ops/layouts.h"

namespace webnn::vulkan {
namespace {

using graph::OpType;
using T = MLOperandDataType;

void compileBatchNormalization(const OpContext& context, std::vector<Step>& steps) {
  const auto& attributes = context.operation.attributesAs<graph::BatchNormalizationAttributes>();
  const auto& shape = context.shape(context.input(0));
  const uint32_t count = elementCount(shape, "the batchNormalization input");
  uint32_t inner = 1;
  for (size_t d = attributes.axis + 1; d < shape.size(); ++d) inner *= shape[d];
  const graph::OperandId input = context.input(0);
  steps.push_back(
      elementwiseStep("batchnorm", count,
                      {count, shape.at(attributes.axis), inner, floatBits(attributes.epsilon),
                       attributes.scale ? 1u : 0u, attributes.bias ? 1u : 0u},
                      {input, context.input(1), context.input(2), attributes.scale.value_or(input),
                       attributes.bias.value_or(input), context.output()}));
  steps.back().float16 = context.float16();
}

struct Grouping {
  std::vector<uint32_t> keptShape, keptStrides, reducedShape, reducedStrides;
  std::vector<uint32_t> keptScaleStrides, reducedScaleStrides;
};

void pushNormalize(const OpContext& context, const Grouping& g, double epsilon,
                   std::optional<graph::OperandId> scale, std::optional<graph::OperandId> bias,
                   std::vector<Step>& steps) {
  const uint32_t groups = elementCount(g.keptShape, "the normalized groups");
  std::vector<uint32_t> params{groups,
                               static_cast<uint32_t>(g.keptShape.size()),
                               elementCount(g.reducedShape, "a normalized group"),
                               static_cast<uint32_t>(g.reducedShape.size()),
                               floatBits(epsilon),
                               scale ? 1u : 0u,
                               bias ? 1u : 0u,
                               0};
  appendPadded(params, g.keptShape, 1);
  appendPadded(params, g.keptStrides);
  appendPadded(params, g.reducedShape, 1);
  appendPadded(params, g.reducedStrides);
  appendPadded(params, g.keptScaleStrides);
  appendPadded(params, g.reducedScaleStrides);
  const graph::OperandId input = context.input(0);
  steps.push_back(
      elementwiseStep("normalize", groups, std::move(params),
                      {input, scale.value_or(input), bias.value_or(input), context.output()}));
  steps.back().float16 = context.float16();
}

void compileInstanceNormalization(const OpContext& context, std::vector<Step>& steps) {
  const auto& attributes = context.operation.attributesAs<graph::InstanceNormalizationAttributes>();
  const auto s = graph::spatialShapeOf(context.shape(context.input(0)), attributes.layout);
  elementCount(context.shape(context.input(0)), "the instanceNormalization input");
  const auto strides = activationStrides(s, attributes.layout);
  Grouping g;
  g.keptShape = {s.batches, s.channels};
  g.keptStrides = {strides[0], strides[1]};
  g.reducedShape = {s.height, s.width};
  g.reducedStrides = {strides[2], strides[3]};
  g.keptScaleStrides = {0, 1};
  g.reducedScaleStrides = {0, 0};
  pushNormalize(context, g, attributes.epsilon, attributes.scale, attributes.bias, steps);
}

void compileLayerNormalization(const OpContext& context, std::vector<Step>& steps) {
  const auto& attributes = context.operation.attributesAs<graph::LayerNormalizationAttributes>();
  const auto& shape = context.shape(context.input(0));
  elementCount(shape, "the layerNormalization input");
  const auto strides = contiguousStrides(shape);
  Grouping g;
  for (uint32_t d = 0; d < shape.size(); ++d) {
    if (std::find(attributes.axes.begin(), attributes.axes.end(), d) == attributes.axes.end()) {
      g.keptShape.push_back(shape[d]);
      g.keptStrides.push_back(strides[d]);
      g.keptScaleStrides.push_back(0);
    }
  }
  for (uint32_t axis : attributes.axes) {
    g.reducedShape.push_back(shape.at(axis));
    g.reducedStrides.push_back(strides.at(axis));
  }
  g.reducedScaleStrides = contiguousStrides(g.reducedShape);
  pushNormalize(context, g, attributes.epsilon, attributes.scale, attributes.bias, steps);
}

}  // namespace

void registerNormalizationOps(OpTable& table) {
  table.set(OpType::BatchNormalization, {compileBatchNormalization, {T::Float32, T::Float16}, {}});
  table.set(OpType::InstanceNormalization,
            {compileInstanceNormalization, {T::Float32, T::Float16}, {}});
  table.set(OpType::LayerNormalization, {compileLayerNormalization, {T::Float32, T::Float16}, {}});
}

}  // namespace webnn::vulkan
