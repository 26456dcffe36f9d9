// Turns the vectors' values into tensor bytes exactly as WPT's harness (utils.js) does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "conformance/case_loader.h"

namespace webnn::conformance {

// WPT's toHalf(): the value is first stored in a Float32Array (rounded to float32), then
// converted with James Tursa's algorithm: one extra mantissa bit kept and added (ties round
// away from zero), values below 2^-24 flush to signed zero, NaN gives 0x7c01 (sign kept).
uint16_t toHalf(double value);
// The number a float16 bit pattern holds.
double halfToDouble(uint16_t bits);

// A vector value as a double: JSON numbers, "NaN", "Infinity", "-Infinity", "-0", and decimal
// strings (int64/uint64). Throws LoadError for anything else.
double parseNumber(const Json& value);

// An integer value as a JS TypedArray stores it: BigInt (decimal strings) or Number (truncated
// toward zero, NaN and infinities to 0), reduced modulo 2^64. Signed and unsigned types then
// take the low bits they need.
uint64_t parseIntegerBits(const Json& value);

// The bytes of `tensor` as the harness passes them: fills expanded, float16 through toHalf,
// integers wrapped to their width, int4/uint4 packed two per byte (low nibble first).
std::vector<std::byte> encodeTensor(const TensorData& tensor);

}  // namespace webnn::conformance
