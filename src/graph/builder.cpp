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

const MLOperandDescriptor& BuilderState::descriptorOf(const MLOperand& operand) const {
  return operand.node()->descriptor;
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
    std::string type, std::string label, const std::vector<std::optional<MLOperand>>& inputs,
    std::any attributes, const std::vector<MLOperandDescriptor>& outputs) {
  graph::Operation operation;
  operation.type = std::move(type);
  operation.label = std::move(label);
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

MLOperand BuilderState::addOperation(std::string type, std::string label,
                                     const std::vector<std::optional<MLOperand>>& inputs,
                                     std::any attributes, const MLOperandDescriptor& output) {
  return addOperation(std::move(type), std::move(label), inputs, std::move(attributes),
                      std::vector<MLOperandDescriptor>{output})
      .front();
}

}  // namespace detail

namespace graph {

std::string opName(std::string_view type, std::string_view label) {
  std::string name(type);
  if (!label.empty()) name += " '" + std::string(label) + "'";
  return name;
}

detail::BuilderState& beginOp(MLGraphBuilder& builder, std::string_view type,
                              std::string_view label,
                              std::initializer_list<const std::optional<MLOperand>*> operands) {
  detail::BuilderState& state = builder.state();
  state.checkUsable(type);
  const std::string name = opName(type, label);
  for (const auto* operand : operands) {
    if (operand->has_value()) state.checkOperand(**operand, name);
  }
  return state;
}

detail::BuilderState& beginOp(MLGraphBuilder& builder, std::string_view type,
                              std::string_view label,
                              std::initializer_list<const MLOperand*> operands) {
  detail::BuilderState& state = builder.state();
  state.checkUsable(type);
  const std::string name = opName(type, label);
  for (const auto* operand : operands) state.checkOperand(*operand, name);
  return state;
}

}  // namespace graph

namespace {
std::atomic<uint64_t> nextBuilderId{1};

void checkConstantDescriptor(const MLOperandDescriptor& descriptor, const std::string& what) {
  graph::checkDescriptor(what, descriptor);
}
}  // namespace

MLGraphBuilder::MLGraphBuilder(MLContext& context) : state_(std::make_unique<detail::BuilderState>()) {
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
  checkConstantDescriptor(descriptor, "input '" + name + "'");
  graph::checkOperandLimits("input", "", "input", descriptor);
  return s.addOperand(descriptor, detail::OperandKind::Input, name);
}

MLOperand MLGraphBuilder::constant(const MLOperandDescriptor& descriptor,
                                   std::span<const std::byte> data) {
  auto& s = state();
  s.checkUsable("constant");
  checkConstantDescriptor(descriptor, "constant");
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

MLOperand MLGraphBuilder::constant(MLOperandDataType type, double value) {
  auto& s = state();
  s.checkUsable("constant");
  MLOperandDescriptor descriptor{type, {}};
  auto bytes = std::make_shared<std::vector<std::byte>>(descriptor.byteLength());
  storeElement(type, bytes->data(), 0, value);
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
  checkConstantDescriptor(descriptor, what);
  return s.addOperand(descriptor, detail::OperandKind::HollowConstant, options.label);
}

// MLOperand accessors.
MLOperandDataType MLOperand::dataType() const { return descriptor().dataType; }
const std::vector<uint32_t>& MLOperand::shape() const { return descriptor().shape; }
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
