// The float32 x float16 matrix product of half_gemm.h: panel packing, the portable scalar loop,
// and the AVX-512 path (AVX-512F + F16C + FMA through target attributes, chosen at run time).
// The AVX-512 path blocks GotoBLAS-style: each OpenMP thread owns a tile of rows x N panels. With
// one block of rows (m <= kMicroRows, memory-bound) it streams the float16 panels, whole k, with
// software prefetch. With several, it goes in k blocks, prefetching each panel block while the
// previous one is in use; many row blocks share a panel block widened to float32 once, a few
// convert it as they go. The micro-kernel keeps kMicroRows x 32 outputs in 24 zmm accumulators
// and broadcasts A straight from its rows.
#include "backends/cpu/kernels/half_gemm.h"
#include "backends/cpu/kernels/panel_work_split.h"

#include "core/float16.h"

#include <omp.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#define WEBNN_HALF_GEMM_X86 1
#include <cpuid.h>
#include <immintrin.h>
#endif

namespace webnn::cpu {
namespace {

constexpr uint64_t kPanel = kHalfPanelWidth;

// C = bias (or zeros) row after row: the product when k = 0.
void fillWithBias(uint64_t m, uint64_t n, const float* bias, float* c, uint64_t ldc) {
  for (uint64_t row = 0; row < m; ++row) {
    float* out = c + row * ldc;
    if (bias) {
      std::memcpy(out, bias, n * sizeof(float));
    } else {
      std::fill(out, out + n, 0.0f);
    }
  }
}

#ifdef WEBNN_HALF_GEMM_X86
#define WEBNN_AVX512_TARGET __attribute__((target("avx512f,avx512bw,avx512vl,f16c,fma")))

// Rows per micro-kernel call: kMicroRows x 2 zmm accumulators (24 of the 32 registers), so that
// each panel row loaded feeds 24 FMAs.
constexpr uint64_t kMicroRows = 12;
// At most this many k per block (k is split into equal blocks): a panel block (64 KiB as float16,
// 128 KiB widened) stays in L2 while every row block uses it, and C is read back once per later
// block. (512 measured the same within noise on Zen 5, 1024 slightly ahead.)
constexpr uint64_t kMaxDepthBlock = 1024;
// Rows per block: the row blocks that share each panel block (their A rows are re-read, from
// L2/L3, for every panel).
constexpr uint64_t kRowBlock = 22 * kMicroRows;
// From this many row blocks on, a panel block is widened to float32 once rather than converted by
// every row block's micro-kernel. (Zen 5 converts nearly for free; on Intel, vcvtph2ps takes an
// FMA port.)
constexpr uint64_t kWidenRowBlocks = 4;
// How far ahead (in panel rows, 64 bytes each) a streamed float16 panel is prefetched.
constexpr uint64_t kPrefetchRows = 128;
// Below this many multiply-adds a product runs on the calling thread alone.
constexpr uint64_t kParallelMultiplyAdds = uint64_t{1} << 17;

struct GemmArguments {
  uint64_t m;
  const float* a;
  uint64_t lda;
  const uint16_t* packedB;
  HalfPanelLayout layout;
  const float* bias;
  float* c;
  uint64_t ldc;
};

// 16 float16 values widened to float32 (vcvtph2ps). Not _mm512_cvtph_ps: GCC 12's passes
// _mm512_undefined_ps(), which -Wmaybe-uninitialized reports (GCC bug 105593); an all-ones mask
// compiles to the same instruction.
WEBNN_AVX512_TARGET inline __m512 widenHalves(const uint16_t* halves) {
  return _mm512_maskz_cvtph_ps(__mmask16{0xFFFF},
                               _mm256_loadu_si256(reinterpret_cast<const __m256i*>(halves)));
}

// Masks of the valid columns among a panel's two halves of 16.
struct ColumnMasks {
  __mmask16 low, high;
};

WEBNN_AVX512_TARGET ColumnMasks columnMasks(uint64_t columns) {
  const auto maskOf = [](uint64_t count) -> __mmask16 {
    return count >= 16 ? __mmask16{0xFFFF} : static_cast<__mmask16>((1u << count) - 1u);
  };
  return {maskOf(columns), maskOf(columns > 16 ? columns - 16 : 0)};
}

// Where a micro-kernel reads the panel block from.
enum class PanelSource {
  kWidened,       // a float32 buffer the block was widened into
  kHalfStreamed,  // the float16 panel, read once: prefetched kPrefetchRows ahead
  kHalfCached,    // the float16 panel, already in cache (prefetched by the caller)
};

// Loads the 32 values of row k of a panel block as float32.
template <PanelSource kSource>
WEBNN_AVX512_TARGET inline void loadPanelRow(const void* panel, uint64_t k, __m512& low,
                                             __m512& high) {
  if constexpr (kSource == PanelSource::kWidened) {
    const float* row = static_cast<const float*>(panel) + k * kPanel;
    low = _mm512_load_ps(row);
    high = _mm512_load_ps(row + 16);
  } else {
    const uint16_t* row = static_cast<const uint16_t*>(panel) + k * kPanel;
    if constexpr (kSource == PanelSource::kHalfStreamed) {
      // Past the panel's end lies the next panel (or nothing: a prefetch never faults). Integer
      // arithmetic, as the address may lie outside the buffer.
      const uintptr_t ahead = reinterpret_cast<uintptr_t>(row) + kPrefetchRows * kPanel * 2;
      _mm_prefetch(reinterpret_cast<const char*>(ahead), _MM_HINT_T0);
    }
    low = widenHalves(row);
    high = widenHalves(row + 16);
  }
}

// C[0..kRows) x [0..columns) (+)= A[0..kRows) x [0..depth) (row-major, lda) times the panel
// block (depth x 32, read as kSource says).
// `accumulate`: adds to C (a later k block); otherwise starts from `bias` (the panel's 32
// values, null for zeros). With few rows, k is split over several accumulator chains so that
// the FMA latency is hidden.
template <int kRows, PanelSource kSource>
WEBNN_AVX512_TARGET void microKernel(const float* a, uint64_t lda, const void* panel,
                                     uint64_t depth, float* c, uint64_t ldc, const float* bias,
                                     bool accumulate, uint64_t columns) {
  constexpr int kChains = kRows >= 4 ? 1 : (kRows == 1 ? 4 : 2);
  const ColumnMasks masks = columnMasks(columns);
  __m512 acc[kChains][kRows][2];
#pragma GCC unroll 4
  for (int chain = 0; chain < kChains; ++chain) {
#pragma GCC unroll 16
    for (int row = 0; row < kRows; ++row) {
      acc[chain][row][0] = _mm512_setzero_ps();
      acc[chain][row][1] = _mm512_setzero_ps();
    }
  }
  if (accumulate) {
#pragma GCC unroll 16
    for (int row = 0; row < kRows; ++row) {
      acc[0][row][0] = _mm512_maskz_loadu_ps(masks.low, c + row * ldc);
      acc[0][row][1] = _mm512_maskz_loadu_ps(masks.high, c + row * ldc + 16);
    }
  } else if (bias) {
    const __m512 low = _mm512_maskz_loadu_ps(masks.low, bias);
    const __m512 high = _mm512_maskz_loadu_ps(masks.high, bias + 16);
#pragma GCC unroll 16
    for (int row = 0; row < kRows; ++row) {
      acc[0][row][0] = low;
      acc[0][row][1] = high;
    }
  }
  uint64_t k = 0;
  for (; k + kChains <= depth; k += kChains) {
#pragma GCC unroll 4
    for (int chain = 0; chain < kChains; ++chain) {
      __m512 low, high;
      loadPanelRow<kSource>(panel, k + chain, low, high);
      const float* column = a + k + chain;
#pragma GCC unroll 16
      for (int row = 0; row < kRows; ++row) {
        const __m512 value = _mm512_set1_ps(column[row * lda]);
        acc[chain][row][0] = _mm512_fmadd_ps(value, low, acc[chain][row][0]);
        acc[chain][row][1] = _mm512_fmadd_ps(value, high, acc[chain][row][1]);
      }
    }
  }
  for (; k < depth; ++k) {
    __m512 low, high;
    loadPanelRow<kSource>(panel, k, low, high);
    const float* column = a + k;
#pragma GCC unroll 16
    for (int row = 0; row < kRows; ++row) {
      const __m512 value = _mm512_set1_ps(column[row * lda]);
      acc[0][row][0] = _mm512_fmadd_ps(value, low, acc[0][row][0]);
      acc[0][row][1] = _mm512_fmadd_ps(value, high, acc[0][row][1]);
    }
  }
#pragma GCC unroll 4
  for (int chain = 1; chain < kChains; ++chain) {
#pragma GCC unroll 16
    for (int row = 0; row < kRows; ++row) {
      acc[0][row][0] = _mm512_add_ps(acc[0][row][0], acc[chain][row][0]);
      acc[0][row][1] = _mm512_add_ps(acc[0][row][1], acc[chain][row][1]);
    }
  }
#pragma GCC unroll 16
  for (int row = 0; row < kRows; ++row) {
    _mm512_mask_storeu_ps(c + row * ldc, masks.low, acc[0][row][0]);
    _mm512_mask_storeu_ps(c + row * ldc + 16, masks.high, acc[0][row][1]);
  }
}

using MicroKernel = void (*)(const float*, uint64_t, const void*, uint64_t, float*, uint64_t,
                             const float*, bool, uint64_t);

template <PanelSource kSource, size_t... kRowCounts>
constexpr std::array<MicroKernel, sizeof...(kRowCounts)> microKernelTable(
    std::index_sequence<kRowCounts...>) {
  return {microKernel<static_cast<int>(kRowCounts) + 1, kSource>...};
}

// kMicroKernels<kSource>[rows - 1]: the micro-kernel for `rows` rows.
template <PanelSource kSource>
constexpr std::array<MicroKernel, kMicroRows> kMicroKernels =
    microKernelTable<kSource>(std::make_index_sequence<kMicroRows>());

// Widens `depth` rows of a panel (float16 bits) into `buffer` (64-byte aligned float32).
WEBNN_AVX512_TARGET void widenPanelBlock(const uint16_t* panel, uint64_t depth, float* buffer) {
  for (uint64_t i = 0; i < depth * kPanel; i += 16) {
    _mm512_store_ps(buffer + i, widenHalves(panel + i));
  }
}

// The calling thread's buffer for a widened panel block (kMaxDepthBlock x 32 floats, 64-byte
// aligned), kept across calls.
float* threadPanelBuffer() {
  constexpr uint64_t kAlignmentFloats = 64 / sizeof(float);
  thread_local std::vector<float> storage(kMaxDepthBlock * kPanel + kAlignmentFloats);
  const auto misalignment = reinterpret_cast<uintptr_t>(storage.data()) % 64;
  return storage.data() + (misalignment ? (64 - misalignment) / sizeof(float) : 0);
}

// Computes rows [rowBegin, rowEnd) x panels [panelBegin, panelEnd) of C.
WEBNN_AVX512_TARGET void runTileAvx512(const GemmArguments& args, uint64_t rowBegin,
                                       uint64_t rowEnd, uint64_t panelBegin, uint64_t panelEnd) {
  const uint64_t k = args.layout.k, n = args.layout.n;
  float* panelBuffer = nullptr;
  for (uint64_t blockBegin = rowBegin; blockBegin < rowEnd; blockBegin += kRowBlock) {
    const uint64_t blockEnd = std::min(rowEnd, blockBegin + kRowBlock);
    const uint64_t blockRows = blockEnd - blockBegin;
    const uint64_t rowBlockCount = ceilDiv(blockRows, kMicroRows);
    // One row block: stream the float16 panels, whole k at a time. Several: k blocks of at most
    // kMaxDepthBlock, each panel block prefetched while the previous one is in use, and widened
    // once into a float32 buffer when enough row blocks share it.
    const PanelSource source = rowBlockCount == 1                ? PanelSource::kHalfStreamed
                               : rowBlockCount < kWidenRowBlocks ? PanelSource::kHalfCached
                                                                 : PanelSource::kWidened;
    if (source == PanelSource::kWidened && !panelBuffer) panelBuffer = threadPanelBuffer();
    const auto& kernels = source == PanelSource::kWidened ? kMicroKernels<PanelSource::kWidened>
                          : source == PanelSource::kHalfCached
                              ? kMicroKernels<PanelSource::kHalfCached>
                              : kMicroKernels<PanelSource::kHalfStreamed>;
    const uint64_t depthBlock = rowBlockCount == 1 ? k : ceilDiv(k, ceilDiv(k, kMaxDepthBlock));
    for (uint64_t depthBegin = 0; depthBegin < k; depthBegin += depthBlock) {
      const uint64_t depth = std::min(depthBlock, k - depthBegin);
      // The next panel block's lines (one per k), a share per row block.
      const uint64_t prefetchLines = ceilDiv(depth, rowBlockCount);
      for (uint64_t panel = panelBegin; panel < panelEnd; ++panel) {
        const uint64_t columnBegin = panel * kPanel;
        const uint64_t columns = std::min(kPanel, n - columnBegin);
        const uint16_t* panelBlock = args.packedB + panel * k * kPanel + depthBegin * kPanel;
        const uint16_t* nextPanelBlock = panel + 1 < panelEnd ? panelBlock + k * kPanel : nullptr;
        const void* kernelPanel = panelBlock;
        if (source == PanelSource::kWidened) {
          widenPanelBlock(panelBlock, depth, panelBuffer);
          kernelPanel = panelBuffer;
        }
        const float* bias =
            depthBegin == 0 && args.bias ? args.bias + columnBegin : static_cast<float*>(nullptr);
        // The row blocks split the rows evenly (16 rows: 8 + 8, not 12 + 4).
        for (uint64_t index = 0; index < rowBlockCount; ++index) {
          const uint64_t row = blockBegin + blockRows * index / rowBlockCount;
          const uint64_t rows = blockBegin + blockRows * (index + 1) / rowBlockCount - row;
          if (source != PanelSource::kHalfStreamed && nextPanelBlock) {
            const uint64_t last = std::min(depth, (index + 1) * prefetchLines);
            for (uint64_t line = index * prefetchLines; line < last; ++line) {
              _mm_prefetch(reinterpret_cast<const char*>(nextPanelBlock + line * kPanel),
                           _MM_HINT_T1);
            }
          }
          kernels[rows - 1](args.a + row * args.lda + depthBegin, args.lda, kernelPanel, depth,
                            args.c + row * args.ldc + columnBegin, args.ldc, bias, depthBegin > 0,
                            columns);
        }
      }
    }
  }
}

void halfGemmAvx512(const GemmArguments& args) {
  const uint64_t panels = args.layout.panelCount();
  const uint64_t multiplyAdds = args.m * args.layout.n * args.layout.k;
  const uint64_t threads = multiplyAdds < kParallelMultiplyAdds
                               ? 1
                               : static_cast<uint64_t>(std::max(
                                     std::min(omp_get_max_threads(), omp_get_thread_limit()), 1));
  // Rows are shared in whole micro-kernel blocks; a few rows (one block) may be shared row by row.
  const uint64_t rowUnit = args.m > kMicroRows ? kMicroRows : 1;
  const uint64_t rowUnits = ceilDiv(args.m, rowUnit);
  const PanelWorkSplit split = choosePanelWorkSplit(rowUnits, panels, threads);
  const int teamSize = static_cast<int>(split.tiles());
#pragma omp parallel num_threads(teamSize) if (teamSize > 1)
  {
    // Fewer threads than asked (nested parallelism, thread limits): each takes several tiles.
    const auto team = static_cast<uint64_t>(omp_get_num_threads());
    for (auto tile = static_cast<uint64_t>(omp_get_thread_num()); tile < split.tiles();
         tile += team) {
      const uint64_t panelPart = tile % split.panelParts, rowPart = tile / split.panelParts;
      const uint64_t panelBegin = panels * panelPart / split.panelParts;
      const uint64_t panelEnd = panels * (panelPart + 1) / split.panelParts;
      const uint64_t rowBegin = rowUnits * rowPart / split.rowParts * rowUnit;
      const uint64_t rowEnd = std::min(args.m, rowUnits * (rowPart + 1) / split.rowParts * rowUnit);
      if (panelBegin < panelEnd && rowBegin < rowEnd) {
        runTileAvx512(args, rowBegin, rowEnd, panelBegin, panelEnd);
      }
    }
  }
}

// __builtin_cpu_supports checks that the OS saves the AVX-512 state too. It has no "f16c" in
// clang before 15, so F16C is read from CPUID leaf 1 (ECX bit 29).
bool detectAvx512() {
  __builtin_cpu_init();
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  const bool f16c = __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_F16C) != 0;
  return f16c && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("fma");
}
#endif  // WEBNN_HALF_GEMM_X86

}  // namespace

