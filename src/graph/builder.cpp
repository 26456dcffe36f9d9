// MLGraphBuilder's own methods (inputs, constants) and the helpers op files record through.
#include <atomic>
#include <cstring>

#include "api/context_state.h"
#include "core/element.h"
#include "graph/builder_state.h"
#include "graph/op_limits.h"
#include "graph/validation.h"
#include "webnn/context.h"
#include "webnn/graph_builder.h"

namespace webnn {

namespace detail {

void BuilderState::checkUsable(std::string_view method) const {
  if (built) {
    throwInvalidStateError("MLGraphBuilder." + std::string(method) +
                           ": the builder has already built its graph (builders are one-shot)");
  }
  if (!context || context->destroyed) {
    throwInvalidStateError("MLGraphBuilder." + std::string(method) + ": the context is destroyed");
  }
}

void BuilderState::checkOperand(const MLOperand& operand, std::string_view opName) const {
  if (!operand) throwTypeError(std::string(opName) + ": an operand is empty");
  const auto& node = operand.node();
  if (node->builderId != id || node->id >= ir.operands.size() || ir.operands[node->id] != node) {
    throwTypeError(std::string(opName) + ": an operand belongs to another MLGraphBuilder");
  }
}

const graph::OpLimitsTable& BuilderState::limits() const {
  return context->limits;
}

MLOperand BuilderState::addOperand(const MLOperandDescriptor& descriptor, OperandKind kind,
                                   std::string name) {
  auto node = std::make_shared<OperandNode>();
  node->builderId = id;
  node->id = static_cast<uint32_t>(ir.operands.size());
  node->descriptor = descriptor;
  node->kind = kind;
  node->name = std::move(name);
  ir.operands.push_back(node);
  return MLOperand(node);
}

std::vector<MLOperand> BuilderState::addOperation(
    const graph::OpCall& call, const std::vector<std::optional<MLOperand>>& inputs,
    graph::Attributes attributes, const std::vector<MLOperandDescriptor>& outputs) {
  for (const auto& output : outputs) {
    const std::string what = graph::opName(call.name(), call.label) + ": output";
    graph::checkTensorLimits(limits(), what, limits().output, output);
  }
  graph::Operation operation;
  operation.type = call.type;
  operation.label = std::string(call.label);
  for (const auto& input : inputs) {
    if (input && *input) operation.inputs.push_back(input->node()->id);
  }
  std::vector<MLOperand> results;
  for (const auto& output : outputs) {
    MLOperand operand = addOperand(output, OperandKind::Intermediate, {});
    operation.outputs.push_back(operand.node()->id);
    results.push_back(operand);
  }
  operation.attributes = std::move(attributes);
  ir.operations.push_back(std::move(operation));
  return results;
}

}  // namespace detail

namespace graph {

std::string opName(std::string_view type, std::string_view label) {
  std::string name(type);
  if (!label.empty()) name += " '" + std::string(label) + "'";
  return name;
}

std::optional<OperandId> operandId(const std::optional<MLOperand>& operand) {
  if (!operand || !*operand) return std::nullopt;
  return operand->node()->id;
}

OpBuilder::OpBuilder(MLGraphBuilder& builder, OpType type, std::string_view label,
                     std::initializer_list<const MLOperand*> operands,
                     std::initializer_list<const std::optional<MLOperand>*> optionalOperands)
    : state_(builder.state()) {
  state_.checkUsable(specName(type));
  const std::string name = opName(specName(type), label);
  for (const auto* operand : operands) state_.checkOperand(*operand, name);
  for (const auto* operand : optionalOperands) {
    if (operand->has_value()) state_.checkOperand(**operand, name);
  }
  call_ = OpCall{type, label, &state_.limits()};
}

MLOperand OpBuilder::record(const std::vector<std::optional<MLOperand>>& inputs,
                            Attributes attributes, const MLOperandDescriptor& output) {
  return state_.addOperation(call_, inputs, std::move(attributes), {output}).front();
}

std::vector<MLOperand> OpBuilder::record(const std::vector<std::optional<MLOperand>>& inputs,
                                         Attributes attributes,
                                         const std::vector<MLOperandDescriptor>& outputs) {
  return state_.addOperation(call_, inputs, std::move(attributes), outputs);
}

}  // namespace graph

namespace {
std::atomic<uint64_t> nextBuilderId{1};

// A graph input or constant: positive dimensions, a byte length in range, and the context's limits.
void checkConstantDescriptor(const detail::BuilderState& state,
                             const MLOperandDescriptor& descriptor, const std::string& what,
                             const MLTensorLimits& limits) {
  graph::checkDescriptor(what, descriptor);
  graph::checkTensorLimits(state.limits(), what, limits, descriptor);
}
}  // namespace

MLGraphBuilder::MLGraphBuilder(MLContext& context)
    : state_(std::make_unique<detail::BuilderState>()) {
  if (!context.state() || context.state()->destroyed) {
    throwInvalidStateError("MLGraphBuilder: the context is destroyed");
  }
  state_->context = context.state();
  state_->id = nextBuilderId++;
  state_->ir.builderId = state_->id;
}

MLGraphBuilder::~MLGraphBuilder() = default;
MLGraphBuilder::MLGraphBuilder(MLGraphBuilder&&) noexcept = default;
MLGraphBuilder& MLGraphBuilder::operator=(MLGraphBuilder&&) noexcept = default;

detail::BuilderState& MLGraphBuilder::state() {
  if (!state_) throwInvalidStateError("MLGraphBuilder: the builder was moved from");
  return *state_;
}

MLOperand MLGraphBuilder::input(const std::string& name, const MLOperandDescriptor& descriptor) {
  auto& s = state();
  s.checkUsable("input");
  if (name.empty()) throwTypeError("input: the name must not be empty");
  for (const auto& operand : s.ir.operands) {
    if (operand->kind == detail::OperandKind::Input && operand->name == name) {
      throwTypeError("input: an input named '" + name + "' already exists");
    }
  }
  checkConstantDescriptor(s, descriptor, "input '" + name + "'", s.limits().input);
  return s.addOperand(descriptor, detail::OperandKind::Input, name);
}

MLOperand MLGraphBuilder::constant(const MLOperandDescriptor& descriptor,
                                   std::span<const std::byte> data) {
  auto& s = state();
  s.checkUsable("constant");
  checkConstantDescriptor(s, descriptor, "constant", s.limits().constant);
  const uint64_t length = descriptor.byteLength();
  if (data.size() != length) {
    throwTypeError("constant: " + toString(descriptor) + " needs " + std::to_string(length) +
                   " bytes, got " + std::to_string(data.size()));
  }
  auto bytes = std::make_shared<std::vector<std::byte>>(data.begin(), data.end());
  MLOperand operand = s.addOperand(descriptor, detail::OperandKind::Constant, {});
  operand.node()->data = std::move(bytes);
  return operand;
}

MLOperand MLGraphBuilder::constant(MLOperandDataType type, MLNumber value) {
  auto& s = state();
  s.checkUsable("constant");
  MLOperandDescriptor descriptor{type, {}};
  checkConstantDescriptor(s, descriptor, "constant", s.limits().constant);
  auto bytes = std::make_shared<std::vector<std::byte>>(descriptor.byteLength());
  storeNumber(type, bytes->data(), 0, value);
  MLOperand operand = s.addOperand(descriptor, detail::OperandKind::Constant, {});
  operand.node()->data = std::move(bytes);
  return operand;
}

MLOperand MLGraphBuilder::constant(const MLOperandDescriptor& descriptor,
                                   const MLConstantOptions& options) {
  auto& s = state();
  s.checkUsable("constant");
  const std::string what =
      "constant" + (options.label.empty() ? std::string() : " '" + options.label + "'");
  checkConstantDescriptor(s, descriptor, what, s.limits().constant);
  return s.addOperand(descriptor, detail::OperandKind::HollowConstant, options.label);
}

// MLOperand accessors.
MLOperandDataType MLOperand::dataType() const {
  return descriptor().dataType;
}
const std::vector<uint32_t>& MLOperand::shape() const {
  return descriptor().shape;
}
const MLOperandDescriptor& MLOperand::descriptor() const {
  if (!node_) throwTypeError("MLOperand: the operand is empty");
  return node_->descriptor;
}
const std::string& MLOperand::label() const {
  if (!node_) throwTypeError("MLOperand: the operand is empty");
  return node_->name;
}
bool MLOperand::isConstant() const {
  return node_ && (node_->kind == detail::OperandKind::Constant ||
                   node_->kind == detail::OperandKind::HollowConstant);
}

}  // namespace webnn
