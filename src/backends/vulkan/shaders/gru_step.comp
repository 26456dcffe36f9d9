// One gru time step of one direction: one invocation per (batch b, hidden unit j). mode 0
// (resetAfter): its gates z, r, n and the new h in one step; mode 1 (reset before, first step):
// only r, into the scratch's reset slot; mode 2 (reset before, second step): z and n with
// (r * h) . Rn from the reset slot, then the new h. The previous hidden state is read from one
// scratch slot and the new one written to the other. As the reference's gruStep; float32
// arithmetic, weights float32 or float16 (float_io.glsl). p: count (batch * hidden), inputSize,
// hiddenSize, xOffset, weightOffset, recurrentWeightOffset, hiddenRead, hiddenWrite,
// resetOffset, biasOffset, recurrentBiasOffset, sequenceOffset (0xffffffff: none), gateZ, gateR,
// gateN, activation0, activation1, mode.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "float_io.glsl"
layout(local_size_x = 64) in;
layout(std430, binding = 1) readonly buffer Input { uint x[]; };
layout(std430, binding = 2) readonly buffer Weight { uint weight[]; };
layout(std430, binding = 3) readonly buffer RecurrentWeight { uint recurrentWeight[]; };
layout(std430, binding = 4) buffer Scratch { uint scratch[]; };
layout(std430, binding = 5) buffer Sequence { uint sequence[]; };

#include "recurrent.glsl"
DEFINE_FLOAT_LOAD(loadX, x)
DEFINE_FLOAT_LOAD(loadWeight, weight)
DEFINE_FLOAT_LOAD(loadRecurrentWeight, recurrentWeight)
DEFINE_FLOAT_STORE(storeSequence, sequence)

uint inputSize, hiddenSize, b, j;

// Compensated sums (recurrent.glsl's accumulate) of a gate row's terms: x . W[row] when
// `withInput`, h . R[row] when `withRecurrent`, plus `first` and `second`.
float gateSum(uint row, bool withInput, bool withRecurrent, float first, float second) {
  float sum = 0.0, compensation = 0.0;
  accumulate(sum, compensation, first);
  accumulate(sum, compensation, second);
  if (withInput) {
    uint xBase = p[3] + b * inputSize;
    uint wBase = p[4] + row * inputSize;
    for (uint k = 0u; k < inputSize; ++k) {
      accumulate(sum, compensation, loadX(xBase + k) * loadWeight(wBase + k));
    }
  }
  if (withRecurrent) {
    uint hBase = p[6] + b * hiddenSize;
    uint rBase = p[5] + row * hiddenSize;
    for (uint k = 0u; k < hiddenSize; ++k) {
      accumulate(sum, compensation, scratchAt(hBase + k) * loadRecurrentWeight(rBase + k));
    }
  }
  return sum + compensation;
}
float bias(uint row) { return scratchAt(p[9] + row); }
float recurrentBias(uint row) { return scratchAt(p[10] + row); }
// The pre-activation of a gate with every term: both biases, x . W and h . R.
float gate(uint row) { return gateSum(row, true, true, bias(row), recurrentBias(row)); }

void main() {
  uint o = flatIndex();
  if (o >= p[0]) return;
  inputSize = p[1];
  hiddenSize = p[2];
  b = o / hiddenSize;
  j = o % hiddenSize;
  uint mode = p[17];
  uint rRow = p[13] * hiddenSize + j;
  if (mode == 1u) {
    setScratch(p[8] + o, activate(p[15], gate(rRow)));
    return;
  }
  uint zRow = p[12] * hiddenSize + j;
  uint nRow = p[14] * hiddenSize + j;
  float z = activate(p[15], gate(zRow));
  float n;
  if (mode == 0u) {
    float r = activate(p[15], gate(rRow));
    float recurrent = gateSum(nRow, false, true, recurrentBias(nRow), 0.0);
    n = gateSum(nRow, true, false, bias(nRow), r * recurrent);
  } else {
    float resetHidden = 0.0, compensation = 0.0;
    uint hBase = p[6] + b * hiddenSize;
    uint rBase = p[5] + nRow * hiddenSize;
    for (uint k = 0u; k < hiddenSize; ++k) {
      accumulate(resetHidden, compensation, scratchAt(p[8] + b * hiddenSize + k) *
                                                scratchAt(hBase + k) *
                                                loadRecurrentWeight(rBase + k));
    }
    n = gateSum(nRow, true, false, bias(nRow) + recurrentBias(nRow), resetHidden + compensation);
  }
  n = activate(p[16], n);
  float hidden = z * scratchAt(p[6] + o) + (1.0 - z) * n;
  setScratch(p[7] + o, hidden);
  if (p[11] != 0xffffffffu) storeSequence(p[11] + o, hidden);
}
