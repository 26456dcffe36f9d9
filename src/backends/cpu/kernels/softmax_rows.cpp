#include "backends/cpu/kernels/softmax_rows.h"

#include <cmath>
#include <limits>

#if defined(__x86_64__) || defined(__i386__)
#define WEBNN_SOFTMAX_X86 1
#include <immintrin.h>

#include "backends/cpu/kernels/avx512_lanes.h"
#endif

namespace webnn::cpu {
namespace {

#ifdef WEBNN_SOFTMAX_X86
#define WEBNN_SOFTMAX_TARGET __attribute__((target("avx512f,fma")))

// Rows of at least this many elements in all are shared among threads.
constexpr int64_t kParallelElements = int64_t{1} << 14;

// exp(x) for x <= 0 (Cephes expf): x = n ln2 + r with |r| <= ln2 / 2 (ln 2 in two parts, so r is
// exact), exp(r) by its degree-6 polynomial, times 2^n (vscalefps). Below -87.3 (where expf
// leaves the normal floats; -inf included) the result is 0.
WEBNN_SOFTMAX_TARGET inline __m512 expNonPositive(__m512 x) {
  const __mmask16 normal = _mm512_cmp_ps_mask(x, _mm512_set1_ps(-87.3f), _CMP_GE_OQ);
  x = _mm512_max_ps(x, _mm512_set1_ps(-87.3f));
  const __m512 n = _mm512_roundscale_ps(_mm512_mul_ps(x, _mm512_set1_ps(1.44269504088896341f)),
                                        _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m512 r = _mm512_fnmadd_ps(n, _mm512_set1_ps(0.693359375f), x);
  r = _mm512_fnmadd_ps(n, _mm512_set1_ps(-2.12194440e-4f), r);
  __m512 p = _mm512_set1_ps(1.9875691500e-4f);
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.3981999507e-3f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(8.3334519073e-3f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(4.1665795894e-2f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.6666665459e-1f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(5.0000001201e-1f));
  p = _mm512_fmadd_ps(p, _mm512_mul_ps(r, r), _mm512_add_ps(r, _mm512_set1_ps(1.0f)));
  return _mm512_maskz_mov_ps(normal, _mm512_scalef_ps(p, n));
}

// The mask of the first `count` (< 16) lanes.
inline __mmask16 firstLanes(int64_t count) {
  return static_cast<__mmask16>((1u << static_cast<unsigned>(count)) - 1u);
}

// A row with a NaN or an infinite maximum, as the reference computes it (in double: fmax skips
// NaNs, which then make every output NaN through the sum).
void softmaxRowExactly(const float* x, float* y, int64_t n) {
  double maximum = -std::numeric_limits<double>::infinity();
  for (int64_t i = 0; i < n; ++i) maximum = std::fmax(maximum, static_cast<double>(x[i]));
  double sum = 0;
  for (int64_t i = 0; i < n; ++i) sum += std::exp(static_cast<double>(x[i]) - maximum);
  for (int64_t i = 0; i < n; ++i) {
    y[i] = static_cast<float>(std::exp(static_cast<double>(x[i]) - maximum) / sum);
  }
}

WEBNN_SOFTMAX_TARGET void softmaxRow(const float* x, float* y, int64_t n) {
  const int64_t whole = n / 16 * 16;
  const __mmask16 tail = firstLanes(n - whole);
  __m512 largest = _mm512_set1_ps(-std::numeric_limits<float>::infinity());
  __mmask16 unordered = 0;
  for (int64_t i = 0; i < whole; i += 16) {
    const __m512 v = _mm512_loadu_ps(x + i);
    unordered |= _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q);
    largest = _mm512_max_ps(largest, v);
  }
  if (tail) {
    const __m512 v = _mm512_maskz_loadu_ps(tail, x + whole);
    unordered |= _mm512_mask_cmp_ps_mask(tail, v, v, _CMP_UNORD_Q);
    largest = _mm512_mask_max_ps(largest, tail, largest, v);
  }
  const float maximum = avx512::lanesMax(largest);
  if (unordered || !std::isfinite(maximum)) return softmaxRowExactly(x, y, n);
  const __m512 shift = _mm512_set1_ps(maximum);
  __m512 sum = _mm512_setzero_ps();
  for (int64_t i = 0; i < whole; i += 16) {
    const __m512 e = expNonPositive(_mm512_sub_ps(_mm512_loadu_ps(x + i), shift));
    _mm512_storeu_ps(y + i, e);
    sum = _mm512_add_ps(sum, e);
  }
  if (tail) {
    const __m512 e = expNonPositive(_mm512_sub_ps(_mm512_maskz_loadu_ps(tail, x + whole), shift));
    _mm512_mask_storeu_ps(y + whole, tail, e);
    sum = _mm512_mask_add_ps(sum, tail, sum, e);
  }
  const __m512 inverse = _mm512_set1_ps(1.0f / avx512::lanesSum(sum));
  for (int64_t i = 0; i < whole; i += 16) {
    _mm512_storeu_ps(y + i, _mm512_mul_ps(_mm512_loadu_ps(y + i), inverse));
  }
  if (tail) {
    _mm512_mask_storeu_ps(y + whole, tail,
                          _mm512_mul_ps(_mm512_maskz_loadu_ps(tail, y + whole), inverse));
  }
}
#endif

}  // namespace

bool softmaxRowsIsFast() {
#ifdef WEBNN_SOFTMAX_X86
  return __builtin_cpu_supports("avx512f");
#else
  return false;
#endif
}

void softmaxRows(const float* x, float* y, int64_t rows, int64_t n) {
#ifdef WEBNN_SOFTMAX_X86
#pragma omp parallel for schedule(static) if (rows > 1 && rows * n >= kParallelElements)
  for (int64_t r = 0; r < rows; ++r) softmaxRow(x + r * n, y + r * n, n);
#else
  (void)x, (void)y, (void)rows, (void)n;
#endif
}

}  // namespace webnn::cpu
