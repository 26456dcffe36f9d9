// Element access by data type: typed visitation for kernels, and a generic load/store through
// double for code that handles every type alike (scalar constants, casts, test harnesses).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "core/float16.h"
#include "webnn/number.h"
#include "webnn/types.h"

namespace webnn {

// float16 storage; arithmetic happens in float/double and rounds once per element.
struct Float16 {
  uint16_t bits = 0;
};

template <class T>
struct TypeTag {
  using type = T;
};

// int4/uint4 are packed two per byte; visitation hands them to the callee as Int4/Uint4 tags,
// which kernels that support them handle through loadElement/storeElement.
struct Int4 {};
struct Uint4 {};

template <class F>
decltype(auto) visitDataType(MLOperandDataType type, F&& f) {
  switch (type) {
    case MLOperandDataType::Float32:
      return f(TypeTag<float>{});
    case MLOperandDataType::Float16:
      return f(TypeTag<Float16>{});
    case MLOperandDataType::Int32:
      return f(TypeTag<int32_t>{});
    case MLOperandDataType::Uint32:
      return f(TypeTag<uint32_t>{});
    case MLOperandDataType::Int64:
      return f(TypeTag<int64_t>{});
    case MLOperandDataType::Uint64:
      return f(TypeTag<uint64_t>{});
    case MLOperandDataType::Int8:
      return f(TypeTag<int8_t>{});
    case MLOperandDataType::Uint8:
      return f(TypeTag<uint8_t>{});
    case MLOperandDataType::Int4:
      return f(TypeTag<Int4>{});
    case MLOperandDataType::Uint4:
      return f(TypeTag<Uint4>{});
  }
  return f(TypeTag<float>{});
}

template <class T>
inline constexpr bool kIsFloat = std::is_same_v<T, float> || std::is_same_v<T, Float16>;

// Value conversions for one stored element type.
template <class T>
inline double toDouble(T value) {
  if constexpr (std::is_same_v<T, Float16>) {
    return halfToFloat(value.bits);
  } else {
    return static_cast<double>(value);
  }
}

// Converts with the spec's cast rules: floats round to nearest; to integers, truncate toward zero
// and saturate to the type's range (NaN -> 0).
template <class T>
inline T fromDouble(double value) {
  if constexpr (std::is_same_v<T, Float16>) {
    return Float16{doubleToHalf(value)};
  } else if constexpr (std::is_same_v<T, float>) {
    return static_cast<float>(value);
  } else {
    if (std::isnan(value)) return T{0};
    const double truncated = std::trunc(value);
    if (truncated <= static_cast<double>(std::numeric_limits<T>::lowest())) {
      return std::numeric_limits<T>::lowest();
    }
    if (truncated >= static_cast<double>(std::numeric_limits<T>::max())) {
      return std::numeric_limits<T>::max();
    }
    return static_cast<T>(truncated);
  }
}

// Generic element access by index (handles int4/uint4 packing, low nibble first).
double loadElement(MLOperandDataType type, const std::byte* base, uint64_t index);
void storeElement(MLOperandDataType type, std::byte* base, uint64_t index, double value);
// Exact integer access for int64/uint64 and the small integer types (no trip through double).
int64_t loadInteger(MLOperandDataType type, const std::byte* base, uint64_t index);
void storeInteger(MLOperandDataType type, std::byte* base, uint64_t index, int64_t value);
// Stores an MLNumber with the cast rules of fromDouble, exactly for int64/uint64 values (which
// need not fit a double) and saturating to the type's range.
void storeNumber(MLOperandDataType type, std::byte* base, uint64_t index, const MLNumber& value);

}  // namespace webnn
