// The cpu backend's float32 x float16 matrix product (backends/cpu/kernels/half_gemm.h): panel
// packing, the float16 conversion, and halfGemm (AVX-512 where the CPU has it) and its portable
// loop against a double-precision reference over many shapes, strides and remainders.
#include "webnn/config.h"
#ifdef WEBNN_HAVE_CPU

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "backends/cpu/kernels/half_gemm.h"

namespace webnn::cpu {
namespace {

// float16 bits to double, written independently of halfBitsToFloat.
double referenceHalfToDouble(uint16_t bits) {
  const int exponent = (bits >> 10) & 0x1F;
  const int mantissa = bits & 0x3FF;
  const double sign = (bits & 0x8000) ? -1.0 : 1.0;
  if (exponent == 0x1F) {
    return mantissa ? std::numeric_limits<double>::quiet_NaN()
                    : sign * std::numeric_limits<double>::infinity();
  }
  if (exponent == 0) return sign * std::ldexp(mantissa, -24);
  return sign * std::ldexp(1024 + mantissa, exponent - 25);
}

// Random finite float16 bits of magnitude up to about 2 (subnormals included now and then).
uint16_t randomHalf(std::mt19937& random) {
  const uint16_t sign = static_cast<uint16_t>((random() & 1u) << 15);
  const uint16_t exponent = static_cast<uint16_t>(random() % 16);  // up to 2^0 x 1.99
  const uint16_t mantissa = static_cast<uint16_t>(random() % 1024);
  return static_cast<uint16_t>(sign | (exponent << 10) | mantissa);
}

constexpr float kUntouched = 12345.0f;

struct Problem {
  uint64_t m, k, n, lda, ldb, ldc;
  bool withBias;
  std::vector<float> a, bias;
  std::vector<uint16_t> b, packed;
  std::vector<double> bValues;  // b as doubles, for the reference
  HalfPanelLayout layout;

  Problem(uint64_t m, uint64_t k, uint64_t n, uint64_t extraStride, bool withBias, uint32_t seed)
      : m(m),
        k(k),
        n(n),
        lda(k + extraStride),
        ldb(n + extraStride),
        ldc(n + extraStride),
        withBias(withBias),
        layout{k, n} {
    std::mt19937 random(seed);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    // The padding of A's rows is NaN: reading it would poison C.
    a.assign(m * lda, std::numeric_limits<float>::quiet_NaN());
    for (uint64_t row = 0; row < m; ++row) {
      for (uint64_t depth = 0; depth < k; ++depth) a[row * lda + depth] = uniform(random);
    }
    b.assign(k * ldb, 0x7E00);  // NaN in B's padding, which packing must not carry over
    for (uint64_t row = 0; row < k; ++row) {
      for (uint64_t column = 0; column < n; ++column) b[row * ldb + column] = randomHalf(random);
    }
    if (withBias) {
      for (uint64_t column = 0; column < n; ++column) bias.push_back(uniform(random));
    }
    for (uint16_t bits : b) bValues.push_back(referenceHalfToDouble(bits));
    packed.assign(layout.packedElements(), 0xFFFF);
    packHalfPanels(b.data(), ldb, layout, packed.data());
  }

  const float* biasData() const { return withBias ? bias.data() : nullptr; }

  // C filled with kUntouched, so that writes past n (into the row stride) show.
  std::vector<float> freshOutput() const { return std::vector<float>(m * ldc + 1, kUntouched); }

  // The double-precision product of the same float16 values at (row, column), and how far a
  // float32 result may be from it: float32 accumulation of k products and the bias (with or
  // without FMAs, in any order) errs by at most (k + 1) x 2^-24 x (sum |a b| + |bias|) to first
  // order; the bound adds a little slack.
  void reference(uint64_t row, uint64_t column, double& exact, double& bound) const {
    exact = withBias ? bias[column] : 0.0;
    double magnitude = std::fabs(exact);
    for (uint64_t depth = 0; depth < k; ++depth) {
      const double product = double{a[row * lda + depth]} * bValues[depth * ldb + column];
      exact += product;
      magnitude += std::fabs(product);
    }
    bound = 1.01 * static_cast<double>(k + 2) * std::ldexp(1.0, -24) * magnitude;
  }

