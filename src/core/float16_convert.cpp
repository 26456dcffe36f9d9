#include "core/float16_convert.h"

#include <cstring>

#include "core/float16.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <immintrin.h>
#define WEBNN_HAVE_F16C_PATH 1
#endif

namespace webnn {
namespace {

// One element, read and written through memcpy: callers' buffers need not be aligned.
inline void widenOne(const uint16_t* from, float* to) {
  uint16_t half;
  std::memcpy(&half, from, sizeof half);
  const float value = halfToFloat(half);
  std::memcpy(to, &value, sizeof value);
}
inline void narrowOne(const float* from, uint16_t* to) {
  float value;
  std::memcpy(&value, from, sizeof value);
  const uint16_t half = floatToHalf(value);
  std::memcpy(to, &half, sizeof half);
}

#ifdef WEBNN_HAVE_F16C_PATH
__attribute__((target("avx,f16c"))) void halfToFloatF16c(const uint16_t* from, float* to,
                                                         uint64_t count) {
  uint64_t i = 0;
  for (; i + 8 <= count; i += 8) {
    const __m128i half = _mm_loadu_si128(reinterpret_cast<const __m128i*>(from + i));
    _mm256_storeu_ps(to + i, _mm256_cvtph_ps(half));
  }
  for (; i < count; ++i) widenOne(from + i, to + i);
}

__attribute__((target("avx,f16c"))) void floatToHalfF16c(const float* from, uint16_t* to,
                                                         uint64_t count) {
  uint64_t i = 0;
  for (; i + 8 <= count; i += 8) {
    const __m128i half = _mm256_cvtps_ph(_mm256_loadu_ps(from + i), _MM_FROUND_TO_NEAREST_INT);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(to + i), half);
  }
  for (; i < count; ++i) narrowOne(from + i, to + i);
}
#endif

}  // namespace

bool cpuHasF16c() {
#ifdef WEBNN_HAVE_F16C_PATH
  // CPUID (clang 14's __builtin_cpu_supports does not know "f16c"); AVX through the builtin,
  // which also checks that the OS saves the YMM registers.
  static const bool has = [] {
    __builtin_cpu_init();
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    const bool f16c = __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_F16C) != 0;
    return f16c && __builtin_cpu_supports("avx");
  }();
  return has;
#else
  return false;
#endif
}

void convertHalfToFloat(const uint16_t* from, float* to, uint64_t count) {
#ifdef WEBNN_HAVE_F16C_PATH
  if (cpuHasF16c()) {
    halfToFloatF16c(from, to, count);
    return;
  }
#endif
  for (uint64_t i = 0; i < count; ++i) widenOne(from + i, to + i);
}

void convertFloatToHalf(const float* from, uint16_t* to, uint64_t count) {
#ifdef WEBNN_HAVE_F16C_PATH
  if (cpuHasF16c()) {
    floatToHalfF16c(from, to, count);
    return;
  }
#endif
  for (uint64_t i = 0; i < count; ++i) narrowOne(from + i, to + i);
}

}  // namespace webnn
