// MLContext and MLTensor.
#include <cstring>
#include <set>

#include "api/context_state.h"
#include "api/graph_state.h"
#include "graph/op_limits.h"
#include "graph/validation.h"
#include "webnn/context.h"

namespace webnn {

namespace detail {
void ContextState::checkAlive(std::string_view method) const {
  if (destroyed)
    throwInvalidStateError("MLContext." + std::string(method) + ": the context is destroyed");
}

std::shared_ptr<backend::BackendTensor> TensorState::acquire(std::string_view method) const {
  std::lock_guard lock(mutex);
  if (destroyed || !storage) {
    throwInvalidStateError("MLContext." + std::string(method) + ": the tensor is destroyed");
  }
  return storage;
}

}  // namespace detail

MLContext createContext(const MLContextOptions& options) {
  auto state = std::make_shared<detail::ContextState>();
  state->backend = backend::createBackend(
      options.backend, {.numThreads = options.numThreads,
                        .powerPreference = options.powerPreference,
                        .profiling = options.profiling,
                        .constantMemoryBudget = options.constantMemoryBudget,
                        .blockQuantizedInt8Activations = options.blockQuantizedInt8Activations});
  state->limits =
      graph::fromSupportLimits(state->backend->opSupportLimits(), state->backend->name());
  return MLContext(std::move(state));
}

std::vector<std::string> availableBackends() {
  return backend::backendNames();
}

std::string describeBackend(const std::string& name, MLPowerPreference powerPreference) {
  return backend::createBackend(name, {.powerPreference = powerPreference})->description();
}

namespace {

detail::ContextState& alive(const std::shared_ptr<detail::ContextState>& state,
                            std::string_view method) {
  if (!state) throwInvalidStateError("MLContext." + std::string(method) + ": the context is empty");
  state->checkAlive(method);
  return *state;
}

detail::TensorState& tensorOf(const detail::ContextState& context, const MLTensor& tensor,
                              std::string_view method) {
  const std::string where = "MLContext." + std::string(method);
  if (!tensor.state()) throwTypeError(where + ": the tensor is empty");
  auto& state = *tensor.state();
  if (state.context.lock().get() != &context) {
    throwTypeError(where + ": the tensor belongs to another context");
  }
  if (state.destroyed) throwInvalidStateError(where + ": the tensor is destroyed");
  return state;
}

}  // namespace

MLTensor MLContext::createTensor(const MLTensorDescriptor& descriptor) {
  auto& context = alive(state_, "createTensor");
  graph::checkDescriptor("MLContext.createTensor", descriptor);
  graph::checkTensorLimits(context.limits, "MLContext.createTensor: the tensor",
                           graph::anyRank(graph::types::kAll), descriptor);
  auto tensor = std::make_shared<detail::TensorState>();
  tensor->context = state_;
  tensor->descriptor = descriptor;
  tensor->storage = context.backend->createTensor(descriptor, context.memory);
  return MLTensor(std::move(tensor));
}

void MLContext::writeTensor(const MLTensor& tensor, std::span<const std::byte> data) {
  auto& context = alive(state_, "writeTensor");
  auto& state = tensorOf(context, tensor, "writeTensor");
  if (!state.descriptor.writable)
    throwTypeError("MLContext.writeTensor: the tensor is not writable");
  auto storage = state.acquire("writeTensor");
  if (data.size() != storage->byteLength()) {
    throwTypeError("MLContext.writeTensor: the tensor (" + toString(state.descriptor) + ") holds " +
                   std::to_string(storage->byteLength()) + " bytes, got " +
                   std::to_string(data.size()));
  }
  storage->write(data);
}

void MLContext::readTensor(const MLTensor& tensor, std::span<std::byte> destination) {
  auto& context = alive(state_, "readTensor");
  auto& state = tensorOf(context, tensor, "readTensor");
  if (!state.descriptor.readable)
    throwTypeError("MLContext.readTensor: the tensor is not readable");
  auto storage = state.acquire("readTensor");
  if (destination.size() != storage->byteLength()) {
    throwTypeError("MLContext.readTensor: the tensor (" + toString(state.descriptor) + ") holds " +
                   std::to_string(storage->byteLength()) + " bytes, the destination " +
                   std::to_string(destination.size()));
  }
  storage->read(destination);
}

std::vector<std::byte> MLContext::readTensor(const MLTensor& tensor) {
  std::vector<std::byte> bytes(tensor.state() ? tensor.state()->descriptor.byteLength() : 0);
  readTensor(tensor, bytes);
  return bytes;
}

void MLContext::dispatch(const MLGraph& graph, const MLNamedTensors& inputs,
                         const MLNamedTensors& outputs) {
  // Held for the whole dispatch: destroying the context, the graph or a tensor meanwhile is safe.
  const std::shared_ptr<detail::ContextState> contextHold = state_;
  auto& context = alive(contextHold, "dispatch");
  if (!graph.state()) throwTypeError("MLContext.dispatch: the graph is empty");
  auto& graphState = *graph.state();
  if (graphState.context.get() != &context) {
    throwTypeError("MLContext.dispatch: the graph was built on another context");
  }
  const auto& ir = *graphState.ir;
  std::set<const detail::TensorState*> seen;
  std::vector<std::shared_ptr<backend::BackendTensor>> held;
  auto bind = [&](const MLNamedTensors& given, const std::map<std::string, uint32_t>& expected,
                  std::string_view kind, backend::BoundTensors& bound) {
    for (const auto& [name, tensor] : given) {
      if (!expected.contains(name)) {
        throwTypeError("MLContext.dispatch: the graph has no " + std::string(kind) + " named '" +
                       name + "'");
      }
    }
    for (const auto& [name, id] : expected) {
      auto it = given.find(name);
      if (it == given.end()) {
        throwTypeError("MLContext.dispatch: " + std::string(kind) + " '" + name + "' is missing");
      }
      auto& tensor = tensorOf(context, it->second, "dispatch");
      if (tensor.constant) {
        throwTypeError("MLContext.dispatch: " + std::string(kind) + " '" + name +
                       "' is a constant tensor, which only graphs read as a constant");
      }
      const auto& want = ir.descriptor(id);
      if (tensor.descriptor.dataType != want.dataType || tensor.descriptor.shape != want.shape) {
        throwTypeError("MLContext.dispatch: " + std::string(kind) + " '" + name + "' must be " +
                       toString(want) + ", the tensor is " + toString(tensor.descriptor));
      }
      if (!seen.insert(&tensor).second) {
        throwTypeError("MLContext.dispatch: a tensor is bound twice (" + std::string(kind) + " '" +
                       name + "')");
      }
      held.push_back(tensor.acquire("dispatch"));
      bound.emplace(name, held.back().get());
    }
  };
  backend::BoundTensors inputTensors;
  backend::BoundTensors outputTensors;
  bind(inputs, ir.inputs, "input", inputTensors);
  bind(outputs, ir.outputs, "output", outputTensors);

  auto compiled = graphState.beginDispatch();
  struct End {
    detail::GraphState& state;
    ~End() { state.endDispatch(); }
  } end{graphState};
  std::unique_lock<std::mutex> serial;
  if (!compiled->concurrentDispatch()) serial = std::unique_lock(graphState.dispatchMutex);
  compiled->dispatch(inputTensors, outputTensors);
}

MLOpSupportLimits MLContext::opSupportLimits() const {
  return graph::toSupportLimits(alive(state_, "opSupportLimits").limits);
}

MLMemoryStats MLContext::memoryStats() const {
  const auto& memory = *alive(state_, "memoryStats").memory;
  MLMemoryStats stats;
  stats.constantBytes = memory.constants.current();
  stats.constantBytesPeak = memory.constants.peak();
  stats.activationBytes = memory.activations.current();
  stats.activationBytesPeak = memory.activations.peak();
  stats.tensorBytes = memory.tensors.current();
  stats.stagingBytes = memory.staging.current();
  stats.stagingBytesPeak = memory.staging.peak();
  stats.mappedConstantBytes = memory.mapped.current();
  return stats;
}

std::string MLContext::backendName() const {
  return std::string(alive(state_, "backendName").backend->name());
}

void MLContext::destroy() {
  if (state_) state_->destroyed = true;
}

// MLTensor.
namespace {
const detail::TensorState& tensorState(const std::shared_ptr<detail::TensorState>& state) {
  if (!state) throwTypeError("MLTensor: the tensor is empty");
  return *state;
}
}  // namespace

MLOperandDataType MLTensor::dataType() const {
  return tensorState(state_).descriptor.dataType;
}
const std::vector<uint32_t>& MLTensor::shape() const {
  return tensorState(state_).descriptor.shape;
}
bool MLTensor::readable() const {
  return tensorState(state_).descriptor.readable;
}
bool MLTensor::writable() const {
  return tensorState(state_).descriptor.writable;
}
uint64_t MLTensor::byteLength() const {
  return tensorState(state_).descriptor.byteLength();
}
void MLTensor::destroy() {
  if (!state_) return;
  std::shared_ptr<backend::BackendTensor> released;  // freed here, or by the last dispatch using it
  std::lock_guard lock(state_->mutex);
  if (state_->destroyed.exchange(true)) return;
  released = std::move(state_->storage);
}

}  // namespace webnn
