#include "conformance/tensor_data.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

namespace webnn::conformance {

uint16_t toHalf(double value) {
  // floatView[0] = value; x = int32View[0];
  const int32_t x = std::bit_cast<int32_t>(static_cast<float>(value));
  uint32_t bits = static_cast<uint32_t>(x >> 16) & 0x8000u;  // the sign
  uint32_t m = static_cast<uint32_t>(x >> 12) & 0x07ffu;     // one extra bit for rounding
  const uint32_t e = static_cast<uint32_t>(x >> 23) & 0xffu;
  // Zero, denormal, or an exponent too small even for a denormal half: signed zero.
  if (e < 103) return static_cast<uint16_t>(bits);
  // NaN stays NaN; infinity and exponent overflow give infinity.
  if (e > 142) {
    bits |= 0x7c00u;
    if (e == 255 && (x & 0x007fffff) != 0) bits |= 1u;
    return static_cast<uint16_t>(bits);
  }
  // An exponent that underflows only a little: a denormal (rounding may carry into the exponent).
  if (e < 113) {
    m |= 0x0800u;
    bits |= (m >> (114 - e)) + ((m >> (113 - e)) & 1u);
    return static_cast<uint16_t>(bits);
  }
  bits |= ((e - 112) << 10) | (m >> 1);
  bits += m & 1u;  // a carry sets the mantissa to 0 and increments the exponent
  return static_cast<uint16_t>(bits);
}

double halfToDouble(uint16_t bits) {
  const bool negative = (bits & 0x8000u) != 0;
  const int exponent = (bits >> 10) & 0x1f;
  const int mantissa = bits & 0x3ff;
  double magnitude;
  if (exponent == 0) {
    magnitude = std::ldexp(static_cast<double>(mantissa), -24);
  } else if (exponent == 0x1f) {
    magnitude = mantissa != 0 ? std::numeric_limits<double>::quiet_NaN()
                              : std::numeric_limits<double>::infinity();
  } else {
    magnitude = std::ldexp(static_cast<double>(mantissa + 1024), exponent - 25);
  }
  return negative ? -magnitude : magnitude;
}

double parseNumber(const Json& value) {
  if (value.is_number()) return value.get<double>();
  if (value.is_boolean()) return value.get<bool>() ? 1.0 : 0.0;
  if (value.is_string()) {
    const std::string text = value.get<std::string>();
    if (text == "NaN") return std::numeric_limits<double>::quiet_NaN();
    if (text == "Infinity") return std::numeric_limits<double>::infinity();
    if (text == "-Infinity") return -std::numeric_limits<double>::infinity();
    if (text == "-0") return -0.0;
    double number = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
    if (error == std::errc() && end == text.data() + text.size() && !text.empty()) return number;
  }
  throw LoadError("not a number: " + value.dump());
}

uint64_t parseIntegerBits(const Json& value) {
  if (value.is_number_unsigned()) return value.get<uint64_t>();
  if (value.is_number_integer()) return static_cast<uint64_t>(value.get<int64_t>());
  if (value.is_string()) {
    const std::string text = value.get<std::string>();
    const bool negative = !text.empty() && text[0] == '-';
    const char* begin = text.data() + (negative ? 1 : 0);
    const char* end = text.data() + text.size();
    uint64_t magnitude = 0;
    auto [stop, error] = std::from_chars(begin, end, magnitude);
    if (error == std::errc() && stop == end && begin != end) {
      return negative ? (~magnitude + 1) : magnitude;  // BigInt64Array: modulo 2^64
    }
  }
  // A Number: ToIntegerOrInfinity, then modulo 2^64 (NaN and infinities give 0).
  const double number = parseNumber(value);
  if (!std::isfinite(number)) return 0;
  const double truncated = std::trunc(number);
  const double two64 = 18446744073709551616.0;
  double reduced = std::fmod(truncated, two64);
  if (reduced < 0) reduced += two64;
  if (reduced >= two64) reduced = 0;
  return static_cast<uint64_t>(reduced);
}

namespace {

template <class T>
void put(std::vector<std::byte>& bytes, uint64_t index, T value) {
  std::memcpy(bytes.data() + index * sizeof(T), &value, sizeof(T));
}

}  // namespace

std::vector<std::byte> encodeTensor(const TensorData& tensor) {
  const uint64_t count = tensor.elementCount();
  const MLOperandDescriptor descriptor = tensor.descriptor();
  std::vector<std::byte> bytes(descriptor.byteLength());
  auto valueAt = [&](uint64_t i) -> const Json& {
    return tensor.isFill() ? tensor.data : tensor.data.at(i);
  };
  const uint32_t bits = bitsPerElement(tensor.dataType);
  // A fill of a whole-byte type: encode one element, then copy it (large fills stay fast).
  const uint64_t encodeCount = tensor.isFill() && bits >= 8 ? std::min<uint64_t>(count, 1) : count;
  for (uint64_t i = 0; i < encodeCount; ++i) {
    const Json& value = valueAt(i);
    switch (tensor.dataType) {
      case MLOperandDataType::Float32:
        put(bytes, i, static_cast<float>(parseNumber(value)));
        break;
      case MLOperandDataType::Float16:
        put(bytes, i, toHalf(parseNumber(value)));
        break;
      case MLOperandDataType::Int32:
      case MLOperandDataType::Uint32:
        put(bytes, i, static_cast<uint32_t>(parseIntegerBits(value)));
        break;
      case MLOperandDataType::Int64:
      case MLOperandDataType::Uint64:
        put(bytes, i, parseIntegerBits(value));
        break;
      case MLOperandDataType::Int8:
      case MLOperandDataType::Uint8:
        put(bytes, i, static_cast<uint8_t>(parseIntegerBits(value)));
        break;
      case MLOperandDataType::Int4:
      case MLOperandDataType::Uint4: {
        const auto nibble = static_cast<uint8_t>(parseIntegerBits(value) & 0xfu);
        auto& byte = reinterpret_cast<uint8_t&>(bytes[i / 2]);
        byte = static_cast<uint8_t>(byte | (i % 2 == 0 ? nibble : nibble << 4));
        break;
      }
    }
  }
  const uint64_t elementBytes = bits / 8;
  for (uint64_t i = encodeCount; i < count; ++i) {
    std::memcpy(bytes.data() + i * elementBytes, bytes.data(), elementBytes);
  }
  return bytes;
}

}  // namespace webnn::conformance
