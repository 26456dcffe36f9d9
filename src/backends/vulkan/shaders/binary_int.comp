// Element-wise add, sub, mul, div, max, min on 32-bit integers (int32, uint32) with
// broadcasting; arithmetic wraps, division truncates and by zero gives 0. p: count, rank, op,
// signed, shape[8], aStrides[8], bStrides[8].
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
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
  uint x = a[ai];
  uint y = b[bi];
  bool signedType = p[3] != 0u;
  uint r;
  switch (p[2]) {
    case 0u: r = x + y; break;
    case 1u: r = x - y; break;
    case 2u: r = x * y; break;
    case 3u:
      if (y == 0u) {
        r = 0u;
      } else if (signedType) {
        r = (x == 0x80000000u && y == 0xffffffffu) ? x : uint(int(x) / int(y));
      } else {
        r = x / y;
      }
      break;
    case 4u: r = signedType ? uint(max(int(x), int(y))) : max(x, y); break;
    default: r = signedType ? uint(min(int(x), int(y))) : min(x, y); break;
  }
  dst[i] = r;
}
