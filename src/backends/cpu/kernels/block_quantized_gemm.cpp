// The block-quantized matrix product of block_quantized_gemm.h: the portable loop and the AVX-512
// kernel (AVX-512F through target attributes, chosen at run time).
//
// The AVX-512 kernel computes tiles of up to 4 rows x 4 columns of C, each output in one zmm
// accumulator, walking K block by block. Per column it widens 32 weights at a time (4 bits: 16
// bytes zero-extended to 16 int32 lanes, the low nibbles are the even elements and the high
// nibbles the odd ones; 8 bits: 16 bytes, 16 elements in order) and gets each weight exactly as
// dequantizeLinear computes it in float32: 4 bits by looking the nibble up (vpermps) in a table of
// the block's 16 dequantized values, (value - zero point) x scale; 8 bits by subtracting the zero
// point as integers, converting and multiplying by the scale. A's 32 values are split into even
// and odd elements once per row (two permutes), shared by the columns. The one-row path (batch-1
// decoding) reads signed 4-bit values as unsigned ones with their top bit flipped (x ^ 8 = x + 8
// for int4), the zero point raised by 8 to match.
// Threads take chunks of columns dynamically, so a descheduled thread holds back one chunk, not
// half the product.
#include "backends/cpu/kernels/block_quantized_gemm.h"

#include "backends/cpu/kernels/half_gemm.h"

#include <omp.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "core/float16.h"
#include "core/float16_convert.h"

#if defined(__x86_64__) || defined(__i386__)
#define WEBNN_BLOCK_GEMM_X86 1
#include <immintrin.h>

#include "backends/cpu/kernels/avx512_lanes.h"
#endif

namespace webnn::cpu {

float BlockQuantizedWeights::scaleAt(uint64_t index) const {
  return halfScales ? halfToFloat(halfScales[index]) : scales[index];
}

int32_t BlockQuantizedWeights::zeroPointAt(uint64_t index) const {
  return zeroPoints ? packedElementAt(zeroPoints, index, bits, isSigned) : uniformZeroPoint;
}

namespace {

// Below this many multiply-adds a product runs on the calling thread alone.
constexpr uint64_t kParallelMultiplyAdds = 1ull << 16;

#ifdef WEBNN_BLOCK_GEMM_X86
#define WEBNN_AVX512F_TARGET __attribute__((target("avx512f,fma,f16c")))

// Block `index`'s scale (F16C for float16 ones: every AVX-512F CPU has it).
WEBNN_AVX512F_TARGET inline float scaleAvx512(const BlockQuantizedWeights& w, uint64_t index) {
  return w.halfScales ? _cvtsh_ss(w.halfScales[index]) : w.scales[index];
}

// Rows x Cols outputs of C at (row, column) over the whole K.
template <int Rows, int Cols, uint32_t Bits, bool Signed>
WEBNN_AVX512F_TARGET void tileAvx512(const float* a, uint64_t lda, const BlockQuantizedWeights& w,
                                     uint64_t column, const float* bias, float* c, uint64_t ldc) {
  const uint64_t blocks = w.blocksPerRow();
  const uint64_t rowBytes = w.k * Bits / 8;
  const uint8_t* values[Cols];
  for (int j = 0; j < Cols; ++j) values[j] = w.values + (column + j) * rowBytes;
  __m512 acc[Rows][Cols];
  for (int r = 0; r < Rows; ++r) {
    for (int j = 0; j < Cols; ++j) acc[r][j] = _mm512_setzero_ps();
  }
  const __m512i evenIndex =
      _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  const __m512i oddIndex =
      _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
  for (uint64_t block = 0; block < blocks; ++block) {
    __m512 scale[Cols];
    __m512i zeroPoint[Cols];
    __m512 table[Cols];  // 4 bits: the block's 16 dequantized values, by nibble (rowAvx512)
    for (int j = 0; j < Cols; ++j) {
      const uint64_t index = (column + j) * blocks + block;
      const int32_t zero = w.zeroPointAt(index);
      scale[j] = _mm512_set1_ps(scaleAvx512(w, index));
      zeroPoint[j] = _mm512_set1_epi32(zero);
      if constexpr (Bits == 4) {
        const __m512 nibbleValues =
            Signed ? _mm512_setr_ps(0, 1, 2, 3, 4, 5, 6, 7, -8, -7, -6, -5, -4, -3, -2, -1)
                   : _mm512_setr_ps(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
        table[j] = _mm512_mul_ps(
            _mm512_sub_ps(nibbleValues, _mm512_set1_ps(static_cast<float>(zero))), scale[j]);
      }
    }
    const uint64_t blockEnd = (block + 1) * w.blockSize;
    if constexpr (Bits == 4) {
      for (uint64_t k = block * w.blockSize; k < blockEnd; k += 32) {
        __m512 even[Cols], odd[Cols];
        for (int j = 0; j < Cols; ++j) {
          const __m512i widened = _mm512_cvtepu8_epi32(
              _mm_loadu_si128(reinterpret_cast<const __m128i*>(values[j] + k / 2)));
          even[j] = _mm512_permutexvar_ps(widened, table[j]);
          odd[j] = _mm512_permutexvar_ps(_mm512_srli_epi32(widened, 4), table[j]);
        }
        for (int r = 0; r < Rows; ++r) {
          const __m512 x0 = _mm512_loadu_ps(a + r * lda + k);
          const __m512 x1 = _mm512_loadu_ps(a + r * lda + k + 16);
          const __m512 xEven = _mm512_permutex2var_ps(x0, evenIndex, x1);
          const __m512 xOdd = _mm512_permutex2var_ps(x0, oddIndex, x1);
          for (int j = 0; j < Cols; ++j) {
            acc[r][j] = _mm512_fmadd_ps(xEven, even[j], acc[r][j]);
            acc[r][j] = _mm512_fmadd_ps(xOdd, odd[j], acc[r][j]);
          }
        }
      }
    } else {
      for (uint64_t k = block * w.blockSize; k < blockEnd; k += 16) {
        __m512 weight[Cols];
        for (int j = 0; j < Cols; ++j) {
          const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(values[j] + k));
          const __m512i widened =
              Signed ? _mm512_cvtepi8_epi32(bytes) : _mm512_cvtepu8_epi32(bytes);
          weight[j] =
              _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_sub_epi32(widened, zeroPoint[j])), scale[j]);
        }
        for (int r = 0; r < Rows; ++r) {
          const __m512 x = _mm512_loadu_ps(a + r * lda + k);
          for (int j = 0; j < Cols; ++j) acc[r][j] = _mm512_fmadd_ps(x, weight[j], acc[r][j]);
        }
      }
    }
  }
  for (int r = 0; r < Rows; ++r) {
    for (int j = 0; j < Cols; ++j) {
      const float sum = avx512::lanesSum(acc[r][j]);
      c[r * ldc + j] = bias ? sum + bias[column + j] : sum;
    }
  }
}

