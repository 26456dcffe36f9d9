// floatGemm (float_gemm.h): panel packing, the portable scalar loop, and the AVX-512 path.
// Blocking: each OpenMP thread owns a tile of rows x N panels. Within it, rows go in chunks whose
// A block (kRowChunk x depth block) stays in L2; k in equal blocks of at most kMaxDepthBlock; for
// each panel's depth block, every 8-row block of the chunk runs the 8 x 48 micro-kernel (24 zmm
// accumulators, three panel loads and eight broadcasts of A per k) and prefetches its share of
// the next panel block, so that the next block is in L2 when its first row block starts.
#include "backends/cpu/kernels/float_gemm.h"
#include "backends/cpu/kernels/panel_work_split.h"

#include <omp.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <utility>

#if defined(__x86_64__) || defined(__i386__)
#define WEBNN_FLOAT_GEMM_X86 1
#include <immintrin.h>
#endif

namespace webnn::cpu {
namespace {

constexpr uint64_t kPanel = kFloatPanelColumns;

// The addends of C(row, column), or zero.
float addendAt(const FloatGemmAddends& addends, uint64_t row, uint64_t column) {
  float value = addends.bias ? addends.bias[column] : 0.0f;
  if (addends.residual) value += addends.residual[row * addends.residualStride + column];
  return value;
}

#ifdef WEBNN_FLOAT_GEMM_X86
#define WEBNN_FLOAT_GEMM_TARGET __attribute__((target("avx512f,fma")))

constexpr int kMicroRows = 8;
constexpr int kPanelVectors = static_cast<int>(kPanel / 16);
// k per block (k is split into equal blocks of at most this many): a panel block (192 KiB) and
// the chunk's A block (512 KiB) stay in L2 (1 MiB on Zen 5). Measured there against oneDNN on
// 128 x 768 x 768/3072 products with B from memory (time ratios, lower is better): 384 0.96-1.0,
// 768 0.94-0.96, 1024 0.92, 1536-3072 0.91-0.93.
constexpr uint64_t kMaxDepthBlock = 1024;
// Rows per chunk: their A block is re-read from L2 for every panel.
constexpr uint64_t kRowChunk = 16 * kMicroRows;
// Below this many multiply-adds a product runs on the calling thread alone.
constexpr uint64_t kParallelMultiplyAdds = uint64_t{1} << 17;

// One micro-kernel call: rows x 48 outputs of C over a depth block.
struct MicroTile {
  uint64_t depth;
  const float* a;  // the first row's first k of the block
  uint64_t lda;
  const float* panel;  // depth x 48, k-major
  float* c;
  uint64_t ldc;
  uint64_t columns;         // valid columns of this panel (1 to 48)
  bool firstBlock;          // start from the addends (else from C)
  const float* bias;        // the panel's 48 values, or null
  const float* residual;    // the first row's panel columns, or null
  uint64_t residualStride;  //
  const char* prefetch;     // lines of the next panel block to prefetch, or null
  uint64_t prefetchLines;
};

template <int kRows>
WEBNN_FLOAT_GEMM_TARGET void microKernel(const MicroTile& tile) {
  __mmask16 masks[kPanelVectors];
  for (int part = 0; part < kPanelVectors; ++part) {
    const uint64_t begin = static_cast<uint64_t>(part) * 16;
    masks[part] = tile.columns >= begin + 16 ? __mmask16{0xFFFF}
                  : tile.columns > begin
                      ? static_cast<__mmask16>((1u << (tile.columns - begin)) - 1u)
                      : __mmask16{0};
  }
  __m512 acc[kRows][kPanelVectors];
  if (tile.firstBlock) {
    __m512 bias[kPanelVectors];
    for (int part = 0; part < kPanelVectors; ++part) {
      bias[part] = tile.bias ? _mm512_maskz_loadu_ps(masks[part], tile.bias + part * 16)
                             : _mm512_setzero_ps();
    }
#pragma GCC unroll 8
    for (int row = 0; row < kRows; ++row) {
      for (int part = 0; part < kPanelVectors; ++part) {
        acc[row][part] = bias[part];
        if (tile.residual) {
          acc[row][part] = _mm512_add_ps(
              acc[row][part],
              _mm512_maskz_loadu_ps(masks[part],
                                    tile.residual + row * tile.residualStride + part * 16));
        }
      }
    }
  } else {
#pragma GCC unroll 8
    for (int row = 0; row < kRows; ++row) {
      for (int part = 0; part < kPanelVectors; ++part) {
        acc[row][part] = _mm512_maskz_loadu_ps(masks[part], tile.c + row * tile.ldc + part * 16);
      }
    }
  }
  // The prefetches, spread evenly over the k loop: `perStep` lines every `stride` k.
  const char* prefetch = tile.prefetch;
  uint64_t prefetchLeft = prefetch ? tile.prefetchLines : 0;
  const uint64_t perStep = prefetchLeft ? ceilDiv(prefetchLeft, tile.depth) : 0;
  const uint64_t stride = perStep ? std::max<uint64_t>(1, tile.depth * perStep / prefetchLeft) : 0;
  uint64_t nextPrefetch = 0;
  const float* panelRow = tile.panel;
  for (uint64_t k = 0; k < tile.depth; ++k, panelRow += kPanel) {
    if (prefetchLeft && k == nextPrefetch) {
      for (uint64_t line = 0; line < perStep && prefetchLeft; ++line, --prefetchLeft) {
        _mm_prefetch(prefetch, _MM_HINT_T1);
        prefetch += 64;
      }
      nextPrefetch += stride;
    }
    __m512 b[kPanelVectors];
    for (int part = 0; part < kPanelVectors; ++part) {
      b[part] = _mm512_loadu_ps(panelRow + part * 16);
    }
#pragma GCC unroll 8
    for (int row = 0; row < kRows; ++row) {
      const __m512 value = _mm512_set1_ps(tile.a[row * tile.lda + k]);
      for (int part = 0; part < kPanelVectors; ++part) {
        acc[row][part] = _mm512_fmadd_ps(value, b[part], acc[row][part]);
      }
    }
  }
#pragma GCC unroll 8
  for (int row = 0; row < kRows; ++row) {
    for (int part = 0; part < kPanelVectors; ++part) {
      _mm512_mask_storeu_ps(tile.c + row * tile.ldc + part * 16, masks[part], acc[row][part]);
    }
  }
}

using MicroKernel = void (*)(const MicroTile&);

template <size_t... kRowCounts>
constexpr std::array<MicroKernel, sizeof...(kRowCounts)> microKernelTable(
    std::index_sequence<kRowCounts...>) {
  return {microKernel<static_cast<int>(kRowCounts) + 1>...};
}

// kMicroKernels[rows - 1]: the micro-kernel for `rows` rows.
constexpr std::array<MicroKernel, kMicroRows> kMicroKernels =
    microKernelTable(std::make_index_sequence<kMicroRows>());

struct GemmArguments {
  uint64_t m;
  const float* a;
  uint64_t lda;
  const float* packedB;
  FloatPanelLayout layout;
  FloatGemmAddends addends;
  float* c;
  uint64_t ldc;
};

// Computes rows [rowBegin, rowEnd) x panels [panelBegin, panelEnd) of C.
WEBNN_FLOAT_GEMM_TARGET void runTile(const GemmArguments& args, uint64_t rowBegin, uint64_t rowEnd,
                                     uint64_t panelBegin, uint64_t panelEnd) {
  const uint64_t k = args.layout.k, n = args.layout.n;
  const uint64_t depthBlocks = ceilDiv(k, kMaxDepthBlock);
  for (uint64_t chunkBegin = rowBegin; chunkBegin < rowEnd; chunkBegin += kRowChunk) {
    const uint64_t chunkEnd = std::min(rowEnd, chunkBegin + kRowChunk);
    const uint64_t rowBlocks = ceilDiv(chunkEnd - chunkBegin, kMicroRows);
    for (uint64_t depthIndex = 0; depthIndex < depthBlocks; ++depthIndex) {
      const uint64_t depthBegin = k * depthIndex / depthBlocks;
      const uint64_t depth = k * (depthIndex + 1) / depthBlocks - depthBegin;
      for (uint64_t panel = panelBegin; panel < panelEnd; ++panel) {
        const float* panelBlock = args.packedB + panel * k * kPanel + depthBegin * kPanel;
        // The next panel block this thread reads: the next panel's, or the first panel's at the
        // next depth block.
        const float* next = nullptr;
        uint64_t nextDepth = depth;
        if (panel + 1 < panelEnd) {
          next = panelBlock + k * kPanel;
        } else if (depthIndex + 1 < depthBlocks) {
          const uint64_t nextBegin = depthBegin + depth;
          next = args.packedB + panelBegin * k * kPanel + nextBegin * kPanel;
          nextDepth = k * (depthIndex + 2) / depthBlocks - nextBegin;
        }
        const uint64_t nextLines = next ? ceilDiv(nextDepth * kPanel * sizeof(float), 64) : 0;
        const uint64_t linesPerBlock = ceilDiv(nextLines, rowBlocks);
        const uint64_t columnBegin = panel * kPanel;
        const uint64_t columns = std::min(kPanel, n - columnBegin);
        for (uint64_t block = 0; block < rowBlocks; ++block) {
          const uint64_t row = chunkBegin + block * kMicroRows;
          const uint64_t rows = std::min<uint64_t>(kMicroRows, chunkEnd - row);
          const uint64_t firstLine = std::min(nextLines, block * linesPerBlock);
          const MicroTile tile{
              depth,
              args.a + row * args.lda + depthBegin,
              args.lda,
              panelBlock,
              args.c + row * args.ldc + columnBegin,
              args.ldc,
              columns,
              depthIndex == 0,
              args.addends.bias ? args.addends.bias + columnBegin : nullptr,
              args.addends.residual
                  ? args.addends.residual + row * args.addends.residualStride + columnBegin
                  : nullptr,
              args.addends.residualStride,
              next ? reinterpret_cast<const char*>(next) + firstLine * 64 : nullptr,
              std::min(linesPerBlock, nextLines - firstLine)};
          kMicroKernels[rows - 1](tile);
        }
      }
    }
  }
}

void floatGemmAvx512(const GemmArguments& args) {
  const uint64_t panels = args.layout.panelCount();
  const uint64_t rowBlocks = ceilDiv(args.m, kMicroRows);
  const uint64_t multiplyAdds = args.m * args.layout.n * args.layout.k;
  const uint64_t threads = multiplyAdds < kParallelMultiplyAdds
                               ? 1
                               : static_cast<uint64_t>(std::max(
                                     std::min(omp_get_max_threads(), omp_get_thread_limit()), 1));
  const PanelWorkSplit split = choosePanelWorkSplit(rowBlocks, panels, threads);
  const uint64_t tiles = split.tiles();
#pragma omp parallel num_threads(static_cast <int>(tiles)) if (tiles > 1)
  {
    // Fewer threads than asked (nested parallelism, thread limits): each takes several tiles.
    const auto team = static_cast<uint64_t>(omp_get_num_threads());
    for (auto tile = static_cast<uint64_t>(omp_get_thread_num()); tile < tiles; tile += team) {
      const uint64_t panelPart = tile % split.panelParts, rowPart = tile / split.panelParts;
      const uint64_t panelBegin = panels * panelPart / split.panelParts;
      const uint64_t panelEnd = panels * (panelPart + 1) / split.panelParts;
      const uint64_t rowBegin = rowBlocks * rowPart / split.rowParts * kMicroRows;
      const uint64_t rowEnd =
          std::min(args.m, rowBlocks * (rowPart + 1) / split.rowParts * kMicroRows);
      if (panelBegin < panelEnd && rowBegin < rowEnd) {
        runTile(args, rowBegin, rowEnd, panelBegin, panelEnd);
      }
    }
  }
}

bool detectAvx512() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("fma");
}
#endif  // WEBNN_FLOAT_GEMM_X86

}  // namespace

