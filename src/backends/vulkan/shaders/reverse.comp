// reverse, elements of any size: out[c] = in[c with the reversed axes' coordinates mirrored].
// p: count, bits, rank, reversedAxes (bit d: axis d), shape[8].
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "elements.glsl"
layout(local_size_x = 64) in;
layout(std430, binding = 1) readonly buffer In { uint src[]; };
layout(std430, binding = 2) writeonly buffer Out { uint dst[]; };

DEFINE_ELEMENT_LOAD(load, src)

uvec2 element(uint o) {
  uint offset = 0u;
  uint stride = 1u;
  uint rest = o;
  for (int d = int(p[2]) - 1; d >= 0; --d) {
    uint extent = p[4 + d];
    uint c = rest % extent;
    rest /= extent;
    if ((p[3] & (1u << uint(d))) != 0u) c = extent - 1u - c;
    offset += c * stride;
    stride *= extent;
  }
  return load(offset, p[1]);
}

#include "write_elements.glsl"
