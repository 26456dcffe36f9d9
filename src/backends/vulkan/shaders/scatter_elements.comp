// scatterElements, elements of any size, as the output's gather: out[c] is the update of the
// last indices position (in row-major order, as the reference applies them) that addresses c,
// else in[c]. Position q addresses c when q equals c off the axis and indices[q] resolves (as
// indices.glsl says) to c[axis]; O(indices' axis) per element, and no write races. p: count,
// bits, rank, axis, indexType, indicesAxisSize, 0, 0, outShape[8], indicesStrides[8].
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
  uint axis = p[3];
  uint base = 0u;
  uint target = 0u;
  uint rest = o;
  for (int d = int(p[2]) - 1; d >= 0; --d) {
    uint extent = p[8 + d];
    uint c = rest % extent;
    rest /= extent;
    if (uint(d) == axis) {
      target = c;
    } else {
      base += c * p[16 + d];
    }
  }
  uint axisSize = p[8 + axis];
  uint stride = p[16 + axis];
  for (uint k = p[5]; k-- > 0u;) {
    uint q = base + k * stride;
    if (resolveIndex(p[4], q, axisSize) == target) return loadUpdate(q, p[1]);
  }
  return loadInput(o, p[1]);
}

#include "write_elements.glsl"
