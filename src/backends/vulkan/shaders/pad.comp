// pad of elements of any size (elements.glsl), every mode. p: count, bits, rank, mode
// (0 constant, 1 edge, 2 reflection, 3 symmetric), value's raw bits (low word, high word),
// 0, 0, outShape[8], inShape[8], begin[8]. Input and output contiguous.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "elements.glsl"
layout(local_size_x = 64) in;
layout(std430, binding = 1) readonly buffer In { uint src[]; };
layout(std430, binding = 2) writeonly buffer Out { uint dst[]; };

DEFINE_ELEMENT_LOAD(load, src)

uvec2 element(uint o) {
  uint mode = p[3];
  uint rest = o;
  uint inIndex = 0;
  uint inStride = 1;
  for (int d = int(p[2]) - 1; d >= 0; --d) {
    uint extent = p[8 + d];
    int n = int(p[16 + d]);
    int c = int(rest % extent) - int(p[24 + d]);
    rest /= extent;
    if (c < 0 || c >= n) {
      if (mode == 0u) {
        return uvec2(p[4], p[5]);
      } else if (mode == 1u) {
        c = clamp(c, 0, n - 1);
      } else if (mode == 2u) {
        int period = max(2 * (n - 1), 1);
        c = abs(c) % period;
        if (c >= n) c = period - c;
      } else {
        int period = 2 * n;
        c = ((c % period) + period) % period;
        if (c >= n) c = period - 1 - c;
      }
    }
    inIndex += uint(c) * inStride;
    inStride *= uint(n);
  }
  return load(inIndex, p[1]);
}

#include "write_elements.glsl"
