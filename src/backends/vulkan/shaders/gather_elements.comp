// gatherElements, elements of any size: out[c] = in[c with c[axis] = indices[c]], indices
// resolved as indices.glsl says. p: count, bits, rank, axis, indexType, axisSize, 0, 0,
// outShape[8] (the indices' shape), inStrides[8].
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "elements.glsl"
layout(local_size_x = 64) in;
layout(std430, binding = 1) readonly buffer In { uint src[]; };
layout(std430, binding = 2) readonly buffer Indices { uint indices[]; };
layout(std430, binding = 3) writeonly buffer Out { uint dst[]; };

#include "indices.glsl"
DEFINE_ELEMENT_LOAD(load, src)

uvec2 element(uint o) {
  uint axis = p[3];
  uint offset = 0u;
  uint rest = o;
  for (int d = int(p[2]) - 1; d >= 0; --d) {
    uint extent = p[8 + d];
    uint c = uint(d) == axis ? resolveIndex(p[4], o, p[5]) : rest % extent;
    rest /= extent;
    offset += c * p[16 + d];
  }
  return load(offset, p[1]);
}

#include "write_elements.glsl"
