#include "backends/cpu/kernels/patch_deconvolution.h"

#include <immintrin.h>

#include <algorithm>

namespace webnn::cpu {
namespace {

using Shape = PatchDeconvolutionShape;

// Rows of (n, o, ih) below this many output elements in all run on the calling thread alone.
constexpr int64_t kParallelElements = int64_t{1} << 14;

float weightAt(const Shape& s, const float* w, int64_t o, int64_t i, int64_t kh, int64_t kw) {
  return w[o * s.strideO + i * s.strideI + kh * s.strideH + kw * s.strideW];
}

// Any kernel width, one output row at a time.
void rowPortable(const Shape& s, const float* in, const float* w, float biasValue, int64_t o,
                 int64_t kh, float* outRow) {
  const int64_t plane = s.inputHeight * s.inputWidth;
  for (int64_t iw = 0; iw < s.inputWidth; ++iw) {
    for (int64_t kw = 0; kw < s.kernelWidth; ++kw) {
      float sum = biasValue;
      for (int64_t i = 0; i < s.inputChannels; ++i) {
        sum += in[i * plane + iw] * weightAt(s, w, o, i, kh, kw);
      }
      outRow[iw * s.kernelWidth + kw] = sum;
    }
  }
}

#define WEBNN_PATCH_TARGET __attribute__((target("avx512f,fma")))

// KW output columns per input column, B vectors of 16 input columns at a time: KW x B accumulators
// in registers, each input vector loaded once per channel for all KW taps.
template <int KW, int B>
WEBNN_PATCH_TARGET void rowAvx512(const Shape& s, const float* in, const float* w, float biasValue,
                                  int64_t o, int64_t kh, float* outRow) {
  const int64_t plane = s.inputHeight * s.inputWidth;
  const int64_t width = s.inputWidth;
  const float* wRow = w + o * s.strideO + kh * s.strideH;
  for (int64_t iw0 = 0; iw0 < width; iw0 += 16 * B) {
    const int64_t count = std::min<int64_t>(16 * B, width - iw0);
    __mmask16 masks[B];
    for (int b = 0; b < B; ++b) {
      const int64_t lanes = std::clamp<int64_t>(count - 16 * b, 0, 16);
      masks[b] = static_cast<__mmask16>((uint32_t{1} << lanes) - 1);
    }
    __m512 acc[KW][B];
    for (int k = 0; k < KW; ++k) {
      for (int b = 0; b < B; ++b) acc[k][b] = _mm512_set1_ps(biasValue);
    }
    const float* source = in + iw0;
    for (int64_t i = 0; i < s.inputChannels; ++i, source += plane) {
      __m512 x[B];
      for (int b = 0; b < B; ++b) x[b] = _mm512_maskz_loadu_ps(masks[b], source + 16 * b);
      const float* wi = wRow + i * s.strideI;
      for (int k = 0; k < KW; ++k) {
        const __m512 wv = _mm512_set1_ps(wi[k * s.strideW]);
        for (int b = 0; b < B; ++b) acc[k][b] = _mm512_fmadd_ps(wv, x[b], acc[k][b]);
      }
    }
    float* out = outRow + iw0 * KW;
    if constexpr (KW == 1) {
      for (int b = 0; b < B; ++b) _mm512_mask_storeu_ps(out + 16 * b, masks[b], acc[0][b]);
    } else if constexpr (KW == 2) {
      // Interleave: columns 2 iw and 2 iw + 1 come from the two accumulators' lane iw.
      const __m512i low = _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
      const __m512i high =
          _mm512_setr_epi32(8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
      for (int b = 0; b < B; ++b) {
        const int64_t lanes = std::clamp<int64_t>(count - 16 * b, 0, 16) * 2;
        if (lanes == 0) break;
        const auto lowMask =
            static_cast<__mmask16>((uint32_t{1} << std::min<int64_t>(lanes, 16)) - 1);
        const auto highMask =
            static_cast<__mmask16>((uint32_t{1} << std::max<int64_t>(lanes - 16, 0)) - 1);
        _mm512_mask_storeu_ps(out + 32 * b, lowMask,
                              _mm512_permutex2var_ps(acc[0][b], low, acc[1][b]));
        _mm512_mask_storeu_ps(out + 32 * b + 16, highMask,
                              _mm512_permutex2var_ps(acc[0][b], high, acc[1][b]));
      }
    } else {
      alignas(64) float tile[KW][16 * B];
      for (int k = 0; k < KW; ++k) {
        for (int b = 0; b < B; ++b) _mm512_store_ps(tile[k] + 16 * b, acc[k][b]);
      }
      for (int64_t j = 0; j < count; ++j) {
        for (int k = 0; k < KW; ++k) out[j * KW + k] = tile[k][j];
      }
    }
  }
}

using RowKernel = void (*)(const Shape&, const float*, const float*, float, int64_t, int64_t,
                           float*);

RowKernel rowKernelFor(int64_t kernelWidth) {
  static const bool avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("fma");
  if (avx512) {
    switch (kernelWidth) {
      case 1:
        return rowAvx512<1, 4>;
      case 2:
        return rowAvx512<2, 4>;
      case 3:
        return rowAvx512<3, 2>;
      case 4:
        return rowAvx512<4, 2>;
      default:
        break;
    }
  }
  return rowPortable;
}

}  // namespace

void patchDeconvolution(const Shape& s, const float* input, const float* weights, const float* bias,
                        float* output) {
  const int64_t rows = s.batches * s.outputChannels * s.inputHeight;
  const int64_t outputHeight = s.inputHeight * s.kernelHeight;
  const int64_t outputWidth = s.inputWidth * s.kernelWidth;
  const RowKernel kernel = rowKernelFor(s.kernelWidth);
  const bool parallel = rows > 1 && rows * s.kernelHeight * outputWidth > kParallelElements;
#pragma omp parallel for schedule(static) if (parallel)
  for (int64_t row = 0; row < rows; ++row) {
    const int64_t ih = row % s.inputHeight;
    const int64_t o = row / s.inputHeight % s.outputChannels;
    const int64_t n = row / (s.inputHeight * s.outputChannels);
    const float* in = input + (n * s.inputChannels * s.inputHeight + ih) * s.inputWidth;
    const float biasValue = bias ? bias[o] : 0.0f;
    for (int64_t kh = 0; kh < s.kernelHeight; ++kh) {
      float* outRow =
          output +
          ((n * s.outputChannels + o) * outputHeight + ih * s.kernelHeight + kh) * outputWidth;
      kernel(s, in, weights, biasValue, o, kh, outRow);
    }
  }
}

}  // namespace webnn::cpu
