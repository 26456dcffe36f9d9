// The cpu backend's softmax over the last axis on a loop of ours (kernels/softmax_rows.h): rows
// of any length (the masked tail), against softmax computed in double; -inf entries give exact
// zeros; a row with a NaN or an infinite maximum is computed as the reference computes it; and a
// graph's softmax over the last axis runs on it, another axis on oneDNN.
#include "webnn/config.h"
#ifdef WEBNN_HAVE_CPU

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "api/graph_state.h"
#include "backends/cpu/kernels/softmax_rows.h"
#include "backends/cpu/plan.h"
#include "webnn/context.h"
#include "webnn/graph_builder.h"

namespace webnn {
namespace {

constexpr float kInfinity = std::numeric_limits<float>::infinity();

std::vector<double> softmaxInDouble(const std::vector<float>& row) {
  double maximum = -std::numeric_limits<double>::infinity();
  for (float v : row) maximum = std::fmax(maximum, v);
  double sum = 0;
  for (float v : row) sum += std::exp(v - maximum);
  std::vector<double> out;
  for (float v : row) out.push_back(std::exp(v - maximum) / sum);
  return out;
}

TEST(CpuSoftmaxRows, RowsOfAnyLengthMatchSoftmaxInDouble) {
  if (!cpu::softmaxRowsIsFast()) GTEST_SKIP() << "no AVX-512 here";
  for (const int64_t n : {1, 7, 16, 17, 33, 128, 1000}) {
    SCOPED_TRACE(n);
    const int64_t rows = 5;
    std::vector<float> x(static_cast<size_t>(rows * n)), y(x.size(), -1.0f);
    for (size_t i = 0; i < x.size(); ++i) x[i] = 12.0f * std::sin(0.37f * static_cast<float>(i));
    cpu::softmaxRows(x.data(), y.data(), rows, n);
    for (int64_t r = 0; r < rows; ++r) {
      const std::vector<float> row(x.begin() + r * n, x.begin() + (r + 1) * n);
      const std::vector<double> expected = softmaxInDouble(row);
      for (int64_t i = 0; i < n; ++i) {
        const double got = y[static_cast<size_t>(r * n + i)];
        EXPECT_NEAR(got, expected[static_cast<size_t>(i)],
                    2e-6 * expected[static_cast<size_t>(i)] + 1e-37)
            << r << ", " << i;
      }
    }
  }
}

TEST(CpuSoftmaxRows, SpecialValuesAsTheReference) {
  if (!cpu::softmaxRowsIsFast()) GTEST_SKIP() << "no AVX-512 here";
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // A masked row: -inf entries are exact zeros, the rest share 1.
  std::vector<float> masked(20, -kInfinity), out(20);
  masked[3] = 1.0f;
  masked[17] = 1.0f;
  cpu::softmaxRows(masked.data(), out.data(), 1, 20);
  for (size_t i = 0; i < out.size(); ++i) {
    EXPECT_EQ(out[i], (i == 3 || i == 17) ? 0.5f : 0.0f) << i;
  }
  // A NaN anywhere makes the row NaN; an infinite maximum, and a row of -inf only, give what
  // the reference's formula gives (NaN where inf - inf or -inf - -inf appear).
  for (const std::vector<float>& row :
       {std::vector<float>{1, nan, 2, 3}, std::vector<float>{1, kInfinity, 2},
        std::vector<float>{-kInfinity, -kInfinity}}) {
    std::vector<float> y(row.size());
    cpu::softmaxRows(row.data(), y.data(), 1, static_cast<int64_t>(row.size()));
    const std::vector<double> expected = softmaxInDouble(row);
    for (size_t i = 0; i < row.size(); ++i) {
      if (std::isnan(expected[i])) {
        EXPECT_TRUE(std::isnan(y[i])) << i;
      } else {
        EXPECT_EQ(y[i], static_cast<float>(expected[i])) << i;
      }
    }
  }
}

TEST(CpuSoftmaxRows, TheLastAxisRunsOnTheLoopAnotherAxisOnOneDnn) {
  MLContext context = createContext({.backend = "cpu"});
  MLGraphBuilder b(context);
  const MLOperand x = b.input("x", {MLOperandDataType::Float32, {2, 3, 40}});
  MLGraph graph = b.build({{"last", b.softmax(x, 2)}, {"middle", b.softmax(x, 1)}});
  std::vector<std::string> implementations;
  for (const auto& step : graph.implementations()) implementations.push_back(step.implementation);
  ASSERT_EQ(implementations.size(), 2u);
  const bool fast = cpu::softmaxRowsIsFast();
  int ours = 0;
  for (const std::string& implementation : implementations) {
    ours += implementation == "cpu softmax kernel (avx512)";
  }
  EXPECT_EQ(ours, fast ? 1 : 0);
}

}  // namespace
}  // namespace webnn

#endif  // WEBNN_HAVE_CPU
