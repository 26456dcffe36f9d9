// Element-wise binary ops on 32-bit integers (int32, uint32) with broadcasting, as
// integer_binary.glsl says. p: count, rank, op, signed, shape[8], aStrides[8], bStrides[8].
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "integer_binary.glsl"
layout(local_size_x = 64) in;
layout(std430, binding = 1) readonly buffer A { uint a[]; };
layout(std430, binding = 2) readonly buffer B { uint b[]; };
layout(std430, binding = 3) writeonly buffer Out { uint dst[]; };

void main() {
  uint i = flatIndex();
  if (i >= p[0]) return;
  uint ai = 0;
  uint bi = 0;
  uint rest = i;
  for (int d = int(p[1]) - 1; d >= 0; --d) {
    uint extent = p[4 + d];
    uint c = rest % extent;
    rest /= extent;
    ai += c * p[12 + d];
    bi += c * p[20 + d];
  }
  dst[i] = integerBinary(p[2], a[ai], b[bi], p[3] != 0u);
}
