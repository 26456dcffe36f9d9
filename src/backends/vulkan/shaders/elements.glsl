// Elements of any data type in the 32-bit word buffers every shader binds: an element's raw bits
// as two words (low, high; high 0 below 64 bits), and its value as a float (float32, float16) or
// as a 64-bit integer in two words, sign- or zero-extended (no shaderInt64 needed). Data type
// codes as cast.comp's, and the nibbles: 0 float32, 1 float16, 2 int32, 3 uint32, 4 int64,
// 5 uint64, 6 int8, 7 uint8, 8 int4, 9 uint4 (kernel.h's shaderTypeCode). Narrow elements are
// packed from a word's low bits up (int4: element 2k in the low nibble of byte k).

uint bitsOf(uint type) {
  switch (type) {
    case 1u: return 16u;
    case 4u: case 5u: return 64u;
    case 6u: case 7u: return 8u;
    case 8u: case 9u: return 4u;
    default: return 32u;
  }
}

// Defines `uvec2 name(uint i, uint bits)`: the raw bits of element i of `array`, whose elements
// are `bits` (4, 8, 16, 32 or 64) bits wide.
#define DEFINE_ELEMENT_LOAD(name, array)                                             \
  uvec2 name(uint i, uint bits) {                                                    \
    if (bits == 64u) return uvec2(array[2u * i], array[2u * i + 1u]);                \
    if (bits == 32u) return uvec2(array[i], 0u);                                     \
    uint perWord = 32u / bits;                                                       \
    return uvec2(bitfieldExtract(array[i / perWord], int((i % perWord) * bits), int(bits)), 0u); \
  }

bool isFloatType(uint type) { return type <= 1u; }
bool isSignedType(uint type) { return type == 2u || type == 4u || type == 6u || type == 8u; }

float floatValue(uvec2 raw, uint type) {
  return type == 0u ? uintBitsToFloat(raw.x) : unpackHalf2x16(raw.x).x;
}

// The integer value of raw bits of an integer type, as 64 bits (low, high).
uvec2 integerValue(uvec2 raw, uint type) {
  if (type == 2u) return uvec2(raw.x, int(raw.x) < 0 ? 0xffffffffu : 0u);
  if (type == 6u || type == 8u) {
    uint v = uint(bitfieldExtract(int(raw.x), 0, type == 6u ? 8 : 4));
    return uvec2(v, int(v) < 0 ? 0xffffffffu : 0u);
  }
  return raw;  // uint32, uint8 and uint4 zero-extended; int64 and uint64 whole
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
