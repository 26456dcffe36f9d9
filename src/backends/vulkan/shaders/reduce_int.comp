// reduce* on integers of any size (elements.glsl): sum, max, min, product, l1, sumSquare in
// 64-bit arithmetic on two words (wrapping, as the reference's int64/uint64 domain), the result
// truncated to the type. p: count, bits, op (reduce.comp's codes), type, reducedCount,
// keptRank, reducedRank, 0, keptShape[8], keptStrides[8], reducedShape[8], reducedStrides[8].
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "elements.glsl"
layout(local_size_x = 64) in;
layout(std430, binding = 1) readonly buffer In { uint src[]; };
layout(std430, binding = 2) writeonly buffer Out { uint dst[]; };

DEFINE_ELEMENT_LOAD(load, src)

// The low 64 bits of a * b.
uvec2 integerMul(uvec2 a, uvec2 b) {
  uint high, low;
  umulExtended(a.x, b.x, high, low);
  return uvec2(low, high + a.x * b.y + a.y * b.x);
}

uvec2 element(uint o) {
  uint base = 0u;
  uint rest = o;
  for (int d = int(p[5]) - 1; d >= 0; --d) {
    uint extent = p[8 + d];
    base += (rest % extent) * p[16 + d];
    rest /= extent;
  }
  uint op = p[2];
  uint type = p[3];
  bool signedValues = isSignedType(type);
  uvec2 acc = op == 4u ? uvec2(1u, 0u) : uvec2(0u);
  for (uint r = 0u; r < p[4]; ++r) {
    uint offset = base;
    uint left = r;
    for (int d = int(p[6]) - 1; d >= 0; --d) {
      uint extent = p[24 + d];
      offset += (left % extent) * p[32 + d];
      left /= extent;
    }
    uvec2 x = integerValue(load(offset, p[1]), type);
    switch (op) {
      case 2u: if (r == 0u || integerLess(acc, x, signedValues)) acc = x; break;
      case 3u: if (r == 0u || integerLess(x, acc, signedValues)) acc = x; break;
      case 4u: acc = integerMul(acc, x); break;
      case 5u:
        if (signedValues && int(x.y) < 0) x = integerAdd(uvec2(~x.x, ~x.y), uvec2(1u, 0u));
        acc = integerAdd(acc, x);
        break;
      case 9u: acc = integerAdd(acc, integerMul(x, x)); break;
      default: acc = integerAdd(acc, x); break;
    }
  }
  return acc;
}

#include "write_elements.glsl"
