// where: out = condition != 0 ? trueValue : falseValue, 32-bit values, broadcasting; the
// condition is uint8 (four to a word). p: count, rank, 0, 0, shape[8], conditionStrides[8],
// trueStrides[8], falseStrides[8].
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 64) in;
layout(std430, binding = 1) readonly buffer Condition { uint condition[]; };
layout(std430, binding = 2) readonly buffer TrueValue { uint trueValue[]; };
layout(std430, binding = 3) readonly buffer FalseValue { uint falseValue[]; };
layout(std430, binding = 4) writeonly buffer Out { uint dst[]; };

void main() {
  uint i = flatIndex();
  if (i >= p[0]) return;
  uint ci = 0, ti = 0, fi = 0;
  uint rest = i;
  for (int d = int(p[1]) - 1; d >= 0; --d) {
    uint extent = p[4 + d];
    uint c = rest % extent;
    rest /= extent;
    ci += c * p[12 + d];
    ti += c * p[20 + d];
    fi += c * p[28 + d];
  }
  uint byte = (condition[ci >> 2] >> ((ci & 3u) * 8u)) & 0xffu;
  dst[i] = byte != 0u ? trueValue[ti] : falseValue[fi];
}
