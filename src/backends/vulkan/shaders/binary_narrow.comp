// Element-wise binary ops on 8- and 16-bit integers (elements.glsl) with broadcasting: the values
// sign- or zero-extended to 32 bits, integer_binary.glsl's ops, the result truncated to the type
// (the same wrapping as in the narrow type). p: count, bits, rank, op, type, 0, 0, 0, shape[8],
// aStrides[8], bStrides[8].
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "elements.glsl"
#include "integer_binary.glsl"
layout(local_size_x = 64) in;
layout(std430, binding = 1) readonly buffer A { uint a[]; };
layout(std430, binding = 2) readonly buffer B { uint b[]; };
layout(std430, binding = 3) writeonly buffer Out { uint dst[]; };

DEFINE_ELEMENT_LOAD(loadA, a)
DEFINE_ELEMENT_LOAD(loadB, b)

uvec2 element(uint o) {
  uint ai = 0u, bi = 0u;
  uint rest = o;
  for (int d = int(p[2]) - 1; d >= 0; --d) {
    uint extent = p[8 + d];
    uint c = rest % extent;
    rest /= extent;
    ai += c * p[16 + d];
    bi += c * p[24 + d];
  }
  uint type = p[4];
  uint x = integerValue(loadA(ai, p[1]), type).x;
  uint y = integerValue(loadB(bi, p[1]), type).x;
  return uvec2(integerBinary(p[3], x, y, isSignedType(type)), 0u);
}

#include "write_elements.glsl"