  // Checks c against reference(), and that nothing past n or past the last row was written.
  void expectMatchesReference(const std::vector<float>& c, const std::string& what) const {
    int failures = 0;
    for (uint64_t row = 0; row < m && failures < 5; ++row) {
      for (uint64_t column = 0; column < ldc && failures < 5; ++column) {
        const float got = c[row * ldc + column];
        if (column >= n) {
          if (got != kUntouched) {
            ADD_FAILURE() << what << ": C(" << row << ", " << column << ") past n written";
            ++failures;
          }
          continue;
        }
        double exact, bound;
        reference(row, column, exact, bound);
        if (!(std::fabs(got - exact) <= bound)) {
          ADD_FAILURE() << what << ": C(" << row << ", " << column << ") = " << got << ", expected "
                        << exact << " within " << bound;
          ++failures;
        }
      }
    }
    EXPECT_EQ(c[m * ldc], kUntouched) << what << ": written past the last row";
  }
};

std::string describe(const Problem& problem) {
  return "m=" + std::to_string(problem.m) + " k=" + std::to_string(problem.k) +
         " n=" + std::to_string(problem.n) + " lda=" + std::to_string(problem.lda) +
         " ldc=" + std::to_string(problem.ldc) + (problem.withBias ? " bias" : "");
}

TEST(HalfGemmTest, HalfBitsToFloatIsExactForEveryValue) {
  for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
    const double expected = referenceHalfToDouble(static_cast<uint16_t>(bits));
    const float got = halfBitsToFloat(static_cast<uint16_t>(bits));
    if (std::isnan(expected)) {
      ASSERT_TRUE(std::isnan(got)) << "bits " << bits;
    } else {
      ASSERT_EQ(double{got}, expected) << "bits " << bits;
      ASSERT_EQ(std::signbit(got), std::signbit(expected)) << "bits " << bits;
    }
  }
}

TEST(HalfGemmTest, LayoutCountsPanelsAndElements) {
  const HalfPanelLayout layout{7, 33};
  EXPECT_EQ(layout.panelCount(), 2u);
  EXPECT_EQ(layout.packedElements(), 2u * 7u * kHalfPanelWidth);
  EXPECT_EQ(layout.offsetOf(0, 0), 0u);
  EXPECT_EQ(layout.offsetOf(1, 3), kHalfPanelWidth + 3);
  EXPECT_EQ(layout.offsetOf(2, 32), 7u * kHalfPanelWidth + 2u * kHalfPanelWidth);
  EXPECT_EQ((HalfPanelLayout{5, 0}.packedElements()), 0u);
  EXPECT_EQ((HalfPanelLayout{0, 40}.packedElements()), 0u);
}

TEST(HalfGemmTest, PackingPlacesEveryElementAtItsOffsetAndZeroesThePadding) {
  for (uint64_t n : {1, 15, 16, 31, 32, 33, 100, 257}) {
    for (uint64_t k : {1, 5, 64}) {
      const Problem problem(1, k, n, 3, false, static_cast<uint32_t>(k * 1000 + n));
      std::vector<bool> covered(problem.packed.size(), false);
      for (uint64_t row = 0; row < k; ++row) {
        for (uint64_t column = 0; column < n; ++column) {
          const uint64_t offset = problem.layout.offsetOf(row, column);
          ASSERT_LT(offset, problem.packed.size());
          ASSERT_EQ(problem.packed[offset], problem.b[row * problem.ldb + column])
              << "k=" << k << " n=" << n << " B(" << row << ", " << column << ")";
          covered[offset] = true;
        }
      }
      for (uint64_t offset = 0; offset < covered.size(); ++offset) {
        if (!covered[offset]) {
          ASSERT_EQ(problem.packed[offset], 0u) << "k=" << k << " n=" << n << " padding " << offset;
        }
      }
    }
  }
}

constexpr uint64_t kRowCounts[] = {1, 2, 3, 7, 8, 9, 17, 64, 130};
constexpr uint64_t kColumnCounts[] = {1, 15, 16, 31, 32, 33, 100, 257};
constexpr uint64_t kDepths[] = {0, 1, 5, 64, 300};

TEST(HalfGemmTest, MatchesDoubleReferenceOverShapes) {
  std::printf("halfGemm runs the %s path\n", halfGemmIsFast() ? "AVX-512" : "portable");
  uint32_t seed = 1;
  for (uint64_t m : kRowCounts) {
    for (uint64_t n : kColumnCounts) {
      for (uint64_t k : kDepths) {
        for (bool withBias : {false, true}) {
          const Problem problem(m, k, n, seed % 3 == 0 ? 0 : seed % 7 + 1, withBias, seed);
          ++seed;
          std::vector<float> c = problem.freshOutput();
          halfGemm(m, problem.a.data(), problem.lda, problem.packed.data(), problem.layout,
                   problem.biasData(), c.data(), problem.ldc);
          problem.expectMatchesReference(c, "halfGemm " + describe(problem));
          if (HasFailure()) return;
        }
      }
    }
  }
}

TEST(HalfGemmTest, PortableLoopMatchesReferenceAndFastPath) {
  uint32_t seed = 1000;
  for (uint64_t m : kRowCounts) {
    for (uint64_t n : kColumnCounts) {
      for (uint64_t k : kDepths) {
        const bool withBias = seed % 2 == 0;
        const Problem problem(m, k, n, seed % 5, withBias, seed);
        ++seed;
        std::vector<float> portable = problem.freshOutput();
        halfGemmPortable(m, problem.a.data(), problem.lda, problem.packed.data(), problem.layout,
                         problem.biasData(), portable.data(), problem.ldc);
        problem.expectMatchesReference(portable, "halfGemmPortable " + describe(problem));
        std::vector<float> fast = problem.freshOutput();
        halfGemm(m, problem.a.data(), problem.lda, problem.packed.data(), problem.layout,
                 problem.biasData(), fast.data(), problem.ldc);
        // Both are within the bound of the exact value, so within twice of each other.
        for (uint64_t row = 0; row < m; ++row) {
          for (uint64_t column = 0; column < n; ++column) {
            double exact, bound;
            problem.reference(row, column, exact, bound);
            ASSERT_LE(
                std::fabs(portable[row * problem.ldc + column] - fast[row * problem.ldc + column]),
                2 * bound)
                << describe(problem) << " C(" << row << ", " << column << ")";
          }
        }
        if (HasFailure()) return;
      }
    }
  }
}

TEST(HalfGemmTest, DepthZeroGivesTheBiasOrZeros) {
  const std::vector<float> bias = {1.5f, -2.0f, 3.25f};
  std::vector<float> c(6, kUntouched);
  halfGemm(2, nullptr, 0, nullptr, HalfPanelLayout{0, 3}, bias.data(), c.data(), 3);
  EXPECT_EQ(c, (std::vector<float>{1.5f, -2.0f, 3.25f, 1.5f, -2.0f, 3.25f}));
  halfGemm(2, nullptr, 0, nullptr, HalfPanelLayout{0, 3}, nullptr, c.data(), 3);
  EXPECT_EQ(c, std::vector<float>(6, 0.0f));
}

TEST(HalfGemmTest, InfinityAndNaNInWeightsPropagate) {
  // B = [[inf, NaN, 1], [1, 1, 1]]: C = [a0 * inf + a1, NaN, a0 + a1].
  const HalfPanelLayout layout{2, 3};
  const std::vector<uint16_t> b = {0x7C00, 0x7E00, 0x3C00, 0x3C00, 0x3C00, 0x3C00};
  std::vector<uint16_t> packed(layout.packedElements());
  packHalfPanels(b.data(), 3, layout, packed.data());
  const std::vector<float> a = {2.0f, 0.5f};
  for (auto* gemm : {&halfGemm, &halfGemmPortable}) {
    std::vector<float> c(3, 0.0f);
    gemm(1, a.data(), 2, packed.data(), layout, nullptr, c.data(), 3);
    EXPECT_TRUE(std::isinf(c[0]) && c[0] > 0);
    EXPECT_TRUE(std::isnan(c[1]));
    EXPECT_EQ(c[2], 2.5f);
  }
}

// Larger products, where the fast path blocks k (more than 1024) and rows (more than 264), widens
// panel blocks (many row blocks) or converts them as it goes (a few), and splits rows and panels
// over threads.
TEST(HalfGemmTest, MatchesReferenceOnBlockedShapes) {
  const uint64_t shapes[][3] = {
      {300, 1100, 97}, {40, 2100, 70}, {8, 1000, 1030}, {1, 2048, 64}, {513, 257, 40}};
  uint32_t seed = 77;
  for (const auto& shape : shapes) {
    const Problem problem(shape[0], shape[1], shape[2], 2, true, seed++);
    std::vector<float> c = problem.freshOutput();
    halfGemm(problem.m, problem.a.data(), problem.lda, problem.packed.data(), problem.layout,
             problem.biasData(), c.data(), problem.ldc);
    problem.expectMatchesReference(c, "halfGemm " + describe(problem));
  }
}

}  // namespace
}  // namespace webnn::cpu

#endif  // WEBNN_HAVE_CPU