// The zero points of blocks [block, block + 16) of a row (fewer at the end: the rest 0) as int32
// lanes, stored to `out`; signed 4-bit ones raised by 8 (their values are read that way).
template <uint32_t Bits, bool Signed>
WEBNN_AVX512F_TARGET inline void zeroPointsOf(const BlockQuantizedWeights& w, uint64_t first,
                                              uint64_t count, int32_t* out) {
  __m512i lanes;
  if (!w.zeroPoints) {  // one zero point for every block
    lanes = _mm512_set1_epi32(w.uniformZeroPoint + (Bits == 4 && Signed ? 8 : 0));
  } else if (count == 16 && Bits == 8) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(w.zeroPoints + first));
    lanes = Signed ? _mm512_cvtepi8_epi32(bytes) : _mm512_cvtepu8_epi32(bytes);
  } else if (count == 16 && first % 2 == 0) {  // 4 bits, 8 whole bytes
    uint64_t packed;
    std::memcpy(&packed, w.zeroPoints + first / 2, 8);
    const __m128i bytes = _mm_cvtsi64_si128(static_cast<long long>(packed));
    const __m128i low = _mm_and_si128(bytes, _mm_set1_epi8(0xF));
    const __m128i high = _mm_and_si128(_mm_srli_epi16(bytes, 4), _mm_set1_epi8(0xF));
    lanes = _mm512_cvtepu8_epi32(_mm_unpacklo_epi8(low, high));
    if (Signed) lanes = _mm512_xor_si512(lanes, _mm512_set1_epi32(8));  // x - 8 + 8 = x ^ 8
  } else {
    alignas(64) int32_t values[16] = {};
    for (uint64_t i = 0; i < count; ++i) {
      values[i] = w.zeroPointAt(first + i) + (Bits == 4 && Signed ? 8 : 0);
    }
    lanes = _mm512_load_si512(values);
  }
  _mm512_store_si512(out, lanes);
}

// The scales of blocks [block, block + 16) of a row (fewer at the end: the rest 0) as float32,
// stored to `out`: float16 ones widened 16 at a time.
WEBNN_AVX512F_TARGET inline void scalesOf(const BlockQuantizedWeights& w, uint64_t first,
                                          uint64_t count, float* out) {
  if (count == 16) {
    const __m512 lanes = w.halfScales ? _mm512_cvtph_ps(_mm256_loadu_si256(
                                            reinterpret_cast<const __m256i*>(w.halfScales + first)))
                                      : _mm512_loadu_ps(w.scales + first);
    _mm512_store_ps(out, lanes);
    return;
  }
  for (uint64_t i = 0; i < 16; ++i) out[i] = i < count ? scaleAvx512(w, first + i) : 0.0f;
}

