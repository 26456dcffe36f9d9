// softmax along one axis: one invocation per (outer, inner) row. p: outer, axis, inner.
// Operands float32 or float16 (float_io.glsl), arithmetic in float32.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "float_io.glsl"
layout(local_size_x = 64) in;
layout(std430, binding = 1) readonly buffer In { uint src[]; };
layout(std430, binding = 2) buffer Out { uint dst[]; };

DEFINE_FLOAT_LOAD(loadSrc, src)
DEFINE_FLOAT_STORE(store, dst)

void main() {
  uint i = flatIndex();
  uint axis = p[1], inner = p[2];
  if (i >= p[0] * inner) return;
  uint base = (i / inner) * axis * inner + i % inner;
  float maximum = -1.0 / 0.0;
  for (uint k = 0; k < axis; ++k) maximum = max(maximum, loadSrc(base + k * inner));
  float sum = 0.0;
  for (uint k = 0; k < axis; ++k) sum += exp(loadSrc(base + k * inner) - maximum);
  for (uint k = 0; k < axis; ++k) {
    store(base + k * inner, exp(loadSrc(base + k * inner) - maximum) / sum);
  }
}
