// Batched matmul and gemm, tiled 16 x 16 in shared memory: out[b, m, n] = alpha * sum_k
// A[b, m, k] * B[b, k, n] + beta * C[b, m, n], every operand addressed by strides (transposes and
// broadcasting are strides). p: M, N, K, batchRank, alpha, beta, hasC, 0, aRow, aCol, bRow, bCol,
// cRow, cCol, 0, 0, batchShape[6], aBatch[6], bBatch[6], cBatch[6]. Output contiguous.
// Operands float32 or float16 (float_io.glsl), arithmetic in float32.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "float_io.glsl"
layout(local_size_x = 16, local_size_y = 16) in;
layout(std430, binding = 1) readonly buffer A { uint a[]; };
layout(std430, binding = 2) readonly buffer B { uint b[]; };
layout(std430, binding = 3) readonly buffer C { uint c[]; };
layout(std430, binding = 4) buffer Out { uint dst[]; };

DEFINE_FLOAT_LOAD(loadA, a)
DEFINE_FLOAT_LOAD(loadB, b)
DEFINE_FLOAT_LOAD(loadC, c)
DEFINE_FLOAT_STORE(store, dst)

shared float tileA[16][16];
shared float tileB[16][16];

void main() {
  uint M = p[0];
  uint N = p[1];
  uint K = p[2];
  uint batch = gl_WorkGroupID.z;
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
  uint tx = gl_LocalInvocationID.x;
  uint ty = gl_LocalInvocationID.y;
  uint row = gl_WorkGroupID.y * 16 + ty;
  uint col = gl_WorkGroupID.x * 16 + tx;
  float sum = 0.0;
  for (uint k0 = 0; k0 < K; k0 += 16) {
    uint ka = k0 + tx;
    uint kb = k0 + ty;
    tileA[ty][tx] = (row < M && ka < K) ? loadA(aBase + row * p[8] + ka * p[9]) : 0.0;
    tileB[ty][tx] = (kb < K && col < N) ? loadB(bBase + kb * p[10] + col * p[11]) : 0.0;
    barrier();
    for (uint k = 0; k < 16; ++k) sum += tileA[ty][k] * tileB[k][tx];
    barrier();
  }
  if (row >= M || col >= N) return;
  float r = pf(4) * sum;
  if (p[6] != 0u) r += pf(5) * loadC(cBase + row * p[12] + col * p[13]);
  store((batch * M + row) * N + col, r);
}