// How far ahead in each column's weights rowAvx512 prefetches (past a short row, into the next
// columns' rows): the decoder's products took 10.2 ms at 512 bytes, 8.0 at 3-8 KiB (2 columns).
constexpr uint64_t kPrefetchBytes = 4096;

// Prefetches the scale and the zero point of the block that holds element `element` (row-major
// over N x K) of the weights: rowAvx512 calls it for the element kPrefetchBytes of values ahead,
// so a block's scale and zero point are in cache when its table is made. The hardware prefetchers
// did not keep up with these two streams, which each column reads a few bytes of per block
// (webnn_block_gemm_bench, the decoder's products, one thread, Zen 5: float32 scales 12.2-17.2
// -> 7.7 ms, float16 8.8 -> 8.0).
// `PerBlockZero`: whether there are zero points per block to prefetch (a template parameter, not a
// test of w.zeroPoints here: that branch in the row loop made GCC 12's code 15% slower, 6.1 ->
// 7.1-7.4 ms for the decoder's products with float32 scales).
template <bool PerBlockZero>
WEBNN_AVX512F_TARGET inline void prefetchBlockOf(const BlockQuantizedWeights& w, uint64_t element) {
  const uint64_t block = element / w.blockSize;
  if (w.halfScales) {
    _mm_prefetch(reinterpret_cast<const char*>(w.halfScales + block), _MM_HINT_T0);
  } else {
    _mm_prefetch(reinterpret_cast<const char*>(w.scales + block), _MM_HINT_T0);
  }
  if constexpr (PerBlockZero) {
    _mm_prefetch(reinterpret_cast<const char*>(w.zeroPoints + block * w.bits / 8), _MM_HINT_T0);
  }
}

// rowAvx512's 8 bits: per block each column sums x * (q - zeroPoint) in two accumulators and adds
// the sum times the scale.
template <int Cols, bool Signed>
WEBNN_AVX512F_TARGET void rowEightBitsAvx512(const float* x, const BlockQuantizedWeights& w,
                                             uint64_t column, const float* bias, float* c) {
  constexpr uint32_t Bits = 8;
  const uint64_t blocks = w.blocksPerRow();
  const uint64_t rowBytes = w.k;
  const uint8_t* values[Cols];
  for (int j = 0; j < Cols; ++j) values[j] = w.values + (column + j) * rowBytes;
  __m512 acc[Cols];
  for (int j = 0; j < Cols; ++j) acc[j] = _mm512_setzero_ps();
  alignas(64) int32_t zeroPoints[Cols][16];
  alignas(64) float scales[Cols][16];
  for (uint64_t group = 0; group < blocks; group += 16) {
    const uint64_t count = std::min<uint64_t>(16, blocks - group);
    for (int j = 0; j < Cols; ++j) {
      zeroPointsOf<Bits, Signed>(w, (column + j) * blocks + group, count, zeroPoints[j]);
      scalesOf(w, (column + j) * blocks + group, count, scales[j]);
    }
    for (uint64_t block = group; block < group + count; ++block) {
      __m512 first[Cols], second[Cols];
      __m512i zeroPoint[Cols];
      for (int j = 0; j < Cols; ++j) {
        first[j] = _mm512_setzero_ps();
        second[j] = _mm512_setzero_ps();
        zeroPoint[j] = _mm512_set1_epi32(zeroPoints[j][block - group]);
      }
      const uint64_t blockEnd = (block + 1) * w.blockSize;
      for (uint64_t k = block * w.blockSize; k < blockEnd; k += 32) {
        const bool two = k + 16 < blockEnd;
        const __m512 x0 = _mm512_load_ps(x + k);
        const __m512 x1 = two ? _mm512_load_ps(x + k + 16) : _mm512_setzero_ps();
        for (int j = 0; j < Cols; ++j) {
          const __m128i b0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(values[j] + k));
          const __m512i w0 = Signed ? _mm512_cvtepi8_epi32(b0) : _mm512_cvtepu8_epi32(b0);
          first[j] =
              _mm512_fmadd_ps(x0, _mm512_cvtepi32_ps(_mm512_sub_epi32(w0, zeroPoint[j])), first[j]);
          if (two) {
            const __m128i b1 =
                _mm_loadu_si128(reinterpret_cast<const __m128i*>(values[j] + k + 16));
            const __m512i w1 = Signed ? _mm512_cvtepi8_epi32(b1) : _mm512_cvtepu8_epi32(b1);
            second[j] = _mm512_fmadd_ps(x1, _mm512_cvtepi32_ps(_mm512_sub_epi32(w1, zeroPoint[j])),
                                        second[j]);
          }
        }
      }
      for (int j = 0; j < Cols; ++j) {
        acc[j] = _mm512_fmadd_ps(_mm512_add_ps(first[j], second[j]),
                                 _mm512_set1_ps(scales[j][block - group]), acc[j]);
      }
    }
  }
  for (int j = 0; j < Cols; ++j) {
    const float sum = avx512::lanesSum(acc[j]);
    c[j] = bias ? sum + bias[column + j] : sum;
  }
}

