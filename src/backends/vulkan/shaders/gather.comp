// gather of 32-bit elements: out[o, j, k] = in[o, indices[j], k]. Negative indices wrap once,
// out-of-range ones clamp. p: count, axisSize, indexCount, inner, indexType (0 int32, 1 uint32,
// 2 int64).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 64) in;
layout(std430, binding = 1) readonly buffer In { uint src[]; };
layout(std430, binding = 2) readonly buffer Indices { uint indices[]; };
layout(std430, binding = 3) writeonly buffer Out { uint dst[]; };

void main() {
  uint i = flatIndex();
  if (i >= p[0]) return;
  uint axis = p[1], count = p[2], inner = p[3];
  uint k = i % inner;
  uint j = (i / inner) % count;
  uint o = i / (inner * count);
  int index;
  if (p[4] == 0u) {
    index = int(indices[j]);
  } else if (p[4] == 1u) {
    index = int(min(indices[j], axis - 1u));
  } else {
    uint low = indices[2u * j];
    int high = int(indices[2u * j + 1u]);
    index = high < -1 || (high == -1 && int(low) >= 0) ? -int(axis) - 1
            : (high > 0 || (high == 0 && int(low) < 0)) ? int(axis) : int(low);
  }
  if (index < 0) index += int(axis);
  index = clamp(index, 0, int(axis) - 1);
  dst[i] = src[(o * axis + uint(index)) * inner + k];
}
