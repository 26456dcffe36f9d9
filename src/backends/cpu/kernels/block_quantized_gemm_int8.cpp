// The block-quantized product with int8 activations (block_quantized_gemm.h,
// blockQuantizedGemmInt8Activations): the portable loop and the AVX-512 VNNI kernel (through
// target attributes, chosen at run time).
//
// Each row of A is quantized once per product, in blocks of 32 along K: scale = the block's
// largest magnitude / 127, q = round-to-nearest-even(a x 127 / largest) (llama.cpp's q8_0; ONNX
// Runtime's MatMulNBits with accuracy_level 4 also quantizes A to int8 per block). A column sums,
// per block of 32, the exact integer dot product of the block's int8 activations with its 4-bit
// weights, times the activation scale and the weight scale:
//   C(m, n) = sum_s scaleW(n, s) x scaleA(m, s) x (sum_k qA(m, k) x qW(n, k)
//             - zeroPoint(n, s) x sum_k qA(m, k)).
// (The zero point's share is subtracted in the integers.)
//
// The VNNI kernel takes two blocks (64 weights) per instruction: the weights' 32 bytes split into
// the low nibbles (the even elements of both blocks) and the high ones (the odd elements), side by
// side in one zmm, and vpdpbusd multiplies them (unsigned) with A's int8 values laid out the same
// way (even elements of block 2p, of block 2p + 1, odd of 2p, of 2p + 1) and sums each 4 products
// into one int32 lane. Lanes 0-3 and 8-11 hold block 2p's sums, 4-7 and 12-15 block 2p + 1's: they
// are converted to float and accumulated times each lane's scales (activation x weight) over the
// row; one horizontal sum per column at the end. The integer sums are exact (at most 32 x 127 x 15
// per lane), so the two kernels differ only in the order of their float sums. Signed 4-bit weights
// are read with their top bit flipped (x ^ 8 = x + 8), the zero point raised by 8.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "backends/cpu/kernels/block_quantized_gemm.h"
#include "core/float16_convert.h"

#if defined(__x86_64__) || defined(__i386__)
#define WEBNN_INT8_GEMM_X86 1
#include <immintrin.h>

#include "backends/cpu/kernels/avx512_lanes.h"
#endif

