// reduce*: one invocation per output element. p: count, keptRank, op, reducedCount, reducedRank,
// 0, 0, 0, keptShape[8], keptStrides[8], reducedShape[8], reducedStrides[8] (input strides).
// op: 0 sum, 1 mean, 2 max, 3 min, 4 product, 5 l1, 6 l2, 7 logSum, 8 logSumExp, 9 sumSquare.
// float32 or float16 (float_io.glsl), accumulated in float32.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "float_io.glsl"
layout(local_size_x = 64) in;
layout(std430, binding = 1) readonly buffer In { uint src[]; };
layout(std430, binding = 2) buffer Out { uint dst[]; };

DEFINE_FLOAT_LOAD(load, src)
DEFINE_FLOAT_STORE(store, dst)

void main() {
  uint i = flatIndex();
  if (i >= p[0]) return;
  uint base = 0;
  uint rest = i;
  for (int d = int(p[1]) - 1; d >= 0; --d) {
    uint extent = p[8 + d];
    base += (rest % extent) * p[16 + d];
    rest /= extent;
  }
  uint op = p[2];
  uint n = p[3];
  float acc = op == 2u ? -1.0 / 0.0 : (op == 3u ? 1.0 / 0.0 : (op == 4u ? 1.0 : 0.0));
  float maximum = -1.0 / 0.0;
  if (op == 8u) {
    for (uint r = 0; r < n; ++r) {
      uint offset = base;
      uint left = r;
      for (int d = int(p[4]) - 1; d >= 0; --d) {
        uint extent = p[24 + d];
        offset += (left % extent) * p[32 + d];
        left /= extent;
      }
      maximum = max(maximum, load(offset));
    }
    if (isinf(maximum)) maximum = 0.0;
  }
  for (uint r = 0; r < n; ++r) {
    uint offset = base;
    uint left = r;
    for (int d = int(p[4]) - 1; d >= 0; --d) {
      uint extent = p[24 + d];
      offset += (left % extent) * p[32 + d];
      left /= extent;
    }
    float x = load(offset);
    switch (op) {
      case 2u: acc = isnan(x) || isnan(acc) ? x + acc : max(acc, x); break;
      case 3u: acc = isnan(x) || isnan(acc) ? x + acc : min(acc, x); break;
      case 4u: acc *= x; break;
      case 5u: acc += abs(x); break;
      case 6u: case 9u: acc += x * x; break;
      case 8u: acc += exp(x - maximum); break;
      default: acc += x; break;
    }
  }
  if (op == 1u) acc = n > 0u ? acc / float(n) : 0.0 / 0.0;
  if (op == 6u) acc = sqrt(acc);
  if (op == 7u) acc = log(acc);
  if (op == 8u) acc = log(acc) + maximum;
  store(i, acc);
}
