// where: out = condition != 0 ? trueValue : falseValue, values of any size (elements.glsl),
// broadcasting; the condition is uint8. p: count, bits, rank, 0, shape[8], conditionStrides[8],
// trueStrides[8], falseStrides[8].
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "elements.glsl"
layout(local_size_x = 64) in;
layout(std430, binding = 1) readonly buffer Condition { uint condition[]; };
layout(std430, binding = 2) readonly buffer TrueValue { uint trueValue[]; };
layout(std430, binding = 3) readonly buffer FalseValue { uint falseValue[]; };
layout(std430, binding = 4) writeonly buffer Out { uint dst[]; };

DEFINE_ELEMENT_LOAD(loadCondition, condition)
DEFINE_ELEMENT_LOAD(loadTrue, trueValue)
DEFINE_ELEMENT_LOAD(loadFalse, falseValue)

uvec2 element(uint o) {
  uint ci = 0, ti = 0, fi = 0;
  uint rest = o;
  for (int d = int(p[2]) - 1; d >= 0; --d) {
    uint extent = p[4 + d];
    uint c = rest % extent;
    rest /= extent;
    ci += c * p[12 + d];
    ti += c * p[20 + d];
    fi += c * p[28 + d];
  }
  return loadCondition(ci, 8u).x != 0u ? loadTrue(ti, p[1]) : loadFalse(fi, p[1]);
}

#include "write_elements.glsl"
