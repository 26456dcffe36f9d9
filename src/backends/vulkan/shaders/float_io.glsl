// float32 or float16 operands of one shader source: the pipeline's specialization constant 0
// (kernel.h's Step::float16) says which; operands are 32-bit word buffers. Arithmetic is float32
// either way, float16 values converted on load and rounded once on store. A float16 store writes
// half a word with two atomics (its own 16 bits cleared, then set), so that invocations writing
// the two halves of one word do not race; the output buffer must not be writeonly.
layout(constant_id = 0) const bool kFloat16 = false;

// Defines `float name(uint i)`: element i of `array`.
#define DEFINE_FLOAT_LOAD(name, array)                                           \
  float name(uint i) {                                                           \
    if (kFloat16) return unpackHalf2x16(array[i >> 1] >> ((i & 1u) * 16u)).x;    \
    return uintBitsToFloat(array[i]);                                            \
  }

// Defines `void name(uint i, float value)`: stores element i of `array`.
#define DEFINE_FLOAT_STORE(name, array)                                          \
  void name(uint i, float value) {                                               \
    if (kFloat16) {                                                              \
      uint shift = (i & 1u) * 16u;                                               \
      atomicAnd(array[i >> 1], ~(0xffffu << shift));                             \
      atomicOr(array[i >> 1], (packHalf2x16(vec2(value, 0.0)) & 0xffffu) << shift); \
    } else {                                                                     \
      array[i] = floatBitsToUint(value);                                         \
    }                                                                            \
  }