namespace webnn::cpu {
namespace {

constexpr uint64_t kActivationBlock = 32;
// Below this many multiply-adds a product runs on the calling thread alone.
constexpr uint64_t kParallelMultiplyAdds = 1ull << 16;
// How far ahead in each column's weights the kernel prefetches: 8 KiB (4 KiB, the float kernel's
// distance, and 16 KiB were slower; this kernel goes through each column's bytes faster).
constexpr uint64_t kPrefetchBytes = 8192;

// One row of A quantized per block of 32: int8 values (in natural order), each block's scale and
// the sum of its int8 values.
struct QuantizedRow {
  std::vector<int8_t> values;
  std::vector<float> scales;
  std::vector<int32_t> sums;
};

// The quantization both kernels use, element by element (the VNNI kernel computes the same values
// 16 lanes at a time: the same float operations, so the same integers).
void quantizeBlock(const float* a, int8_t* q, float& scale, int32_t& sum) {
  float largest = 0;
  for (uint64_t i = 0; i < kActivationBlock; ++i) largest = std::max(largest, std::fabs(a[i]));
  const float inverse = largest > 0 ? 127.0f / largest : 0.0f;
  scale = largest / 127.0f;
  sum = 0;
  for (uint64_t i = 0; i < kActivationBlock; ++i) {
    const float rounded = std::nearbyint(a[i] * inverse);
    const int32_t value = static_cast<int32_t>(std::clamp(rounded, -127.0f, 127.0f));
    q[i] = static_cast<int8_t>(value);
    sum += value;
  }
}

void quantizeRowPortable(const float* a, uint64_t k, QuantizedRow& row) {
  const uint64_t blocks = k / kActivationBlock;
  row.values.resize(k);
  row.scales.resize(blocks);
  row.sums.resize(blocks);
  for (uint64_t s = 0; s < blocks; ++s) {
    quantizeBlock(a + s * kActivationBlock, row.values.data() + s * kActivationBlock, row.scales[s],
                  row.sums[s]);
  }
}

void columnsPortable(const QuantizedRow& row, const BlockQuantizedWeights& w, const float* bias,
                     float* c, uint64_t columnBegin, uint64_t columnEnd) {
  const uint64_t subBlocks = w.k / kActivationBlock;
  const uint64_t perWeightBlock = w.blockSize / kActivationBlock;
  for (uint64_t column = columnBegin; column < columnEnd; ++column) {
    float sum = 0;
    for (uint64_t s = 0; s < subBlocks; ++s) {
      const uint64_t block = column * w.blocksPerRow() + s / perWeightBlock;
      int32_t dot = 0;
      for (uint64_t i = s * kActivationBlock; i < (s + 1) * kActivationBlock; ++i) {
        dot += row.values[i] * packedElementAt(w.values, column * w.k + i, 4, w.isSigned);
      }
      dot -= w.zeroPointAt(block) * row.sums[s];
      sum += w.scaleAt(block) * row.scales[s] * static_cast<float>(dot);
    }
    c[column] = bias ? sum + bias[column] : sum;
  }
}

#ifdef WEBNN_INT8_GEMM_X86
#define WEBNN_VNNI_TARGET \
  __attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni,avx2,fma,f16c")))

// A row quantized for the VNNI kernel: per pair of blocks p, 64 bytes (even elements of block 2p,
// of 2p + 1, odd of 2p, of 2p + 1), and per pair a zmm of the two blocks' scales in the lanes their
// sums land in ([2p] x 4, [2p + 1] x 4, [2p] x 4, [2p + 1] x 4).
struct PackedRow {
  std::vector<int8_t> storage;  // 64-byte aligned within
  std::vector<float> laneScalesStorage;
  const int8_t* values = nullptr;
  const float* laneScales = nullptr;
};

// round(v x scale), to nearest even (as std::nearbyint in quantizeBlock), within [-127, 127].
WEBNN_VNNI_TARGET inline __m512i quantizeLanes(__m512 v, __m512 scale) {
  const __m512 rounded =
      _mm512_roundscale_ps(_mm512_mul_ps(v, scale), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  const __m512 clamped =
      _mm512_min_ps(_mm512_max_ps(rounded, _mm512_set1_ps(-127.0f)), _mm512_set1_ps(127.0f));
  return _mm512_cvtps_epi32(clamped);
}

WEBNN_VNNI_TARGET void quantizeRowVnni(const float* a, uint64_t k, PackedRow& row) {
  const uint64_t blocks = k / kActivationBlock, pairs = blocks / 2;
  row.storage.resize(k + 64);
  row.laneScalesStorage.resize(pairs * 16 + 16);
  auto aligned = [](auto* p) {
    return reinterpret_cast<decltype(p)>((reinterpret_cast<uintptr_t>(p) + 63) / 64 * 64);
  };
  int8_t* values = aligned(row.storage.data());
  float* laneScales = aligned(row.laneScalesStorage.data());
  const __m512i evenIndex =
      _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  const __m512i oddIndex =
      _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
  for (uint64_t s = 0; s < blocks; ++s) {
    const float* x = a + s * kActivationBlock;
    const __m512 first = _mm512_loadu_ps(x), second = _mm512_loadu_ps(x + 16);
    const __m512 magnitudes = _mm512_max_ps(_mm512_abs_ps(first), _mm512_abs_ps(second));
    const float largest = avx512::lanesMax(magnitudes);
    const float inverse = largest > 0 ? 127.0f / largest : 0.0f;
    const __m512 scale = _mm512_set1_ps(inverse);
    const __m512i even = quantizeLanes(_mm512_permutex2var_ps(first, evenIndex, second), scale);
    const __m512i odd = quantizeLanes(_mm512_permutex2var_ps(first, oddIndex, second), scale);
    const uint64_t pair = s / 2, half = s % 2;
    int8_t* out = values + pair * 64 + half * 16;
    _mm_store_si128(reinterpret_cast<__m128i*>(out), _mm512_cvtsepi32_epi8(even));
    _mm_store_si128(reinterpret_cast<__m128i*>(out + 32), _mm512_cvtsepi32_epi8(odd));
    const float blockScale = largest / 127.0f;
    float* lanes = laneScales + pair * 16 + half * 4;
    for (int i = 0; i < 4; ++i) lanes[i] = lanes[8 + i] = blockScale;
  }
  row.values = values;
  row.laneScales = laneScales;
}

// Cols columns from `column` of one row: per pair of blocks, A's 64 int8 values loaded once for
// the Cols columns. Per column and pair: the 32 weight bytes loaded into both halves of a zmm, the
// upper half shifted right by 4 (vpsrlvw), masked to nibbles; one vpdpbusd; the weight scales
// put in their lanes by one permute of 16 blocks' scales (blocks of 32; blocks of 64 or more give
// both halves one scale); a multiply by A's scales, a conversion and an FMA.
// The zero point's share, zeroPoint x sum qA per lane, starts each lane's integer sum (negated):
// the 4 activations a lane multiplies are summed by the same instruction against bytes of 1, once
// per pair when every block has the same zero point.
template <int Cols, bool UniformZero, bool Signed, bool SmallBlocks>
WEBNN_VNNI_TARGET void rowColumnsVnni(const PackedRow& row, const BlockQuantizedWeights& w,
                                      uint64_t column, const float* bias, float* c) {
  const uint64_t blocks = w.k / kActivationBlock, pairs = blocks / 2;
  const uint64_t perWeightBlock = w.blockSize / kActivationBlock;
  const uint64_t weightBlocks = w.blocksPerRow();
  const uint8_t* values[Cols];
  for (int j = 0; j < Cols; ++j) values[j] = w.values + (column + j) * (w.k / 2);
  const __m512i nibbleMask = _mm512_set1_epi8(0x0F);
  // 16-bit shifts: 0 in the lower half, 4 in the upper one.
  const long long fours = 0x0004000400040004;
  const __m512i highShift = _mm512_set_epi64(fours, fours, fours, fours, 0, 0, 0, 0);
  const int32_t raise = Signed ? 8 : 0;  // the zero point of weights read as x ^ 8
  const __m512i ones = _mm512_set1_epi8(1);
  const __m512i uniformZero = _mm512_set1_epi32(w.uniformZeroPoint + raise);
  __m512 acc[Cols];
  for (int j = 0; j < Cols; ++j) acc[j] = _mm512_setzero_ps();
  // Lanes 4-7 and 12-15 hold the second block's sums.
  const __mmask16 secondBlockLanes = 0xF0F0;
  __m512 groupScales[Cols];
  for (int j = 0; j < Cols; ++j) groupScales[j] = _mm512_setzero_ps();
  // Pairs in groups of 8 (16 blocks: one load of their scales per column).
  for (uint64_t group = 0; group < pairs; group += 8) {
    const uint64_t groupPairs = std::min<uint64_t>(8, pairs - group);
    if constexpr (SmallBlocks) {
      const __mmask16 mask = static_cast<__mmask16>((1u << (2 * groupPairs)) - 1);
      for (int j = 0; j < Cols; ++j) {
        const uint64_t first = (column + j) * weightBlocks + 2 * group;
        groupScales[j] = w.halfScales
                             ? _mm512_cvtph_ps(_mm256_maskz_loadu_epi16(mask, w.halfScales + first))
                             : _mm512_maskz_loadu_ps(mask, w.scales + first);
        // The scales kPrefetchBytes of weights ahead (as the float-activation kernel does: the
        // hardware prefetchers do not follow this second stream).
        const uint64_t ahead = first + kPrefetchBytes * 2 / kActivationBlock;
        _mm_prefetch(w.halfScales ? reinterpret_cast<const char*>(w.halfScales + ahead)
                                  : reinterpret_cast<const char*>(w.scales + ahead),
                     _MM_HINT_T0);
      }
    }
    for (uint64_t q = 0; q < groupPairs; ++q) {
      const uint64_t p = group + q;
      const __m512i x = _mm512_load_si512(row.values + p * 64);
      const __m512 aScales = _mm512_load_ps(row.laneScales + p * 16);
      const __m512i laneSums = _mm512_dpbusd_epi32(_mm512_setzero_si512(), ones, x);
      __m512i uniformStart = _mm512_setzero_si512();
      if constexpr (UniformZero) {
        uniformStart =
            _mm512_sub_epi32(_mm512_setzero_si512(), _mm512_mullo_epi32(uniformZero, laneSums));
      }
      const int first = static_cast<int>(2 * q), second = first + 1;
      const __m512i scaleIndex =
          _mm512_setr_epi32(first, first, first, first, second, second, second, second, first,
                            first, first, first, second, second, second, second);
      const uint64_t weightBlock = (2 * p) / perWeightBlock;
      for (int j = 0; j < Cols; ++j) {
        if (p % 2 == 0) {
          _mm_prefetch(reinterpret_cast<const char*>(values[j] + p * 32 + kPrefetchBytes),
                       _MM_HINT_T0);
        }
        // (The masked form: GCC 12's unmasked one passes an undefined vector, which
        // -Wuninitialized reports, GCC bug 105593.)
        const __m512i bytes = _mm512_maskz_broadcast_i64x4(
            __mmask8{0xFF},
            _mm256_loadu_si256(reinterpret_cast<const __m256i*>(values[j] + p * 32)));
        __m512i weights = _mm512_and_si512(_mm512_srlv_epi16(bytes, highShift), nibbleMask);
        if constexpr (Signed) weights = _mm512_xor_si512(weights, _mm512_set1_epi8(0x08));
        __m512i start = uniformStart;
        if constexpr (!UniformZero) {
          const uint64_t base = (column + j) * weightBlocks;
          const __m512i zeroPoints = _mm512_mask_blend_epi32(
              secondBlockLanes,
              _mm512_set1_epi32(w.zeroPointAt(base + (2 * p) / perWeightBlock) + raise),
              _mm512_set1_epi32(w.zeroPointAt(base + (2 * p + 1) / perWeightBlock) + raise));
          start =
              _mm512_sub_epi32(_mm512_setzero_si512(), _mm512_mullo_epi32(zeroPoints, laneSums));
        }
        const __m512i dots = _mm512_dpbusd_epi32(start, weights, x);
        __m512 wScales;
        if constexpr (SmallBlocks) {
          wScales = _mm512_permutexvar_ps(scaleIndex, groupScales[j]);
        } else {
          const uint64_t index = (column + j) * weightBlocks + weightBlock;
          wScales = _mm512_set1_ps(w.halfScales ? _cvtsh_ss(w.halfScales[index]) : w.scales[index]);
        }
        acc[j] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(dots), _mm512_mul_ps(aScales, wScales), acc[j]);
      }
    }
  }
  for (int j = 0; j < Cols; ++j) {
    const float sum = avx512::lanesSum(acc[j]);
    c[j] = bias ? sum + bias[column + j] : sum;
  }
}

template <bool UniformZero, bool Signed, bool SmallBlocks>
WEBNN_VNNI_TARGET void columnRangeVnni(const PackedRow& row, const BlockQuantizedWeights& w,
                                       const float* bias, float* c, uint64_t columnBegin,
                                       uint64_t columnEnd) {
  uint64_t column = columnBegin;
  for (; column + 8 <= columnEnd; column += 8) {
    rowColumnsVnni<8, UniformZero, Signed, SmallBlocks>(row, w, column, bias, c + column);
  }
  for (; column + 4 <= columnEnd; column += 4) {
    rowColumnsVnni<4, UniformZero, Signed, SmallBlocks>(row, w, column, bias, c + column);
  }
  for (; column < columnEnd; ++column) {
    rowColumnsVnni<1, UniformZero, Signed, SmallBlocks>(row, w, column, bias, c + column);
  }
}

using ColumnRange = void (*)(const PackedRow&, const BlockQuantizedWeights&, const float*, float*,
                             uint64_t, uint64_t);

ColumnRange columnRangeOf(const BlockQuantizedWeights& w) {
  static constexpr ColumnRange table[2][2][2] = {
      {{columnRangeVnni<false, false, false>, columnRangeVnni<false, false, true>},
       {columnRangeVnni<false, true, false>, columnRangeVnni<false, true, true>}},
      {{columnRangeVnni<true, false, false>, columnRangeVnni<true, false, true>},
       {columnRangeVnni<true, true, false>, columnRangeVnni<true, true, true>}}};
  return table[w.zeroPoints ? 0 : 1][w.isSigned ? 1 : 0][w.blockSize == kActivationBlock ? 1 : 0];
}

bool detectVnni() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vnni") &&
         __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && cpuHasF16c();
}
#endif  // WEBNN_INT8_GEMM_X86

int threadsFor(uint64_t multiplyAdds, uint64_t chunks, int available) {
  if (multiplyAdds < kParallelMultiplyAdds || chunks < 2) return 1;
  return static_cast<int>(std::min<uint64_t>(chunks, static_cast<uint64_t>(available)));
}

}  // namespace