// One row of C (m = 1, batch-1 decoding), Cols columns from `column`, with A prepared once per
// product (`x`: for 4 bits each 32 values split into the 16 even ones then the 16 odd ones, the
// order the low and high nibbles widen to).
// 4 bits: a nibble has 16 values, so each block's 16 dequantized weights, (value - zeroPoint) x
// scale in float32 as dequantizeLinear computes them, are a table in one zmm, and vpermps looks
// the weights up by their nibbles (it reads the low 4 bits of each int32 lane: the low nibble of
// the widened byte as it is, the high one after a shift). Per 32 weights: a widen, a shift, two
// lookups and two FMAs into accumulators that run over the whole row, against eleven operations
// and a multiply-add per block before (widen, mask, shift, two subtractions, two conversions,
// two FMAs): one thread went from 10.4-10.9 to 12.9 GB/s of weights (webnn_block_gemm_bench,
// Zen 5), about half a plain read of the same bytes: bound by its operations, not by memory.
// 8 bits: rowEightBitsAvx512.
template <int Cols, uint32_t Bits, bool Signed, bool PerBlockZero>
WEBNN_AVX512F_TARGET void rowAvx512(const float* x, const BlockQuantizedWeights& w, uint64_t column,
                                    const float* bias, float* c) {
  if constexpr (Bits == 4) {
    const uint64_t blocks = w.blocksPerRow();
    const uint64_t rowBytes = w.k / 2;
    const uint8_t* values[Cols];
    for (int j = 0; j < Cols; ++j) values[j] = w.values + (column + j) * rowBytes;
    // The value of each nibble as zeroPointsOf's zero points expect it: signed ones read with
    // their top bit flipped (x ^ 8), the zero point raised by 8.
    const __m512 nibbleValues =
        Signed ? _mm512_setr_ps(8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7)
               : _mm512_setr_ps(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    __m512 even[Cols], odd[Cols];
    for (int j = 0; j < Cols; ++j) even[j] = odd[j] = _mm512_setzero_ps();
    alignas(64) int32_t zeroPoints[Cols][16];
    alignas(64) float zeros[Cols][16];
    alignas(64) float scales[Cols][16];
    for (uint64_t group = 0; group < blocks; group += 16) {
      const uint64_t count = std::min<uint64_t>(16, blocks - group);
      for (int j = 0; j < Cols; ++j) {
        zeroPointsOf<Bits, Signed>(w, (column + j) * blocks + group, count, zeroPoints[j]);
        _mm512_store_ps(zeros[j], _mm512_cvtepi32_ps(_mm512_load_si512(zeroPoints[j])));
        scalesOf(w, (column + j) * blocks + group, count, scales[j]);
      }
      for (uint64_t block = group; block < group + count; ++block) {
        __m512 table[Cols];
        for (int j = 0; j < Cols; ++j) {
          table[j] =
              _mm512_mul_ps(_mm512_sub_ps(nibbleValues, _mm512_set1_ps(zeros[j][block - group])),
                            _mm512_set1_ps(scales[j][block - group]));
        }
        const uint64_t blockEnd = (block + 1) * w.blockSize;
        for (uint64_t k = block * w.blockSize; k < blockEnd; k += 32) {
          const __m512 xEven = _mm512_load_ps(x + k);
          const __m512 xOdd = _mm512_load_ps(x + k + 16);
          for (int j = 0; j < Cols; ++j) {
            if (k % 128 == 0) {
              _mm_prefetch(reinterpret_cast<const char*>(values[j] + k / 2 + kPrefetchBytes),
                           _MM_HINT_T0);
              // A scale's line covers 16 float32 blocks (512 weights, or more): once per 512.
              if (k % 512 == 0) {
                prefetchBlockOf<PerBlockZero>(w, (column + j) * w.k + k + 2 * kPrefetchBytes);
              }
            }
            const __m512i bytes = _mm512_cvtepu8_epi32(
                _mm_loadu_si128(reinterpret_cast<const __m128i*>(values[j] + k / 2)));
            const __m512 low = _mm512_permutexvar_ps(bytes, table[j]);
            const __m512 high = _mm512_permutexvar_ps(_mm512_srli_epi32(bytes, 4), table[j]);
            even[j] = _mm512_fmadd_ps(xEven, low, even[j]);
            odd[j] = _mm512_fmadd_ps(xOdd, high, odd[j]);
          }
        }
      }
    }
    for (int j = 0; j < Cols; ++j) {
      const float sum = avx512::lanesSum(_mm512_add_ps(even[j], odd[j]));
      c[j] = bias ? sum + bias[column + j] : sum;
    }
  } else {
    rowEightBitsAvx512<Cols, Signed>(x, w, column, bias, c);
  }
}

// A's one row as rowAvx512 reads it: 64-byte aligned, for 4 bits each 32 values reordered into the
// even ones then the odd ones.
template <uint32_t Bits>
void prepareRow(const float* a, uint64_t k, float* x) {
  if constexpr (Bits == 4) {
    for (uint64_t base = 0; base < k; base += 32) {
      for (uint64_t i = 0; i < 16; ++i) {
        x[base + i] = a[base + 2 * i];
        x[base + 16 + i] = a[base + 2 * i + 1];
      }
    }
  } else {
    std::memcpy(x, a, k * sizeof(float));
  }
}

using TileFunction = void (*)(const float*, uint64_t, const BlockQuantizedWeights&, uint64_t,
                              const float*, float*, uint64_t);

template <uint32_t Bits, bool Signed>
struct Tiles {
  // [rows - 1]: 4 columns, then 1 column.
  static constexpr TileFunction wide[4] = {
      tileAvx512<1, 4, Bits, Signed>, tileAvx512<2, 4, Bits, Signed>,
      tileAvx512<3, 4, Bits, Signed>, tileAvx512<4, 4, Bits, Signed>};
  static constexpr TileFunction narrow[4] = {
      tileAvx512<1, 1, Bits, Signed>, tileAvx512<2, 1, Bits, Signed>,
      tileAvx512<3, 1, Bits, Signed>, tileAvx512<4, 1, Bits, Signed>};
};

// One row (`a` prepared by prepareRow) for columns [columnBegin, columnEnd).
template <uint32_t Bits, bool Signed, bool PerBlockZero>
void rowColumnsAvx512(const float* a, const BlockQuantizedWeights& w, const float* bias, float* c,
                      uint64_t columnBegin, uint64_t columnEnd) {
  uint64_t column = columnBegin;
  // Four columns at a time (8 bits: eight), more loads in flight (webnn_block_gemm_bench, Zen
  // 5: 4 bits 6.85 against 7.1 ms for the decoder's products with two, 3% slower with eight;
  // 8 bits 20.5 GB/s with four against 15.0 with two, 8-15% more with eight). (The 4-bit kernel
  // before the table lookup measured 2 columns 10.0 ms, 4 columns 10.8.)
  if constexpr (Bits == 8) {
    for (; column + 8 <= columnEnd; column += 8) {
      rowAvx512<8, Bits, Signed, PerBlockZero>(a, w, column, bias, c + column);
    }
  }
  for (; column + 4 <= columnEnd; column += 4) {
    rowAvx512<4, Bits, Signed, PerBlockZero>(a, w, column, bias, c + column);
  }
  for (; column + 2 <= columnEnd; column += 2) {
    rowAvx512<2, Bits, Signed, PerBlockZero>(a, w, column, bias, c + column);
  }
  for (; column < columnEnd; ++column) {
    rowAvx512<1, Bits, Signed, PerBlockZero>(a, w, column, bias, c + column);
  }
}

template <uint32_t Bits, bool Signed>
void columnsAvx512(uint64_t m, const float* a, uint64_t lda, const BlockQuantizedWeights& w,
                   const float* bias, float* c, uint64_t ldc, uint64_t columnBegin,
                   uint64_t columnEnd) {
  if (m == 1) {  // `a` is the prepared row (blockQuantizedGemm)
    if (w.zeroPoints) {
      rowColumnsAvx512<Bits, Signed, true>(a, w, bias, c, columnBegin, columnEnd);
    } else {
      rowColumnsAvx512<Bits, Signed, false>(a, w, bias, c, columnBegin, columnEnd);
    }
    return;
  }
  for (uint64_t row = 0; row < m; row += 4) {
    const uint64_t rows = std::min<uint64_t>(4, m - row);
    const float* aRows = a + row * lda;
    float* cRows = c + row * ldc;
    uint64_t column = columnBegin;
    for (; column + 4 <= columnEnd; column += 4) {
      Tiles<Bits, Signed>::wide[rows - 1](aRows, lda, w, column, bias, cRows + column, ldc);
    }
    for (; column < columnEnd; ++column) {
      Tiles<Bits, Signed>::narrow[rows - 1](aRows, lda, w, column, bias, cRows + column, ldc);
    }
  }
}

// Many rows (a prompt's tokens at once): from kPanelPathRows rows on, the product runs as a
// float32 GEMM on dequantized weights, in the transposed orientation C^T = W x A^T, so that both
// operands are made in their natural order: W's columns are dequantized along K (as the one-row
// path reads them) into kFloatPanelMaxRows rows of float32, and A's rows are packed once per
// product into float32 panels of 32 rows, k-major (A^T), for half_gemm's micro-kernel, which keeps
// 12 x 32 outputs in registers over the whole K. Each dequantized weight then feeds every row of
// the group (kRowGroup), not 4 as in the tiles. webnn_block_gemm_bench --rows, the decoder's
// products, two threads, Zen 5: 157-179 G multiply-adds/s from 32 rows on against 82-88 for the
// tiles (one thread 92 against 43); the two meet at about 18 rows (a panel of 32 lanes then half
// empty).
constexpr uint64_t kPanelPathRows = 20;
// A rows packed at once (panels of kHalfPanelWidth): a group's panels are m x K float32, at most
// 128 x 5632 x 4 = 2.8 MiB for the decoder's widest product.
constexpr uint64_t kRowGroup = 4 * kHalfPanelWidth;
// Columns a thread claims at a time in the panel path: whole micro-kernel row counts.
constexpr uint64_t kPanelColumnsPerChunk = 4 * kFloatPanelMaxRows;

uint64_t ceilDiv(uint64_t value, uint64_t divisor) {
  return (value + divisor - 1) / divisor;
}

// A 64-byte-aligned float buffer of at least `count` values, the calling thread's, kept between
// products (a steady-state dispatch allocates nothing).
float* threadBuffer(std::vector<float>& storage, uint64_t count) {
  if (storage.size() < count + 16) storage.resize(count + 16);
  float* data = storage.data();
  return data + (64 - reinterpret_cast<uintptr_t>(data) % 64) % 64 / sizeof(float);
}

// Columns [column, column + count) of W dequantized into `out` (count rows of k float32), each
// weight as dequantizeLinear computes it; 4 bits in the order the one-row path reads them (each 32
// values: the 16 even ones, then the 16 odd ones), 8 bits in k order.
template <uint32_t Bits, bool Signed>
WEBNN_AVX512F_TARGET void dequantizeColumns(const BlockQuantizedWeights& w, uint64_t column,
                                            uint64_t count, float* out) {
  const uint64_t blocks = w.blocksPerRow();
  const uint64_t rowBytes = w.k * Bits / 8;
  for (uint64_t j = 0; j < count; ++j) {
    const uint8_t* values = w.values + (column + j) * rowBytes;
    float* row = out + j * w.k;
    for (uint64_t block = 0; block < blocks; ++block) {
      const uint64_t index = (column + j) * blocks + block;
      const int32_t zero = w.zeroPointAt(index);
      const __m512 scale = _mm512_set1_ps(scaleAvx512(w, index));
      const uint64_t blockEnd = (block + 1) * w.blockSize;
      if constexpr (Bits == 4) {
        const __m512 nibbleValues =
            Signed ? _mm512_setr_ps(0, 1, 2, 3, 4, 5, 6, 7, -8, -7, -6, -5, -4, -3, -2, -1)
                   : _mm512_setr_ps(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
        const __m512 table = _mm512_mul_ps(
            _mm512_sub_ps(nibbleValues, _mm512_set1_ps(static_cast<float>(zero))), scale);
        for (uint64_t k = block * w.blockSize; k < blockEnd; k += 32) {
          const __m512i bytes = _mm512_cvtepu8_epi32(
              _mm_loadu_si128(reinterpret_cast<const __m128i*>(values + k / 2)));
          _mm512_storeu_ps(row + k, _mm512_permutexvar_ps(bytes, table));
          _mm512_storeu_ps(row + k + 16, _mm512_permutexvar_ps(_mm512_srli_epi32(bytes, 4), table));
        }
      } else {
        const __m512i zeroPoint = _mm512_set1_epi32(zero);
        for (uint64_t k = block * w.blockSize; k < blockEnd; k += 16) {
          const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(values + k));
          const __m512i widened =
              Signed ? _mm512_cvtepi8_epi32(bytes) : _mm512_cvtepu8_epi32(bytes);
          _mm512_storeu_ps(
              row + k,
              _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_sub_epi32(widened, zeroPoint)), scale));
        }
      }
    }
  }
}

