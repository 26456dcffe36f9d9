// gru/lstm (and their cells), last step of a direction: the final hidden (and cell) state from
// the scratch buffer into the outputs (float32 or float16, float_io.glsl). p: count
// (batch * hidden), hiddenOffset, cellOffset (scratch words), outputOffset, hasCell.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "float_io.glsl"
layout(local_size_x = 64) in;
layout(std430, binding = 1) buffer Scratch { uint scratch[]; };
layout(std430, binding = 2) buffer Hidden { uint hidden[]; };
layout(std430, binding = 3) buffer Cell { uint cell[]; };

#include "recurrent.glsl"
DEFINE_FLOAT_STORE(storeHidden, hidden)
DEFINE_FLOAT_STORE(storeCell, cell)

void main() {
  uint i = flatIndex();
  if (i >= p[0]) return;
  storeHidden(p[3] + i, scratchAt(p[1] + i));
  if (p[4] != 0u) storeCell(p[3] + i, scratchAt(p[2] + i));
}
