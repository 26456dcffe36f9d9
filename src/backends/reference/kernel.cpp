#include "backends/reference/kernel.h"

#include "backends/reference/ops/registration.h"

namespace webnn::reference {
const KernelTable& referenceKernels() {
  static const KernelTable table = [] {
    KernelTable kernels;
    registerAllReferenceKernels(kernels);
    return kernels;
  }();
  return table;
}

std::vector<uint64_t> stridesOf(const std::vector<uint32_t>& shape) {
  std::vector<uint64_t> strides(shape.size());
  uint64_t stride = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= shape[i];
  }
  return strides;
}

std::vector<uint64_t> broadcastStrides(const std::vector<uint32_t>& shape,
                                       const std::vector<uint32_t>& outputShape) {
  const size_t rank = outputShape.size();
  std::vector<uint64_t> strides(rank, 0);
  const auto own = stridesOf(shape);
  const size_t offset = rank - shape.size();
  for (size_t i = 0; i < shape.size(); ++i) {
    strides[offset + i] = shape[i] == 1 ? 0 : own[i];
  }
  return strides;
}

BroadcastIterator::BroadcastIterator(const std::vector<uint32_t>& outputShape,
                                     const std::vector<std::vector<uint32_t>>& inputShapes)
    : shape_(outputShape), position_(outputShape.size(), 0), offsets_(inputShapes.size(), 0) {
  for (const auto& shape : inputShapes) strides_.push_back(broadcastStrides(shape, outputShape));
  for (uint32_t dimension : outputShape) count_ *= dimension;
}

void BroadcastIterator::advance() {
  for (size_t axis = shape_.size(); axis-- > 0;) {
    if (++position_[axis] < shape_[axis]) {
      for (size_t i = 0; i < offsets_.size(); ++i) offsets_[i] += strides_[i][axis];
      return;
    }
    position_[axis] = 0;
    for (size_t i = 0; i < offsets_.size(); ++i) {
      offsets_[i] -= strides_[i][axis] * (shape_[axis] - 1);
    }
  }
}

}  // namespace webnn::reference
