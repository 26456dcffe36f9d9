// gru/lstm (and their cells), first step: the optional operands into the scratch buffer as
// float32, zeros where absent: bias, recurrentBias and peepholeWeight (all directions), the
// initial hidden and cell states. p: count (the largest region), hasBias, hasRecurrentBias,
// hasPeephole, hasInitialHidden, hasInitialCell, biasCount, peepholeCount, stateCount,
// biasOffset, recurrentBiasOffset, peepholeOffset, hiddenOffset, cellOffset (in scratch words).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "float_io.glsl"
layout(local_size_x = 64) in;
layout(std430, binding = 1) readonly buffer Bias { uint bias[]; };
layout(std430, binding = 2) readonly buffer RecurrentBias { uint recurrentBias[]; };
layout(std430, binding = 3) readonly buffer Peephole { uint peephole[]; };
layout(std430, binding = 4) readonly buffer InitialHidden { uint initialHidden[]; };
layout(std430, binding = 5) readonly buffer InitialCell { uint initialCell[]; };
layout(std430, binding = 6) buffer Scratch { uint scratch[]; };

#include "recurrent.glsl"
DEFINE_FLOAT_LOAD(loadBias, bias)
DEFINE_FLOAT_LOAD(loadRecurrentBias, recurrentBias)
DEFINE_FLOAT_LOAD(loadPeephole, peephole)
DEFINE_FLOAT_LOAD(loadInitialHidden, initialHidden)
DEFINE_FLOAT_LOAD(loadInitialCell, initialCell)

void main() {
  uint i = flatIndex();
  if (i >= p[0]) return;
  if (i < p[6]) {
    setScratch(p[9] + i, p[1] != 0u ? loadBias(i) : 0.0);
    setScratch(p[10] + i, p[2] != 0u ? loadRecurrentBias(i) : 0.0);
  }
  if (i < p[7]) setScratch(p[11] + i, p[3] != 0u ? loadPeephole(i) : 0.0);
  if (i < p[8]) {
    setScratch(p[12] + i, p[4] != 0u ? loadInitialHidden(i) : 0.0);
    setScratch(p[13] + i, p[5] != 0u ? loadInitialCell(i) : 0.0);
  }
}
