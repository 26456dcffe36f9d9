// MLNumber: the spec's (bigint or unrestricted double). Clamp bounds, pad values and scalar
// constants are MLNumbers, so that int64 and uint64 values beyond 2^53 stay exact.
#pragma once

#include <concepts>
#include <cstdint>
#include <type_traits>

#include "webnn/export.h"

namespace webnn {

class WEBNN_EXPORT MLNumber {
 public:
  enum class Kind { Double, Int64, Uint64 };

  constexpr MLNumber() = default;
  // Any arithmetic value converts implicitly, as a JS number or bigint would: floating-point
  // values keep their double, signed integers their int64, unsigned integers their uint64.
  template <class T>
  requires std::is_arithmetic_v<T>
  constexpr MLNumber(T value) {  // NOLINT(google-explicit-constructor)
    if constexpr (std::is_floating_point_v<T>) {
      kind_ = Kind::Double;
      double_ = static_cast<double>(value);
    } else if constexpr (std::is_same_v<T, bool>) {
      kind_ = Kind::Int64;
      int64_ = value ? 1 : 0;
    } else if constexpr (std::is_signed_v<T>) {
      kind_ = Kind::Int64;
      int64_ = static_cast<int64_t>(value);
    } else {
      kind_ = Kind::Uint64;
      uint64_ = static_cast<uint64_t>(value);
    }
  }

  constexpr Kind kind() const { return kind_; }
  constexpr bool isInteger() const { return kind_ != Kind::Double; }
  // The value as a double (rounded for integers beyond 2^53).
  double toDouble() const;
  // The value as an integer of the given signedness, clamped to that type's range (NaN -> 0;
  // doubles are truncated toward zero), as the spec's conversion of a bound to an integer type.
  int64_t toInt64() const;
  uint64_t toUint64() const;

  bool operator==(const MLNumber& other) const;

 private:
  Kind kind_ = Kind::Double;
  double double_ = 0;
  int64_t int64_ = 0;
  uint64_t uint64_ = 0;
};

}  // namespace webnn
