// IEEE 754 binary16 conversions (round to nearest even).
#pragma once

#include <bit>
#include <cstdint>

namespace webnn {

inline float halfToFloat(uint16_t half) {
  const uint32_t sign = static_cast<uint32_t>(half & 0x8000u) << 16;
  const uint32_t exponent = (half >> 10) & 0x1fu;
  uint32_t mantissa = half & 0x3ffu;
  uint32_t bits;
  if (exponent == 0) {
    if (mantissa == 0) {
      bits = sign;
    } else {  // subnormal: normalize
      int shift = 0;
      while ((mantissa & 0x400u) == 0) {
        mantissa <<= 1;
        ++shift;
      }
      mantissa &= 0x3ffu;
      bits = sign | (static_cast<uint32_t>(127 - 15 - shift + 1) << 23) | (mantissa << 13);
    }
  } else if (exponent == 0x1f) {
    bits = sign | 0x7f800000u | (mantissa << 13);
  } else {
    bits = sign | ((exponent + 127 - 15) << 23) | (mantissa << 13);
  }
  return std::bit_cast<float>(bits);
}

inline uint16_t floatToHalf(float value) {
  const uint32_t bits = std::bit_cast<uint32_t>(value);
  const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  const uint32_t absolute = bits & 0x7fffffffu;
  if (absolute >= 0x7f800000u) {  // Inf or NaN
    return static_cast<uint16_t>(sign | 0x7c00u | (absolute > 0x7f800000u ? 0x200u : 0u));
  }
  if (absolute >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // overflow -> Inf
  if (absolute < 0x38800000u) {  // subnormal or zero in half precision
    if (absolute < 0x33000000u) return sign;  // below half of the smallest subnormal
    const uint32_t exponent = absolute >> 23;
    const uint32_t mantissa = (absolute & 0x7fffffu) | 0x800000u;
    // value = mantissa * 2^(exponent - 150); in units of the smallest subnormal (2^-24):
    const uint32_t shift = 126 - exponent;
    uint32_t result = mantissa >> shift;
    const uint32_t remainder = mantissa & ((1u << shift) - 1u);
    const uint32_t halfway = 1u << (shift - 1);
    if (remainder > halfway || (remainder == halfway && (result & 1u))) ++result;
    return static_cast<uint16_t>(sign | result);
  }
  uint32_t result = ((absolute - 0x38000000u) >> 13);
  const uint32_t remainder = absolute & 0x1fffu;
  if (remainder > 0x1000u || (remainder == 0x1000u && (result & 1u))) ++result;
  return static_cast<uint16_t>(sign | result);
}

// Rounds a double to the nearest half once (going through float first could round twice).
inline uint16_t doubleToHalf(double value) {
  const uint64_t bits = std::bit_cast<uint64_t>(value);
  const uint16_t sign = static_cast<uint16_t>((bits >> 48) & 0x8000u);
  const uint64_t absolute = bits & 0x7fffffffffffffffull;
  const int exponent = static_cast<int>(absolute >> 52) - 1023;
  if (absolute >= 0x7ff0000000000000ull) {  // Inf or NaN
    return static_cast<uint16_t>(sign | 0x7c00u | (absolute > 0x7ff0000000000000ull ? 0x200u : 0u));
  }
  if (exponent > 15) return static_cast<uint16_t>(sign | 0x7c00u);
  if (exponent < -26) return sign;  // below half of the smallest subnormal (2^-25)
  const uint64_t mantissa = (absolute & 0xfffffffffffffull) | (1ull << 52);
  // Units of the result's last place: 2^-24 for subnormals, 2^(exponent-10) for normals.
  const int unitExponent = exponent < -14 ? -24 : exponent - 10;
  const int shift = 52 - (exponent - unitExponent);  // mantissa * 2^(exponent-52) / 2^unit
  uint64_t result = mantissa >> shift;
  const uint64_t remainder = mantissa & ((1ull << shift) - 1);
  const uint64_t halfway = 1ull << (shift - 1);
  if (remainder > halfway || (remainder == halfway && (result & 1u))) ++result;
  if (exponent >= -14) {
    // result holds the implicit bit at 2^10; fold in the biased exponent (a carry bumps it).
    result = (static_cast<uint64_t>(exponent + 15) << 10) + (result - (1u << 10));
    if (result >= 0x7c00u) return static_cast<uint16_t>(sign | 0x7c00u);
  }
  return static_cast<uint16_t>(sign | result);
}

}  // namespace webnn
