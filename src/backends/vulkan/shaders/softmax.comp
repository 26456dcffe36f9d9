// softmax along one axis: one invocation per (outer, inner) row. p: outer, axis, inner.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 64) in;
layout(std430, binding = 1) readonly buffer In { float src[]; };
layout(std430, binding = 2) writeonly buffer Out { float dst[]; };

void main() {
  uint i = flatIndex();
  uint axis = p[1], inner = p[2];
  if (i >= p[0] * inner) return;
  uint base = (i / inner) * axis * inner + i % inner;
  float maximum = -1.0 / 0.0;
  for (uint k = 0; k < axis; ++k) maximum = max(maximum, src[base + k * inner]);
  float sum = 0.0;
  for (uint k = 0; k < axis; ++k) sum += exp(src[base + k * inner] - maximum);
  for (uint k = 0; k < axis; ++k) dst[base + k * inner] = exp(src[base + k * inner] - maximum) / sum;
}
