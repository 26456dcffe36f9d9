// concat of elements of any size (elements.glsl), up to five inputs per step: an output element
// whose axis coordinate falls in one of this step's inputs reads it; any other keeps the output's
// current value (an earlier step's), so that steps may share the output's words. p: count, bits,
// inputs (1..5), axisExtent (the output's), inner (elements after the axis), rangeStart,
// rangeSize, ranged, starts[5] (each input's first axis coordinate in the output), 0, 0, 0,
// sizes[5] (their axis extents). Ranged steps (elements of 32 or 64 bits, whose words no two
// steps share) visit only the output elements of their inputs' axis range [rangeStart,
// rangeStart + rangeSize): count = outer x rangeSize x inner invocations.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "elements.glsl"
layout(local_size_x = 64) in;
layout(std430, binding = 1) readonly buffer In0 { uint in0[]; };
layout(std430, binding = 2) readonly buffer In1 { uint in1[]; };
layout(std430, binding = 3) readonly buffer In2 { uint in2[]; };
layout(std430, binding = 4) readonly buffer In3 { uint in3[]; };
layout(std430, binding = 5) readonly buffer In4 { uint in4[]; };
layout(std430, binding = 6) buffer Out { uint dst[]; };

DEFINE_ELEMENT_LOAD(load0, in0)
DEFINE_ELEMENT_LOAD(load1, in1)
DEFINE_ELEMENT_LOAD(load2, in2)
DEFINE_ELEMENT_LOAD(load3, in3)
DEFINE_ELEMENT_LOAD(load4, in4)
DEFINE_ELEMENT_LOAD(loadOutput, dst)

uvec2 element(uint o) {
  uint bits = p[1];
  uint inner = p[4];
  uint e = o % inner;
  uint coordinate = (o / inner) % p[3];
  uint outer = o / (inner * p[3]);
  for (uint j = 0u; j < p[2]; ++j) {
    uint start = p[8 + j];
    uint size = p[16 + j];
    if (coordinate < start || coordinate - start >= size) continue;
    uint i = (outer * size + coordinate - start) * inner + e;
    switch (j) {
      case 0u: return load0(i, bits);
      case 1u: return load1(i, bits);
      case 2u: return load2(i, bits);
      case 3u: return load3(i, bits);
      default: return load4(i, bits);
    }
  }
  return loadOutput(o, bits);
}

// The output element of invocation w: its own in a ranged step, else w.
uint outputIndexOf(uint w) {
  if (p[7] == 0u) return w;
  uint inner = p[4];
  uint rangeSize = p[6];
  uint e = w % inner;
  uint r = (w / inner) % rangeSize;
  uint outer = w / (inner * rangeSize);
  return (outer * p[3] + p[5] + r) * inner + e;
}
#define OUTPUT_INDEX_OF(w) outputIndexOf(w)

#include "write_elements.glsl"
