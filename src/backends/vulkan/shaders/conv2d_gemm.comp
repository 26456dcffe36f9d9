// conv2d as an implicit GEMM, tiled 16 x 16 in shared memory: per group g, out[pixel, o] =
// sum_k A[pixel, k] * B[k, o] with pixel = (n, oh, ow) over N * OH * OW rows, o over the group's
// output channels, k = (ci, kh, kw) over its input channels x KH x KW. A is the input read
// through the window (zero outside the padding: im2col on the fly, never materialized), B the
// filter; layouts are strides. Workgroups: x over output-channel tiles, y over pixel tiles, z over
// groups. p: as conv2d.comp (N, C, H, W, O, OH, OW, KH, KW, groups, strideH, strideW, dilationH,
// dilationW, padTop, padLeft, inStrides n c h w, filterStrides o i h w, outStrides n o h w,
// hasBias). Operands float32 or float16 (float_io.glsl), arithmetic in float32.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "float_io.glsl"
layout(local_size_x = 16, local_size_y = 16) in;
layout(std430, binding = 1) readonly buffer In { uint src[]; };
layout(std430, binding = 2) readonly buffer Filter { uint filt[]; };
layout(std430, binding = 3) readonly buffer Bias { uint bias[]; };
layout(std430, binding = 4) buffer Out { uint dst[]; };

DEFINE_FLOAT_LOAD(loadSrc, src)
DEFINE_FLOAT_LOAD(loadFilt, filt)
DEFINE_FLOAT_LOAD(loadBias, bias)
DEFINE_FLOAT_STORE(store, dst)

shared float tileA[16][16];
shared float tileB[16][16];

void main() {
  uint H = p[2], W = p[3], O = p[4], OH = p[5], OW = p[6], KH = p[7], KW = p[8];
  uint groups = p[9];
  uint cPerGroup = p[1] / groups;
  uint oPerGroup = O / groups;
  uint g = gl_WorkGroupID.z;
  uint pixels = p[0] * OH * OW;
  uint window = KH * KW;
  uint K = cPerGroup * window;
  uint tx = gl_LocalInvocationID.x;
  uint ty = gl_LocalInvocationID.y;
  // This invocation loads A for pixel `row` and B for output channel `col`, and computes
  // out[row, col].
  uint row = gl_WorkGroupID.y * 16 + ty;
  uint col = gl_WorkGroupID.x * 16 + tx;
  uint ow = row % OW;
  uint oh = (row / OW) % OH;
  uint n = row / (OW * OH);
  int top = int(oh * p[10]) - int(p[14]);
  int left = int(ow * p[11]) - int(p[15]);
  uint inBase = n * p[16] + g * cPerGroup * p[17];
  uint o = g * oPerGroup + col;
  float sum = 0.0;
  for (uint k0 = 0; k0 < K; k0 += 16) {
    uint ka = k0 + tx;
    float a = 0.0;
    if (row < pixels && ka < K) {
      uint ci = ka / window;
      uint r = ka % window;
      int h = top + int((r / KW) * p[12]);
      int w = left + int((r % KW) * p[13]);
      if (h >= 0 && h < int(H) && w >= 0 && w < int(W)) {
        a = loadSrc(inBase + ci * p[17] + uint(h) * p[18] + uint(w) * p[19]);
      }
    }
    tileA[ty][tx] = a;
    uint kb = k0 + ty;
    float b = 0.0;
    if (kb < K && col < oPerGroup) {
      uint ci = kb / window;
      uint r = kb % window;
      b = loadFilt(o * p[20] + ci * p[21] + (r / KW) * p[22] + (r % KW) * p[23]);
    }
    tileB[ty][tx] = b;
    barrier();
    for (uint k = 0; k < 16; ++k) sum += tileA[ty][k] * tileB[k][tx];
    barrier();
  }
  if (row >= pixels || col >= oPerGroup) return;
  if (p[28] != 0u) sum += loadBias(o);
  store(n * p[24] + o * p[25] + oh * p[26] + ow * p[27], sum);
}
