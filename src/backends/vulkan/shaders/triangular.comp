// triangular, elements of any size: keeps the elements on and above (upper) or on and below
// (lower) the diagonal of the last two dimensions, shifted by `diagonal` columns; the others are
// 0. p: count, bits, rows, columns, upper, diagonal (int32 bits).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "elements.glsl"
layout(local_size_x = 64) in;
layout(std430, binding = 1) readonly buffer In { uint src[]; };
layout(std430, binding = 2) writeonly buffer Out { uint dst[]; };

DEFINE_ELEMENT_LOAD(load, src)

// a - b >= (negative ? -magnitude : magnitude), exactly, for any 32-bit a and b.
bool differenceAtLeast(uint a, uint b, bool negative, uint magnitude) {
  return negative ? a >= b || b - a <= magnitude : a >= b && a - b >= magnitude;
}

uvec2 element(uint o) {
  uint columns = p[3];
  uint column = o % columns;
  uint row = (o / columns) % p[2];
  int diagonal = int(p[5]);
  uint magnitude = diagonal < 0 ? 0u - uint(diagonal) : uint(diagonal);
  // upper: column - row >= diagonal; lower: column - row <= diagonal (row - column >= -diagonal).
  bool keep = p[4] != 0u ? differenceAtLeast(column, row, diagonal < 0, magnitude)
                         : differenceAtLeast(row, column, diagonal > 0, magnitude);
  return keep ? load(o, p[1]) : uvec2(0u);
}

#include "write_elements.glsl"
