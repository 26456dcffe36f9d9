// instanceNormalization and layerNormalization: one invocation per group of kept coordinates; the
// mean and variance over the reduced axes, then every element of the group. p: groups, keptRank,
// reducedCount, reducedRank, epsilon bits, hasScale, hasBias, 0, keptShape[8], keptStrides[8],
// reducedShape[8], reducedStrides[8], keptScaleStrides[8], reducedScaleStrides[8].
// Operands float32 or float16 (float_io.glsl), arithmetic in float32.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "float_io.glsl"
layout(local_size_x = 64) in;
layout(std430, binding = 1) readonly buffer In { uint src[]; };
layout(std430, binding = 2) readonly buffer Scale { uint scale[]; };
layout(std430, binding = 3) readonly buffer Bias { uint bias[]; };
layout(std430, binding = 4) buffer Out { uint dst[]; };

DEFINE_FLOAT_LOAD(loadSrc, src)
DEFINE_FLOAT_LOAD(loadScale, scale)
DEFINE_FLOAT_LOAD(loadBias, bias)
DEFINE_FLOAT_STORE(store, dst)

uint reducedOffset(uint r, uint strideBase) {
  uint offset = 0;
  for (int d = int(p[3]) - 1; d >= 0; --d) {
    uint extent = p[24 + d];
    offset += (r % extent) * p[strideBase + d];
    r /= extent;
  }
  return offset;
}

void main() {
  uint i = flatIndex();
  if (i >= p[0]) return;
  uint base = 0;
  uint scaleBase = 0;
  uint rest = i;
  for (int d = int(p[1]) - 1; d >= 0; --d) {
    uint extent = p[8 + d];
    uint c = rest % extent;
    rest /= extent;
    base += c * p[16 + d];
    scaleBase += c * p[40 + d];
  }
  uint n = p[2];
  float mean = 0.0;
  for (uint r = 0; r < n; ++r) mean += loadSrc(base + reducedOffset(r, 32u));
  mean /= float(n);
  float variance = 0.0;
  for (uint r = 0; r < n; ++r) {
    float d = loadSrc(base + reducedOffset(r, 32u)) - mean;
    variance += d * d;
  }
  variance /= float(n);
  float inverse = 1.0 / sqrt(variance + pf(4));
  for (uint r = 0; r < n; ++r) {
    uint offset = base + reducedOffset(r, 32u);
    uint s = scaleBase + reducedOffset(r, 48u);
    float y = (loadSrc(offset) - mean) * inverse;
    if (p[5] != 0u) y *= loadScale(s);
    if (p[6] != 0u) y += loadBias(s);
    store(offset, y);
  }
}
