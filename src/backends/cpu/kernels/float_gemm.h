// A float32 matrix product for the cpu backend whose B is a constant packed in column panels:
// C = A x B [+ bias row] [+ residual], A and C float32 row-major. For products of many rows, bound
// by arithmetic, whose B is read from memory once per dispatch (a transformer's projections: 324
// MiB of weights in a 12-layer encoder). oneDNN 2.6's brgemm matmul runs those at 91-97% of the
// FMA peak when B is in cache and loses 6-10% when B comes from memory; this kernel prefetches the
// next panel while the current one is in use (spread over the row blocks that share it) and
// measured 7-9% faster than oneDNN there (Zen 5, 2 threads, 128 x 768 x 768/3072 shapes; 3-6%
// with B in cache).
// AVX-512F + FMA through target attributes, chosen at run time (floatGemmIsFast); other CPUs get
// a portable scalar loop.
#pragma once

#include <cstdint>

namespace webnn::cpu {

// B (K x N) in panels of kFloatPanelColumns columns: panel p holds columns [p*W, p*W + W) for
// every k, k-major: element (k, n) at p*K*W + k*W + (n - p*W). Columns past N are never stored to
// C (their values do not matter).
inline constexpr uint64_t kFloatPanelColumns = 48;

struct FloatPanelLayout {
  uint64_t k = 0, n = 0;
  uint64_t panelCount() const { return (n + kFloatPanelColumns - 1) / kFloatPanelColumns; }
  uint64_t packedElements() const { return panelCount() * k * kFloatPanelColumns; }
  uint64_t offsetOf(uint64_t row, uint64_t column) const {
    const uint64_t panel = column / kFloatPanelColumns;
    return panel * k * kFloatPanelColumns + row * kFloatPanelColumns +
           (column - panel * kFloatPanelColumns);
  }
};

// Packs row-major B (k x n, ldb elements between rows) into `packed` (packedElements() floats;
// the padding is written as zero).
void packFloatPanels(const float* b, uint64_t ldb, const FloatPanelLayout& layout, float* packed);

// What is added to the product before it is stored: a row of N values (a linear layer's bias)
// and a whole m x N tensor (a residual, row stride residualStride), either may be null. The
// residual may be C itself (every element is read before its place is written).
struct FloatGemmAddends {
  const float* bias = nullptr;
  const float* residual = nullptr;
  uint64_t residualStride = 0;
};

// Whether floatGemm runs the AVX-512 kernel (avx512f and fma, with the OS saving their state).
bool floatGemmIsFast();

// C (m x n, row stride ldc) = A (m x k, row stride lda) x B (packed) + addends. Runs on OpenMP
// threads (at most omp_get_max_threads()), split over N panels and, when there are few, over
// blocks of rows. k = 0 gives the addends (or zeros); A and packedB are then not read.
void floatGemm(uint64_t m, const float* a, uint64_t lda, const float* packedB,
               const FloatPanelLayout& layout, const FloatGemmAddends& addends, float* c,
               uint64_t ldc);

// The portable scalar loop floatGemm falls back to (exposed for tests): same contract, one
// thread, float32 accumulation in k order.
void floatGemmPortable(uint64_t m, const float* a, uint64_t lda, const float* packedB,
                       const FloatPanelLayout& layout, const FloatGemmAddends& addends, float* c,
                       uint64_t ldc);

}  // namespace webnn::cpu
