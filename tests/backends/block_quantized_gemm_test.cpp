// The cpu backend's float32 x block-quantized-weight product (backends/cpu/kernels/
// block_quantized_gemm.h): blockQuantizedGemm (AVX-512 where the CPU has it) and its portable loop
// against a double-precision reference that dequantizes the packed values independently, over
// 4 and 8 bits, signed and unsigned, block sizes, and row and column counts around the kernel's
// 4 x 4 tiles, with and without a bias.
#include "webnn/config.h"
#ifdef WEBNN_HAVE_CPU

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "backends/cpu/kernels/block_quantized_gemm.h"
#include "core/float16.h"

namespace webnn::cpu {
namespace {

struct Problem {
  uint64_t m, k, n, blockSize;
  uint32_t bits;
  bool isSigned, withBias;
  std::vector<float> a, scales, bias;
  std::vector<uint8_t> values, zeroPoints;
  std::vector<int> q, z;  // the integers, unpacked here independently of the kernel

  Problem(uint64_t m, uint64_t k, uint64_t n, uint64_t blockSize, uint32_t bits, bool isSigned,
          bool withBias, uint32_t seed)
      : m(m), k(k), n(n), blockSize(blockSize), bits(bits), isSigned(isSigned), withBias(withBias) {
    std::mt19937 random(seed);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    const int low = isSigned ? -(1 << (bits - 1)) : 0;
    const int high = isSigned ? (1 << (bits - 1)) - 1 : (1 << bits) - 1;
    std::uniform_int_distribution<int> integer(low, high);
    a.resize(m * k);
    for (float& value : a) value = uniform(random);
    const uint64_t blocks = n * (k / blockSize);
    scales.resize(blocks);
    for (float& value : scales) value = 0.001f + 0.05f * std::abs(uniform(random));
    q.resize(n * k);
    for (int& value : q) value = integer(random);
    z.resize(blocks);
    for (int& value : z) value = integer(random);
    values = pack(q);
    zeroPoints = pack(z);
    if (withBias) {
      bias.resize(n);
      for (float& value : bias) value = uniform(random);
    }
  }

  std::vector<uint8_t> pack(const std::vector<int>& integers) const {
    if (bits == 8) return std::vector<uint8_t>(integers.begin(), integers.end());
    std::vector<uint8_t> packed((integers.size() + 1) / 2, 0);
    for (size_t i = 0; i < integers.size(); ++i) {
      packed[i / 2] |= static_cast<uint8_t>((integers[i] & 0xF) << ((i % 2) * 4));
    }
    return packed;
  }

  BlockQuantizedWeights weights() const {
    return {.values = values.data(),
            .scales = scales.data(),
            .zeroPoints = zeroPoints.data(),
            .n = n,
            .k = k,
            .blockSize = blockSize,
            .bits = bits,
            .isSigned = isSigned};
  }

  double expected(uint64_t row, uint64_t column) const {
    double sum = withBias ? bias[column] : 0.0;
    for (uint64_t i = 0; i < k; ++i) {
      const uint64_t block = column * (k / blockSize) + i / blockSize;
      sum += double{a[row * k + i]} * (q[column * k + i] - z[block]) * double{scales[block]};
    }
    return sum;
  }

