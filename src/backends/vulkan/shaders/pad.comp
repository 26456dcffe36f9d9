// pad of 32-bit elements, every mode. p: count, rank, mode (0 constant, 1 edge, 2 reflection,
// 3 symmetric), value bits, outShape[8], inShape[8], begin[8]. Input and output contiguous.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 64) in;
layout(std430, binding = 1) readonly buffer In { uint src[]; };
layout(std430, binding = 2) writeonly buffer Out { uint dst[]; };

void main() {
  uint i = flatIndex();
  if (i >= p[0]) return;
  uint mode = p[2];
  uint rest = i;
  uint inIndex = 0;
  uint inStride = 1;
  for (int d = int(p[1]) - 1; d >= 0; --d) {
    uint extent = p[4 + d];
    int n = int(p[12 + d]);
    int c = int(rest % extent) - int(p[20 + d]);
    rest /= extent;
    if (c < 0 || c >= n) {
      if (mode == 0u) {
        dst[i] = p[3];
        return;
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
  dst[i] = src[inIndex];
}
