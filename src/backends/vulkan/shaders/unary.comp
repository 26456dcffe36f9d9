// Element-wise unary ops and activations on float32 or float16 (float_io.glsl). p: count, op,
// alpha bits, beta bits (float32).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "float_io.glsl"
layout(local_size_x = 64) in;
layout(std430, binding = 1) readonly buffer In { uint src[]; };
layout(std430, binding = 2) buffer Out { uint dst[]; };

DEFINE_FLOAT_LOAD(load, src)
DEFINE_FLOAT_STORE(store, dst)

// erfc(z) for z >= 0 (Numerical Recipes erfcc Chebyshev fit: fractional error < 1.2e-7).
float erfcPositive(float z) {
  float t = 1.0 / (1.0 + 0.5 * z);
  return t * exp(-z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 +
         t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 +
         t * (-0.82215223 + t * 0.17087277)))))))));
}
// erf(x) near 0 by its Taylor series (where 1 - erfc would cancel).
float erfSmall(float x) {
  float x2 = x * x;
  float s = 1.0 + x2 * (-1.0 / 3.0 + x2 * (1.0 / 10.0 + x2 * (-1.0 / 42.0 + x2 * (1.0 / 216.0 +
            x2 * (-1.0 / 1320.0 + x2 * (1.0 / 9360.0))))));
  return 1.1283791670955126 * x * s;
}
float erfApprox(float x) {
  if (abs(x) < 0.5) return erfSmall(x);
  return x > 0.0 ? 1.0 - erfcPositive(x) : erfcPositive(-x) - 1.0;
}
// 1 + erf(x) without cancelling for negative x (gelu).
float onePlusErf(float x) {
  if (abs(x) < 0.5) return 1.0 + erfSmall(x);
  return x > 0.0 ? 2.0 - erfcPositive(x) : erfcPositive(-x);
}
float tanhSafe(float x) {
  float t = exp(-2.0 * abs(x));
  float r = (1.0 - t) / (1.0 + t);
  return x < 0.0 ? -r : r;
}

void main() {
  uint i = flatIndex();
  if (i >= p[0]) return;
  float x = load(i);
  float alpha = pf(2);
  float beta = pf(3);
  float r;
  switch (p[1]) {
    case 0u: r = abs(x); break;
    case 1u: r = ceil(x); break;
    case 2u: r = cos(x); break;
    case 3u: r = exp(x); break;
    case 4u: r = floor(x); break;
    case 5u: r = log(x); break;
    case 6u: r = -x; break;
    case 7u: r = 1.0 / x; break;
    case 8u: r = sin(x); break;
    case 9u: r = sqrt(x); break;
    case 10u: r = tan(x); break;
    case 11u: r = tanhSafe(x); break;
    case 12u: r = erfApprox(x); break;
    case 13u: r = max(x, 0.0); break;
    case 14u: r = 1.0 / (1.0 + exp(-x)); break;
    case 15u: r = x < 0.0 ? alpha * (exp(x) - 1.0) : x; break;
    case 16u: r = x < 0.0 ? alpha * x : x; break;
    case 17u: r = clamp(alpha * x + beta, 0.0, 1.0); break;
    case 18u: r = x * clamp(x + 3.0, 0.0, 6.0) / 6.0; break;
    case 19u: r = alpha * x + beta; break;
    case 20u: r = max(x, 0.0) + log(1.0 + exp(-abs(x))); break;
    case 21u: r = x / (1.0 + abs(x)); break;
    case 22u: r = 0.5 * x * onePlusErf(x * 0.70710678118654752); break;
    case 23u: r = isnan(x) ? x : min(max(x, alpha), beta); break;
    case 24u: r = x; break;
    case 25u: r = isnan(x) ? 0.0 : sign(x); break;
    default: r = roundEven(x); break;
  }
  store(i, r);
}
