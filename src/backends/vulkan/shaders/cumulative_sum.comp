// cumulativeSum along one axis, any numeric data type (elements.glsl's codes): floats summed in
// float32 with compensation (Neumaier), so that the result is the exact sum rounded once, as the
// reference's double sum is; integers in 64 bits, wrapping, truncated to the type. Each output
// element sums its own run of the axis, in the reference's order (O(axis) per element, and no
// two invocations write one word). p: count, bits, type, axisSize, inner, exclusive, reversed.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "elements.glsl"
layout(local_size_x = 64) in;
layout(std430, binding = 1) readonly buffer In { uint src[]; };
layout(std430, binding = 2) writeonly buffer Out { uint dst[]; };

DEFINE_ELEMENT_LOAD(load, src)

uvec2 element(uint o) {
  uint type = p[2];
  uint axisSize = p[3];
  uint inner = p[4];
  bool exclusive = p[5] != 0u;
  bool reversed = p[6] != 0u;
  uint bits = p[1];
  uint position = (o / inner) % axisSize;
  uint base = o - position * inner;
  // The run: positions [first, last) of the axis, in the order the reference adds them.
  uint first = reversed ? position + (exclusive ? 1u : 0u) : 0u;
  uint last = reversed ? axisSize : position + (exclusive ? 0u : 1u);
  if (isFloatType(type)) {
    precise float sum = 0.0;
    precise float compensation = 0.0;
    for (uint n = first; n < last; ++n) {
      uint r = reversed ? axisSize - 1u - (n - first) : n;
      precise float value = floatValue(load(base + r * inner, bits), type);
      precise float next = sum + value;
      compensation += abs(sum) >= abs(value) ? (sum - next) + value : (value - next) + sum;
      sum = next;
    }
    // An infinity or NaN makes the compensation NaN: the sum is the answer then.
    return floatBits(isinf(sum) || isnan(sum) ? sum : sum + compensation, type);
  }
  uvec2 sum = uvec2(0u);
  for (uint r = first; r < last; ++r) {
    sum = integerAdd(sum, integerValue(load(base + r * inner, bits), type));
  }
  return sum;
}

#include "write_elements.glsl"
