// batchNormalization (given mean and variance along one axis), instanceNormalization (per
// sample and channel over the spatial dimensions), layerNormalization (over a set of axes).
#include "graph/ops/normalization.h"

#include <cmath>

#include "graph/builder_state.h"
#include "graph/op_limits.h"
#include "graph/ops/conv2d.h"
#include "graph/validation.h"
#include "webnn/graph_builder.h"

namespace webnn {
namespace graph {
namespace {

// Checks an optional per-channel operand: limits, data type and exact shape.
void checkParameter(std::string_view type, std::string_view label, std::string_view name,
                    const MLOperandDescriptor& input,
                    const std::optional<MLOperandDescriptor>& parameter,
                    const std::vector<uint32_t>& expectedShape) {
  if (!parameter) return;
  checkOperandLimits(type, label, name, *parameter);
  checkSameDataType(type, label, "input", input, name, *parameter);
  if (parameter->shape != expectedShape) {
    fail(type, label,
         std::string(name) + " must have shape " + shapeToString(expectedShape) + ", got " +
             shapeToString(parameter->shape));
  }
}

void checkEpsilon(std::string_view type, std::string_view label, double epsilon) {
  if (!std::isfinite(epsilon)) fail(type, label, "epsilon must be finite");
}

}  // namespace

MLOperandDescriptor validateBatchNormalization(std::string_view label,
                                               const MLOperandDescriptor& input,
                                               const MLOperandDescriptor& mean,
                                               const MLOperandDescriptor& variance,
                                               const std::optional<MLOperandDescriptor>& scale,
                                               const std::optional<MLOperandDescriptor>& bias,
                                               const MLBatchNormalizationOptions& options) {
  constexpr std::string_view type = "batchNormalization";
  checkOperandLimits(type, label, "input", input);
  checkEpsilon(type, label, options.epsilon);
  if (options.axis >= input.shape.size()) {
    fail(type, label,
         "axis " + std::to_string(options.axis) + " is out of range for input shape " +
             shapeToString(input.shape));
  }
  const std::vector<uint32_t> channels{input.shape[options.axis]};
  checkParameter(type, label, "mean", input, mean, channels);
  checkParameter(type, label, "variance", input, variance, channels);
  checkParameter(type, label, "scale", input, scale, channels);
  checkParameter(type, label, "bias", input, bias, channels);
  return input;
}

MLOperandDescriptor validateInstanceNormalization(std::string_view label,
                                                  const MLOperandDescriptor& input,
                                                  const std::optional<MLOperandDescriptor>& scale,
                                                  const std::optional<MLOperandDescriptor>& bias,
                                                  const MLInstanceNormalizationOptions& options) {
  constexpr std::string_view type = "instanceNormalization";
  checkOperandLimits(type, label, "input", input);
  checkEpsilon(type, label, options.epsilon);
  const std::vector<uint32_t> channels{spatialShapeOf(input.shape, options.layout).channels};
  checkParameter(type, label, "scale", input, scale, channels);
  checkParameter(type, label, "bias", input, bias, channels);
  return input;
}

MLOperandDescriptor validateLayerNormalization(std::string_view label,
                                               const MLOperandDescriptor& input,
                                               const std::optional<MLOperandDescriptor>& scale,
                                               const std::optional<MLOperandDescriptor>& bias,
                                               MLLayerNormalizationOptions& options) {
  constexpr std::string_view type = "layerNormalization";
  checkOperandLimits(type, label, "input", input);
  checkEpsilon(type, label, options.epsilon);
  if (!options.axes) {
    std::vector<uint32_t> axes;
    for (uint32_t axis = 1; axis < input.shape.size(); ++axis) axes.push_back(axis);
    options.axes = axes;
  }
  checkAxes(type, label, *options.axes, input.shape.size());
  std::vector<uint32_t> expected;
  for (uint32_t axis : *options.axes) expected.push_back(input.shape[axis]);
  checkParameter(type, label, "scale", input, scale, expected);
  checkParameter(type, label, "bias", input, bias, expected);
  return input;
}

namespace {
[[maybe_unused]] const bool registered = [] {
  registerOpLimits("batchNormalization", {{"input", anyRank(types::kFloat)},
                                          {"mean", rank(types::kFloat, 1, 1)},
                                          {"variance", rank(types::kFloat, 1, 1)},
                                          {"scale", rank(types::kFloat, 1, 1)},
                                          {"bias", rank(types::kFloat, 1, 1)},
                                          {"output", anyRank(types::kFloat)}});
  registerOpLimits("instanceNormalization", {{"input", rank(types::kFloat, 4, 4)},
                                             {"scale", rank(types::kFloat, 1, 1)},
                                             {"bias", rank(types::kFloat, 1, 1)},
                                             {"output", rank(types::kFloat, 4, 4)}});
  registerOpLimits("layerNormalization", {{"input", anyRank(types::kFloat)},
                                          {"scale", anyRank(types::kFloat)},
                                          {"bias", anyRank(types::kFloat)},
                                          {"output", anyRank(types::kFloat)}});
  return true;
}();

std::optional<MLOperandDescriptor> descriptorOf(const std::optional<MLOperand>& operand) {
  if (!operand) return std::nullopt;
  return operand->descriptor();
}
}  // namespace
}  // namespace graph

MLOperand MLGraphBuilder::batchNormalization(const MLOperand& input, const MLOperand& mean,
                                             const MLOperand& variance,
                                             const MLBatchNormalizationOptions& options) {
  const std::optional<MLOperand> in(input), m(mean), v(variance);
  auto& state = graph::beginOp(*this, "batchNormalization", options.label,
                               {&in, &m, &v, &options.scale, &options.bias});
  auto output = graph::validateBatchNormalization(
      options.label, input.descriptor(), mean.descriptor(), variance.descriptor(),
      graph::descriptorOf(options.scale), graph::descriptorOf(options.bias), options);
  return state.addOperation("batchNormalization", options.label,
                            {input, mean, variance, options.scale, options.bias}, options, output);
}

MLOperand MLGraphBuilder::instanceNormalization(const MLOperand& input,
                                                const MLInstanceNormalizationOptions& options) {
  const std::optional<MLOperand> in(input);
  auto& state = graph::beginOp(*this, "instanceNormalization", options.label,
                               {&in, &options.scale, &options.bias});
  auto output = graph::validateInstanceNormalization(options.label, input.descriptor(),
                                                     graph::descriptorOf(options.scale),
                                                     graph::descriptorOf(options.bias), options);
  return state.addOperation("instanceNormalization", options.label,
                            {input, options.scale, options.bias}, options, output);
}

MLOperand MLGraphBuilder::layerNormalization(const MLOperand& input,
                                             const MLLayerNormalizationOptions& options) {
  const std::optional<MLOperand> in(input);
  auto& state = graph::beginOp(*this, "layerNormalization", options.label,
                               {&in, &options.scale, &options.bias});
  MLLayerNormalizationOptions resolved = options;
  auto output = graph::validateLayerNormalization(options.label, input.descriptor(),
                                                  graph::descriptorOf(options.scale),
                                                  graph::descriptorOf(options.bias), resolved);
  return state.addOperation("layerNormalization", options.label,
                            {input, options.scale, options.bias}, resolved, output);
}

}  // namespace webnn
