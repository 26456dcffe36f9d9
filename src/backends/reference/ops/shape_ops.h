// Helpers shared by the reference kernels of the data movement, gather/scatter and reduction ops:
// element copies of any data type, row-major position iteration, index resolution, and loads and
// stores in an exact accumulation domain (double for floats, int64/uint64 for integers).
#pragma once

#include <cstring>
#include <type_traits>
#include <vector>

#include "backends/reference/kernel.h"

namespace webnn::reference {

// Copies single elements between tensors of one data type by their bytes; int4/uint4 nibble by
// nibble.
class ElementMover {
 public:
  explicit ElementMover(MLOperandDataType type)
      : type_(type), bytes_(bitsPerElement(type) / 8), nibbles_(bitsPerElement(type) == 4) {}

  void copy(const Tensor& to, uint64_t toIndex, const Tensor& from, uint64_t fromIndex) const {
    if (nibbles_) {
      storeInteger(type_, to.data, toIndex, loadInteger(type_, from.data, fromIndex));
    } else {
      std::memcpy(to.data + toIndex * bytes_, from.data + fromIndex * bytes_, bytes_);
    }
  }
  // Copies `count` consecutive elements.
  void copy(const Tensor& to, uint64_t toIndex, const Tensor& from, uint64_t fromIndex,
            uint64_t count) const {
    if (nibbles_) {
      for (uint64_t i = 0; i < count; ++i) copy(to, toIndex + i, from, fromIndex + i);
    } else {
      std::memcpy(to.data + toIndex * bytes_, from.data + fromIndex * bytes_, count * bytes_);
    }
  }
  // Stores `value` cast to the type (exactly for int64/uint64).
  void fill(const Tensor& to, uint64_t toIndex, const MLNumber& value) const {
    storeNumber(type_, to.data, toIndex, value);
  }

 private:
  MLOperandDataType type_;
  size_t bytes_;
  bool nibbles_;
};

// Calls f(index, position) for every position of `shape` in row-major order (once for a scalar).
template <class F>
void forEachPosition(const std::vector<uint32_t>& shape, F&& f) {
  uint64_t count = 1;
  for (uint32_t dimension : shape) count *= dimension;
  std::vector<uint32_t> position(shape.size(), 0);
  for (uint64_t index = 0; index < count; ++index) {
    f(index, static_cast<const std::vector<uint32_t>&>(position));
    for (size_t axis = shape.size(); axis-- > 0;) {
      if (++position[axis] < shape[axis]) break;
      position[axis] = 0;
    }
  }
}

// The element offsets of every position of `shape` (row-major), with `strides` per axis.
inline std::vector<uint64_t> offsetsOf(const std::vector<uint32_t>& shape,
                                       const std::vector<uint64_t>& strides) {
  std::vector<uint64_t> offsets;
  forEachPosition(shape, [&](uint64_t, const std::vector<uint32_t>& position) {
    uint64_t offset = 0;
    for (size_t axis = 0; axis < position.size(); ++axis) offset += position[axis] * strides[axis];
    offsets.push_back(offset);
  });
  return offsets;
}

// Reads element `i` of an indices tensor (int32/uint32/int64) and resolves it against a dimension
// of `size`: a negative index counts from the end (once), then out-of-range values clamp to
// [0, size - 1], as the WPT conformance vectors expect.
inline uint64_t resolveIndex(const Tensor& indices, uint64_t i, uint32_t size) {
  int64_t index = loadInteger(indices.dataType(), indices.data, i);
  if (index < 0) index += size;
  if (index < 0) return 0;
  if (index >= static_cast<int64_t>(size)) return size - 1;
  return static_cast<uint64_t>(index);
}

// Accumulation domains: double for float32/float16, int64 for signed integers, uint64 for
// unsigned integers (integer arithmetic wraps, and the store truncates to the element type).
template <class F>
decltype(auto) visitDomain(MLOperandDataType type, F&& f) {
  if (isFloatingPoint(type)) return f(TypeTag<double>{});
  if (isSigned(type)) return f(TypeTag<int64_t>{});
  return f(TypeTag<uint64_t>{});
}

template <class V>
V loadAs(const Tensor& tensor, uint64_t index) {
  if constexpr (std::is_same_v<V, double>) {
    return tensor.load(index);
  } else {
    return static_cast<V>(loadInteger(tensor.dataType(), tensor.data, index));
  }
}

template <class V>
void storeAs(const Tensor& tensor, uint64_t index, V value) {
  if constexpr (std::is_same_v<V, double>) {
    tensor.store(index, value);
  } else {
    storeInteger(tensor.dataType(), tensor.data, index, static_cast<int64_t>(value));
  }
}

}  // namespace webnn::reference
