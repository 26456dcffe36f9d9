// scatterND, elements of any size, as the output's gather: out[o] is element e of the last
// update slice (in order, as the reference applies them) whose tuple of indices addresses the
// slice holding o (coordinates resolved as indices.glsl says), else in[o]; O(tuples) per
// element, and no write races. p: count, bits, coordinateSize, indexType, inner (elements per
// slice), tuples, 0, 0, outShape[8], outStrides[8].
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "elements.glsl"
layout(local_size_x = 64) in;
layout(std430, binding = 1) readonly buffer In { uint src[]; };
layout(std430, binding = 2) readonly buffer Indices { uint indices[]; };
layout(std430, binding = 3) readonly buffer Updates { uint updates[]; };
layout(std430, binding = 4) writeonly buffer Out { uint dst[]; };

#include "indices.glsl"
DEFINE_ELEMENT_LOAD(loadInput, src)
DEFINE_ELEMENT_LOAD(loadUpdate, updates)

uvec2 element(uint o) {
  uint coordinateSize = p[2];
  uint inner = p[4];
  uint e = o % inner;
  uint slice = o - e;
  for (uint b = p[5]; b-- > 0u;) {
    uint offset = 0u;
    for (uint j = 0u; j < coordinateSize; ++j) {
      offset += resolveIndex(p[3], b * coordinateSize + j, p[8 + j]) * p[16 + j];
    }
    if (offset == slice) return loadUpdate(b * inner + e, p[1]);
  }
  return loadInput(o, p[1]);
}

#include "write_elements.glsl"
