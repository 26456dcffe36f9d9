// The cpu backend's block-quantized product with int8 activations (backends/cpu/kernels/
// block_quantized_gemm.h, blockQuantizedGemmInt8Activations): the VNNI kernel where the CPU has
// it and the portable loop, against a reference written here from the definition (A quantized per
// block of 32: scale = largest magnitude / 127, values rounded to nearest even; exact integer dot
// products per block times the two scales), over signed and unsigned 4-bit weights, block sizes,
// zero points per block or one for every block, float32 and float16 scales, and row and column
// counts around the kernel's groups of 8 and 4 columns.
#include "webnn/config.h"
#ifdef WEBNN_HAVE_CPU

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "backends/cpu/kernels/block_quantized_gemm.h"
#include "core/float16.h"

namespace webnn::cpu {
namespace {

struct Int8Problem {
  uint64_t m, k, n, blockSize;
  bool isSigned, uniformZero, halfScales, withBias;
  std::vector<float> a, scales, bias;
  std::vector<uint16_t> scaleBits;
  std::vector<uint8_t> values, zeroPoints;
  std::vector<int> q, z;

  Int8Problem(uint64_t m, uint64_t k, uint64_t n, uint64_t blockSize, bool isSigned,
              bool uniformZero, bool halfScales, uint32_t seed)
      : m(m),
        k(k),
        n(n),
        blockSize(blockSize),
        isSigned(isSigned),
        uniformZero(uniformZero),
        halfScales(halfScales),
        withBias(seed % 2 == 0) {
    std::mt19937 random(seed);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    std::uniform_int_distribution<int> integer(isSigned ? -8 : 0, isSigned ? 7 : 15);
    a.resize(m * k);
    for (float& value : a) value = uniform(random);
    // A block of zeros (its scale 0) and one of a single large value, in the first row.
    if (k >= 64) {
      std::fill(a.begin(), a.begin() + 32, 0.0f);
      a[40] = 50.0f;
    }
    const uint64_t blocks = n * (k / blockSize);
    scales.resize(blocks);
    for (float& value : scales) {
      value = 0.001f + 0.05f * std::abs(uniform(random));
      if (halfScales) value = halfToFloat(floatToHalf(value));  // exactly representable
    }
    for (float value : scales) scaleBits.push_back(floatToHalf(value));
    q.resize(n * k);
    for (int& value : q) value = integer(random);
    z.resize(blocks);
    const int uniformValue = integer(random);
    for (int& value : z) value = uniformZero ? uniformValue : integer(random);
    values = pack(q);
    zeroPoints = pack(z);
    if (withBias) {
      bias.resize(n);
      for (float& value : bias) value = uniform(random);
    }
  }

  static std::vector<uint8_t> pack(const std::vector<int>& integers) {
    std::vector<uint8_t> packed((integers.size() + 1) / 2, 0);
    for (size_t i = 0; i < integers.size(); ++i) {
      packed[i / 2] |= static_cast<uint8_t>((integers[i] & 0xF) << ((i % 2) * 4));
    }
    return packed;
  }

  BlockQuantizedWeights weights() const {
    BlockQuantizedWeights w{.values = values.data(),
                            .scales = halfScales ? nullptr : scales.data(),
                            .halfScales = halfScales ? scaleBits.data() : nullptr,
                            .zeroPoints = uniformZero ? nullptr : zeroPoints.data(),
                            .uniformZeroPoint = uniformZero ? z.front() : 0,
                            .n = n,
                            .k = k,
                            .blockSize = blockSize,
                            .bits = 4,
                            .isSigned = isSigned};
    return w;
  }

  // The definition: A's block of 32 quantized in float32 as the kernels do (the rounding of
  // a x (127 / largest) decides the integers, so it is computed with the same operations), the
  // rest exact (integers) or in double.
  double expected(uint64_t row, uint64_t column) const {
    double sum = withBias ? bias[column] : 0.0;
    for (uint64_t s = 0; s < k / 32; ++s) {
      const float* x = a.data() + row * k + s * 32;
      float largest = 0;
      for (int i = 0; i < 32; ++i) largest = std::max(largest, std::fabs(x[i]));
      const float inverse = largest > 0 ? 127.0f / largest : 0.0f;
      const double activationScale = largest / 127.0f;
      const uint64_t block = column * (k / blockSize) + s * 32 / blockSize;
      int64_t dot = 0;
      for (int i = 0; i < 32; ++i) {
        const int64_t quantized = static_cast<int64_t>(std::nearbyint(x[i] * inverse));
        dot += quantized * (q[column * k + s * 32 + i] - z[block]);
      }
      sum += activationScale * double{scales[block]} * static_cast<double>(dot);
    }
    return sum;
  }

