// gatherND, elements of any size: out[b, e] = in[tuple b of indices, e], each coordinate
// resolved as indices.glsl says. p: count, bits, coordinateSize, indexType, inner (elements per
// tuple), 0, 0, 0, inShape[8], inStrides[8].
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
  uint coordinateSize = p[2];
  uint inner = p[4];
  uint batch = o / inner;
  uint offset = o % inner;
  for (uint j = 0u; j < coordinateSize; ++j) {
    offset += resolveIndex(p[3], batch * coordinateSize + j, p[8 + j]) * p[16 + j];
  }
  return load(offset, p[1]);
}

#include "write_elements.glsl"
