// Constant tensors (MLContext::createConstantTensor): one copy of a constant, read by every graph
// built on it (MLGraphBuilder::constant(tensor)), filled once.
#include <algorithm>

#include "api/context_state.h"
#include "graph/op_limits.h"
#include "graph/validation.h"
#include "webnn/context.h"

namespace webnn {
namespace detail {

ConstantFill::ConstantFill(std::string label_, uint64_t byteLength,
                           std::shared_ptr<backend::BackendConstantTensor> storage_)
    : label(std::move(label_)),
      storage(std::move(storage_)),
      granularity(std::max<uint64_t>(1, storage->slot().writeGranularity())),
      coverage(byteLength) {}

std::string ConstantFill::describe(const MLOperandDescriptor& descriptor) const {
  return "constant tensor '" + label + "' (" + toString(descriptor) + ", " +
         std::to_string(descriptor.byteLength()) + " bytes)";
}

bool ConstantFill::beginWrite(const MLOperandDescriptor& descriptor, uint64_t byteOffset,
                              uint64_t size, const std::string& where) {
  const uint64_t length = descriptor.byteLength();
  const std::string what = describe(descriptor);
  if (size == 0) throwTypeError(where + ": empty chunk for " + what);
  if (byteOffset > length || size > length - byteOffset) {
    throwTypeError(where + ": bytes [" + std::to_string(byteOffset) + ", " +
                   std::to_string(byteOffset + size) + ") are outside " + what);
  }
  const uint32_t bits = bitsPerElement(descriptor.dataType);
  const uint64_t elementBytes = bits >= 8 ? bits / 8 : 1;
  const uint64_t end = byteOffset + size;
  if (byteOffset % elementBytes != 0 || (end % elementBytes != 0 && end != length)) {
    throwTypeError(where + ": chunk [" + std::to_string(byteOffset) + ", " + std::to_string(end) +
                   ") of " + what + " is not aligned to its " + std::to_string(elementBytes) +
                   "-byte elements");
  }
  std::lock_guard lock(mutex);
  if (complete) {
    throwInvalidStateError(where + ": " + what +
                           " is complete; a constant tensor never changes once filled");
  }
  if (!filling) {
    storage->slot().beginFill();
    filling = true;
  }
  ++activeWrites;
  return byteOffset % granularity == 0 && (end % granularity == 0 || end == length);
}

void ConstantFill::endWrite(uint64_t byteOffset, uint64_t size, bool written) {
  std::lock_guard lock(mutex);
  --activeWrites;
  if (!written || !coverage.add(byteOffset, byteOffset + size)) return;
  // Every byte is in: the slot packs or releases what it staged before any graph can see it.
  storage->slot().complete();
  filling = false;
  complete.store(true, std::memory_order_release);
}

void ConstantFill::write(const MLOperandDescriptor& descriptor, uint64_t byteOffset,
                         std::span<const std::byte> data, const std::string& where) {
  const bool aligned = beginWrite(descriptor, byteOffset, data.size(), where);
  try {
    if (aligned) {
      std::shared_lock writing(writeLock);
      storage->slot().write(byteOffset, data);
    } else {
      std::unique_lock writing(writeLock);
      storage->slot().write(byteOffset, data);
    }
  } catch (...) {
    endWrite(byteOffset, data.size(), false);
    throw;
  }
  endWrite(byteOffset, data.size(), true);
}

}  // namespace detail

namespace {

detail::ContextState& aliveContext(const std::shared_ptr<detail::ContextState>& state,
                                   std::string_view method) {
  if (!state) throwInvalidStateError("MLContext." + std::string(method) + ": the context is empty");
  state->checkAlive(method);
  return *state;
}

MLTensor makeConstantTensor(const std::shared_ptr<detail::ContextState>& state,
                            const MLOperandDescriptor& descriptor, std::string label,
                            std::string_view method) {
  auto& context = aliveContext(state, method);
  const std::string where = "MLContext." + std::string(method);
  graph::checkDescriptor(where, descriptor);
  graph::checkTensorLimits(context.limits, where + ": the constant tensor",
                           context.limits.constant, descriptor);
  auto tensor = std::make_shared<detail::TensorState>();
  tensor->context = state;
  tensor->descriptor = MLTensorDescriptor{descriptor};
  tensor->constant = std::make_shared<detail::ConstantFill>(
      std::move(label), descriptor.byteLength(),
      context.backend->createConstantTensor(descriptor, context.memory));
  return MLTensor(std::move(tensor));
}

}  // namespace

MLTensor MLContext::createConstantTensor(const MLOperandDescriptor& descriptor,
                                         std::span<const std::byte> data) {
  MLTensor tensor = makeConstantTensor(state_, descriptor, {}, "createConstantTensor");
  if (data.size() != descriptor.byteLength()) {
    throwTypeError("MLContext.createConstantTensor: " + toString(descriptor) + " needs " +
                   std::to_string(descriptor.byteLength()) + " bytes, got " +
                   std::to_string(data.size()));
  }
  if (!data.empty()) {
    tensor.state()->constant->write(descriptor, 0, data, "MLContext.createConstantTensor");
  } else {  // zero elements: complete as it is
    tensor.state()->constant->complete = true;
  }
  return tensor;
}

MLTensor MLContext::createConstantTensor(const MLOperandDescriptor& descriptor,
                                         const MLConstantOptions& options) {
  MLTensor tensor = makeConstantTensor(state_, descriptor, options.label, "createConstantTensor");
  if (descriptor.byteLength() == 0) tensor.state()->constant->complete = true;
  return tensor;
}

void MLContext::writeConstantTensor(const MLTensor& tensor, uint64_t byteOffset,
                                    std::span<const std::byte> data) {
  const std::string where = "MLContext.writeConstantTensor";
  auto& context = aliveContext(state_, "writeConstantTensor");
  if (!tensor.state()) throwTypeError(where + ": the tensor is empty");
  const auto& state = *tensor.state();
  if (state.context.lock().get() != &context) {
    throwTypeError(where + ": the tensor belongs to another context");
  }
  if (!state.constant) throwTypeError(where + ": the tensor is not a constant tensor");
  if (state.destroyed) throwInvalidStateError(where + ": the tensor is destroyed");
  state.constant->write(state.descriptor, byteOffset, data, where);
}

bool MLTensor::constant() const {
  return state_ && state_->constant;
}

bool MLTensor::constantComplete() const {
  return state_ && state_->constant && state_->constant->complete.load();
}

std::string MLTensor::label() const {
  return state_ && state_->constant ? state_->constant->label : std::string();
}

}  // namespace webnn
