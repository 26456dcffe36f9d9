// Activations: relu, elu, gelu, hardSigmoid, hardSwish, leakyRelu, linear, prelu, sigmoid,
// softmax, softplus, softsign, tanh, clamp. Output: the input's shape and type (prelu: the
// broadcast shape).
#include "graph/ops/activations.h"

#include <array>
#include <cmath>
#include <sstream>
#include <string>

#include "core/element.h"
#include "graph/builder_state.h"
#include "graph/op_limits.h"
#include "graph/ops/registration.h"
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

MLNumber castNumber(const MLNumber& value, MLOperandDataType type) {
  std::array<std::byte, 8> element{};
  storeNumber(type, element.data(), 0, value);
  if (isFloatingPoint(type)) return loadElement(type, element.data(), 0);
  const int64_t integer = loadInteger(type, element.data(), 0);
  if (type == MLOperandDataType::Uint64) return static_cast<uint64_t>(integer);
  return integer;
}

namespace {

// a < b, exactly for integers of either signedness; doubles compare as doubles.
bool numberLess(const MLNumber& a, const MLNumber& b) {
  using Kind = MLNumber::Kind;
  if (a.kind() == Kind::Double || b.kind() == Kind::Double) return a.toDouble() < b.toDouble();
  if (a.kind() == Kind::Int64 && a.toInt64() < 0) {
    return b.kind() == Kind::Uint64 || a.toInt64() < b.toInt64();
  }
  if (b.kind() == Kind::Int64 && b.toInt64() < 0) return false;
  return a.toUint64() < b.toUint64();
}

std::string numberToString(const MLNumber& value) {
  switch (value.kind()) {
    case MLNumber::Kind::Int64:
      return std::to_string(value.toInt64());
    case MLNumber::Kind::Uint64:
      return std::to_string(value.toUint64());
    case MLNumber::Kind::Double:
      break;
  }
  std::ostringstream stream;
  stream << value.toDouble();
  return stream.str();
}

}  // namespace

EluAttributes resolveElu(const OpCall& call, const MLOperandDescriptor& input,
                         const MLEluOptions& options) {
  validateElementwiseUnary(call, input);
  return {castNumber(options.alpha, input.dataType)};
}

HardSigmoidAttributes resolveHardSigmoid(const OpCall& call, const MLOperandDescriptor& input,
                                         const MLHardSigmoidOptions& options) {
  validateElementwiseUnary(call, input);
  return {castNumber(options.alpha, input.dataType), castNumber(options.beta, input.dataType)};
}

LeakyReluAttributes resolveLeakyRelu(const OpCall& call, const MLOperandDescriptor& input,
                                     const MLLeakyReluOptions& options) {
  validateElementwiseUnary(call, input);
  return {castNumber(options.alpha, input.dataType)};
}

LinearAttributes resolveLinear(const OpCall& call, const MLOperandDescriptor& input,
                               const MLLinearOptions& options) {
  validateElementwiseUnary(call, input);
  return {castNumber(options.alpha, input.dataType), castNumber(options.beta, input.dataType)};
}

ClampAttributes resolveClamp(const OpCall& call, const MLOperandDescriptor& input,
                             const MLClampOptions& options) {
  validateElementwiseUnary(call, input);
  ClampAttributes resolved;
  resolved.minValue = castNumber(options.minValue, input.dataType);
  resolved.maxValue = castNumber(options.maxValue, input.dataType);
  // Both bounds now have the kind of the input's type: integers compare exactly.
  if (numberLess(resolved.maxValue, resolved.minValue)) {
    fail(call.name(), call.label,
         "minValue (" + numberToString(options.minValue) + ") is greater than maxValue (" +
             numberToString(options.maxValue) + ") after casting to " +
             std::string(toString(input.dataType)));
  }
  return resolved;
}

MLOperandDescriptor validatePrelu(const OpCall& call, const MLOperandDescriptor& input,
                                  const MLOperandDescriptor& slope) {
  const std::string_view type = call.name(), label = call.label;
  checkOperandLimits(call, "input", input);
  checkOperandLimits(call, "slope", slope);
  checkSameDataType(type, label, "input", input, "slope", slope);
  auto shape = broadcastShapes(slope.shape, input.shape);
  if (!shape) {
    fail(type, label,
         "slope shape " + shapeToString(slope.shape) + " is not broadcastable with input shape " +
             shapeToString(input.shape));
  }
  return {input.dataType, *shape};
}

MLOperandDescriptor validateSoftmax(const OpCall& call, const MLOperandDescriptor& input,
                                    uint32_t axis) {
  validateElementwiseUnary(call, input);
  if (axis >= input.shape.size()) {
    fail(call.name(), call.label,
         "axis " + std::to_string(axis) + " is out of range for input of rank " +
             std::to_string(input.shape.size()));
  }
  return input;
}

