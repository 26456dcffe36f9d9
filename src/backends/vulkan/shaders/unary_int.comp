// abs, neg, sign, relu and clamp on integers of any size (elements.glsl): 64-bit arithmetic on
// two words, wrapping (abs and neg of the smallest value give it back), truncated to the type.
// p: count, bits, op (0 abs, 1 neg, 2 sign, 3 relu, 4 clamp), type, minLow, minHigh, maxLow,
// maxHigh (clamp's bounds in the type's range, as 64-bit integers).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "elements.glsl"
layout(local_size_x = 64) in;
layout(std430, binding = 1) readonly buffer In { uint src[]; };
layout(std430, binding = 2) writeonly buffer Out { uint dst[]; };

DEFINE_ELEMENT_LOAD(load, src)

uvec2 negated(uvec2 v) { return integerAdd(uvec2(~v.x, ~v.y), uvec2(1u, 0u)); }

uvec2 element(uint o) {
  uint type = p[3];
  bool signedValues = isSignedType(type);
  uvec2 x = integerValue(load(o, p[1]), type);
  bool negative = signedValues && int(x.y) < 0;
  switch (p[2]) {
    case 0u: return negative ? negated(x) : x;
    case 1u: return negated(x);
    case 2u: return negative ? uvec2(0xffffffffu) : (x == uvec2(0u) ? x : uvec2(1u, 0u));
    case 3u: return negative ? uvec2(0u) : x;
    default: {
      uvec2 low = uvec2(p[4], p[5]);
      uvec2 high = uvec2(p[6], p[7]);
      if (integerLess(x, low, signedValues)) return low;
      if (integerLess(high, x, signedValues)) return high;
      return x;
    }
  }
}

#include "write_elements.glsl"