// `rows` (<= 32) rows of A (row stride lda) packed as one panel: k x 32 float32, k-major, in
// dequantizeColumns' k order; rows past `rows` are zero.
template <uint32_t Bits>
void packRowPanel(const float* a, uint64_t lda, uint64_t rows, uint64_t k, float* panel) {
  constexpr uint64_t kWidth = kHalfPanelWidth;
  for (uint64_t row = 0; row < kWidth; ++row) {
    const float* source = a + row * lda;
    if (row >= rows) {
      for (uint64_t i = 0; i < k; ++i) panel[i * kWidth + row] = 0.0f;
    } else if constexpr (Bits == 4) {
      for (uint64_t base = 0; base < k; base += 32) {
        for (uint64_t i = 0; i < 16; ++i) {
          panel[(base + i) * kWidth + row] = source[base + 2 * i];
          panel[(base + 16 + i) * kWidth + row] = source[base + 2 * i + 1];
        }
      }
    } else {
      for (uint64_t i = 0; i < k; ++i) panel[i * kWidth + row] = source[i];
    }
  }
}

// The panel path (kPanelPathRows): row groups of kRowGroup, in each the threads pack the group's
// panels, then take chunks of columns dynamically; per kFloatPanelMaxRows columns, a dequantize,
// then one micro-kernel call per panel into a 12 x 32 tile of C^T, written to C transposed (with
// the bias).
template <uint32_t Bits, bool Signed>
void panelPathAvx512(uint64_t m, const float* a, uint64_t lda, const BlockQuantizedWeights& w,
                     const float* bias, float* c, uint64_t ldc, int threads) {
  constexpr uint64_t kWidth = kHalfPanelWidth;
  const uint64_t k = w.k;
  thread_local std::vector<float> panelStorage;
  float* panels = threadBuffer(panelStorage, std::min(m, kRowGroup) * k + kWidth * k);
  const uint64_t chunks = ceilDiv(w.n, kPanelColumnsPerChunk);
  for (uint64_t groupBegin = 0; groupBegin < m; groupBegin += kRowGroup) {
    const uint64_t groupRows = std::min(kRowGroup, m - groupBegin);
    const uint64_t panelCount = ceilDiv(groupRows, kWidth);
#pragma omp parallel num_threads(threads) if (threads > 1)
    {
#pragma omp for schedule(static)
      for (uint64_t panel = 0; panel < panelCount; ++panel) {
        packRowPanel<Bits>(a + (groupBegin + panel * kWidth) * lda, lda,
                           std::min(kWidth, groupRows - panel * kWidth), k,
                           panels + panel * k * kWidth);
      }
      thread_local std::vector<float> weightStorage;
      float* weights = threadBuffer(weightStorage, kFloatPanelMaxRows * k);
      alignas(64) float tile[kFloatPanelMaxRows * kWidth];
#pragma omp for schedule(dynamic, 1)
      for (uint64_t chunk = 0; chunk < chunks; ++chunk) {
        const uint64_t chunkEnd = std::min(w.n, (chunk + 1) * kPanelColumnsPerChunk);
        for (uint64_t column = chunk * kPanelColumnsPerChunk; column < chunkEnd;
             column += kFloatPanelMaxRows) {
          const uint64_t count = std::min(kFloatPanelMaxRows, chunkEnd - column);
          dequantizeColumns<Bits, Signed>(w, column, count, weights);
          for (uint64_t panel = 0; panel < panelCount; ++panel) {
            const uint64_t rows = std::min(kWidth, groupRows - panel * kWidth);
            floatPanelMicroKernel(count, weights, k, panels + panel * k * kWidth, k, tile, kWidth,
                                  nullptr, false, rows);
            for (uint64_t row = 0; row < rows; ++row) {
              float* out = c + (groupBegin + panel * kWidth + row) * ldc + column;
              for (uint64_t j = 0; j < count; ++j) {
                out[j] = bias ? tile[j * kWidth + row] + bias[column + j] : tile[j * kWidth + row];
              }
            }
          }
        }
      }
    }
  }
}

