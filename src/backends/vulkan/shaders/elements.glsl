// Elements of any data type in the 32-bit word buffers every shader binds: an element's raw bits
// as two words (low, high; high 0 below 8 bytes), and its value as a float (float32, float16) or
// as a 64-bit integer in two words, sign- or zero-extended (no shaderInt64 needed). Data type
// codes as cast.comp's: 0 float32, 1 float16, 2 int32, 3 uint32, 4 int64, 5 uint64, 6 int8,
// 7 uint8 (kernel.h's shaderTypeCode).

uint bytesOf(uint type) {
  switch (type) {
    case 1u: return 2u;
    case 4u: case 5u: return 8u;
    case 6u: case 7u: return 1u;
    default: return 4u;
  }
}

// Defines `uvec2 name(uint i, uint bytes)`: the raw bits of element i of `array`, whose elements
// are `bytes` (1, 2, 4 or 8) bytes wide.
#define DEFINE_ELEMENT_LOAD(name, array)                                           \
  uvec2 name(uint i, uint bytes) {                                                 \
    if (bytes == 8u) return uvec2(array[2u * i], array[2u * i + 1u]);              \
    if (bytes == 4u) return uvec2(array[i], 0u);                                   \
    if (bytes == 2u) return uvec2((array[i >> 1] >> ((i & 1u) * 16u)) & 0xffffu, 0u); \
    return uvec2((array[i >> 2] >> ((i & 3u) * 8u)) & 0xffu, 0u);                  \
  }

bool isFloatType(uint type) { return type <= 1u; }
bool isSignedType(uint type) { return type == 2u || type == 4u || type == 6u; }

float floatValue(uvec2 raw, uint type) {
  return type == 0u ? uintBitsToFloat(raw.x) : unpackHalf2x16(raw.x).x;
}

// The integer value of raw bits of an integer type, as 64 bits (low, high).
uvec2 integerValue(uvec2 raw, uint type) {
  if (type == 2u) return uvec2(raw.x, int(raw.x) < 0 ? 0xffffffffu : 0u);
  if (type == 6u) {
    uint v = uint(bitfieldExtract(int(raw.x), 0, 8));
    return uvec2(v, int(v) < 0 ? 0xffffffffu : 0u);
  }
  return raw;  // uint32 and uint8 zero-extended; int64 and uint64 whole
}

// a < b for 64-bit integers.
bool integerLess(uvec2 a, uvec2 b, bool signedValues) {
  if (a.y != b.y) return signedValues ? int(a.y) < int(b.y) : a.y < b.y;
  return a.x < b.x;
}

// a + b for 64-bit integers, wrapping.
uvec2 integerAdd(uvec2 a, uvec2 b) {
  uint carry;
  uint low = uaddCarry(a.x, b.x, carry);
  return uvec2(low, a.y + b.y + carry);
}

// The raw bits of float `value` as an element of float type `type`.
uvec2 floatBits(float value, uint type) {
  return uvec2(type == 0u ? floatBitsToUint(value) : packHalf2x16(vec2(value, 0.0)) & 0xffffu, 0u);
}
