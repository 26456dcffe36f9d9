// gru, gruCell, lstm, lstmCell: validation, shape inference and the builder methods.
#include "graph/ops/recurrent.h"

#include <limits>
#include <string>

#include "graph/builder_state.h"
#include "graph/op_limits.h"
#include "graph/ops/registration.h"
#include "graph/validation.h"
#include "webnn/graph_builder.h"

namespace webnn {
namespace graph {

GruGates gruGates(MLGruWeightLayout layout) {
  return layout == MLGruWeightLayout::Zrn ? GruGates{0, 1, 2} : GruGates{1, 0, 2};
}

LstmGates lstmGates(MLLstmWeightLayout layout) {
  return layout == MLLstmWeightLayout::Iofg ? LstmGates{0, 1, 2, 3} : LstmGates{0, 3, 1, 2};
}

namespace {

using Activations = std::vector<MLRecurrentNetworkActivation>;

std::string dimsToString(const std::vector<uint64_t>& dims) {
  std::string text = "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i) text += ", ";
    text += std::to_string(dims[i]);
  }
  return text + "]";
}

// The checks every operand of a recurrent op goes through, with the op's name and label.
class Checker {
 public:
  Checker(const OpCall& call, const MLOperandDescriptor& input)
      : call_(call), type_(call.name()), label_(call.label), input_(input) {}

  [[noreturn]] void fail(const std::string& message) const { graph::fail(type_, label_, message); }

  // Data type and rank per the op's limits table, and the same data type as input.
  void limits(std::string_view name, const MLOperandDescriptor& descriptor) const {
    checkOperandLimits(call_, name, descriptor);
    if (&descriptor != &input_) checkSameDataType(type_, label_, "input", input_, name, descriptor);
  }

  // The shape must equal `expected`; `formula` names the dimensions as the spec does.
  void shape(std::string_view name, const MLOperandDescriptor& descriptor,
             const std::vector<uint64_t>& expected, std::string_view formula) const {
    bool equal = descriptor.shape.size() == expected.size();
    for (size_t i = 0; equal && i < expected.size(); ++i) {
      equal = descriptor.shape[i] == expected[i];
    }
    if (!equal) {
      fail(std::string(name) + " has shape " + shapeToString(descriptor.shape) + ", expected " +
           std::string(formula) + " = " + dimsToString(expected));
    }
  }

  // An optional operand: limits, then shape.
  void optional(std::string_view name, const std::optional<MLOperand>& operand,
                const std::vector<uint64_t>& expected, std::string_view formula) const {
    if (!operand) return;
    limits(name, operand->descriptor());
    shape(name, operand->descriptor(), expected, formula);
  }

  // hiddenSize * gateCount * 2 must be a valid dimension (spec: some platforms concatenate the
  // two biases), which also makes hiddenSize > 0.
  void hiddenSize(uint32_t hiddenSize, uint32_t factor) const {
    const uint64_t product = uint64_t{hiddenSize} * factor;
    if (hiddenSize == 0) fail("hiddenSize must be greater than 0");
    if (product > std::numeric_limits<uint32_t>::max()) {
      fail("hiddenSize * " + std::to_string(factor) + " (" + std::to_string(product) +
           ") is not a valid dimension");
    }
  }

  void steps(uint32_t steps, const MLOperandDescriptor& input) const {
    if (steps == 0) fail("steps must be greater than 0");
    if (input.shape[0] != steps) {
      fail("input's shape[0] (" + std::to_string(input.shape[0]) + ") must equal steps (" +
           std::to_string(steps) + ")");
    }
  }

  Activations activations(const std::optional<Activations>& given, Activations defaults) const {
    if (!given) return defaults;
    if (given->size() != defaults.size()) {
      fail("activations must hold " + std::to_string(defaults.size()) + " functions, got " +
           std::to_string(given->size()));
    }
    return *given;
  }

