// The rows of the cpu backend's normalization kernels (ops/normalization.cpp): the library is
// compiled for baseline x86-64 (SSE2), where these loops ran at a quarter of the machine's vector
// width (layerNormalization of 128 x 768: 110 us against 26 us built for AVX-512). Each function
// here is built three times, for x86-64-v4 (AVX-512), x86-64-v3 (AVX2, FMA) and the baseline, and
// the dynamic loader picks the one the CPU runs (target_clones, an ifunc). Statistics in double,
// the normalization in float, as before.
#pragma once

#include <cstdint>

namespace webnn::cpu {

// The mean and 1 / sqrt(variance + epsilon) of `count` contiguous floats (two passes).
void rowStatistics(const float* x, int64_t count, double epsilon, float& mean, float& inverse);

// y = (x - mean) * multiplier + shift over `count` contiguous floats.
void affineRow(const float* x, float* y, int64_t count, float mean, float multiplier, float shift);

// layerNormalization of one contiguous row: its statistics, then
// y = (x - mean) * inverse * scale + bias (scale, bias: `count` floats each, or null).
void layerNormalizeRow(const float* x, float* y, int64_t count, double epsilon, const float* scale,
                       const float* bias);

}  // namespace webnn::cpu
