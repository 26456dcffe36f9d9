// MLGraphBuilder::build and MLGraph.
#include <algorithm>
#include <vector>

#include "api/graph_state.h"
#include "graph/op_limits.h"
#include "graph/validation.h"
#include "graph/builder_state.h"
#include "webnn/graph.h"
#include "webnn/graph_builder.h"

namespace webnn {

MLOperand MLGraphBuilder::constant(const MLTensor& tensor) {
  auto& s = state();
  s.checkUsable("constant");
  if (!tensor.state()) throwTypeError("constant: the tensor is empty");
  const detail::TensorState& tensorState = *tensor.state();
  if (tensorState.context.lock() != s.context) {
    throwTypeError("constant: the tensor belongs to another context");
  }
  if (!tensorState.constant) {
    throwTypeError("constant: the tensor is not a constant tensor (MLContext.createConstantTensor)");
  }
  if (tensorState.destroyed) throwInvalidStateError("constant: the tensor is destroyed");
  const auto& fill = tensorState.constant;
  for (const auto& [id, known] : s.constantTensors) {
    if (known == fill) return MLOperand(s.ir.operands[id]);
  }
  const std::string what = "constant tensor '" + fill->label + "'";
  graph::checkDescriptor(what, tensorState.descriptor);
  graph::checkTensorLimits(s.limits(), what, s.limits().constant, tensorState.descriptor);
  MLOperand operand =
      s.addOperand(tensorState.descriptor, detail::OperandKind::HollowConstant, fill->label);
  s.constantTensors.emplace(operand.node()->id, fill);
  return operand;
}

MLGraph MLGraphBuilder::build(const MLNamedOperands& outputs) {
  auto& s = state();
  s.checkUsable("build");
  if (outputs.empty()) throwTypeError("build: the graph needs at least one output");
  const auto& operands = s.ir.operands;
  std::vector<bool> needed(operands.size(), false);
  for (const auto& [name, operand] : outputs) {
    if (name.empty()) throwTypeError("build: an output name is empty");
    s.checkOperand(operand, "build");
    const auto kind = operand.node()->kind;
    if (kind != detail::OperandKind::Intermediate) {
      throwTypeError("build: output '" + name + "' is " +
                     (kind == detail::OperandKind::Input ? "an input" : "a constant") +
                     "; outputs must be results of operations");
    }
    needed[operand.node()->id] = true;
  }

  // Keep the operations the outputs depend on (the op list is already in topological order).
  auto ir = std::make_shared<graph::GraphIR>();
  ir->builderId = s.id;
  ir->operands = operands;
  std::vector<bool> keep(s.ir.operations.size(), false);
  for (size_t i = s.ir.operations.size(); i-- > 0;) {
    const auto& operation = s.ir.operations[i];
    for (uint32_t output : operation.outputs) keep[i] = keep[i] || needed[output];
    if (keep[i]) {
      for (uint32_t input : operation.inputs) needed[input] = true;
    }
  }
  for (size_t i = 0; i < s.ir.operations.size(); ++i) {
    if (keep[i]) ir->operations.push_back(s.ir.operations[i]);
  }
  for (const auto& operand : operands) {
    if (needed[operand->id] && operand->kind == detail::OperandKind::Input) {
      ir->inputs.emplace(operand->name, operand->id);
    }
  }
  for (const auto& [name, operand] : outputs) ir->outputs.emplace(name, operand.node()->id);
  ir->indexUses();

  auto graphState = std::make_shared<detail::GraphState>();
  graphState->context = s.context;
  graphState->ir = ir;
  backend::ConstantTensors constantTensors;
  for (const auto& [id, fill] : s.constantTensors) {
    if (needed[id]) constantTensors.emplace(id, fill->storage);
  }
  graphState->compiled =
      constantTensors.empty()
          ? s.context->backend->compile(ir, s.context->memory)
          : s.context->backend->compileReading(ir, s.context->memory, constantTensors);
  for (const auto& operand : operands) {
    if (!needed[operand->id] || operand->kind != detail::OperandKind::HollowConstant) continue;
    if (auto tensor = s.constantTensors.find(operand->id); tensor != s.constantTensors.end()) {
      detail::GraphState::TensorConstant constant{operand->id, tensor->second};
      if (!graphState->compiled->readsConstantTensor(operand->id)) {
        constant.slot = &graphState->compiled->constantSlot(operand->id);
      }
      graphState->tensorConstants.push_back(std::move(constant));
      continue;
    }
    {
      graphState->hollowIndex.emplace(operand->id, graphState->hollow.size());
      detail::GraphState::HollowConstant constant{
          operand->id, detail::Coverage(operand->descriptor.byteLength())};
      constant.slot = &graphState->compiled->constantSlot(operand->id);
      constant.granularity = std::max<uint64_t>(1, constant.slot->writeGranularity());
      graphState->hollow.push_back(std::move(constant));
    }
  }
  graphState->pendingCount = graphState->hollow.size();
  graphState->filling.assign(graphState->hollow.size(), false);
  // The builder is one-shot: classic constants the outputs do not need are released now (an
  // MLOperand the user still holds keeps its descriptor, not the bytes).
  for (const auto& operand : operands) {
    if (!needed[operand->id] && operand->kind == detail::OperandKind::Constant) {
      operand->data.reset();
    }
  }
  {
    std::lock_guard lock(graphState->mutex);
    graphState->tensorConstantsReady = graphState->tensorConstants.empty();
    if (graphState->tensorConstantsReady) {
      if (graphState->hollow.empty()) graphState->compiled->constantsComplete();
    } else {
      graphState->deliverTensorConstants();  // the tensors filled already
    }
  }
  s.built = true;
  return MLGraph(std::move(graphState));
}

namespace {
detail::GraphState& graphOf(const std::shared_ptr<detail::GraphState>& state,
                            std::string_view method) {
  if (!state) throwInvalidStateError("MLGraph." + std::string(method) + ": the graph is empty");
  return *state;
}

// The graph's compiled form, held for the caller (null once destroyed).
std::shared_ptr<backend::CompiledGraph> compiledOf(detail::GraphState& state) {
  std::lock_guard lock(state.mutex);
  return state.compiled;
}
}  // namespace

std::vector<MLOperand> MLGraph::pendingConstants() const {
  auto& state = graphOf(state_, "pendingConstants");
  {
    std::lock_guard lock(state.mutex);
    state.checkAlive("pendingConstants");
  }
  return state.pendingConstants();
}

std::vector<MLOperand> MLGraph::hollowConstants() const {
  auto& state = graphOf(state_, "hollowConstants");
  std::vector<MLOperand> all;
  for (const auto& constant : state.hollow)
    all.emplace_back(state.ir->operands[constant.operandId]);
  return all;
}

void MLGraph::setConstantData(const MLOperand& constant, std::span<const std::byte> data) {
  graphOf(state_, "setConstantData").write(constant, 0, data, true);
}

void MLGraph::writeConstantData(const MLOperand& constant, uint64_t byteOffset,
                                std::span<const std::byte> data) {
  graphOf(state_, "writeConstantData").write(constant, byteOffset, data, false);
}

std::map<std::string, MLOperandDescriptor> MLGraph::inputDescriptors() const {
  auto& state = graphOf(state_, "inputDescriptors");
  std::map<std::string, MLOperandDescriptor> result;
  for (const auto& [name, id] : state.ir->inputs) result.emplace(name, state.ir->descriptor(id));
  return result;
}

std::map<std::string, MLOperandDescriptor> MLGraph::outputDescriptors() const {
  auto& state = graphOf(state_, "outputDescriptors");
  std::map<std::string, MLOperandDescriptor> result;
  for (const auto& [name, id] : state.ir->outputs) result.emplace(name, state.ir->descriptor(id));
  return result;
}

std::vector<MLOperationProfile> MLGraph::profile() const {
  const auto compiled = compiledOf(graphOf(state_, "profile"));
  std::vector<MLOperationProfile> result;
  if (!compiled) return result;
  for (auto& step : compiled->profile()) {
    result.push_back({std::move(step.type), std::move(step.label), std::move(step.implementation),
                      step.runs, step.totalMilliseconds});
  }
  return result;
}

std::vector<MLStepImplementation> MLGraph::implementations() const {
  const auto compiled = compiledOf(graphOf(state_, "implementations"));
  std::vector<MLStepImplementation> result;
  if (!compiled) return result;
  for (auto& step : compiled->implementations()) {
    result.push_back({std::move(step.type), std::move(step.label), std::move(step.dataType),
                      std::move(step.implementation), std::move(step.fallbackReason)});
  }
  return result;
}

void MLGraph::destroy() {
  if (!state_) return;
  std::lock_guard lock(state_->mutex);
  if (state_->activeDispatches > 0 || state_->activeWrites > 0) {
    throwInvalidStateError("MLGraph.destroy: the graph is in use");
  }
  state_->destroyed = true;
  state_->compiled.reset();
}

}  // namespace webnn