 private:
  const OpCall& call_;
  std::string_view type_;
  std::string_view label_;
  const MLOperandDescriptor& input_;
};

constexpr auto kSigmoid = MLRecurrentNetworkActivation::Sigmoid;
constexpr auto kTanh = MLRecurrentNetworkActivation::Tanh;

uint32_t directionCount(MLRecurrentNetworkDirection direction) {
  return direction == MLRecurrentNetworkDirection::Both ? 2 : 1;
}

}  // namespace

std::vector<MLOperandDescriptor> validateGru(const OpCall& call, const MLOperandDescriptor& input,
                                             const MLOperandDescriptor& weight,
                                             const MLOperandDescriptor& recurrentWeight,
                                             uint32_t steps, uint32_t hiddenSize,
                                             const MLGruOptions& options,
                                             GruAttributes& attributes) {
  const Checker check(call, input);
  attributes.steps = steps;
  attributes.hiddenSize = hiddenSize;
  const uint64_t hidden = attributes.hiddenSize;
  check.limits("input", input);
  check.limits("weight", weight);
  check.limits("recurrentWeight", recurrentWeight);
  check.steps(attributes.steps, input);
  check.hiddenSize(attributes.hiddenSize, 6);
  const uint64_t directions = directionCount(options.direction);
  const uint64_t batchSize = input.shape[1];
  const uint64_t inputSize = input.shape[2];
  check.shape("weight", weight, {directions, 3 * hidden, inputSize},
              "[numDirections, 3 * hiddenSize, inputSize]");
  check.shape("recurrentWeight", recurrentWeight, {directions, 3 * hidden, hidden},
              "[numDirections, 3 * hiddenSize, hiddenSize]");
  check.optional("bias", options.bias, {directions, 3 * hidden}, "[numDirections, 3 * hiddenSize]");
  check.optional("recurrentBias", options.recurrentBias, {directions, 3 * hidden},
                 "[numDirections, 3 * hiddenSize]");
  check.optional("initialHiddenState", options.initialHiddenState, {directions, batchSize, hidden},
                 "[numDirections, batchSize, hiddenSize]");
  attributes.activations = check.activations(options.activations, {kSigmoid, kTanh});
  attributes.resetAfter = options.resetAfter;
  attributes.returnSequence = options.returnSequence;
  attributes.direction = options.direction;
  attributes.layout = options.layout;

  const auto d = static_cast<uint32_t>(directions);
  const auto b = static_cast<uint32_t>(batchSize);
  std::vector<MLOperandDescriptor> outputs = {{input.dataType, {d, b, attributes.hiddenSize}}};
  if (options.returnSequence) {
    outputs.push_back({input.dataType, {attributes.steps, d, b, attributes.hiddenSize}});
  }
  return outputs;
}

std::vector<MLOperandDescriptor> validateGruCell(
    const OpCall& call, const MLOperandDescriptor& input, const MLOperandDescriptor& weight,
    const MLOperandDescriptor& recurrentWeight, const MLOperandDescriptor& hiddenState,
    uint32_t hiddenSize, const MLGruCellOptions& options, GruCellAttributes& attributes) {
  const Checker check(call, input);
  attributes.hiddenSize = hiddenSize;
  const uint64_t hidden = attributes.hiddenSize;
  check.limits("input", input);
  check.limits("weight", weight);
  check.limits("recurrentWeight", recurrentWeight);
  check.limits("hiddenState", hiddenState);
  check.hiddenSize(attributes.hiddenSize, 6);
  const uint64_t batchSize = input.shape[0];
  const uint64_t inputSize = input.shape[1];
  check.shape("weight", weight, {3 * hidden, inputSize}, "[3 * hiddenSize, inputSize]");
  check.shape("recurrentWeight", recurrentWeight, {3 * hidden, hidden},
              "[3 * hiddenSize, hiddenSize]");
  check.shape("hiddenState", hiddenState, {batchSize, hidden}, "[batchSize, hiddenSize]");
  check.optional("bias", options.bias, {3 * hidden}, "[3 * hiddenSize]");
  check.optional("recurrentBias", options.recurrentBias, {3 * hidden}, "[3 * hiddenSize]");
  attributes.activations = check.activations(options.activations, {kSigmoid, kTanh});
  attributes.resetAfter = options.resetAfter;
  attributes.layout = options.layout;
  return {{input.dataType, {input.shape[0], attributes.hiddenSize}}};
}

std::vector<MLOperandDescriptor> validateLstm(const OpCall& call, const MLOperandDescriptor& input,
                                              const MLOperandDescriptor& weight,
                                              const MLOperandDescriptor& recurrentWeight,
                                              uint32_t steps, uint32_t hiddenSize,
                                              const MLLstmOptions& options,
                                              LstmAttributes& attributes) {
  const Checker check(call, input);
  attributes.steps = steps;
  attributes.hiddenSize = hiddenSize;
  const uint64_t hidden = attributes.hiddenSize;
  check.limits("input", input);
  check.limits("weight", weight);
  check.limits("recurrentWeight", recurrentWeight);
  check.steps(attributes.steps, input);
  check.hiddenSize(attributes.hiddenSize, 8);
  const uint64_t directions = directionCount(options.direction);
  const uint64_t batchSize = input.shape[1];
  const uint64_t inputSize = input.shape[2];
  check.shape("weight", weight, {directions, 4 * hidden, inputSize},
              "[numDirections, 4 * hiddenSize, inputSize]");
  check.shape("recurrentWeight", recurrentWeight, {directions, 4 * hidden, hidden},
              "[numDirections, 4 * hiddenSize, hiddenSize]");
  check.optional("bias", options.bias, {directions, 4 * hidden}, "[numDirections, 4 * hiddenSize]");
  check.optional("recurrentBias", options.recurrentBias, {directions, 4 * hidden},
                 "[numDirections, 4 * hiddenSize]");
  check.optional("peepholeWeight", options.peepholeWeight, {directions, 3 * hidden},
                 "[numDirections, 3 * hiddenSize]");
  check.optional("initialHiddenState", options.initialHiddenState, {directions, batchSize, hidden},
                 "[numDirections, batchSize, hiddenSize]");
  check.optional("initialCellState", options.initialCellState, {directions, batchSize, hidden},
                 "[numDirections, batchSize, hiddenSize]");
  attributes.activations = check.activations(options.activations, {kSigmoid, kTanh, kTanh});
  attributes.returnSequence = options.returnSequence;
  attributes.direction = options.direction;
  attributes.layout = options.layout;

  const auto d = static_cast<uint32_t>(directions);
  const auto b = static_cast<uint32_t>(batchSize);
  const MLOperandDescriptor state = {input.dataType, {d, b, attributes.hiddenSize}};
  std::vector<MLOperandDescriptor> outputs = {state, state};
  if (options.returnSequence) {
    outputs.push_back({input.dataType, {attributes.steps, d, b, attributes.hiddenSize}});
  }
  return outputs;
}

std::vector<MLOperandDescriptor> validateLstmCell(
    const OpCall& call, const MLOperandDescriptor& input, const MLOperandDescriptor& weight,
    const MLOperandDescriptor& recurrentWeight, const MLOperandDescriptor& hiddenState,
    const MLOperandDescriptor& cellState, uint32_t hiddenSize, const MLLstmCellOptions& options,
    LstmCellAttributes& attributes) {
  const Checker check(call, input);
  attributes.hiddenSize = hiddenSize;
  const uint64_t hidden = attributes.hiddenSize;
  check.limits("input", input);
  check.limits("weight", weight);
  check.limits("recurrentWeight", recurrentWeight);
  check.limits("hiddenState", hiddenState);
  check.limits("cellState", cellState);
  check.hiddenSize(attributes.hiddenSize, 8);
  const uint64_t batchSize = input.shape[0];
  const uint64_t inputSize = input.shape[1];
  check.shape("weight", weight, {4 * hidden, inputSize}, "[4 * hiddenSize, inputSize]");
  check.shape("recurrentWeight", recurrentWeight, {4 * hidden, hidden},
              "[4 * hiddenSize, hiddenSize]");
  check.shape("hiddenState", hiddenState, {batchSize, hidden}, "[batchSize, hiddenSize]");
  check.shape("cellState", cellState, {batchSize, hidden}, "[batchSize, hiddenSize]");
  check.optional("bias", options.bias, {4 * hidden}, "[4 * hiddenSize]");
  check.optional("recurrentBias", options.recurrentBias, {4 * hidden}, "[4 * hiddenSize]");
  check.optional("peepholeWeight", options.peepholeWeight, {3 * hidden}, "[3 * hiddenSize]");
  attributes.activations = check.activations(options.activations, {kSigmoid, kTanh, kTanh});
  attributes.layout = options.layout;
  const MLOperandDescriptor state = {input.dataType, {input.shape[0], attributes.hiddenSize}};
  return {state, state};
}

void registerRecurrentLimits(OpLimitsTable& table) {
  const auto& f = types::kFloat;
  table.set(OpType::Gru, {{"input", rank(f, 3, 3)},
                          {"weight", rank(f, 3, 3)},
                          {"recurrentWeight", rank(f, 3, 3)},
                          {"bias", rank(f, 2, 2)},
                          {"recurrentBias", rank(f, 2, 2)},
                          {"initialHiddenState", rank(f, 3, 3)},
                          {"outputs", rank(f, 3, 4)}});
  table.set(OpType::GruCell, {{"input", rank(f, 2, 2)},
                              {"weight", rank(f, 2, 2)},
                              {"recurrentWeight", rank(f, 2, 2)},
                              {"hiddenState", rank(f, 2, 2)},
                              {"bias", rank(f, 1, 1)},
                              {"recurrentBias", rank(f, 1, 1)},
                              {"output", rank(f, 2, 2)}});
  table.set(OpType::Lstm, {{"input", rank(f, 3, 3)},
                           {"weight", rank(f, 3, 3)},
                           {"recurrentWeight", rank(f, 3, 3)},
                           {"bias", rank(f, 2, 2)},
                           {"recurrentBias", rank(f, 2, 2)},
                           {"peepholeWeight", rank(f, 2, 2)},
                           {"initialHiddenState", rank(f, 3, 3)},
                           {"initialCellState", rank(f, 3, 3)},
                           {"outputs", rank(f, 3, 4)}});
  table.set(OpType::LstmCell, {{"input", rank(f, 2, 2)},
                               {"weight", rank(f, 2, 2)},
                               {"recurrentWeight", rank(f, 2, 2)},
                               {"hiddenState", rank(f, 2, 2)},
                               {"cellState", rank(f, 2, 2)},
                               {"bias", rank(f, 1, 1)},
                               {"recurrentBias", rank(f, 1, 1)},
                               {"peepholeWeight", rank(f, 1, 1)},
                               {"outputs", rank(f, 2, 2)}});
}

}  // namespace graph

