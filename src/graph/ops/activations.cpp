// Activations: relu, elu, gelu, hardSigmoid, hardSwish, leakyRelu, linear, prelu, sigmoid,
// softmax, softplus, softsign, tanh, clamp. Output: the input's shape and type (prelu: the
// broadcast shape).
#include "graph/ops/activations.h"

#include <array>
#include <cmath>
#include <sstream>

#include "core/element.h"
#include "graph/builder_state.h"
#include "graph/op_limits.h"
#include "graph/ops/validators.h"
#include "graph/validation.h"
#include "webnn/graph_builder.h"

namespace webnn {
namespace graph {

double castNumber(double value, MLOperandDataType type) {
  std::array<std::byte, 8> element{};
  storeElement(type, element.data(), 0, value);
  return loadElement(type, element.data(), 0);
}

MLEluOptions resolveElu(std::string_view label, const MLOperandDescriptor& input,
                        const MLEluOptions& options) {
  validateElementwiseUnary("elu", label, input);
  MLEluOptions resolved = options;
  resolved.alpha = castNumber(options.alpha, input.dataType);
  return resolved;
}

MLHardSigmoidOptions resolveHardSigmoid(std::string_view label, const MLOperandDescriptor& input,
                                        const MLHardSigmoidOptions& options) {
  validateElementwiseUnary("hardSigmoid", label, input);
  MLHardSigmoidOptions resolved = options;
  resolved.alpha = castNumber(options.alpha, input.dataType);
  resolved.beta = castNumber(options.beta, input.dataType);
  return resolved;
}

MLLeakyReluOptions resolveLeakyRelu(std::string_view label, const MLOperandDescriptor& input,
                                    const MLLeakyReluOptions& options) {
  validateElementwiseUnary("leakyRelu", label, input);
  MLLeakyReluOptions resolved = options;
  resolved.alpha = castNumber(options.alpha, input.dataType);
  return resolved;
}

MLLinearOptions resolveLinear(std::string_view label, const MLOperandDescriptor& input,
                              const MLLinearOptions& options) {
  validateElementwiseUnary("linear", label, input);
  MLLinearOptions resolved = options;
  resolved.alpha = castNumber(options.alpha, input.dataType);
  resolved.beta = castNumber(options.beta, input.dataType);
  return resolved;
}

MLClampOptions resolveClamp(std::string_view label, const MLOperandDescriptor& input,
                            const MLClampOptions& options) {
  validateElementwiseUnary("clamp", label, input);
  MLClampOptions resolved = options;
  resolved.minValue = castNumber(options.minValue, input.dataType);
  resolved.maxValue = castNumber(options.maxValue, input.dataType);
  // Cast values are integers (or saturated bounds) for integer types, so comparing them as doubles
  // is exact.
  if (resolved.minValue > resolved.maxValue) {
    std::ostringstream message;
    message << "minValue (" << options.minValue << ") is greater than maxValue ("
            << options.maxValue << ") after casting to " << toString(input.dataType);
    fail("clamp", label, message.str());
  }
  return resolved;
}

MLOperandDescriptor validatePrelu(std::string_view label, const MLOperandDescriptor& input,
                                  const MLOperandDescriptor& slope) {
  constexpr std::string_view type = "prelu";
  checkOperandLimits(type, label, "input", input);
  checkOperandLimits(type, label, "slope", slope);
  checkSameDataType(type, label, "input", input, "slope", slope);
  auto shape = broadcastShapes(slope.shape, input.shape);
  if (!shape) {
    fail(type, label,
         "slope shape " + shapeToString(slope.shape) + " is not broadcastable with input shape " +
             shapeToString(input.shape));
  }
  return {input.dataType, *shape};
}

MLOperandDescriptor validateSoftmax(std::string_view label, const MLOperandDescriptor& input,
                                    uint32_t axis) {
  validateElementwiseUnary("softmax", label, input);
  if (axis >= input.shape.size()) {
    fail("softmax", label,
         "axis " + std::to_string(axis) + " is out of range for input of rank " +
             std::to_string(input.shape.size()));
  }
  return input;
}

namespace {
[[maybe_unused]] const bool registered = [] {
  auto limits = [](const std::vector<MLOperandDataType>& types) {
    return OperandLimits{{"input", anyRank(types)}, {"output", anyRank(types)}};
  };
  for (const char* type : {"elu", "gelu", "hardSigmoid", "hardSwish", "leakyRelu", "linear",
                           "sigmoid", "softmax", "softplus", "softsign", "tanh"}) {
    registerOpLimits(type, limits(types::kFloat));
  }
  registerOpLimits("relu", limits(types::kSignedNumeric));
  registerOpLimits("clamp", limits(types::kAll));
  registerOpLimits("prelu", {{"input", anyRank(types::kSignedNumeric)},
                             {"slope", anyRank(types::kSignedNumeric)},
                             {"output", anyRank(types::kSignedNumeric)}});
  return true;
}();

MLOperand activation(MLGraphBuilder& builder, std::string_view type, const MLOperand& input,
                     const MLOperatorOptions& options) {
  auto& state = beginOp(builder, type, options.label, {&input});
  auto output = validateElementwiseUnary(type, options.label, input.descriptor());
  return state.addOperation(std::string(type), options.label, {input}, {}, output);
}

// An activation whose options are resolved (cast) by `resolve` and recorded as its attributes.
template <class Options, class Resolve>
MLOperand activationWithOptions(MLGraphBuilder& builder, std::string_view type,
                                const MLOperand& input, const Options& options, Resolve resolve) {
  auto& state = beginOp(builder, type, options.label, {&input});
  Options resolved = resolve(options.label, input.descriptor(), options);
  return state.addOperation(std::string(type), options.label, {input}, resolved,
                            input.descriptor());
}
}  // namespace
}  // namespace graph

MLOperand MLGraphBuilder::relu(const MLOperand& input, const MLOperatorOptions& options) {
  return graph::activation(*this, "relu", input, options);
}
MLOperand MLGraphBuilder::gelu(const MLOperand& input, const MLOperatorOptions& options) {
  return graph::activation(*this, "gelu", input, options);
}
MLOperand MLGraphBuilder::hardSwish(const MLOperand& input, const MLOperatorOptions& options) {
  return graph::activation(*this, "hardSwish", input, options);
}
MLOperand MLGraphBuilder::sigmoid(const MLOperand& input, const MLOperatorOptions& options) {
  return graph::activation(*this, "sigmoid", input, options);
}
MLOperand MLGraphBuilder::softplus(const MLOperand& input, const MLOperatorOptions& options) {
  return graph::activation(*this, "softplus", input, options);
}
MLOperand MLGraphBuilder::softsign(const MLOperand& input, const MLOperatorOptions& options) {
  return graph::activation(*this, "softsign", input, options);
}
MLOperand MLGraphBuilder::tanh(const MLOperand& input, const MLOperatorOptions& options) {
  return graph::activation(*this, "tanh", input, options);
}

MLOperand MLGraphBuilder::elu(const MLOperand& input, const MLEluOptions& options) {
  return graph::activationWithOptions(*this, "elu", input, options, graph::resolveElu);
}
MLOperand MLGraphBuilder::hardSigmoid(const MLOperand& input, const MLHardSigmoidOptions& options) {
  return graph::activationWithOptions(*this, "hardSigmoid", input, options,
                                      graph::resolveHardSigmoid);
}
MLOperand MLGraphBuilder::leakyRelu(const MLOperand& input, const MLLeakyReluOptions& options) {
  return graph::activationWithOptions(*this, "leakyRelu", input, options, graph::resolveLeakyRelu);
}
MLOperand MLGraphBuilder::linear(const MLOperand& input, const MLLinearOptions& options) {
  return graph::activationWithOptions(*this, "linear", input, options, graph::resolveLinear);
}
MLOperand MLGraphBuilder::clamp(const MLOperand& input, const MLClampOptions& options) {
  return graph::activationWithOptions(*this, "clamp", input, options, graph::resolveClamp);
}

MLOperand MLGraphBuilder::prelu(const MLOperand& input, const MLOperand& slope,
                                const MLOperatorOptions& options) {
  auto& state = graph::beginOp(*this, "prelu", options.label, {&input, &slope});
  auto output = graph::validatePrelu(options.label, input.descriptor(), slope.descriptor());
  return state.addOperation("prelu", options.label, {input, slope}, {}, output);
}

MLOperand MLGraphBuilder::softmax(const MLOperand& input, uint32_t axis,
                                  const MLOperatorOptions& options) {
  auto& state = graph::beginOp(*this, "softmax", options.label, {&input});
  auto output = graph::validateSoftmax(options.label, input.descriptor(), axis);
  return state.addOperation("softmax", options.label, {input}, graph::SoftmaxAttributes{axis},
                            output);
}

}  // namespace webnn
