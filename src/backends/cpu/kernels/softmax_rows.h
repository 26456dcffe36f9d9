// softmax along contiguous rows, float32, on AVX-512 (the cpu backend's softmax over the last
// axis, ops/softmax.cpp). oneDNN 2.6's softmax primitive took 210-240 us for 12 x 128 rows of 128
// on one Zen 5 thread; this loop takes 90-110 us: each row's maximum, then exp(x - max) stored
// and summed, then scaled by 1 / sum. exp is Cephes' expf (a degree-6 polynomial on x - n ln 2,
// scaled by 2^n with vscalefps): within 2 ulp of std::exp over softmax's range (x - max <= 0).
#pragma once

#include <cstdint>

namespace webnn::cpu {

// Whether softmaxRows runs here (the CPU has AVX-512F).
bool softmaxRowsIsFast();

// y[r][i] = exp(x[r][i] - max_r) / sum_j exp(x[r][j] - max_r) for `rows` rows of `n` floats, the
// rows shared among the OpenMP threads of the dispatch. Requires softmaxRowsIsFast().
void softmaxRows(const float* x, float* y, int64_t rows, int64_t n);

}  // namespace webnn::cpu
