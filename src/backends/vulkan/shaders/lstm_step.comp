// One lstm time step of one direction: one invocation per (batch b, hidden unit j) computes its
// four gates (input part x . W, recurrent part h . R, biases, peepholes), then c and h. The
// previous hidden state is read from one scratch slot and the new one written to the other, the
// cell state in place. As the reference's lstmStep; float32 arithmetic, weights float32 or
// float16 (float_io.glsl). p: count (batch * hidden), inputSize, hiddenSize, xOffset,
// weightOffset, recurrentWeightOffset, hiddenRead, hiddenWrite, cellOffset, biasOffset,
// recurrentBiasOffset, peepholeOffset, sequenceOffset (0xffffffff: none), gateI, gateO, gateF,
// gateG, activation0, activation1, activation2 (scratch offsets in words, with the direction's).
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

// The pre-activation of the gate at `position`, with peephole slot `peephole` (3: none).
float gate(uint position, uint peephole, float c) {
  uint row = position * hiddenSize + j;
  float sum = 0.0, compensation = 0.0;
  accumulate(sum, compensation, scratchAt(p[9] + row));
  accumulate(sum, compensation, scratchAt(p[10] + row));
  uint xBase = p[3] + b * inputSize;
  uint wBase = p[4] + row * inputSize;
  for (uint k = 0u; k < inputSize; ++k) {
    accumulate(sum, compensation, loadX(xBase + k) * loadWeight(wBase + k));
  }
  uint hBase = p[6] + b * hiddenSize;
  uint rBase = p[5] + row * hiddenSize;
  for (uint k = 0u; k < hiddenSize; ++k) {
    accumulate(sum, compensation, scratchAt(hBase + k) * loadRecurrentWeight(rBase + k));
  }
  if (peephole < 3u) {
    accumulate(sum, compensation, c * scratchAt(p[11] + peephole * hiddenSize + j));
  }
  return sum + compensation;
}

void main() {
  uint o = flatIndex();
  if (o >= p[0]) return;
  inputSize = p[1];
  hiddenSize = p[2];
  b = o / hiddenSize;
  j = o % hiddenSize;
  float c = scratchAt(p[8] + o);
  float i = activate(p[17], gate(p[13], 0u, c));
  float f = activate(p[17], gate(p[15], 2u, c));
  float g = activate(p[18], gate(p[16], 3u, c));
  float og = activate(p[17], gate(p[14], 1u, c));
  float cell = f * c + i * g;
  float hidden = og * activate(p[19], cell);
  setScratch(p[8] + o, cell);
  setScratch(p[7] + o, hidden);
  if (p[12] != 0xffffffffu) storeSequence(p[12] + o, hidden);
}
