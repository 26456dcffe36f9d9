#include "backends/vulkan/kernel.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "core/checked_math.h"
#include "webnn/types.h"

namespace webnn::vulkan {

uint32_t elementCount(std::span<const uint32_t> shape, std::string_view what) {
  uint64_t count = 1;
  for (uint32_t extent : shape) {
    const auto product = checked::mul<uint64_t>(count, extent);
    if (!product || *product > 0xffffffffull) {
      throw Error(Error::Kind::NotSupportedError,
                  "vulkan: " + std::string(what) + " has more than 2^32 elements");
    }
    count = *product;
  }
  return static_cast<uint32_t>(count);
}

std::vector<uint32_t> contiguousStrides(std::span<const uint32_t> shape) {
  std::vector<uint32_t> strides(shape.size(), 1);
  uint32_t stride = 1;
  for (size_t d = shape.size(); d-- > 0;) {
    strides[d] = stride;
    stride *= shape[d];
  }
  return strides;
}

std::vector<uint32_t> broadcastStrides(std::span<const uint32_t> shape,
                                       std::span<const uint32_t> outputShape) {
  const std::vector<uint32_t> own = contiguousStrides(shape);
  std::vector<uint32_t> strides(outputShape.size(), 0);
  const size_t offset = outputShape.size() - shape.size();
  for (size_t d = 0; d < shape.size(); ++d) {
    strides[offset + d] = shape[d] == 1 ? 0 : own[d];
  }
  return strides;
}

void appendPadded(std::vector<uint32_t>& params, std::span<const uint32_t> values, uint32_t fill) {
  for (uint32_t d = 0; d < kShaderRank; ++d) {
    params.push_back(d < values.size() ? values[d] : fill);
  }
}

uint32_t floatBits(double value) {
  const float f = static_cast<float>(value);
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return bits;
}

Step elementwiseStep(std::string_view shader, uint32_t count, std::vector<uint32_t> params,
                     std::vector<graph::OperandId> bindings) {
  Step step{shader, std::move(params), std::move(bindings)};
  const uint32_t groups = count / 64 + (count % 64 ? 1 : 0);
  step.groups = {groups, groups ? 1u : 0u, groups ? 1u : 0u};
  return step;
}

}  // namespace webnn::vulkan
