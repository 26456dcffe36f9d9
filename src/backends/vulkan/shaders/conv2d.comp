// conv2d, direct: one invocation per output element; layouts are strides. p: N, C, H, W, O, OH,
// OW, KH, KW, groups, strideH, strideW, dilationH, dilationW, padTop, padLeft, inStrides n c h w,
// filterStrides o i h w, outStrides n o h w, hasBias.
// Operands float32 or float16 (float_io.glsl), arithmetic in float32.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "float_io.glsl"
layout(local_size_x = 64) in;
layout(std430, binding = 1) readonly buffer In { uint src[]; };
layout(std430, binding = 2) readonly buffer Filter { uint filt[]; };
layout(std430, binding = 3) readonly buffer Bias { uint bias[]; };
layout(std430, binding = 4) buffer Out { uint dst[]; };

DEFINE_FLOAT_LOAD(loadSrc, src)
DEFINE_FLOAT_LOAD(loadFilt, filt)
DEFINE_FLOAT_LOAD(loadBias, bias)
DEFINE_FLOAT_STORE(store, dst)

void main() {
  uint i = flatIndex();
  uint C = p[1], H = p[2], W = p[3], O = p[4], OH = p[5], OW = p[6], KH = p[7], KW = p[8];
  if (i >= p[0] * O * OH * OW) return;
  uint ow = i % OW;
  uint oh = (i / OW) % OH;
  uint o = (i / (OW * OH)) % O;
  uint n = i / (OW * OH * O);
  uint groups = p[9];
  uint cPerGroup = C / groups;
  uint g = o / (O / groups);
  float sum = 0.0;
  for (uint ci = 0; ci < cPerGroup; ++ci) {
    uint c = g * cPerGroup + ci;
    uint inBase = n * p[16] + c * p[17];
    uint filterBase = o * p[20] + ci * p[21];
    for (uint kh = 0; kh < KH; ++kh) {
      int h = int(oh * p[10] + kh * p[12]) - int(p[14]);
      if (h < 0 || h >= int(H)) continue;
      for (uint kw = 0; kw < KW; ++kw) {
        int w = int(ow * p[11] + kw * p[13]) - int(p[15]);
        if (w < 0 || w >= int(W)) continue;
        sum += loadSrc(inBase + uint(h) * p[18] + uint(w) * p[19]) *
               loadFilt(filterBase + kh * p[22] + kw * p[23]);
      }
    }
  }
  if (p[28] != 0u) sum += loadBias(o);
  store(n * p[24] + o * p[25] + oh * p[26] + ow * p[27], sum);
}