bool detectAvx512() {
  __builtin_cpu_init();
  // The target attribute's features, F16C included (float16 scales).
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("fma") && cpuHasF16c();
}
#endif  // WEBNN_BLOCK_GEMM_X86

void columnsPortable(uint64_t m, const float* a, uint64_t lda, const BlockQuantizedWeights& w,
                     const float* bias, float* c, uint64_t ldc, uint64_t columnBegin,
                     uint64_t columnEnd) {
  const uint64_t blocks = w.blocksPerRow();
  for (uint64_t row = 0; row < m; ++row) {
    const float* x = a + row * lda;
    for (uint64_t column = columnBegin; column < columnEnd; ++column) {
      float sum = 0;
      for (uint64_t block = 0; block < blocks; ++block) {
        const uint64_t index = column * blocks + block;
        const float scale = w.scaleAt(index);
        const int32_t zeroPoint = w.zeroPointAt(index);
        for (uint64_t k = block * w.blockSize; k < (block + 1) * w.blockSize; ++k) {
          const int32_t q = packedElementAt(w.values, column * w.k + k, w.bits, w.isSigned);
          sum += x[k] * (static_cast<float>(q - zeroPoint) * scale);
        }
      }
      c[row * ldc + column] = bias ? sum + bias[column] : sum;
    }
  }
}

