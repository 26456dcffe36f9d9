// quantizeLinear and dequantizeLinear, scale and zeroPoint blockwise broadcast (element c of the
// input uses element c[d] / block[d] of theirs, block[d] = input[d] / scale[d]). quantize:
// saturate(roundEven(input / scale) + zeroPoint), NaN 0, the addition and saturation in 64-bit
// integers; dequantize: (input - zeroPoint) * scale, the difference exact in 64 bits. Data types
// as elements.glsl's codes. p: count, bits (of the output), dequantize, inType, scaleType,
// zeroType, outType, rank, shape[8], block[8], scaleStrides[8].
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "elements.glsl"
layout(local_size_x = 64) in;
layout(std430, binding = 1) readonly buffer In { uint src[]; };
layout(std430, binding = 2) readonly buffer Scale { uint scale[]; };
layout(std430, binding = 3) readonly buffer ZeroPoint { uint zeroPoint[]; };
layout(std430, binding = 4) writeonly buffer Out { uint dst[]; };

DEFINE_ELEMENT_LOAD(loadInput, src)
DEFINE_ELEMENT_LOAD(loadScale, scale)
DEFINE_ELEMENT_LOAD(loadZeroPoint, zeroPoint)

// An integer-valued float of magnitude below 2^41 as a 64-bit integer (its magnitude's words
// are exact floats; the sign applied in two's complement).
uvec2 integerOfFloat(float value) {
  float magnitude = abs(value);
  float high = floor(magnitude / 4294967296.0);
  uvec2 v = uvec2(uint(magnitude - high * 4294967296.0), uint(high));
  return value < 0.0 ? integerAdd(uvec2(~v.x, ~v.y), uvec2(1u, 0u)) : v;
}

// A 64-bit integer of magnitude below 2^63 as a float.
float floatOfInteger(uvec2 v) {
  if (int(v.y) >= 0) return float(v.x) + float(v.y) * 4294967296.0;
  uvec2 magnitude = integerAdd(uvec2(~v.x, ~v.y), uvec2(1u, 0u));
  return -(float(magnitude.x) + float(magnitude.y) * 4294967296.0);
}

// The smallest and largest value of integer type `type` (int8, uint8, int32, uint32, int4,
// uint4).
uvec2 lowest(uint type) {
  if (type == 6u) return uvec2(0xffffff80u, 0xffffffffu);
  if (type == 8u) return uvec2(0xfffffff8u, 0xffffffffu);
  if (type == 2u) return uvec2(0x80000000u, 0xffffffffu);
  return uvec2(0u);
}
uvec2 highest(uint type) {
  if (type == 6u) return uvec2(127u, 0u);
  if (type == 7u) return uvec2(255u, 0u);
  if (type == 8u) return uvec2(7u, 0u);
  if (type == 9u) return uvec2(15u, 0u);
  if (type == 2u) return uvec2(0x7fffffffu, 0u);
  return uvec2(0xffffffffu, 0u);
}

uvec2 element(uint o) {
  uint inType = p[3], scaleType = p[4], zeroType = p[5], outType = p[6];
  uint scaleIndex = 0u;
  uint rest = o;
  for (int d = int(p[7]) - 1; d >= 0; --d) {
    uint extent = p[8 + d];
    scaleIndex += (rest % extent) / p[16 + d] * p[24 + d];
    rest /= extent;
  }
  float s = floatValue(loadScale(scaleIndex, bitsOf(scaleType)), scaleType);
  uvec2 zero = integerValue(loadZeroPoint(scaleIndex, bitsOf(zeroType)), zeroType);
  uvec2 raw = loadInput(o, bitsOf(inType));
  if (p[2] != 0u) {
    // (input - zeroPoint) * scale.
    uvec2 negatedZero = integerAdd(uvec2(~zero.x, ~zero.y), uvec2(1u, 0u));
    float value = floatOfInteger(integerAdd(integerValue(raw, inType), negatedZero));
    return floatBits(value * s, outType);
  }
  float scaled = roundEven(floatValue(raw, inType) / s);
  if (isnan(scaled)) return uvec2(0u);
  uvec2 value = integerAdd(integerOfFloat(clamp(scaled, -1099511627776.0, 1099511627776.0)), zero);
  if (integerLess(value, lowest(outType), true)) return lowest(outType);
  if (integerLess(highest(outType), value, true)) return highest(outType);
  return value;
}

#include "write_elements.glsl"
