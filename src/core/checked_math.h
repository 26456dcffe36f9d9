// Checked arithmetic and strict number parsing for everything read from a file or a user: sizes,
// counts, offsets, dimensions and shapes. One helper for every place that multiplies or adds
// dimensions (the ONNX importer and its folding, the weights loaders, the CLI's .npy files and
// options, the conformance loader), so that no product wraps and no number is read partially.
#pragma once

#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string_view>
#include <type_traits>

namespace webnn::checked {

// a + b and a * b, or nullopt when the result does not fit in T.
template <class T>
constexpr std::optional<T> add(T a, T b) {
  T result;
  if (__builtin_add_overflow(a, b, &result)) return std::nullopt;
  return result;
}
template <class T>
constexpr std::optional<T> mul(T a, T b) {
  T result;
  if (__builtin_mul_overflow(a, b, &result)) return std::nullopt;
  return result;
}
template <class T>
constexpr std::optional<T> sub(T a, T b) {
  T result;
  if (__builtin_sub_overflow(a, b, &result)) return std::nullopt;
  return result;
}

// Two's-complement wrapping arithmetic on int64 (what integer tensor arithmetic does), without
// the undefined behaviour of signed overflow.
constexpr int64_t wrappingAdd(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}
constexpr int64_t wrappingSub(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
}
constexpr int64_t wrappingMul(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}
constexpr int64_t wrappingNeg(int64_t a) {
  return static_cast<int64_t>(0 - static_cast<uint64_t>(a));
}

// The number of elements of a shape (1 for a scalar), or nullopt when a dimension is negative or
// the product overflows uint64.
template <class Dimension>
constexpr std::optional<uint64_t> elementCount(std::span<const Dimension> shape) {
  uint64_t count = 1;
  for (const Dimension d : shape) {
    if constexpr (std::is_signed_v<Dimension>) {
      if (d < 0) return std::nullopt;
    }
    if (__builtin_mul_overflow(count, static_cast<uint64_t>(d), &count)) return std::nullopt;
  }
  return count;
}
template <class Container>
constexpr std::optional<uint64_t> elementCount(const Container& shape) {
  return elementCount(std::span<const typename Container::value_type>(shape.data(), shape.size()));
}

// elementCount(shape) * bytesPerElement, or nullopt on overflow.
template <class Container>
constexpr std::optional<uint64_t> byteLength(const Container& shape, uint64_t bytesPerElement) {
  const auto count = elementCount(shape);
  if (!count) return std::nullopt;
  return mul<uint64_t>(*count, bytesPerElement);
}

// `value` as a WebNN dimension (0 .. 2^32 - 1), or nullopt.
template <class T>
constexpr std::optional<uint32_t> toDimension(T value) {
  if constexpr (std::is_signed_v<T>) {
    if (value < 0) return std::nullopt;
  }
  if (static_cast<uint64_t>(value) > std::numeric_limits<uint32_t>::max()) return std::nullopt;
  return static_cast<uint32_t>(value);
}

// A double truncated toward zero as int64, or nullopt when it is NaN, infinite or out of range
// (a plain cast is undefined behaviour there).
inline std::optional<int64_t> toInt64(double value) {
  if (!std::isfinite(value)) return std::nullopt;
  const double t = std::trunc(value);
  // 2^63 is exactly representable; every double below it converts.
  if (t < -9223372036854775808.0 || t >= 9223372036854775808.0) return std::nullopt;
  return static_cast<int64_t>(t);
}
// Same, saturating at the int64 range, NaN giving 0 (for casts whose result is only a value).
inline int64_t toInt64Saturated(double value) {
  if (std::isnan(value)) return 0;
  if (const auto exact = toInt64(value)) return *exact;
  return value < 0 ? std::numeric_limits<int64_t>::min() : std::numeric_limits<int64_t>::max();
}

// Strict parsing: the whole text is one decimal integer (an optional '-' for signed types, no
// sign, space, prefix or suffix otherwise) that fits in T; nullopt otherwise.
template <class T>
std::optional<T> parseInteger(std::string_view text) {
  static_assert(std::is_integral_v<T>);
  if (text.empty()) return std::nullopt;
  if (text.front() == '+' || (std::is_unsigned_v<T> && text.front() == '-')) return std::nullopt;
  T value{};
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value, 10);
  if (error != std::errc() || stop != end) return std::nullopt;
  return value;
}

}  // namespace webnn::checked
