// Comparisons, logical ops and isNaN/isInfinite, with broadcasting: a uint8 output of 0 or 1
// from inputs of any data type (elements.glsl's codes; unary ops bind their input as both a and
// b). Floats compare as IEEE values (NaN is unequal to everything); integers exactly. One
// invocation per output word (four elements). p: count, rank, op, type, shape[8], aStrides[8],
// bStrides[8]. op: 0 equal, 1 notEqual, 2 greater, 3 greaterOrEqual, 4 lesser, 5 lesserOrEqual,
// 6 logicalAnd, 7 logicalOr, 8 logicalXor, 9 logicalNot, 10 isNaN, 11 isInfinite.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "elements.glsl"
layout(local_size_x = 64) in;
layout(std430, binding = 1) readonly buffer A { uint a[]; };
layout(std430, binding = 2) readonly buffer B { uint b[]; };
layout(std430, binding = 3) writeonly buffer Out { uint dst[]; };

DEFINE_ELEMENT_LOAD(loadA, a)
DEFINE_ELEMENT_LOAD(loadB, b)

bool compareFloats(uint op, float x, float y) {
  if (op == 10u) return isnan(x);
  if (op == 11u) return isinf(x);
  if (isnan(x) || isnan(y)) return op == 1u;
  switch (op) {
    case 0u: return x == y;
    case 1u: return x != y;
    case 2u: return x > y;
    case 3u: return x >= y;
    case 4u: return x < y;
    default: return x <= y;
  }
}

bool compareIntegers(uint op, uvec2 x, uvec2 y, bool signedValues) {
  bool xTrue = (x.x | x.y) != 0u;
  bool yTrue = (y.x | y.y) != 0u;
  switch (op) {
    case 0u: return x == y;
    case 1u: return x != y;
    case 2u: return integerLess(y, x, signedValues);
    case 3u: return !integerLess(x, y, signedValues);
    case 4u: return integerLess(x, y, signedValues);
    case 5u: return !integerLess(y, x, signedValues);
    case 6u: return xTrue && yTrue;
    case 7u: return xTrue || yTrue;
    case 8u: return xTrue != yTrue;
    case 9u: return !xTrue;
    default: return false;  // isNaN, isInfinite of an integer
  }
}

bool predicate(uint i) {
  uint ai = 0u, bi = 0u;
  uint rest = i;
  for (int d = int(p[1]) - 1; d >= 0; --d) {
    uint extent = p[4 + d];
    uint c = rest % extent;
    rest /= extent;
    ai += c * p[12 + d];
    bi += c * p[20 + d];
  }
  uint op = p[2];
  uint type = p[3];
  uint bits = bitsOf(type);
  uvec2 x = loadA(ai, bits);
  uvec2 y = loadB(bi, bits);
  if (isFloatType(type) && op <= 5u || op >= 10u) {
    return compareFloats(op, floatValue(x, type), floatValue(y, type));
  }
  return compareIntegers(op, integerValue(x, type), integerValue(y, type), isSignedType(type));
}

void main() {
  uint first = flatIndex() * 4u;
  if (first >= p[0]) return;
  uint word = 0u;
  for (uint k = 0u; k < 4u && first + k < p[0]; ++k) {
    if (predicate(first + k)) word |= 1u << (k * 8u);
  }
  dst[first / 4u] = word;
}