  void check(const std::vector<float>& c, const std::string& what) const {
    for (uint64_t row = 0; row < m; ++row) {
      for (uint64_t column = 0; column < n; ++column) {
        const double expect = expected(row, column);
        // float32 sums of k products of magnitude up to ~16 x 0.05 (4 bits) or 256 x 0.05.
        const double tolerance = 1e-5 * static_cast<double>(k) * (bits == 4 ? 1.0 : 16.0);
        ASSERT_NEAR(c[row * n + column], expect, tolerance)
            << what << " row " << row << " column " << column;
      }
    }
  }
};

TEST(BlockQuantizedGemm, MatchesTheReferenceOverShapesBitsAndBlocks) {
  uint32_t seed = 1;
  for (uint32_t bits : {4u, 8u}) {
    for (bool isSigned : {false, true}) {
      for (uint64_t blockSize : {16ull, 32ull, 64ull, 128ull}) {
        for (uint64_t m : {1ull, 2ull, 3ull, 4ull, 5ull, 9ull}) {
          for (uint64_t n : {1ull, 3ull, 4ull, 7ull, 70ull, 131ull}) {
            const uint64_t k = blockSize * (seed % 3 + 1);
            const Problem problem(m, k, n, blockSize, bits, isSigned, seed % 2 == 0, seed);
            ++seed;
            const std::string what = "bits " + std::to_string(bits) +
                                     (isSigned ? " signed" : " unsigned") + " block " +
                                     std::to_string(blockSize) + " m " + std::to_string(m) + " n " +
                                     std::to_string(n) + " k " + std::to_string(k);
            const BlockQuantizedWeights weights = problem.weights();
            const float* bias = problem.withBias ? problem.bias.data() : nullptr;
            std::vector<float> c(m * n, 12345.0f);
            blockQuantizedGemm(m, problem.a.data(), k, weights, bias, c.data(), n);
            problem.check(c, what + " (dispatched)");
            std::vector<float> portable(m * n, 12345.0f);
            blockQuantizedGemmPortable(m, problem.a.data(), k, weights, bias, portable.data(), n);
            problem.check(portable, what + " (portable)");
          }
        }
      }
    }
  }
}

// float16 scales (GGUF's q4_0 d, read as stored): the same products, bit for bit, as float32
// scales of the same values, on the dispatched kernel (its batch-1 row path, which widens the
// scales of 16 blocks at once, and its tiles) and the portable loop; 4 blocks a row, and 20 (a
// group of 16 and 4 more).
TEST(BlockQuantizedGemm, Float16ScalesGiveTheProductsOfTheirFloat32Values) {
  uint32_t seed = 100;
  for (uint32_t bits : {4u, 8u}) {
    for (const auto& [m, k] : {std::pair{1ull, 128ull}, std::pair{1ull, 640ull},
                               std::pair{3ull, 128ull}, std::pair{3ull, 640ull}}) {
      Problem problem(m, k, 37, 32, bits, true, true, seed++);
      std::vector<uint16_t> halves(problem.scales.size());
      for (size_t i = 0; i < halves.size(); ++i) {
        halves[i] = floatToHalf(problem.scales[i]);
        problem.scales[i] = halfToFloat(halves[i]);  // the values float16 holds
      }
      BlockQuantizedWeights fromHalves = problem.weights();
      fromHalves.scales = nullptr;
      fromHalves.halfScales = halves.data();
      const std::string what =
          "bits " + std::to_string(bits) + " m " + std::to_string(m) + " k " + std::to_string(k);
      std::vector<float> expected(m * 37), c(m * 37), portable(m * 37);
      blockQuantizedGemm(m, problem.a.data(), k, problem.weights(), problem.bias.data(),
                         expected.data(), 37);
      blockQuantizedGemm(m, problem.a.data(), k, fromHalves, problem.bias.data(), c.data(), 37);
      EXPECT_EQ(c, expected) << what;
      problem.check(c, what);
      blockQuantizedGemmPortable(m, problem.a.data(), k, fromHalves, problem.bias.data(),
                                 portable.data(), 37);
      problem.check(portable, what + " (portable)");
    }
  }
}

// Many rows (a prompt's tokens at once: the panel path, from 20 rows, dequantizes each weight once
// for every 128 rows and multiplies in the transposed orientation): rows around its panels of 32
// and its row groups of 128, columns around its 12-column steps and 48-column chunks, A and C
// with row strides wider than K and N (their padding must stay as it was), float16 scales.
TEST(BlockQuantizedGemm, ManyRowsMatchTheReference) {
  uint32_t seed = 500;
  for (uint32_t bits : {4u, 8u}) {
    for (bool isSigned : {false, true}) {
      for (const auto& [m, n] :
           {std::pair{19ull, 5ull}, std::pair{20ull, 1ull}, std::pair{31ull, 13ull},
            std::pair{33ull, 50ull}, std::pair{64ull, 12ull}, std::pair{129ull, 97ull},
            std::pair{200ull, 24ull}}) {
        const uint64_t blockSize = seed % 2 == 0 ? 32 : 64;
        const uint64_t k = blockSize * (seed % 3 + 2);
        Problem problem(m, k, n, blockSize, bits, isSigned, seed % 2 == 0, seed);
        ++seed;
        const bool halfScales = seed % 3 == 0;
        std::vector<uint16_t> halves(problem.scales.size());
        for (size_t i = 0; i < halves.size(); ++i) {
          halves[i] = floatToHalf(problem.scales[i]);
          problem.scales[i] = halfToFloat(halves[i]);
        }
        BlockQuantizedWeights weights = problem.weights();
        if (halfScales) {
          weights.scales = nullptr;
          weights.halfScales = halves.data();
        }
        if (blockQuantizedGemmIsFast(weights)) {  // the many-row path from 20 rows on
          EXPECT_EQ(blockQuantizedGemmUsesPanels(m, weights), m >= 20) << "m " << m;
        }
        const uint64_t lda = k + 5, ldc = n + 3;
        std::vector<float> a(m * lda, -7.0f);
        for (uint64_t row = 0; row < m; ++row) {
          std::copy_n(problem.a.begin() + row * k, k, a.begin() + row * lda);
        }
        std::vector<float> c(m * ldc, 12345.0f);
        blockQuantizedGemm(m, a.data(), lda, weights,
                           problem.withBias ? problem.bias.data() : nullptr, c.data(), ldc);
        std::vector<float> packed(m * n);
        for (uint64_t row = 0; row < m; ++row) {
          for (uint64_t column = 0; column < ldc; ++column) {
            if (column < n) {
              packed[row * n + column] = c[row * ldc + column];
            } else {
              ASSERT_EQ(c[row * ldc + column], 12345.0f) << "padding of row " << row;
            }
          }
        }
        problem.check(packed, "bits " + std::to_string(bits) + (isSigned ? " signed" : "") + " m " +
                                  std::to_string(m) + " n " + std::to_string(n) + " k " +
                                  std::to_string(k) + (halfScales ? " float16 scales" : ""));
      }
    }
  }
}

// One zero point for every block (zeroPoints null, uniformZeroPoint: symmetric 4-bit weights,
// GGUF's q4_0): the products of the same zero point stored per block, bit for bit, and the
// reference's, on each path of the dispatched kernel (one row, tiles, panels from 20 rows) and the
// portable loop; 20 blocks a row (a group of 16 and 4 more).
TEST(BlockQuantizedGemm, OneZeroPointForEveryBlockGivesThePerBlockProducts) {
  uint32_t seed = 900;
  for (uint32_t bits : {4u, 8u}) {
    for (bool isSigned : {false, true}) {
      const int zero = bits == 4 ? (isSigned ? -3 : 8) : (isSigned ? -20 : 128);
      for (uint64_t m : {1ull, 3ull, 24ull}) {
        for (uint64_t n : {5ull, 70ull}) {
          const uint64_t blockSize = 32, k = 20 * blockSize;
          Problem problem(m, k, n, blockSize, bits, isSigned, seed % 2 == 0, seed);
          ++seed;
          std::fill(problem.z.begin(), problem.z.end(), zero);
          problem.zeroPoints = problem.pack(problem.z);
          const std::string what = "bits " + std::to_string(bits) + (isSigned ? " signed" : "") +
                                   " m " + std::to_string(m) + " n " + std::to_string(n);
          const float* bias = problem.withBias ? problem.bias.data() : nullptr;
          const BlockQuantizedWeights stored = problem.weights();
          BlockQuantizedWeights uniform = stored;
          uniform.zeroPoints = nullptr;
          uniform.uniformZeroPoint = zero;
          std::vector<float> perBlock(m * n), once(m * n, 12345.0f), portable(m * n, 12345.0f);
          blockQuantizedGemm(m, problem.a.data(), k, stored, bias, perBlock.data(), n);
          blockQuantizedGemm(m, problem.a.data(), k, uniform, bias, once.data(), n);
          blockQuantizedGemmPortable(m, problem.a.data(), k, uniform, bias, portable.data(), n);
          EXPECT_EQ(once, perBlock) << what;
          problem.check(once, what + " (dispatched)");
          problem.check(portable, what + " (portable)");
        }
      }
    }
  }
}

// Threads claim 256 columns at a time (each chunk starts without the prefetch), fewer when a
// thread would get less than two chunks, never under 64, always whole groups of 8 columns.
TEST(BlockQuantizedGemm, ThreadsClaimLargeChunksOfColumns) {
  EXPECT_EQ(blockQuantizedColumnsPerChunk(2048, 2), 256u);
  EXPECT_EQ(blockQuantizedColumnsPerChunk(5632, 2), 256u);
  EXPECT_EQ(blockQuantizedColumnsPerChunk(600, 2), 152u);  // 4 chunks of 150, in groups of 8
  EXPECT_EQ(blockQuantizedColumnsPerChunk(131, 2), 64u);
  EXPECT_EQ(blockQuantizedColumnsPerChunk(2048, 16), 64u);
  for (uint64_t n : {1ull, 100ull, 1000ull, 4097ull}) {
    for (int threads : {1, 2, 3, 8}) {
      const uint64_t chunk = blockQuantizedColumnsPerChunk(n, threads);
      EXPECT_EQ(chunk % 8, 0u);
      EXPECT_GE(chunk, 64u);
      EXPECT_LE(chunk, 256u);
    }
  }
}

TEST(BlockQuantizedGemm, TheFastKernelTakesWholeChunksOfABlock) {
  BlockQuantizedWeights weights{.n = 1, .k = 64, .blockSize = 16, .bits = 4};
  // 4 bits are widened 32 at a time: blocks of 16 take the portable loop; 8 bits 16 at a time.
  EXPECT_FALSE(blockQuantizedGemmIsFast(weights));
  weights.bits = 8;
  const bool avx512 = __builtin_cpu_supports("avx512f");
  EXPECT_EQ(blockQuantizedGemmIsFast(weights), avx512);
  weights.bits = 4;
  weights.blockSize = 32;
  EXPECT_EQ(blockQuantizedGemmIsFast(weights), avx512);
}

}  // namespace
}  // namespace webnn::cpu

#endif  // WEBNN_HAVE_CPU
