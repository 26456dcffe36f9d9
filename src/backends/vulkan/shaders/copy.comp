// Strided copy of 32-bit elements: reshape, transpose, slice, expand, concat, split, identity.
// p: count, rank, inOffset, outOffset, shape[8], inStrides[8], outStrides[8].
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 64) in;
layout(std430, binding = 1) readonly buffer In { uint src[]; };
layout(std430, binding = 2) writeonly buffer Out { uint dst[]; };

void main() {
  uint i = flatIndex();
  if (i >= p[0]) return;
  uint inIndex = p[2];
  uint outIndex = p[3];
  uint rest = i;
  for (int d = int(p[1]) - 1; d >= 0; --d) {
    uint extent = p[4 + d];
    uint c = rest % extent;
    rest /= extent;
    inIndex += c * p[12 + d];
    outIndex += c * p[20 + d];
  }
  dst[outIndex] = src[inIndex];
}