void registerActivationLimits(OpLimitsTable& table) {
  auto limits = [](const std::vector<MLOperandDataType>& types) {
    return OperandLimits{{"input", anyRank(types)}, {"output", anyRank(types)}};
  };
  for (OpType type : {OpType::Elu, OpType::Gelu, OpType::HardSigmoid, OpType::HardSwish,
                      OpType::LeakyRelu, OpType::Linear, OpType::Sigmoid, OpType::Softmax,
                      OpType::Softplus, OpType::Softsign, OpType::Tanh}) {
    table.set(type, limits(types::kFloat));
  }
  table.set(OpType::Relu, limits(types::kSignedNumeric));
  table.set(OpType::Clamp, limits(types::kAll));
  table.set(OpType::Prelu, {{"input", anyRank(types::kSignedNumeric)},
                            {"slope", anyRank(types::kSignedNumeric)},
                            {"output", anyRank(types::kSignedNumeric)}});
}

namespace {
MLOperand activation(MLGraphBuilder& builder, OpType type, const MLOperand& input,
                     const MLOperatorOptions& options) {
  OpBuilder op(builder, type, options.label, {&input});
  auto output = validateElementwiseUnary(op.call(), input.descriptor());
  return op.record({input}, {}, output);
}

// An activation whose options are resolved (cast) by `resolve` into its attributes.
template <class Options, class Resolve>
MLOperand activationWithOptions(MLGraphBuilder& builder, OpType type, const MLOperand& input,
                                const Options& options, Resolve resolve) {
  OpBuilder op(builder, type, options.label, {&input});
  auto attributes = resolve(op.call(), input.descriptor(), options);
  return op.record({input}, attributes, input.descriptor());
}
}  // namespace
}  // namespace graph

MLOperand MLGraphBuilder::relu(const MLOperand& input, const MLOperatorOptions& options) {
  return graph::activation(*this, graph::OpType::Relu, input, options);
}
MLOperand MLGraphBuilder::gelu(const MLOperand& input, const MLOperatorOptions& options) {
  return graph::activation(*this, graph::OpType::Gelu, input, options);
}
MLOperand MLGraphBuilder::hardSwish(const MLOperand& input, const MLOperatorOptions& options) {
  return graph::activation(*this, graph::OpType::HardSwish, input, options);
}
MLOperand MLGraphBuilder::sigmoid(const MLOperand& input, const MLOperatorOptions& options) {
  return graph::activation(*this, graph::OpType::Sigmoid, input, options);
}
MLOperand MLGraphBuilder::softplus(const MLOperand& input, const MLOperatorOptions& options) {
  return graph::activation(*this, graph::OpType::Softplus, input, options);
}
MLOperand MLGraphBuilder::softsign(const MLOperand& input, const MLOperatorOptions& options) {
  return graph::activation(*this, graph::OpType::Softsign, input, options);
}
MLOperand MLGraphBuilder::tanh(const MLOperand& input, const MLOperatorOptions& options) {
  return graph::activation(*this, graph::OpType::Tanh, input, options);
}

MLOperand MLGraphBuilder::elu(const MLOperand& input, const MLEluOptions& options) {
  return graph::activationWithOptions(*this, graph::OpType::Elu, input, options, graph::resolveElu);
}
MLOperand MLGraphBuilder::hardSigmoid(const MLOperand& input, const MLHardSigmoidOptions& options) {
  return graph::activationWithOptions(*this, graph::OpType::HardSigmoid, input, options,
                                      graph::resolveHardSigmoid);
}
MLOperand MLGraphBuilder::leakyRelu(const MLOperand& input, const MLLeakyReluOptions& options) {
  return graph::activationWithOptions(*this, graph::OpType::LeakyRelu, input, options,
                                      graph::resolveLeakyRelu);
}
MLOperand MLGraphBuilder::linear(const MLOperand& input, const MLLinearOptions& options) {
  return graph::activationWithOptions(*this, graph::OpType::Linear, input, options,
                                      graph::resolveLinear);
}
MLOperand MLGraphBuilder::clamp(const MLOperand& input, const MLClampOptions& options) {
  return graph::activationWithOptions(*this, graph::OpType::Clamp, input, options,
                                      graph::resolveClamp);
}

MLOperand MLGraphBuilder::prelu(const MLOperand& input, const MLOperand& slope,
                                const MLOperatorOptions& options) {
  graph::OpBuilder op(*this, graph::OpType::Prelu, options.label, {&input, &slope});
  auto output = graph::validatePrelu(op.call(), input.descriptor(), slope.descriptor());
  return op.record({input, slope}, {}, output);
}

MLOperand MLGraphBuilder::softmax(const MLOperand& input, uint32_t axis,
                                  const MLOperatorOptions& options) {
  graph::OpBuilder op(*this, graph::OpType::Softmax, options.label, {&input});
  auto output = graph::validateSoftmax(op.call(), input.descriptor(), axis);
  return op.record({input}, graph::SoftmaxAttributes{axis}, output);
}

}  // namespace webnn