float halfBitsToFloat(uint16_t bits) {
  return halfToFloat(bits);
}

void packHalfPanels(const uint16_t* b, uint64_t ldb, const HalfPanelLayout& layout,
                    uint16_t* packed) {
  const uint64_t panels = layout.panelCount();
  for (uint64_t panel = 0; panel < panels; ++panel) {
    const uint64_t columnBegin = panel * kPanel;
    const uint64_t columns = std::min(kPanel, layout.n - columnBegin);
    uint16_t* out = packed + panel * layout.k * kPanel;
    for (uint64_t row = 0; row < layout.k; ++row, out += kPanel) {
      std::memcpy(out, b + row * ldb + columnBegin, columns * sizeof(uint16_t));
      std::fill(out + columns, out + kPanel, uint16_t{0});
    }
  }
}

void floatPanelMicroKernel(uint64_t rows, const float* a, uint64_t lda, const float* panel,
                           uint64_t depth, float* c, uint64_t ldc, const float* bias,
                           bool accumulate, uint64_t columns) {
#ifdef WEBNN_HALF_GEMM_X86
  static_assert(kFloatPanelMaxRows == kMicroRows);
  kMicroKernels<PanelSource::kWidened>[rows - 1](a, lda, panel, depth, c, ldc, bias, accumulate,
                                                 columns);
#else
  (void)rows, (void)a, (void)lda, (void)panel, (void)depth, (void)c, (void)ldc, (void)bias,
      (void)accumulate, (void)columns;
#endif
}

