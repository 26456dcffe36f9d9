#include "backends/cpu/kernels/normalization_rows.h"

#include <cmath>

// Built for x86-64-v4, x86-64-v3 and the baseline, chosen at load time (normalization_rows.h).
#if defined(__x86_64__) && defined(__GNUC__)
#define WEBNN_ROW_CLONES \
  __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define WEBNN_ROW_CLONES
#endif

namespace webnn::cpu {
namespace {

// The body of rowStatistics, inlined into each clone (built for the clone's target there).
inline void statistics(const float* x, int64_t count, double epsilon, float& mean, float& inverse) {
  double sum = 0;
#pragma omp simd reduction(+ : sum)
  for (int64_t i = 0; i < count; ++i) sum += x[i];
  const double m = sum / static_cast<double>(count);
  double squares = 0;
#pragma omp simd reduction(+ : squares)
  for (int64_t i = 0; i < count; ++i) {
    const double d = x[i] - m;
    squares += d * d;
  }
  mean = static_cast<float>(m);
  inverse = static_cast<float>(1.0 / std::sqrt(squares / static_cast<double>(count) + epsilon));
}

}  // namespace

WEBNN_ROW_CLONES void rowStatistics(const float* x, int64_t count, double epsilon, float& mean,
                                    float& inverse) {
  statistics(x, count, epsilon, mean, inverse);
}

WEBNN_ROW_CLONES void affineRow(const float* x, float* y, int64_t count, float mean,
                                float multiplier, float shift) {
#pragma omp simd
  for (int64_t i = 0; i < count; ++i) y[i] = (x[i] - mean) * multiplier + shift;
}

WEBNN_ROW_CLONES void layerNormalizeRow(const float* x, float* y, int64_t count, double epsilon,
                                        const float* scale, const float* bias) {
  float mean = 0, inverse = 0;
  statistics(x, count, epsilon, mean, inverse);
  if (scale && bias) {
#pragma omp simd
    for (int64_t i = 0; i < count; ++i) y[i] = (x[i] - mean) * inverse * scale[i] + bias[i];
  } else if (scale) {
#pragma omp simd
    for (int64_t i = 0; i < count; ++i) y[i] = (x[i] - mean) * inverse * scale[i];
  } else if (bias) {
#pragma omp simd
    for (int64_t i = 0; i < count; ++i) y[i] = (x[i] - mean) * inverse + bias[i];
  } else {
#pragma omp simd
    for (int64_t i = 0; i < count; ++i) y[i] = (x[i] - mean) * inverse;
  }
}

}  // namespace webnn::cpu