std::vector<MLOperand> MLGraphBuilder::gru(const MLOperand& input, const MLOperand& weight,
                                           const MLOperand& recurrentWeight, uint32_t steps,
                                           uint32_t hiddenSize, const MLGruOptions& options) {
  graph::OpBuilder op(*this, graph::OpType::Gru, options.label, {&input, &weight, &recurrentWeight},
                      {&options.bias, &options.recurrentBias, &options.initialHiddenState});
  graph::GruAttributes attributes;
  auto outputs =
      graph::validateGru(op.call(), input.descriptor(), weight.descriptor(),
                         recurrentWeight.descriptor(), steps, hiddenSize, options, attributes);
  attributes.bias = graph::operandId(options.bias);
  attributes.recurrentBias = graph::operandId(options.recurrentBias);
  attributes.initialHiddenState = graph::operandId(options.initialHiddenState);
  return op.record({input, weight, recurrentWeight, options.bias, options.recurrentBias,
                    options.initialHiddenState},
                   std::move(attributes), outputs);
}

MLOperand MLGraphBuilder::gruCell(const MLOperand& input, const MLOperand& weight,
                                  const MLOperand& recurrentWeight, const MLOperand& hiddenState,
                                  uint32_t hiddenSize, const MLGruCellOptions& options) {
  graph::OpBuilder op(*this, graph::OpType::GruCell, options.label,
                      {&input, &weight, &recurrentWeight, &hiddenState},
                      {&options.bias, &options.recurrentBias});
  graph::GruCellAttributes attributes;
  auto outputs = graph::validateGruCell(op.call(), input.descriptor(), weight.descriptor(),
                                        recurrentWeight.descriptor(), hiddenState.descriptor(),
                                        hiddenSize, options, attributes);
  attributes.bias = graph::operandId(options.bias);
  attributes.recurrentBias = graph::operandId(options.recurrentBias);
  return op
      .record({input, weight, recurrentWeight, hiddenState, options.bias, options.recurrentBias},
              std::move(attributes), outputs)
      .front();
}

