// binary_int.comp (integer_binary.glsl's ops) on 64-bit integers (int64, uint64): needs the
// device's shaderInt64.
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#include "common.glsl"
layout(local_size_x = 64) in;
layout(std430, binding = 1) readonly buffer A { uint64_t a[]; };
layout(std430, binding = 2) readonly buffer B { uint64_t b[]; };
layout(std430, binding = 3) writeonly buffer Out { uint64_t dst[]; };

// integer_binary.glsl's integerPower in 64 bits.
uint64_t power(uint64_t x, uint64_t y, bool signedType) {
  if (signedType && int64_t(y) < 0l) {
    if (x == 1ul) return 1ul;
    if (x == 0xfffffffffffffffful) return (y & 1ul) == 0ul ? 1ul : x;
    return 0ul;
  }
  uint64_t r = 1ul;
  while (y != 0ul) {
    if ((y & 1ul) != 0ul) r *= x;
    x *= x;
    y >>= 1;
  }
  return r;
}

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
  uint64_t x = a[ai];
  uint64_t y = b[bi];
  bool signedType = p[3] != 0u;
  uint64_t r;
  switch (p[2]) {
    case 0u: r = x + y; break;
    case 1u: r = x - y; break;
    case 2u: r = x * y; break;
    case 3u:
      if (y == 0ul) {
        r = 0ul;
      } else if (signedType) {
        r = (x == 0x8000000000000000ul && y == 0xfffffffffffffffful)
                ? x : uint64_t(int64_t(x) / int64_t(y));
      } else {
        r = x / y;
      }
      break;
    case 4u: r = signedType ? uint64_t(max(int64_t(x), int64_t(y))) : max(x, y); break;
    case 5u: r = signedType ? uint64_t(min(int64_t(x), int64_t(y))) : min(x, y); break;
    case 6u: r = power(x, y, signedType); break;
    default: r = (signedType && int64_t(x) < 0l) ? y * x : x; break;  // prelu (y: the slope)
  }
  dst[i] = r;
}