using ColumnsFunction = void (*)(uint64_t, const float*, uint64_t, const BlockQuantizedWeights&,
                                 const float*, float*, uint64_t, uint64_t, uint64_t);

ColumnsFunction columnsFunctionOf(const BlockQuantizedWeights& w) {
#ifdef WEBNN_BLOCK_GEMM_X86
  if (blockQuantizedGemmIsFast(w)) {
    if (w.bits == 4) return w.isSigned ? columnsAvx512<4, true> : columnsAvx512<4, false>;
    return w.isSigned ? columnsAvx512<8, true> : columnsAvx512<8, false>;
  }
#endif
  return columnsPortable;
}

}  // namespace

uint64_t blockQuantizedColumnsPerChunk(uint64_t n, int threads) {
  const uint64_t perThread = (n + 2 * static_cast<uint64_t>(std::max(threads, 1)) - 1) /
                             (2 * static_cast<uint64_t>(std::max(threads, 1)));
  return std::clamp<uint64_t>((perThread + 7) / 8 * 8, 64, 256);
}

bool blockQuantizedGemmIsFast(const BlockQuantizedWeights& weights) {
#ifdef WEBNN_BLOCK_GEMM_X86
  static const bool avx512 = detectAvx512();
  if (!avx512 || weights.blockSize == 0) return false;
  return weights.bits == 4 ? weights.blockSize % 32 == 0 : weights.blockSize % 16 == 0;
#else
  (void)weights;
  return false;
#endif
}

