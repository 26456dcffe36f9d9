// Element-wise binary ops on float32 or float16 (float_io.glsl) with broadcasting. p: count,
// rank, op, 0, shape[8], aStrides[8], bStrides[8] (0 where an input broadcasts). Output
// contiguous.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "float_io.glsl"
layout(local_size_x = 64) in;
layout(std430, binding = 1) readonly buffer A { uint a[]; };
layout(std430, binding = 2) readonly buffer B { uint b[]; };
layout(std430, binding = 3) buffer Out { uint dst[]; };

DEFINE_FLOAT_LOAD(loadA, a)
DEFINE_FLOAT_LOAD(loadB, b)
DEFINE_FLOAT_STORE(store, dst)

// x^y, exact where a few multiplications are (small integer exponents, by squaring) and square
// roots for +/-0.5; GLSL's pow (exp2(y log2 x)) elsewhere.
float power(float x, float y) {
  if (y == 0.0) return 1.0;
  if (isnan(x) || isnan(y)) return x + y;
  if (y == 0.5 && x >= 0.0) return sqrt(x);
  if (y == -0.5 && x > 0.0) return 1.0 / sqrt(x);
  if (floor(y) == y && abs(y) <= 64.0) {
    uint n = uint(abs(y));
    float base = x;
    float r = 1.0;
    while (n > 0u) {
      if ((n & 1u) != 0u) r *= base;
      base *= base;
      n >>= 1;
    }
    return y < 0.0 ? 1.0 / r : r;
  }
  if (x == 0.0) return y > 0.0 ? 0.0 : 1.0 / 0.0;
  if (x > 0.0) return pow(x, y);
  if (floor(y) != y) return 0.0 / 0.0;
  float r = pow(-x, y);
  return mod(y, 2.0) == 1.0 ? -r : r;
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
  float x = loadA(ai);
  float y = loadB(bi);
  float r;
  switch (p[2]) {
    case 0u: r = x + y; break;
    case 1u: r = x - y; break;
    case 2u: r = x * y; break;
    case 3u: r = x / y; break;
    case 4u: r = isnan(x) || isnan(y) ? x + y : max(x, y); break;
    case 5u: r = isnan(x) || isnan(y) ? x + y : min(x, y); break;
    case 6u: r = power(x, y); break;
    default: r = x < 0.0 ? x * y : x; break;  // prelu (y: slope)
  }
  store(i, r);
}
