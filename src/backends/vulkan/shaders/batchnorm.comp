// batchNormalization: per-channel mean, variance, scale and bias. p: count, channels, inner,
// epsilon bits, hasScale, hasBias.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 64) in;
layout(std430, binding = 1) readonly buffer In { float src[]; };
layout(std430, binding = 2) readonly buffer Mean { float mean[]; };
layout(std430, binding = 3) readonly buffer Variance { float variance[]; };
layout(std430, binding = 4) readonly buffer Scale { float scale[]; };
layout(std430, binding = 5) readonly buffer Bias { float bias[]; };
layout(std430, binding = 6) writeonly buffer Out { float dst[]; };

void main() {
  uint i = flatIndex();
  if (i >= p[0]) return;
  uint c = (i / p[2]) % p[1];
  float y = (src[i] - mean[c]) / sqrt(variance[c] + pf(3));
  if (p[4] != 0u) y *= scale[c];
  if (p[5] != 0u) y += bias[c];
  dst[i] = y;
}
