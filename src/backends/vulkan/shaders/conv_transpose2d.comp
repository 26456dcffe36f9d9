// convTranspose2d, gathered: one invocation per output element sums the input elements whose
// filter taps land on it (oh = ih * stride + kh * dilation - padTop). p: N, C, H, W (input), O,
// OH, OW (output), KH, KW, groups, strideH, strideW, dilationH, dilationW, padTop, padLeft,
// inStrides n c h w, filterStrides i o h w (o within its group), outStrides n o h w, hasBias.
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
  uint oPerGroup = O / groups;
  uint g = o / oPerGroup;
  uint og = o % oPerGroup;
  float sum = 0.0;
  for (uint kh = 0; kh < KH; ++kh) {
    int th = int(oh) + int(p[14]) - int(kh * p[12]);
    if (th < 0 || th % int(p[10]) != 0) continue;
    uint ih = uint(th) / p[10];
    if (ih >= H) continue;
    for (uint kw = 0; kw < KW; ++kw) {
      int tw = int(ow) + int(p[15]) - int(kw * p[13]);
      if (tw < 0 || tw % int(p[11]) != 0) continue;
      uint iw = uint(tw) / p[11];
      if (iw >= W) continue;
      for (uint ci = 0; ci < cPerGroup; ++ci) {
        uint c = g * cPerGroup + ci;
        sum += loadSrc(n * p[16] + c * p[17] + ih * p[18] + iw * p[19]) *
               loadFilt(c * p[20] + og * p[21] + kh * p[22] + kw * p[23]);
      }
    }
  }
  if (p[28] != 0u) sum += loadBias(o);
  store(n * p[24] + o * p[25] + oh * p[26] + ow * p[27], sum);
}
