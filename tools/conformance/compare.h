// Compares an output's bytes with its expected data under a case's tolerance, with the rules of
// WPT's utils.js (README §3): strict equality passes first; ULP on sign-magnitude float32 bits,
// on float16 bit patterns (+0 == -0), plain differences for integers; ATOL on decoded values.
// Deliberate differences from upstream: NaN matches NaN (any payload) for every metric.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "conformance/case_loader.h"

namespace webnn::conformance {

// upstream's kMaximumIndexToValidate: scalar-fill expectations check this many elements.
inline constexpr uint64_t kMaximumIndexToValidate = 1000;

// ULP distance of two float32 values mapped to sign-magnitude integers (+0 and -0 both map to
// 0). NaN maps to its magnitude bits like any value.
uint64_t ulpDistanceFloat32(float a, float b);
// Distance of two float16 bit patterns; 0 when both are zeros of either sign.
uint64_t ulpDistanceFloat16(uint16_t a, uint16_t b);

struct Mismatch {
  uint64_t index = 0;
  std::string got;
  std::string expected;
  std::string distance;  // "5 ULP" or "0.25"
};

struct CompareResult {
  bool passed = true;
  uint64_t checked = 0;     // elements compared
  uint64_t mismatches = 0;  // elements out of tolerance
  std::optional<Mismatch> first;
  std::string error;  // the bytes cannot be compared (wrong size): passed is false
};

CompareResult compareOutput(const TensorData& expected, std::span<const std::byte> actual,
                            const Tolerance& tolerance);

// "5 ULP" / "ATOL 0.0009765625".
std::string describe(const Tolerance& tolerance);

}  // namespace webnn::conformance
