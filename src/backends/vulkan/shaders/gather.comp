// gather, elements of any size: out[o, j, k] = in[o, indices[j], k], indices resolved as
// indices.glsl says. p: count, bits, axisSize, indexCount, inner, indexType.
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

uvec2 element(uint i) {
  uint axisSize = p[2], count = p[3], inner = p[4];
  uint k = i % inner;
  uint j = (i / inner) % count;
  uint o = i / (inner * count);
  return load((o * axisSize + resolveIndex(p[5], j, axisSize)) * inner + k, p[1]);
}

#include "write_elements.glsl"
