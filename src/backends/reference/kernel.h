// The reference backend's kernel interface: one function per op type, registered from the op's
// file in src/backends/reference/ops. Kernels are plain and obviously correct; floats compute in
// double and round once per element to the output type.
#pragma once

#include <any>
#include <cstddef>
#include <functional>
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
  size_t inputCount() const { return operation_.inputs.size(); }
  size_t outputCount() const { return operation_.outputs.size(); }
  Tensor input(size_t index) const { return tensors_[operation_.inputs.at(index)]; }
  Tensor output(size_t index) const { return tensors_[operation_.outputs.at(index)]; }
  // The tensor of any operand of the op (e.g. an optional operand from the options struct).
  Tensor operand(const MLOperand& operand) const { return tensors_[operand.node()->id]; }
  template <class Attributes>
  const Attributes& attributes() const {
    return std::any_cast<const Attributes&>(operation_.attributes);
  }

 private:
  const graph::Operation& operation_;
  const std::vector<Tensor>& tensors_;  // indexed by operand id (null data when not bound)
};

using Kernel = std::function<void(const KernelContext&)>;

bool registerKernel(std::string type, Kernel kernel);
const Kernel* findKernel(const std::string& type);

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

#define WEBNN_REFERENCE_CONCAT_INNER(a, b) a##b
#define WEBNN_REFERENCE_CONCAT(a, b) WEBNN_REFERENCE_CONCAT_INNER(a, b)
// Registers kernels at load time: WEBNN_REFERENCE_KERNELS { registerKernel("add", ...); }
#define WEBNN_REFERENCE_KERNELS                                                               \
  static void WEBNN_REFERENCE_CONCAT(registerKernels, __LINE__)();                          \
  static const bool WEBNN_REFERENCE_CONCAT(kernelsRegistered, __LINE__) =                   \
      (WEBNN_REFERENCE_CONCAT(registerKernels, __LINE__)(), true);                            \
  static void WEBNN_REFERENCE_CONCAT(registerKernels, __LINE__)()