  void check(const std::vector<float>& c, const std::string& what) const {
    for (uint64_t row = 0; row < m; ++row) {
      for (uint64_t column = 0; column < n; ++column) {
        // float32 sums over k / 32 blocks of partial sums up to 32 x 127 x 15 x 0.05 x scaleA.
        const double tolerance = 1e-5 * static_cast<double>(k) * 4.0;
        ASSERT_NEAR(c[row * n + column], expected(row, column), tolerance)
            << what << " row " << row << " column " << column;
      }
    }
  }
};

TEST(BlockQuantizedGemmInt8, MatchesTheDefinitionOverBlocksZeroPointsAndScales) {
  uint32_t seed = 1;
  for (bool isSigned : {false, true}) {
    for (uint64_t blockSize : {32ull, 64ull, 128ull}) {
      for (bool uniformZero : {false, true}) {
        for (uint64_t n : {1ull, 3ull, 8ull, 13ull, 70ull}) {
          const uint64_t m = seed % 3 + 1;
          // K a multiple of 64 (the kernel), or of 32 only (the portable loop behind the
          // dispatch); 16 blocks of 32 and more (a group of scales, and a partial one).
          const uint64_t k = blockSize == 32 && seed % 4 == 0 ? 32 * 19 : blockSize * 6;
          const bool halfScales = seed % 3 == 0;
          const Int8Problem problem(m, k, n, blockSize, isSigned, uniformZero, halfScales, seed);
          ++seed;
          const std::string what =
              std::string(isSigned ? "signed" : "unsigned") + " block " +
              std::to_string(blockSize) + (uniformZero ? " one zero point" : " zero points") +
              (halfScales ? " float16 scales" : "") + " m " + std::to_string(m) + " n " +
              std::to_string(n) + " k " + std::to_string(k);
          const BlockQuantizedWeights weights = problem.weights();
          ASSERT_TRUE(blockQuantizedGemmInt8ActivationsTakes(weights)) << what;
          const float* bias = problem.withBias ? problem.bias.data() : nullptr;
          std::vector<float> c(m * n, 12345.0f);
          blockQuantizedGemmInt8Activations(m, problem.a.data(), k, weights, bias, c.data(), n);
          problem.check(c, what + " (dispatched)");
          std::vector<float> portable(m * n, 12345.0f);
          blockQuantizedGemmInt8ActivationsPortable(m, problem.a.data(), k, weights, bias,
                                                    portable.data(), n);
          problem.check(portable, what + " (portable)");
        }
      }
    }
  }
}

TEST(BlockQuantizedGemmInt8, StaysNearTheFloatActivationProduct) {
  // The activations' rounding moves the product by about 1e-2 relative (llama.cpp's q8_0).
  const Int8Problem problem(2, 2048, 256, 32, false, true, true, 5);
  const BlockQuantizedWeights weights = problem.weights();
  std::vector<float> exact(2 * 256), int8(2 * 256);
  blockQuantizedGemm(2, problem.a.data(), 2048, weights, nullptr, exact.data(), 256);
  blockQuantizedGemmInt8Activations(2, problem.a.data(), 2048, weights, nullptr, int8.data(), 256);
  double error = 0, norm = 0;
  for (size_t i = 0; i < exact.size(); ++i) {
    error += (exact[i] - int8[i]) * double(exact[i] - int8[i]);
    norm += exact[i] * double(exact[i]);
  }
  const double relative = std::sqrt(error / norm);
  EXPECT_LT(relative, 2e-2);
  EXPECT_GT(relative, 0.0);  // the activations were rounded: not the float path
}

TEST(BlockQuantizedGemmInt8, TakesOnlyFourBitBlocksOfThirtyTwo) {
  const Int8Problem problem(1, 64, 4, 32, false, true, false, 3);
  BlockQuantizedWeights weights = problem.weights();
  EXPECT_TRUE(blockQuantizedGemmInt8ActivationsTakes(weights));
  weights.blockSize = 16;
  EXPECT_FALSE(blockQuantizedGemmInt8ActivationsTakes(weights));
  weights.blockSize = 32;
  weights.bits = 8;
  EXPECT_FALSE(blockQuantizedGemmInt8ActivationsTakes(weights));
}

}  // namespace
}  // namespace webnn::cpu

#endif  // WEBNN_HAVE_CPU
