// resample2d on two axes of a 4-D float32 tensor, half-pixel centers: source = (destination +
// 0.5) / scale - 0.5; nearest takes floor((destination + 0.5) / scale), linear interpolates the
// two neighbours with the source clamped to [0, size - 1]. p: count, mode (0 nearest, 1 linear),
// axis0, axis1, scale0 bits, scale1 bits, 0, 0, outShape[4], inStrides[4], inSize0, inSize1.
// Operands float32 or float16 (float_io.glsl), arithmetic in float32.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "float_io.glsl"
layout(local_size_x = 64) in;
layout(std430, binding = 1) readonly buffer In { uint src[]; };
layout(std430, binding = 2) buffer Out { uint dst[]; };

DEFINE_FLOAT_LOAD(loadSrc, src)
DEFINE_FLOAT_STORE(store, dst)

// x = hi + lo exactly, hi of 12 significant bits (Veltkamp's split).
void split(float x, out float hi, out float lo) {
  precise float c = 4097.0 * x;
  precise float h = c - (c - x);
  hi = h;
  lo = x - h;
}

// (destination + 0.5) / scale as whole + fraction (fraction in [0, 1)) to float32 rounding of
// the fraction: the float32 quotient of a large destination loses the fraction's low bits (at
// 70000 outputs, 2e-3 of a pixel), so the quotient's floor is corrected by the remainder
// numerator - whole * scale, computed exactly with Dekker's product (no fma needed).
void divide(uint destination, float scale, out float whole, out float fraction) {
  float numerator = float(destination) + 0.5;
  float n = floor(numerator / scale);
  precise float product = n * scale;
  float nh, nl, sh, sl;
  split(n, nh, nl);
  split(scale, sh, sl);
  precise float error = ((nh * sh - product) + nh * sl + nl * sh) + nl * sl;
  precise float remainder = (numerator - product) - error;
  if (remainder < 0.0) {
    n -= 1.0;
    remainder += scale;
  } else if (remainder >= scale) {
    n += 1.0;
    remainder -= scale;
  }
  whole = n;
  fraction = clamp(remainder / scale, 0.0, 1.0);
}

void tap(uint destination, float scale, uint size, out uint low, out uint high, out float w) {
  float whole, fraction;
  divide(destination, scale, whole, fraction);
  // source = whole + fraction - 0.5, clamped to [0, size - 1].
  float lowIndex = fraction >= 0.5 ? whole : whole - 1.0;
  w = fraction >= 0.5 ? fraction - 0.5 : fraction + 0.5;
  if (lowIndex < 0.0) {
    lowIndex = 0.0;
    w = 0.0;
  } else if (lowIndex >= float(size - 1u)) {
    lowIndex = float(size - 1u);
    w = 0.0;
  }
  low = uint(lowIndex);
  high = min(low + 1u, size - 1u);
}
uint nearest(uint destination, float scale, uint size) {
  float whole, fraction;
  divide(destination, scale, whole, fraction);
  return uint(clamp(whole, 0.0, float(size - 1u)));
}

void main() {
  uint i = flatIndex();
  if (i >= p[0]) return;
  uint position[4];
  uint rest = i;
  for (int d = 3; d >= 0; --d) {
    position[d] = rest % p[8 + d];
    rest /= p[8 + d];
  }
  uint a0 = p[2], a1 = p[3];
  uint base = 0;
  for (uint d = 0; d < 4u; ++d) {
    if (d != a0 && d != a1) base += position[d] * p[12 + d];
  }
  uint s0 = p[12 + a0], s1 = p[12 + a1];
  if (p[1] == 0u) {
    store(i, loadSrc(base + nearest(position[a0], pf(4), p[16]) * s0 +
                 nearest(position[a1], pf(5), p[17]) * s1));
    return;
  }
  uint l0, h0, l1, h1;
  float w0, w1;
  tap(position[a0], pf(4), p[16], l0, h0, w0);
  tap(position[a1], pf(5), p[17], l1, h1, w1);
  float top =
      loadSrc(base + l0 * s0 + l1 * s1) * (1.0 - w1) + loadSrc(base + l0 * s0 + h1 * s1) * w1;
  float bottom =
      loadSrc(base + h0 * s0 + l1 * s1) * (1.0 - w1) + loadSrc(base + h0 * s0 + h1 * s1) * w1;
  store(i, top * (1.0 - w0) + bottom * w0);
}
