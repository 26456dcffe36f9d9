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

const std::vector<MLOperandDataType> kElementTypes = {
    MLOperandDataType::Float32, MLOperandDataType::Float16, MLOperandDataType::Int32,
    MLOperandDataType::Uint32,  MLOperandDataType::Int64,   MLOperandDataType::Uint64,
    MLOperandDataType::Int8,    MLOperandDataType::Uint8,   MLOperandDataType::Int4,
    MLOperandDataType::Uint4};

uint32_t shaderTypeCode(MLOperandDataType type) {
  switch (type) {
    case MLOperandDataType::Float32:
      return 0;
    case MLOperandDataType::Float16:
      return 1;
    case MLOperandDataType::Int32:
      return 2;
    case MLOperandDataType::Uint32:
      return 3;
    case MLOperandDataType::Int64:
      return 4;
    case MLOperandDataType::Uint64:
      return 5;
    case MLOperandDataType::Int8:
      return 6;
    case MLOperandDataType::Uint8:
      return 7;
    case MLOperandDataType::Int4:
      return 8;
    case MLOperandDataType::Uint4:
      return 9;
  }
  throwOperationError("vulkan: shaders have no code for data type " + std::string(toString(type)));
}

Step elementsStep(std::string_view shader, uint32_t count, uint32_t bits,
                  std::vector<uint32_t> params, std::vector<graph::OperandId> bindings) {
  params.insert(params.begin(), {count, bits});
  const uint32_t perInvocation = bits >= 32 ? 1 : 32 / bits;
  const uint32_t invocations = count / perInvocation + (count % perInvocation ? 1 : 0);
  return elementwiseStep(shader, invocations, std::move(params), std::move(bindings));
}

}  // namespace webnn::vulkan
