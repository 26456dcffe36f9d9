// Strided copy of elements of any size (elements.glsl): reshape, identity, transpose, slice,
// expand, split. out[o] = in[inOffset + c . inStrides] for the coordinates c of o in `shape`
// (the output's). p: count, bits, rank, inOffset, shape[8], inStrides[8].
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "elements.glsl"
layout(local_size_x = 64) in;
layout(std430, binding = 1) readonly buffer In { uint src[]; };
layout(std430, binding = 2) writeonly buffer Out { uint dst[]; };

DEFINE_ELEMENT_LOAD(load, src)

uvec2 element(uint o) {
  uint offset = p[3];
  uint rest = o;
  for (int d = int(p[2]) - 1; d >= 0; --d) {
    uint extent = p[4 + d];
    offset += (rest % extent) * p[12 + d];
    rest /= extent;
  }
  return load(offset, p[1]);
}

#include "write_elements.glsl"
