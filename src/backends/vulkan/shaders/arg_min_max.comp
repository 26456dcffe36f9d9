// argMin/argMax along one axis, input of any numeric data type (elements.glsl's codes): the
// first index of the smallest/largest value (a NaN never wins over an earlier value, and a first
// NaN is never beaten), as int32 or int64. One invocation per output element. p: count, type,
// isMax, axisSize, inner (the product of the dimensions after the axis), outputBits (32, 64).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "elements.glsl"
layout(local_size_x = 64) in;
layout(std430, binding = 1) readonly buffer In { uint src[]; };
layout(std430, binding = 2) writeonly buffer Out { uint dst[]; };

DEFINE_ELEMENT_LOAD(load, src)

void main() {
  uint o = flatIndex();
  if (o >= p[0]) return;
  uint type = p[1];
  bool isMax = p[2] != 0u;
  uint axisSize = p[3];
  uint inner = p[4];
  uint bits = bitsOf(type);
  uint base = (o / inner) * axisSize * inner + o % inner;
  uint best = 0u;
  if (axisSize == 0u) {
    // An empty axis: nothing to read, index 0.
  } else if (isFloatType(type)) {
    float bestValue = floatValue(load(base, bits), type);
    for (uint r = 1u; r < axisSize; ++r) {
      float value = floatValue(load(base + r * inner, bits), type);
      bool better = !isnan(value) && !isnan(bestValue) &&
                    (isMax ? value > bestValue : value < bestValue);
      if (better) {
        best = r;
        bestValue = value;
      }
    }
  } else {
    bool signedValues = isSignedType(type);
    uvec2 bestValue = integerValue(load(base, bits), type);
    for (uint r = 1u; r < axisSize; ++r) {
      uvec2 value = integerValue(load(base + r * inner, bits), type);
      if (isMax ? integerLess(bestValue, value, signedValues)
                : integerLess(value, bestValue, signedValues)) {
        best = r;
        bestValue = value;
      }
    }
  }
  if (p[5] == 64u) {
    dst[2u * o] = best;
    dst[2u * o + 1u] = 0u;
  } else {
    dst[o] = best;
  }
}
