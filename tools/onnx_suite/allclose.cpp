#include "onnx_suite/allclose.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <sstream>

#include "core/float16.h"

namespace webnn::onnx_suite {
namespace {

template <typename T>
T load(const std::byte* data, size_t index) {
  T value;
  std::memcpy(&value, data + index * sizeof(T), sizeof(T));
  return value;
}

// Element `index` as a double (int64/uint64 beyond 2^53 compare through their own type below).
double elementAsDouble(MLOperandDataType type, const std::byte* data, size_t index) {
  switch (type) {
    case MLOperandDataType::Float32:
      return load<float>(data, index);
    case MLOperandDataType::Float16:
      return halfToFloat(load<uint16_t>(data, index));
    case MLOperandDataType::Int32:
      return load<int32_t>(data, index);
    case MLOperandDataType::Uint32:
      return load<uint32_t>(data, index);
    case MLOperandDataType::Int64:
      return static_cast<double>(load<int64_t>(data, index));
    case MLOperandDataType::Uint64:
      return static_cast<double>(load<uint64_t>(data, index));
    case MLOperandDataType::Int8:
      return load<int8_t>(data, index);
    case MLOperandDataType::Uint8:
      return load<uint8_t>(data, index);
    case MLOperandDataType::Int4:
    case MLOperandDataType::Uint4: {
      const auto byte = static_cast<uint8_t>(data[index / 2]);
      const int nibble = (index % 2) ? byte >> 4 : byte & 0xF;
      return type == MLOperandDataType::Int4 && nibble >= 8 ? nibble - 16 : nibble;
    }
  }
  return 0;
}

bool sameInteger(MLOperandDataType type, const std::byte* a, const std::byte* b, size_t index) {
  switch (type) {
    case MLOperandDataType::Int64:
      return load<int64_t>(a, index) == load<int64_t>(b, index);
    case MLOperandDataType::Uint64:
      return load<uint64_t>(a, index) == load<uint64_t>(b, index);
    default:
      return elementAsDouble(type, a, index) == elementAsDouble(type, b, index);
  }
}

std::string shapeText(const std::vector<uint32_t>& shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + "]";
}

std::string indexText(const std::vector<uint32_t>& shape, size_t flat) {
  std::vector<size_t> index(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    index[d] = shape[d] ? flat % shape[d] : 0;
    flat = shape[d] ? flat / shape[d] : 0;
  }
  std::string text = "[";
  for (size_t i = 0; i < index.size(); ++i) text += (i ? ", " : "") + std::to_string(index[i]);
  return text + "]";
}

}  // namespace

std::string compareAllClose(const TensorValue& actual, const TensorValue& expected,
                            const Tolerance& tolerance) {
  if (actual.dataType != expected.dataType) {
    return "data type " + std::string(toString(actual.dataType)) + ", expected " +
           std::string(toString(expected.dataType));
  }
  if (actual.shape != expected.shape) {
    return "shape " + shapeText(actual.shape) + ", expected " + shapeText(expected.shape);
  }
  size_t elements = 1;
  for (uint32_t d : expected.shape) elements *= d;
  const size_t bytes = (elements * bitsPerElement(expected.dataType) + 7) / 8;
  if (actual.bytes.size() != bytes || expected.bytes.size() != bytes) {
    return "holds " + std::to_string(actual.bytes.size()) + " bytes, expected " +
           std::to_string(expected.bytes.size()) + " (" + std::to_string(bytes) + " for its shape)";
  }
  const bool floating = isFloatingPoint(expected.dataType);
  size_t mismatches = 0;
  std::string first;
  for (size_t i = 0; i < elements; ++i) {
    bool same;
    double a = 0, e = 0;
    if (floating) {
      a = elementAsDouble(actual.dataType, actual.bytes.data(), i);
      e = elementAsDouble(expected.dataType, expected.bytes.data(), i);
      if (std::isnan(a) || std::isnan(e)) {
        same = std::isnan(a) && std::isnan(e);
      } else if (std::isinf(a) || std::isinf(e)) {
        same = a == e;
      } else {
        same = std::fabs(a - e) <= tolerance.atol + tolerance.rtol * std::fabs(e);
      }
    } else {
      same = sameInteger(expected.dataType, actual.bytes.data(), expected.bytes.data(), i);
      a = elementAsDouble(actual.dataType, actual.bytes.data(), i);
      e = elementAsDouble(expected.dataType, expected.bytes.data(), i);
    }
    if (same) continue;
    if (mismatches++ == 0) {
      std::ostringstream text;
      text.precision(9);
      text << "element " << indexText(expected.shape, i) << " is " << a << ", expected " << e;
      first = text.str();
    }
  }
  if (mismatches == 0) return {};
  std::ostringstream text;
  text << first << " (" << mismatches << " of " << elements << " elements differ";
  if (floating) text << " beyond rtol " << tolerance.rtol << ", atol " << tolerance.atol;
  text << ")";
  return text.str();
}

}  // namespace webnn::onnx_suite