bool blockQuantizedGemmUsesPanels(uint64_t m, const BlockQuantizedWeights& weights) {
#ifdef WEBNN_BLOCK_GEMM_X86
  return m >= kPanelPathRows && blockQuantizedGemmIsFast(weights) && halfGemmIsFast();
#else
  (void)m, (void)weights;
  return false;
#endif
}

void blockQuantizedGemm(uint64_t m, const float* a, uint64_t lda,
                        const BlockQuantizedWeights& weights, const float* bias, float* c,
                        uint64_t ldc) {
  if (m == 0 || weights.n == 0) return;
  const ColumnsFunction columns = columnsFunctionOf(weights);
#ifdef WEBNN_BLOCK_GEMM_X86
  // One row (batch-1 decoding): prepared once for every thread's columns, in the calling thread's
  // buffer (kept between products: a steady-state dispatch allocates nothing).
  if (m == 1 && blockQuantizedGemmIsFast(weights)) {
    thread_local std::vector<float> storage;
    if (storage.size() < weights.k + 16) storage.resize(weights.k + 16);
    float* row = storage.data();
    row += (64 - reinterpret_cast<uintptr_t>(row) % 64) % 64 / sizeof(float);
    if (weights.bits == 4) {
      prepareRow<4>(a, weights.k, row);
    } else {
      prepareRow<8>(a, weights.k, row);
    }
    a = row;
  }
#endif
  const int available = std::max(std::min(omp_get_max_threads(), omp_get_thread_limit()), 1);
  const uint64_t columnsPerChunk = blockQuantizedColumnsPerChunk(weights.n, available);
  const uint64_t chunks = (weights.n + columnsPerChunk - 1) / columnsPerChunk;
  const uint64_t multiplyAdds = m * weights.n * weights.k;
#ifdef WEBNN_BLOCK_GEMM_X86
  if (blockQuantizedGemmUsesPanels(m, weights)) {
    const int threads = multiplyAdds < kParallelMultiplyAdds ? 1 : available;
    if (weights.bits == 4) {
      (weights.isSigned ? panelPathAvx512<4, true>
                        : panelPathAvx512<4, false>)(m, a, lda, weights, bias, c, ldc, threads);
    } else {
      (weights.isSigned ? panelPathAvx512<8, true>
                        : panelPathAvx512<8, false>)(m, a, lda, weights, bias, c, ldc, threads);
    }
    return;
  }
#endif
  const int threads =
      multiplyAdds < kParallelMultiplyAdds || chunks < 2
          ? 1
          : static_cast<int>(std::min<uint64_t>(chunks, static_cast<uint64_t>(available)));
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads) if (threads > 1)
  for (uint64_t chunk = 0; chunk < chunks; ++chunk) {
    const uint64_t begin = chunk * columnsPerChunk;
    const uint64_t end = std::min(weights.n, begin + columnsPerChunk);
    columns(m, a, lda, weights, bias, c, ldc, begin, end);
  }
}

void blockQuantizedGemmPortable(uint64_t m, const float* a, uint64_t lda,
                                const BlockQuantizedWeights& weights, const float* bias, float* c,
                                uint64_t ldc) {
  columnsPortable(m, a, lda, weights, bias, c, ldc, 0, weights.n);
}

}  // namespace webnn::cpu
