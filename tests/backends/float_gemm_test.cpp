// The cpu backend's float32 product on column panels (backends/cpu/kernels/float_gemm.h): panel
// packing, and floatGemm (AVX-512 where the CPU has it) and its portable loop against a double-
// precision reference over shapes that cover its row, panel and depth remainders and blocks, with
// each kind of addend (a bias row, a residual, a residual that is C itself), strides and threads.
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

#include "backends/cpu/kernels/float_gemm.h"

namespace webnn::cpu {
namespace {

constexpr float kUntouched = 12345.0f;

enum class Addends { None, Bias, Residual, Both, ResidualIsC };

const char* nameOf(Addends addends) {
  switch (addends) {
    case Addends::None:
      return "none";
    case Addends::Bias:
      return "bias";
    case Addends::Residual:
      return "residual";
    case Addends::Both:
      return "bias+residual";
    case Addends::ResidualIsC:
      return "bias+residual in C";
  }
  return "?";
}

struct Problem {
  uint64_t m, k, n, lda, ldb, ldc;
  Addends addends;
  std::vector<float> a, b, bias, residual, packed;
  FloatPanelLayout layout;

  Problem(uint64_t m, uint64_t k, uint64_t n, uint64_t extraStride, Addends addends, uint32_t seed)
      : m(m),
        k(k),
        n(n),
        lda(k + extraStride),
        ldb(n + extraStride),
        ldc(n + extraStride),
        addends(addends),
        layout{k, n} {
    std::mt19937 random(seed);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    // The padding of A's and B's rows is NaN: reading it would poison C.
    const float nan = std::numeric_limits<float>::quiet_NaN();
    a.assign(m * lda, nan);
    for (uint64_t row = 0; row < m; ++row) {
      for (uint64_t depth = 0; depth < k; ++depth) a[row * lda + depth] = uniform(random);
    }
    b.assign(k * ldb, nan);
    for (uint64_t row = 0; row < k; ++row) {
      for (uint64_t column = 0; column < n; ++column) b[row * ldb + column] = uniform(random);
    }
    if (addends != Addends::None && addends != Addends::Residual) {
      for (uint64_t column = 0; column < n; ++column) bias.push_back(uniform(random));
    }
    if (addends != Addends::None && addends != Addends::Bias) {
      residual.assign(m * ldc, nan);
      for (uint64_t row = 0; row < m; ++row) {
        for (uint64_t column = 0; column < n; ++column) {
          residual[row * ldc + column] = 4.0f * uniform(random);
        }
      }
    }
    packed.assign(layout.packedElements(), nan);
    packFloatPanels(b.data(), ldb, layout, packed.data());
  }

  // C filled with kUntouched (or the residual, when the residual is C), so that writes past n
  // (into the row stride) and past the last row show.
  std::vector<float> freshOutput() const {
    std::vector<float> c(m * ldc + 1, kUntouched);
    if (addends == Addends::ResidualIsC) {
      for (uint64_t row = 0; row < m; ++row) {
        for (uint64_t column = 0; column < n; ++column) {
          c[row * ldc + column] = residual[row * ldc + column];
        }
      }
    }
    return c;
  }

  FloatGemmAddends addendsFor(std::vector<float>& c) const {
    FloatGemmAddends result;
    if (!bias.empty()) result.bias = bias.data();
    if (addends == Addends::ResidualIsC) {
      result.residual = c.data();
    } else if (!residual.empty()) {
      result.residual = residual.data();
    }
    result.residualStride = ldc;
    return result;
  }

  // The product in double at (row, column), and how far a float32 result may be from it: float32
  // accumulation of k products and two addends errs by at most (k + 2) x 2^-24 x (sum of the
  // magnitudes) to first order; the bound adds a little slack.
  void reference(uint64_t row, uint64_t column, double& exact, double& bound) const {
    exact = 0;
    double magnitude = 0;
    if (!bias.empty()) {
      exact += bias[column];
      magnitude += std::fabs(bias[column]);
    }
    if (!residual.empty()) {
      exact += residual[row * ldc + column];
      magnitude += std::fabs(residual[row * ldc + column]);
    }
    for (uint64_t depth = 0; depth < k; ++depth) {
      const double product = double{a[row * lda + depth]} * b[depth * ldb + column];
      exact += product;
      magnitude += std::fabs(product);
    }
    bound = 1.01 * static_cast<double>(k + 3) * std::ldexp(1.0, -24) * magnitude;
  }

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

