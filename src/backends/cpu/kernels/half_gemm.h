// A float32-activation x float16-weight matrix product for the cpu backend: C = A x B [+ bias],
// A and C float32, B a constant kept as float16 bits in column panels (packHalfPanels), widened
// to float32 in registers and accumulated in float32. The fast path is an AVX-512F + F16C + FMA
// micro-kernel chosen at run time (halfGemmIsFast); other CPUs get a portable scalar loop.
#pragma once

#include <cstdint>

namespace webnn::cpu {

// B (K x N, float16 bits) packed in panels of kHalfPanelWidth columns: panel p holds columns
// [p*W, p*W + W) for every k, k-major: element (k, n) is at p*K*W + k*W + (n - p*W). Columns past
// N are zero.
inline constexpr uint32_t kHalfPanelWidth = 32;

struct HalfPanelLayout {
  uint64_t k = 0, n = 0;
  uint64_t panelCount() const { return (n + kHalfPanelWidth - 1) / kHalfPanelWidth; }
  uint64_t packedElements() const { return panelCount() * k * kHalfPanelWidth; }
  // Element offset of B(row, column) in the packed buffer.
  uint64_t offsetOf(uint64_t row, uint64_t column) const {
    const uint64_t panel = column / kHalfPanelWidth;
    return panel * k * kHalfPanelWidth + row * kHalfPanelWidth + (column - panel * kHalfPanelWidth);
  }
};

// Packs row-major B (k x n, ldb elements between rows) into `packed` (packedElements() uint16_t;
// the padding is written as zero).
void packHalfPanels(const uint16_t* b, uint64_t ldb, const HalfPanelLayout& layout,
                    uint16_t* packed);

// Whether this CPU runs halfGemm with the AVX-512 kernel (avx512f, avx512bw, avx512vl, f16c and
// fma); otherwise halfGemm uses the portable scalar loop (correct, slow).
bool halfGemmIsFast();

// C (m x n, float32, row stride ldc) = A (m x k, float32, row stride lda) x B (packed)
// [+ bias (n float32, may be null)]. Runs on OpenMP threads (at most omp_get_max_threads()),
// split over N panels and, when there are few panels, over blocks of rows. k = 0 gives the bias
// (or zeros); A and packedB are then not read.
void halfGemm(uint64_t m, const float* a, uint64_t lda, const uint16_t* packedB,
              const HalfPanelLayout& layout, const float* bias, float* c, uint64_t ldc);

// The portable scalar loop halfGemm falls back to (exposed for tests): same contract, one
// thread, float32 accumulation in k order.
void halfGemmPortable(uint64_t m, const float* a, uint64_t lda, const uint16_t* packedB,
                      const HalfPanelLayout& layout, const float* bias, float* c, uint64_t ldc);

// The micro-kernel under halfGemm's float32 panel blocks, for kernels that make such panels of
// their own (block_quantized_gemm's many-row path): C (rows x columns, row stride ldc) = [C +]
// A (rows x depth, float32, row stride lda) x panel (depth x kHalfPanelWidth float32, 64-byte
// aligned, k-major: element (k, j) at k * kHalfPanelWidth + j) [+ bias (`columns` values, may be
// null) when not accumulating]. rows in [1, kFloatPanelMaxRows], columns in [1,
// kHalfPanelWidth]. Only where halfGemmIsFast().
inline constexpr uint64_t kFloatPanelMaxRows = 12;
void floatPanelMicroKernel(uint64_t rows, const float* a, uint64_t lda, const float* panel,
                           uint64_t depth, float* c, uint64_t ldc, const float* bias,
                           bool accumulate, uint64_t columns);

// Converts float16 bits to float32 exactly (subnormals, infinities and NaNs included):
// core/float16.h's halfToFloat.
float halfBitsToFloat(uint16_t bits);

}  // namespace webnn::cpu