bool blockQuantizedGemmInt8ActivationsTakes(const BlockQuantizedWeights& weights) {
  return weights.bits == 4 && weights.blockSize > 0 && weights.blockSize % kActivationBlock == 0 &&
         weights.k % kActivationBlock == 0;
}

bool blockQuantizedGemmInt8ActivationsIsFast(const BlockQuantizedWeights& weights) {
#ifdef WEBNN_INT8_GEMM_X86
  static const bool vnni = detectVnni();
  return vnni && blockQuantizedGemmInt8ActivationsTakes(weights) &&
         weights.k % (2 * kActivationBlock) == 0;
#else
  (void)weights;
  return false;
#endif
}

void blockQuantizedGemmInt8Activations(uint64_t m, const float* a, uint64_t lda,
                                       const BlockQuantizedWeights& weights, const float* bias,
                                       float* c, uint64_t ldc) {
  if (m == 0 || weights.n == 0) return;
  const int available = std::max(std::min(omp_get_max_threads(), omp_get_thread_limit()), 1);
  const uint64_t columnsPerChunk = blockQuantizedColumnsPerChunk(weights.n, available);
  const uint64_t chunks = (weights.n + columnsPerChunk - 1) / columnsPerChunk;
  const int threads = threadsFor(weights.n * weights.k, chunks, available);
#ifdef WEBNN_INT8_GEMM_X86
  if (blockQuantizedGemmInt8ActivationsIsFast(weights)) {
    // Kept between products: a steady-state dispatch allocates nothing.
    thread_local PackedRow row;
    for (uint64_t r = 0; r < m; ++r) {
      quantizeRowVnni(a + r * lda, weights.k, row);
      float* out = c + r * ldc;
      const PackedRow& shared = row;
      const ColumnRange columns = columnRangeOf(weights);
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads) if (threads > 1)
      for (uint64_t chunk = 0; chunk < chunks; ++chunk) {
        const uint64_t begin = chunk * columnsPerChunk;
        columns(shared, weights, bias, out, begin, std::min(weights.n, begin + columnsPerChunk));
      }
    }
    return;
  }
#endif
  (void)threads;
  blockQuantizedGemmInt8ActivationsPortable(m, a, lda, weights, bias, c, ldc);
}

void blockQuantizedGemmInt8ActivationsPortable(uint64_t m, const float* a, uint64_t lda,
                                               const BlockQuantizedWeights& weights,
                                               const float* bias, float* c, uint64_t ldc) {
  QuantizedRow row;
  for (uint64_t r = 0; r < m; ++r) {
    quantizeRowPortable(a + r * lda, weights.k, row);
    columnsPortable(row, weights, bias, c + r * ldc, 0, weights.n);
  }
}

}  // namespace webnn::cpu