std::vector<MLOperand> MLGraphBuilder::lstm(const MLOperand& input, const MLOperand& weight,
                                            const MLOperand& recurrentWeight, uint32_t steps,
                                            uint32_t hiddenSize, const MLLstmOptions& options) {
  graph::OpBuilder op(*this, graph::OpType::Lstm, options.label,
                      {&input, &weight, &recurrentWeight},
                      {&options.bias, &options.recurrentBias, &options.peepholeWeight,
                       &options.initialHiddenState, &options.initialCellState});
  graph::LstmAttributes attributes;
  auto outputs =
      graph::validateLstm(op.call(), input.descriptor(), weight.descriptor(),
                          recurrentWeight.descriptor(), steps, hiddenSize, options, attributes);
  attributes.bias = graph::operandId(options.bias);
  attributes.recurrentBias = graph::operandId(options.recurrentBias);
  attributes.peepholeWeight = graph::operandId(options.peepholeWeight);
  attributes.initialHiddenState = graph::operandId(options.initialHiddenState);
  attributes.initialCellState = graph::operandId(options.initialCellState);
  return op.record({input, weight, recurrentWeight, options.bias, options.recurrentBias,
                    options.peepholeWeight, options.initialHiddenState, options.initialCellState},
                   std::move(attributes), outputs);
}

std::vector<MLOperand> MLGraphBuilder::lstmCell(const MLOperand& input, const MLOperand& weight,
                                                const MLOperand& recurrentWeight,
                                                const MLOperand& hiddenState,
                                                const MLOperand& cellState, uint32_t hiddenSize,
                                                const MLLstmCellOptions& options) {
  graph::OpBuilder op(*this, graph::OpType::LstmCell, options.label,
                      {&input, &weight, &recurrentWeight, &hiddenState, &cellState},
                      {&options.bias, &options.recurrentBias, &options.peepholeWeight});
  graph::LstmCellAttributes attributes;
  auto outputs = graph::validateLstmCell(op.call(), input.descriptor(), weight.descriptor(),
                                         recurrentWeight.descriptor(), hiddenState.descriptor(),
                                         cellState.descriptor(), hiddenSize, options, attributes);
  attributes.bias = graph::operandId(options.bias);
  attributes.recurrentBias = graph::operandId(options.recurrentBias);
  attributes.peepholeWeight = graph::operandId(options.peepholeWeight);
  return op.record({input, weight, recurrentWeight, hiddenState, cellState, options.bias,
                    options.recurrentBias, options.peepholeWeight},
                   std::move(attributes), outputs);
}

}  // namespace webnn