void packFloatPanels(const float* b, uint64_t ldb, const FloatPanelLayout& layout, float* packed) {
  for (uint64_t panel = 0; panel < layout.panelCount(); ++panel) {
    const uint64_t columnBegin = panel * kPanel;
    const uint64_t columns = std::min(kPanel, layout.n - columnBegin);
    float* out = packed + panel * layout.k * kPanel;
    for (uint64_t row = 0; row < layout.k; ++row, out += kPanel) {
      std::memcpy(out, b + row * ldb + columnBegin, columns * sizeof(float));
      std::fill(out + columns, out + kPanel, 0.0f);
    }
  }
}

bool floatGemmIsFast() {
#ifdef WEBNN_FLOAT_GEMM_X86
  static const bool fast = detectAvx512();
  return fast;
#else
  return false;
#endif
}

void floatGemmPortable(uint64_t m, const float* a, uint64_t lda, const float* packedB,
                       const FloatPanelLayout& layout, const FloatGemmAddends& addends, float* c,
                       uint64_t ldc) {
  const uint64_t k = layout.k, n = layout.n;
  for (uint64_t row = 0; row < m; ++row) {
    for (uint64_t panel = 0; panel < layout.panelCount(); ++panel) {
      const uint64_t columnBegin = panel * kPanel;
      const uint64_t columns = std::min(kPanel, n - columnBegin);
      float sums[kPanel];
      // The addends first: a residual that is C itself is read before its place is written.
      for (uint64_t column = 0; column < columns; ++column) {
        sums[column] = addendAt(addends, row, columnBegin + column);
      }
      const float* panelRow = packedB + panel * k * kPanel;
      for (uint64_t depth = 0; depth < k; ++depth, panelRow += kPanel) {
        const float value = a[row * lda + depth];
        for (uint64_t column = 0; column < columns; ++column) {
          sums[column] += value * panelRow[column];
        }
      }
      std::memcpy(c + row * ldc + columnBegin, sums, columns * sizeof(float));
    }
  }
}

void floatGemm(uint64_t m, const float* a, uint64_t lda, const float* packedB,
               const FloatPanelLayout& layout, const FloatGemmAddends& addends, float* c,
               uint64_t ldc) {
  if (m == 0 || layout.n == 0) return;
#ifdef WEBNN_FLOAT_GEMM_X86
  if (floatGemmIsFast() && layout.k > 0) {
    floatGemmAvx512({m, a, lda, packedB, layout, addends, c, ldc});
    return;
  }
#endif
  floatGemmPortable(m, a, lda, packedB, layout, addends, c, ldc);
}

}  // namespace webnn::cpu
