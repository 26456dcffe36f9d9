// Horizontal reductions of a zmm, shared by this folder's AVX-512 kernels. Each is compiled for
// avx512f alone (target attribute), so that kernels built for a superset (fma, f16c, vnni) inline
// them. Not _mm512_reduce_add_ps or _mm512_extractf32x8_ps / castps512_ps256: GCC 12 passes
// _mm256_undefined_pd() in those, which -Wuninitialized reports (GCC bug 105593); the masked
// extract with a full mask compiles to the same instruction.
#pragma once

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

#define WEBNN_AVX512_LANES_TARGET __attribute__((target("avx512f")))

namespace webnn::cpu::avx512 {

// The low and high 8 lanes.
WEBNN_AVX512_LANES_TARGET inline __m256 lowHalf(__m512 v) {
  return _mm256_castpd_ps(_mm512_maskz_extractf64x4_pd(__mmask8{0xFF}, _mm512_castps_pd(v), 0));
}
WEBNN_AVX512_LANES_TARGET inline __m256 highHalf(__m512 v) {
  return _mm256_castpd_ps(_mm512_maskz_extractf64x4_pd(__mmask8{0xFF}, _mm512_castps_pd(v), 1));
}

// The sum of the 16 lanes.
WEBNN_AVX512_LANES_TARGET inline float lanesSum(__m512 v) {
  const __m256 eight = _mm256_add_ps(lowHalf(v), highHalf(v));
  const __m128 four = _mm_add_ps(_mm256_castps256_ps128(eight), _mm256_extractf128_ps(eight, 1));
  const __m128 two = _mm_add_ps(four, _mm_movehl_ps(four, four));
  return _mm_cvtss_f32(_mm_add_ss(two, _mm_movehdup_ps(two)));
}

// The largest of the 16 lanes.
WEBNN_AVX512_LANES_TARGET inline float lanesMax(__m512 v) {
  const __m256 eight = _mm256_max_ps(lowHalf(v), highHalf(v));
  const __m128 four = _mm_max_ps(_mm256_castps256_ps128(eight), _mm256_extractf128_ps(eight, 1));
  const __m128 two = _mm_max_ps(four, _mm_movehl_ps(four, four));
  return _mm_cvtss_f32(_mm_max_ss(two, _mm_movehdup_ps(two)));
}

}  // namespace webnn::cpu::avx512

#undef WEBNN_AVX512_LANES_TARGET
#endif