  std::string describe() const {
    return "m=" + std::to_string(m) + " k=" + std::to_string(k) + " n=" + std::to_string(n) +
           " ldc=" + std::to_string(ldc) + " " + nameOf(addends);
  }
};

using Gemm = void (*)(uint64_t, const float*, uint64_t, const float*, const FloatPanelLayout&,
                      const FloatGemmAddends&, float*, uint64_t);

void runAndCheck(Gemm gemm, const char* name, const Problem& problem) {
  std::vector<float> c = problem.freshOutput();
  gemm(problem.m, problem.a.data(), problem.lda, problem.packed.data(), problem.layout,
       problem.addendsFor(c), c.data(), problem.ldc);
  problem.expectMatchesReference(c, std::string(name) + " " + problem.describe());
}

TEST(FloatGemmTest, PackingPlacesEveryElementAtItsOffsetAndZeroesThePadding) {
  const Problem problem(1, 5, 50, 3, Addends::None, 5);  // two panels, the second 46 columns short
  EXPECT_EQ(problem.layout.panelCount(), 2u);
  EXPECT_EQ(problem.layout.packedElements(), 2u * 5 * kFloatPanelColumns);
  for (uint64_t row = 0; row < problem.k; ++row) {
    for (uint64_t column = 0; column < 2 * kFloatPanelColumns; ++column) {
      const float packed = problem.packed[problem.layout.offsetOf(row, column)];
      if (column < problem.n) {
        EXPECT_EQ(packed, problem.b[row * problem.ldb + column]) << row << ", " << column;
      } else {
        EXPECT_EQ(packed, 0.0f) << "padding at " << row << ", " << column;
      }
    }
  }
}

TEST(FloatGemmTest, MatchesDoubleReferenceOverShapesAndAddends) {
  std::printf("floatGemm runs the %s path\n", floatGemmIsFast() ? "AVX-512" : "portable");
  uint32_t seed = 1;
  for (uint64_t m : {1, 7, 8, 9, 17, 130}) {
    for (uint64_t n : {1, 47, 48, 49, 100}) {
      for (uint64_t k : {0, 1, 5, 300}) {
        const auto addends = static_cast<Addends>(seed % 5);
        const Problem problem(m, k, n, seed % 3 == 0 ? 0 : seed % 7 + 1, addends, seed);
        ++seed;
        runAndCheck(&floatGemm, "floatGemm", problem);
        runAndCheck(&floatGemmPortable, "floatGemmPortable", problem);
        if (HasFailure()) return;
      }
    }
  }
}

// Products that take several depth blocks (k over 1024), row chunks (over 128 rows) and both
// threads, with every kind of addend.
TEST(FloatGemmTest, MatchesReferenceOnBlockedShapes) {
  const uint64_t shapes[][3] = {{300, 1100, 97}, {40, 2100, 70}, {16, 1025, 49},
                                {129, 3000, 96}, {513, 257, 40}, {64, 768, 768}};
  uint32_t seed = 77;
  for (const auto& shape : shapes) {
    for (Addends addends : {Addends::Both, Addends::ResidualIsC}) {
      const Problem problem(shape[0], shape[1], shape[2], 2, addends, seed++);
      runAndCheck(&floatGemm, "floatGemm", problem);
    }
  }
}

TEST(FloatGemmTest, DepthZeroGivesTheAddendsOrZeros) {
  const std::vector<float> bias = {1.5f, -2.0f, 3.25f};
  const std::vector<float> residual = {1, 2, 3, 4, 5, 6};
  std::vector<float> c(6, kUntouched);
  floatGemm(2, nullptr, 0, nullptr, FloatPanelLayout{0, 3}, {.bias = bias.data()}, c.data(), 3);
  EXPECT_EQ(c, (std::vector<float>{1.5f, -2.0f, 3.25f, 1.5f, -2.0f, 3.25f}));
  floatGemm(2, nullptr, 0, nullptr, FloatPanelLayout{0, 3},
            {.bias = bias.data(), .residual = residual.data(), .residualStride = 3}, c.data(), 3);
  EXPECT_EQ(c, (std::vector<float>{2.5f, 0.0f, 6.25f, 5.5f, 3.0f, 9.25f}));
  floatGemm(2, nullptr, 0, nullptr, FloatPanelLayout{0, 3}, {}, c.data(), 3);
  EXPECT_EQ(c, std::vector<float>(6, 0.0f));
}

TEST(FloatGemmTest, InfinityAndNaNPropagate) {
  // B = [[inf, NaN, 1], [1, 1, 1]] (one row of A: 2, 0.5): C = [inf, NaN, 2.5].
  const FloatPanelLayout layout{2, 3};
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> b = {inf, std::numeric_limits<float>::quiet_NaN(), 1, 1, 1, 1};
  std::vector<float> packed(layout.packedElements());
  packFloatPanels(b.data(), 3, layout, packed.data());
  const std::vector<float> a = {2.0f, 0.5f};
  for (Gemm gemm : {&floatGemm, &floatGemmPortable}) {
    std::vector<float> c(3, 0.0f);
    gemm(1, a.data(), 2, packed.data(), layout, {}, c.data(), 3);
    EXPECT_TRUE(std::isinf(c[0]) && c[0] > 0);
    EXPECT_TRUE(std::isnan(c[1]));
    EXPECT_EQ(c[2], 2.5f);
  }
}

}  // namespace
}  // namespace webnn::cpu

#endif  // WEBNN_HAVE_CPU
