// cast between float32, float16, int32, uint32, int64, uint64, int8, uint8, int4 and uint4, as
// the spec's table says (float to integer truncates and saturates, NaN gives 0; integer to
// integer keeps the low bits). One invocation per output word (eight 4-bit, four 8-bit, two
// float16, one 32-bit element) or per 64-bit element. p: count (elements), from, to, 0 (type
// codes: 0 float32, 1 float16, 2 int32, 3 uint32, 4 int64, 5 uint64, 6 int8, 7 uint8, 8 int4,
// 9 uint4).
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#include "common.glsl"
layout(local_size_x = 64) in;
layout(std430, binding = 1) readonly buffer In { uint src[]; };
layout(std430, binding = 2) buffer Out { uint dst[]; };

bool isFloat(uint type) { return type <= 1u; }

float loadFloat(uint type, uint i) {
  if (type == 0u) return uintBitsToFloat(src[i]);
  return unpackHalf2x16(src[i >> 1] >> ((i & 1u) * 16u)).x;
}

int64_t loadInteger(uint type, uint i) {
  switch (type) {
    case 2u: return int64_t(int(src[i]));
    case 3u: return int64_t(uint64_t(src[i]));
    case 4u: case 5u: return int64_t(uint64_t(src[2u * i]) | (uint64_t(src[2u * i + 1u]) << 32));
    case 6u: return int64_t(bitfieldExtract(int(src[i >> 2]), int((i & 3u) * 8u), 8));
    case 7u: return int64_t((src[i >> 2] >> ((i & 3u) * 8u)) & 0xffu);
    case 8u: return int64_t(bitfieldExtract(int(src[i >> 3]), int((i & 7u) * 4u), 4));
    default: return int64_t((src[i >> 3] >> ((i & 7u) * 4u)) & 0xfu);
  }
}

// float -> integer type `to`: truncated, saturated, NaN 0; as the low 64 bits.
uint64_t floatToInteger(float f, uint to) {
  if (isnan(f)) return 0ul;
  f = trunc(f);
  switch (to) {
    case 2u: return uint64_t(int64_t(int(clamp(f, -2147483648.0, 2147483520.0)) ));
    case 3u: return uint64_t(uint(clamp(f, 0.0, 4294967040.0)));
    case 4u:
      if (f >= 9223372036854775807.0) return 0x7ffffffffffffffful;
      if (f <= -9223372036854775808.0) return 0x8000000000000000ul;
      return uint64_t(int64_t(f));
    case 5u:
      if (f >= 18446744073709551615.0) return 0xfffffffffffffffful;
      if (f <= 0.0) return 0ul;
      return uint64_t(f);
    case 6u: return uint64_t(int64_t(int(clamp(f, -128.0, 127.0))));
    case 7u: return uint64_t(uint(clamp(f, 0.0, 255.0)));
    case 8u: return uint64_t(int64_t(int(clamp(f, -8.0, 7.0))));
    default: return uint64_t(uint(clamp(f, 0.0, 15.0)));
  }
}

// Element i of the input converted to `to`, as a float (float outputs) or low bits (integers).
float toFloat(uint from, uint i) {
  if (isFloat(from)) return loadFloat(from, i);
  int64_t v = loadInteger(from, i);
  return from == 5u ? float(uint64_t(v)) : float(v);
}
uint64_t toInteger(uint from, uint to, uint i) {
  if (isFloat(from)) {
    float f = loadFloat(from, i);
    // Integer outputs above 2^31 from float: the saturation bounds above are float32 values.
    if (to == 2u && f >= 2147483648.0) return 0x7ffffffful;
    if (to == 3u && f >= 4294967296.0) return 0xfffffffful;
    return floatToInteger(f, to);
  }
  return uint64_t(loadInteger(from, i));
}

uint bits16(uint from, uint i) {
  return packHalf2x16(vec2(toFloat(from, i), 0.0)) & 0xffffu;
}

void main() {
  uint w = flatIndex();
  uint count = p[0];
  uint from = p[1];
  uint to = p[2];
  if (to == 8u || to == 9u) {
    uint first = w * 8u;
    if (first >= count) return;
    uint word = 0u;
    for (uint k = 0u; k < 8u && first + k < count; ++k) {
      word |= (uint(toInteger(from, to, first + k)) & 0xfu) << (k * 4u);
    }
    dst[w] = word;
  } else if (to == 7u || to == 6u) {
    uint first = w * 4u;
    if (first >= count) return;
    uint word = 0u;
    for (uint k = 0u; k < 4u && first + k < count; ++k) {
      word |= (uint(toInteger(from, to, first + k)) & 0xffu) << (k * 8u);
    }
    dst[w] = word;
  } else if (to == 1u) {
    uint first = w * 2u;
    if (first >= count) return;
    uint word = bits16(from, first);
    if (first + 1u < count) word |= bits16(from, first + 1u) << 16;
    dst[w] = word;
  } else if (to == 4u || to == 5u) {
    if (w >= count) return;
    uint64_t v = isFloat(from) ? toInteger(from, to, w) : uint64_t(loadInteger(from, w));
    dst[2u * w] = uint(v);
    dst[2u * w + 1u] = uint(v >> 32);
  } else {
    if (w >= count) return;
    dst[w] = to == 0u ? floatBitsToUint(toFloat(from, w)) : uint(toInteger(from, to, w));
  }
}
