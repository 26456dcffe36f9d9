// The reference backend's kernel interface: one function per op type, registered by the op file's
// registration function in src/backends/reference/ops (ops/registration.cpp calls them all).
// Kernels are plain and obviously correct; floats compute in double and round once per element to
// the output type.
#pragma once

#include <array>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/element.h"
#include "graph/ir.h"
#include "webnn/operand.h"

namespace webnn::reference {

struct Tensor {
  const MLOperandDescriptor* descriptor = nullptr;
  std::byte* data = nullptr;

  MLOperandDataType dataType() const { return descriptor->dataType; }
  const std::vector<uint32_t>& shape() const { return descriptor->shape; }
  size_t rank() const { return descriptor->shape.size(); }
  uint64_t elementCount() const { return descriptor->elementCount(); }
  uint64_t byteLength() const { return descriptor->byteLength(); }
  template <class T>
  T* as() const {
    return reinterpret_cast<T*>(data);
  }
  double load(uint64_t index) const { return loadElement(dataType(), data, index); }
  void store(uint64_t index, double value) const { storeElement(dataType(), data, index, value); }
};

class KernelContext {
 public:
  // `operandsById` must outlive the context (it is not copied: graphs have many operands).
  KernelContext(const graph::Operation& operation, const std::vector<Tensor>& operandsById)
      : operation_(operation), tensors_(operandsById) {}

  const graph::Operation& operation() const { return operation_; }
  // The op's spec name, for errors ("conv2d").
  std::string opName() const { return std::string(graph::specName(operation_.type)); }
  size_t inputCount() const { return operation_.inputs.size(); }
  size_t outputCount() const { return operation_.outputs.size(); }
  Tensor input(size_t index) const { return tensors_[operation_.inputs.at(index)]; }
  Tensor output(size_t index) const { return tensors_[operation_.outputs.at(index)]; }
  // The tensor of any operand of the op (e.g. an optional operand named by its attributes).
  Tensor operand(graph::OperandId id) const { return tensors_[id]; }
  // The tensor of an optional operand, or a tensor with null data when it is absent.
  Tensor operand(const std::optional<graph::OperandId>& id) const {
    return id ? tensors_[*id] : Tensor{};
  }
  template <class Attributes>
  const Attributes& attributes() const {
    return operation_.attributesAs<Attributes>();
  }

 private:
  const graph::Operation& operation_;
  const std::vector<Tensor>& tensors_;  // indexed by operand id (null data when not bound)
};

using Kernel = std::function<void(const KernelContext&)>;

class KernelTable {
 public:
  void set(graph::OpType type, Kernel kernel) {
    kernels_[static_cast<size_t>(type)] = std::move(kernel);
  }
  // Null when no kernel runs `type`.
  const Kernel* find(graph::OpType type) const {
    const Kernel& kernel = kernels_[static_cast<size_t>(type)];
    return kernel ? &kernel : nullptr;
  }

 private:
  std::array<Kernel, graph::kOpTypeCount> kernels_{};
};

// Every reference kernel, registered once on first use by registerAllReferenceKernels.
const KernelTable& referenceKernels();

// Row-major strides of a shape (in elements).
std::vector<uint64_t> stridesOf(const std::vector<uint32_t>& shape);
// For broadcasting: strides of `shape` aligned to an output of rank `rank`, 0 on broadcast dims.
std::vector<uint64_t> broadcastStrides(const std::vector<uint32_t>& shape,
                                       const std::vector<uint32_t>& outputShape);

// Calls f(outputIndex, inputOffsets...) for each output element, with offsets in each input
// computed by broadcast strides. Incremental (no division per element).
class BroadcastIterator {
 public:
  BroadcastIterator(const std::vector<uint32_t>& outputShape,
                    const std::vector<std::vector<uint32_t>>& inputShapes);
  template <class F>
  void forEach(F&& f) {
    const uint64_t total = count_;
    for (uint64_t index = 0; index < total; ++index) {
      f(index, offsets_);
      advance();
    }
  }

 private:
  void advance();
  std::vector<uint32_t> shape_;
  std::vector<uint32_t> position_;
  std::vector<std::vector<uint64_t>> strides_;
  std::vector<uint64_t> offsets_;
  uint64_t count_ = 1;
};

}  // namespace webnn::reference