bool halfGemmIsFast() {
#ifdef WEBNN_HALF_GEMM_X86
  static const bool fast = detectAvx512();
  return fast;
#else
  return false;
#endif
}

void halfGemmPortable(uint64_t m, const float* a, uint64_t lda, const uint16_t* packedB,
                      const HalfPanelLayout& layout, const float* bias, float* c, uint64_t ldc) {
  const uint64_t k = layout.k, n = layout.n;
  float widened[kPanel];
  for (uint64_t row = 0; row < m; ++row) {
    for (uint64_t panel = 0; panel < layout.panelCount(); ++panel) {
      const uint64_t columnBegin = panel * kPanel;
      const uint64_t columns = std::min(kPanel, n - columnBegin);
      float sums[kPanel];
      for (uint64_t column = 0; column < columns; ++column) {
        sums[column] = bias ? bias[columnBegin + column] : 0.0f;
      }
      const uint16_t* panelRow = packedB + panel * k * kPanel;
      for (uint64_t depth = 0; depth < k; ++depth, panelRow += kPanel) {
        const float value = a[row * lda + depth];
        for (uint64_t column = 0; column < columns; ++column) {
          widened[column] = halfBitsToFloat(panelRow[column]);
        }
        for (uint64_t column = 0; column < columns; ++column) {
          sums[column] += value * widened[column];
        }
      }
      std::memcpy(c + row * ldc + columnBegin, sums, columns * sizeof(float));
    }
  }
}

void halfGemm(uint64_t m, const float* a, uint64_t lda, const uint16_t* packedB,
              const HalfPanelLayout& layout, const float* bias, float* c, uint64_t ldc) {
  if (m == 0 || layout.n == 0) return;
  if (layout.k == 0) {
    fillWithBias(m, layout.n, bias, c, ldc);
    return;
  }
#ifdef WEBNN_HALF_GEMM_X86
  if (halfGemmIsFast()) {
    halfGemmAvx512({m, a, lda, packedB, layout, bias, c, ldc});
    return;
  }
#endif
  halfGemmPortable(m, a, lda, packedB, layout, bias, c, ldc);
}

}  // namespace webnn::cpu
