// batchNormalization: per-channel mean, variance, scale and bias. p: count, channels, inner,
// epsilon bits, hasScale, hasBias.
// Operands float32 or float16 (float_io.glsl), arithmetic in float32.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "float_io.glsl"
layout(local_size_x = 64) in;
layout(std430, binding = 1) readonly buffer In { uint src[]; };
layout(std430, binding = 2) readonly buffer Mean { uint mean[]; };
layout(std430, binding = 3) readonly buffer Variance { uint variance[]; };
layout(std430, binding = 4) readonly buffer Scale { uint scale[]; };
layout(std430, binding = 5) readonly buffer Bias { uint bias[]; };
layout(std430, binding = 6) buffer Out { uint dst[]; };

DEFINE_FLOAT_LOAD(loadSrc, src)
DEFINE_FLOAT_LOAD(loadMean, mean)
DEFINE_FLOAT_LOAD(loadVariance, variance)
DEFINE_FLOAT_LOAD(loadScale, scale)
DEFINE_FLOAT_LOAD(loadBias, bias)
DEFINE_FLOAT_STORE(store, dst)

void main() {
  uint i = flatIndex();
  if (i >= p[0]) return;
  uint c = (i / p[2]) % p[1];
  float y = (loadSrc(i) - loadMean(c)) / sqrt(loadVariance(c) + pf(3));
  if (p[4] != 0u) y *= loadScale(c);
  if (p[5] != 0u) y += loadBias(c);
  store(i, y);
}
