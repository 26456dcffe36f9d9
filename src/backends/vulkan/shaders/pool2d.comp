// averagePool2d (padding excluded from the count), l2Pool2d, maxPool2d. p: N, C, H, W, OH, OW, KH,
// KW, strideH, strideW, dilationH, dilationW, padTop, padLeft, mode (0 average, 1 l2, 2 max), 0,
// inStrides n c h w, outStrides n c h w.
// Operands float32 or float16 (float_io.glsl), arithmetic in float32.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "float_io.glsl"
layout(local_size_x = 64) in;
layout(std430, binding = 1) readonly buffer In { uint src[]; };
layout(std430, binding = 2) buffer Out { uint dst[]; };

DEFINE_FLOAT_LOAD(loadSrc, src)
DEFINE_FLOAT_STORE(store, dst)

void main() {
  uint i = flatIndex();
  uint C = p[1], H = p[2], W = p[3], OH = p[4], OW = p[5];
  if (i >= p[0] * C * OH * OW) return;
  uint ow = i % OW;
  uint oh = (i / OW) % OH;
  uint c = (i / (OW * OH)) % C;
  uint n = i / (OW * OH * C);
  uint mode = p[14];
  float sum = 0.0;
  float maximum = -1.0 / 0.0;
  uint count = 0;
  for (uint kh = 0; kh < p[6]; ++kh) {
    int h = int(oh * p[8] + kh * p[10]) - int(p[12]);
    if (h < 0 || h >= int(H)) continue;
    for (uint kw = 0; kw < p[7]; ++kw) {
      int w = int(ow * p[9] + kw * p[11]) - int(p[13]);
      if (w < 0 || w >= int(W)) continue;
      float x = loadSrc(n * p[16] + c * p[17] + uint(h) * p[18] + uint(w) * p[19]);
      sum += mode == 1u ? x * x : x;
      if (x > maximum || isnan(x)) maximum = x;
      ++count;
    }
  }
  float r = mode == 0u ? (count > 0u ? sum / float(count) : 0.0) : (mode == 1u ? sqrt(sum) : maximum);
  store(n * p[20] + c * p[21] + oh * p[22] + ow * p[23], r);
}
