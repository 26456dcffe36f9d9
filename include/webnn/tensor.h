// MLTensor: a buffer owned by an MLContext, bound to graph inputs and outputs at dispatch.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "webnn/export.h"
#include "webnn/types.h"

namespace webnn {

namespace detail {
struct TensorState;
}

class WEBNN_EXPORT MLTensor {
 public:
  MLTensor() = default;
  explicit MLTensor(std::shared_ptr<detail::TensorState> state) : state_(std::move(state)) {}

  MLOperandDataType dataType() const;
  const std::vector<uint32_t>& shape() const;
  bool readable() const;
  bool writable() const;
  uint64_t byteLength() const;
  // Whether it is a constant tensor (MLContext::createConstantTensor), and whether such a tensor
  // has every byte (a filled one always has).
  bool constant() const;
  bool constantComplete() const;
  // A constant tensor's label (empty for others).
  std::string label() const;
  // Releases the tensor's memory; later use throws InvalidStateError.
  void destroy();

  const std::shared_ptr<detail::TensorState>& state() const { return state_; }

 private:
  std::shared_ptr<detail::TensorState> state_;
};

using MLNamedTensors = std::map<std::string, MLTensor>;

}  // namespace webnn
