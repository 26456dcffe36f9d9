#include "conformance/compare.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <sstream>

#include "conformance/tensor_data.h"

namespace webnn::conformance {
namespace {

std::string formatDouble(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value < 0 ? "-Infinity" : "Infinity";
  if (value == 0 && std::signbit(value)) return "-0";
  std::ostringstream out;
  out.precision(9);
  out << value;
  return out.str();
}

std::string formatHalf(uint16_t bits) {
  char hex[16];
  std::snprintf(hex, sizeof hex, "0x%04x", static_cast<unsigned>(bits));
  return formatDouble(halfToDouble(bits)) + " (" + hex + ")";
}

std::string formatUlp(uint64_t distance) {
  return std::to_string(distance) + " ULP";
}

template <class T>
T load(std::span<const std::byte> bytes, uint64_t index) {
  T value;
  std::memcpy(&value, bytes.data() + index * sizeof(T), sizeof(T));
  return value;
}

// An element of an integer tensor: its value as stored, sign-extended for signed types.
struct IntegerElement {
  bool isSigned = false;
  uint64_t bits = 0;
  double number() const {
    return isSigned ? static_cast<double>(static_cast<int64_t>(bits)) : static_cast<double>(bits);
  }
  std::string text() const {
    return isSigned ? std::to_string(static_cast<int64_t>(bits)) : std::to_string(bits);
  }
};

IntegerElement loadInteger(MLOperandDataType type, std::span<const std::byte> bytes,
                           uint64_t index) {
  switch (type) {
    case MLOperandDataType::Int32:
      return {true, static_cast<uint64_t>(static_cast<int64_t>(load<int32_t>(bytes, index)))};
    case MLOperandDataType::Uint32:
      return {false, load<uint32_t>(bytes, index)};
    case MLOperandDataType::Int64:
      return {true, load<uint64_t>(bytes, index)};
    case MLOperandDataType::Uint64:
      return {false, load<uint64_t>(bytes, index)};
    case MLOperandDataType::Int8:
      return {true, static_cast<uint64_t>(static_cast<int64_t>(load<int8_t>(bytes, index)))};
    case MLOperandDataType::Uint8:
      return {false, load<uint8_t>(bytes, index)};
    case MLOperandDataType::Int4:
    case MLOperandDataType::Uint4: {
      uint64_t nibble = (load<uint8_t>(bytes, index / 2) >> ((index % 2) * 4)) & 0xfu;
      const bool isSigned = type == MLOperandDataType::Int4;
      if (isSigned && (nibble & 0x8u)) nibble |= ~uint64_t{0xf};
      return {isSigned, nibble};
    }
    case MLOperandDataType::Float32:
    case MLOperandDataType::Float16:
      break;
  }
  return {};
}

// |a - b| of two integers of the same signedness, exact.
uint64_t integerDistance(const IntegerElement& a, const IntegerElement& b) {
  const bool aLarger =
      a.isSigned ? static_cast<int64_t>(a.bits) >= static_cast<int64_t>(b.bits) : a.bits >= b.bits;
  return aLarger ? a.bits - b.bits : b.bits - a.bits;
}

bool isIntegral(const Json& value) {
  if (value.is_number_integer() || value.is_string()) return true;
  const double number = parseNumber(value);
  return std::isfinite(number) && std::trunc(number) == number;
}

// The decoded value of element `index` (ATOL compares decoded values).
double decode(MLOperandDataType type, std::span<const std::byte> bytes, uint64_t index) {
  switch (type) {
    case MLOperandDataType::Float32:
      return load<float>(bytes, index);
    case MLOperandDataType::Float16:
      return halfToDouble(load<uint16_t>(bytes, index));
    default:
      return loadInteger(type, bytes, index).number();
  }
}

std::string formatElement(MLOperandDataType type, std::span<const std::byte> bytes,
                          uint64_t index) {
  switch (type) {
    case MLOperandDataType::Float32:
      return formatDouble(load<float>(bytes, index));
    case MLOperandDataType::Float16:
      return formatHalf(load<uint16_t>(bytes, index));
    default:
      return loadInteger(type, bytes, index).text();
  }
}

// One element under the ULP metric: whether it passes, and the distance when it does not.
bool ulpElement(MLOperandDataType type, std::span<const std::byte> actual, uint64_t index,
                const Json& expectedValue, double tolerance, Mismatch& mismatch) {
  switch (type) {
    case MLOperandDataType::Float32: {
      const float got = load<float>(actual, index);
      const double expected = parseNumber(expectedValue);
      if (static_cast<double>(got) == expected) return true;
      if (std::isnan(got) && std::isnan(expected)) return true;
      const uint64_t distance = ulpDistanceFloat32(got, static_cast<float>(expected));
      mismatch.distance = formatUlp(distance);
      return static_cast<double>(distance) <= tolerance;
    }
    case MLOperandDataType::Float16: {
      const uint16_t got = load<uint16_t>(actual, index);
      const double expected = parseNumber(expectedValue);
      if (halfToDouble(got) == expected) return true;
      if (std::isnan(halfToDouble(got)) && std::isnan(expected)) return true;
      const uint16_t expectedBits = toHalf(expected);
      const uint64_t distance = ulpDistanceFloat16(got, expectedBits);
      mismatch.distance = formatUlp(distance) + " (expected bits " + formatHalf(expectedBits) + ")";
      return static_cast<double>(distance) <= tolerance;
    }
    default: {
      const IntegerElement got = loadInteger(type, actual, index);
      if (!isIntegral(expectedValue)) {
        const double distance = std::fabs(got.number() - parseNumber(expectedValue));
        mismatch.distance = formatDouble(distance);
        return distance <= tolerance;
      }
      const IntegerElement expected{got.isSigned, parseIntegerBits(expectedValue)};
      const uint64_t distance = integerDistance(got, expected);
      mismatch.distance = std::to_string(distance);
      return static_cast<double>(distance) <= tolerance;
    }
  }
}

bool atolElement(MLOperandDataType type, std::span<const std::byte> actual, uint64_t index,
                 const Json& expectedValue, double tolerance, Mismatch& mismatch) {
  const double got = decode(type, actual, index);
  const double expected = parseNumber(expectedValue);
  if (got == expected) return true;
  if (std::isnan(got) && std::isnan(expected)) return true;
  const double distance = std::fabs(got - expected);
  mismatch.distance = formatDouble(distance);
  return distance <= tolerance;  // false for NaN
}

}  // namespace

uint64_t ulpDistanceFloat32(float a, float b) {
  auto map = [](float value) -> int64_t {
    const auto magnitude = static_cast<int64_t>(std::bit_cast<uint32_t>(value) & 0x7fffffffu);
    return std::signbit(value) ? -magnitude : magnitude;
  };
  const int64_t x = map(a);
  const int64_t y = map(b);
  return static_cast<uint64_t>(x >= y ? x - y : y - x);
}

uint64_t ulpDistanceFloat16(uint16_t a, uint16_t b) {
  if ((a & 0x7fffu) == 0 && (b & 0x7fffu) == 0) return 0;
  return a >= b ? a - b : b - a;
}

CompareResult compareOutput(const TensorData& expected, std::span<const std::byte> actual,
                            const Tolerance& tolerance) {
  CompareResult result;
  const uint64_t byteLength = expected.descriptor().byteLength();
  if (actual.size() != byteLength) {
    result.passed = false;
    result.error = "output holds " + std::to_string(actual.size()) + " bytes, expected " +
                   std::to_string(byteLength);
    return result;
  }
  const uint64_t count = expected.elementCount();
  const uint64_t checked =
      expected.isFill() && count > 1 ? std::min(count, kMaximumIndexToValidate) : count;
  const MLOperandDataType type = expected.dataType;
  for (uint64_t i = 0; i < checked; ++i) {
    const Json& value = expected.isFill() ? expected.data : expected.data.at(i);
    Mismatch mismatch;
    const bool ok = tolerance.kind == Tolerance::Kind::Ulp
                        ? ulpElement(type, actual, i, value, tolerance.value, mismatch)
                        : atolElement(type, actual, i, value, tolerance.value, mismatch);
    if (ok) continue;
    result.passed = false;
    ++result.mismatches;
    if (!result.first) {
      mismatch.index = i;
      mismatch.got = formatElement(type, actual, i);
      mismatch.expected = value.is_string() ? value.get<std::string>() : value.dump();
      result.first = mismatch;
    }
  }
  result.checked = checked;
  return result;
}

std::string describe(const Tolerance& tolerance) {
  if (tolerance.kind == Tolerance::Kind::Ulp) {
    return std::to_string(static_cast<uint64_t>(tolerance.value)) + " ULP";
  }
  return "ATOL " + formatDouble(tolerance.value);
}

}  // namespace webnn::conformance
