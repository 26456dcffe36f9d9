// matmul and gemm for few rows (M < 16, e.g. a batch of one vector): one invocation per output
// element, looping over K, no shared memory. Parameters as matmul.comp, plus the output count at
// p[40].
// Operands float32 or float16 (float_io.glsl), arithmetic in float32.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "float_io.glsl"
layout(local_size_x = 64) in;
layout(std430, binding = 1) readonly buffer A { uint a[]; };
layout(std430, binding = 2) readonly buffer B { uint b[]; };
layout(std430, binding = 3) readonly buffer C { uint c[]; };
layout(std430, binding = 4) buffer Out { uint dst[]; };

DEFINE_FLOAT_LOAD(loadA, a)
DEFINE_FLOAT_LOAD(loadB, b)
DEFINE_FLOAT_LOAD(loadC, c)
DEFINE_FLOAT_STORE(store, dst)

void main() {
  uint i = flatIndex();
  if (i >= p[40]) return;
  uint M = p[0];
  uint N = p[1];
  uint K = p[2];
  uint col = i % N;
  uint row = (i / N) % M;
  uint batch = i / (M * N);
  uint aBase = 0;
  uint bBase = 0;
  uint cBase = 0;
  uint rest = batch;
  for (int d = int(p[3]) - 1; d >= 0; --d) {
    uint extent = p[16 + d];
    uint coordinate = rest % extent;
    rest /= extent;
    aBase += coordinate * p[22 + d];
    bBase += coordinate * p[28 + d];
    cBase += coordinate * p[34 + d];
  }
  uint aIndex = aBase + row * p[8];
  uint bIndex = bBase + col * p[11];
  float sum = 0.0;
  for (uint k = 0; k < K; ++k) {
    sum += loadA(aIndex) * loadB(bIndex);
    aIndex += p[9];
    bIndex += p[10];
  }
  float r = pf(4) * sum;
  if (p[6] != 0u) r += pf(5) * loadC(cBase + row * p[12] + col * p[13]);
  store(i, r);
}
