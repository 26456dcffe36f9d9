// batchNormalization (given mean and variance along one axis), instanceNormalization (per
// sample and channel over the spatial dimensions), layerNormalization (over a set of axes).
#include "graph/ops/normalization.h"

#include <cmath>

#include "graph/builder_state.h"
#include "graph/op_limits.h"
#include "graph/ops/conv2d.h"
#include "graph/ops/registration.h"
#include "graph/validation.h"
#include "webnn/graph_builder.h"

namespace webnn {
namespace graph {
namespace {

// Checks an optional per-channel operand: limits, data type and exact shape.
void checkParameter(const OpCall& call, std::string_view name, const MLOperandDescriptor& input,
                    const std::optional<MLOperandDescriptor>& parameter,
                    const std::vector<uint32_t>& expectedShape) {
  if (!parameter) return;
  const std::string_view type = call.name(), label = call.label;
  checkOperandLimits(call, name, *parameter);
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

MLOperandDescriptor validateBatchNormalization(const OpCall& call, const MLOperandDescriptor& input,
                                               const MLOperandDescriptor& mean,
                                               const MLOperandDescriptor& variance,
                                               const std::optional<MLOperandDescriptor>& scale,
                                               const std::optional<MLOperandDescriptor>& bias,
                                               const MLBatchNormalizationOptions& options,
                                               BatchNormalizationAttributes& attributes) {
  const std::string_view type = call.name(), label = call.label;
  checkOperandLimits(call, "input", input);
  checkEpsilon(type, label, options.epsilon);
  if (options.axis >= input.shape.size()) {
    fail(type, label,
         "axis " + std::to_string(options.axis) + " is out of range for input shape " +
             shapeToString(input.shape));
  }
  const std::vector<uint32_t> channels{input.shape[options.axis]};
  checkParameter(call, "mean", input, mean, channels);
  checkParameter(call, "variance", input, variance, channels);
  checkParameter(call, "scale", input, scale, channels);
  checkParameter(call, "bias", input, bias, channels);
  attributes.axis = options.axis;
  attributes.epsilon = options.epsilon;
  return input;
}

MLOperandDescriptor validateInstanceNormalization(const OpCall& call,
                                                  const MLOperandDescriptor& input,
                                                  const std::optional<MLOperandDescriptor>& scale,
                                                  const std::optional<MLOperandDescriptor>& bias,
                                                  const MLInstanceNormalizationOptions& options,
                                                  InstanceNormalizationAttributes& attributes) {
  const std::string_view type = call.name(), label = call.label;
  checkOperandLimits(call, "input", input);
  checkEpsilon(type, label, options.epsilon);
  const std::vector<uint32_t> channels{spatialShapeOf(input.shape, options.layout).channels};
  checkParameter(call, "scale", input, scale, channels);
  checkParameter(call, "bias", input, bias, channels);
  attributes.epsilon = options.epsilon;
  attributes.layout = options.layout;
  return input;
}

MLOperandDescriptor validateLayerNormalization(const OpCall& call, const MLOperandDescriptor& input,
                                               const std::optional<MLOperandDescriptor>& scale,
                                               const std::optional<MLOperandDescriptor>& bias,
                                               const MLLayerNormalizationOptions& options,
                                               LayerNormalizationAttributes& attributes) {
  const std::string_view type = call.name(), label = call.label;
  checkOperandLimits(call, "input", input);
  checkEpsilon(type, label, options.epsilon);
  std::vector<uint32_t> axes;
  if (options.axes) {
    axes = *options.axes;
  } else {
    for (uint32_t axis = 1; axis < input.shape.size(); ++axis) axes.push_back(axis);
  }
  checkAxes(type, label, axes, input.shape.size());
  std::vector<uint32_t> expected;
  for (uint32_t axis : axes) expected.push_back(input.shape[axis]);
  checkParameter(call, "scale", input, scale, expected);
  checkParameter(call, "bias", input, bias, expected);
  attributes.axes = std::move(axes);
  attributes.epsilon = options.epsilon;
  return input;
}

void registerNormalizationLimits(OpLimitsTable& table) {
  table.set(OpType::BatchNormalization, {{"input", anyRank(types::kFloat)},
                                         {"mean", rank(types::kFloat, 1, 1)},
                                         {"variance", rank(types::kFloat, 1, 1)},
                                         {"scale", rank(types::kFloat, 1, 1)},
                                         {"bias", rank(types::kFloat, 1, 1)},
                                         {"output", anyRank(types::kFloat)}});
  table.set(OpType::InstanceNormalization, {{"input", rank(types::kFloat, 4, 4)},
                                            {"scale", rank(types::kFloat, 1, 1)},
                                            {"bias", rank(types::kFloat, 1, 1)},
                                            {"output", rank(types::kFloat, 4, 4)}});
  table.set(OpType::LayerNormalization, {{"input", anyRank(types::kFloat)},
                                         {"scale", anyRank(types::kFloat)},
                                         {"bias", anyRank(types::kFloat)},
                                         {"output", anyRank(types::kFloat)}});
}

namespace {
std::optional<MLOperandDescriptor> descriptorOf(const std::optional<MLOperand>& operand) {
  if (!operand) return std::nullopt;
  return operand->descriptor();
}
}  // namespace
}  // namespace graph

MLOperand MLGraphBuilder::batchNormalization(const MLOperand& input, const MLOperand& mean,
                                             const MLOperand& variance,
                                             const MLBatchNormalizationOptions& options) {
  graph::OpBuilder op(*this, graph::OpType::BatchNormalization, options.label,
                      {&input, &mean, &variance}, {&options.scale, &options.bias});
  graph::BatchNormalizationAttributes attributes;
  auto output = graph::validateBatchNormalization(
      op.call(), input.descriptor(), mean.descriptor(), variance.descriptor(),
      graph::descriptorOf(options.scale), graph::descriptorOf(options.bias), options, attributes);
  attributes.scale = graph::operandId(options.scale);
  attributes.bias = graph::operandId(options.bias);
  return op.record({input, mean, variance, options.scale, options.bias}, attributes, output);
}

MLOperand MLGraphBuilder::instanceNormalization(const MLOperand& input,
                                                const MLInstanceNormalizationOptions& options) {
  graph::OpBuilder op(*this, graph::OpType::InstanceNormalization, options.label, {&input},
                      {&options.scale, &options.bias});
  graph::InstanceNormalizationAttributes attributes;
  auto output = graph::validateInstanceNormalization(
      op.call(), input.descriptor(), graph::descriptorOf(options.scale),
      graph::descriptorOf(options.bias), options, attributes);
  attributes.scale = graph::operandId(options.scale);
  attributes.bias = graph::operandId(options.bias);
  return op.record({input, options.scale, options.bias}, attributes, output);
}

MLOperand MLGraphBuilder::layerNormalization(const MLOperand& input,
                                             const MLLayerNormalizationOptions& options) {
  graph::OpBuilder op(*this, graph::OpType::LayerNormalization, options.label, {&input},
                      {&options.scale, &options.bias});
  graph::LayerNormalizationAttributes attributes;
  auto output = graph::validateLayerNormalization(
      op.call(), input.descriptor(), graph::descriptorOf(options.scale),
      graph::descriptorOf(options.bias), options, attributes);
  attributes.scale = graph::operandId(options.scale);
  attributes.bias = graph::operandId(options.bias);
  return op.record({input, options.scale, options.bias}, attributes, output);
}

}  // namespace webnn
