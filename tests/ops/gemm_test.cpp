// gemm: transposes, alpha, beta, c broadcast to [M, N], float16; shape inference and the
// TypeErrors.
#include <cmath>
#include <cstring>

#include "core/float16.h"
#include "ops/float_runner.h"
#include "test_helpers.h"

namespace webnn {
namespace {

using testing::expectError;
using K = Error::Kind;
constexpr MLOperandDataType F32 = MLOperandDataType::Float32;
constexpr MLOperandDataType F16 = MLOperandDataType::Float16;

using testing::expectNear;
using testing::iota;
using testing::Runner;

// A = [[1, 2, 3], [4, 5, 6]], B = [[1, 2], [3, 4], [5, 6]]: A B = [[22, 28], [49, 64]].
const std::vector<float> kA = {1, 2, 3, 4, 5, 6};
const std::vector<float> kAT = {1, 4, 2, 5, 3, 6};  // A stored transposed, [3, 2]
const std::vector<float> kB = {1, 2, 3, 4, 5, 6};
const std::vector<float> kBT = {1, 3, 5, 2, 4, 6};  // B stored transposed, [2, 3]

WEBNN_BACKEND_TEST(Gemm, DefaultOptions) {
  Runner r;
  auto a = r.input("a", {2, 3}, kA);
  auto b = r.input("b", {3, 2}, kB);
  auto y = r.builder.gemm(a, b);
  EXPECT_EQ(y.shape(), (std::vector<uint32_t>{2, 2}));
  expectNear(r.run(y), {22, 28, 49, 64});
}

WEBNN_BACKEND_TEST(Gemm, Transposes) {
  for (bool aT : {false, true}) {
    for (bool bT : {false, true}) {
      Runner r;
      auto a = r.input("a", aT ? std::vector<uint32_t>{3, 2} : std::vector<uint32_t>{2, 3}, aT ? kAT : kA);
      auto b = r.constant(bT ? std::vector<uint32_t>{2, 3} : std::vector<uint32_t>{3, 2}, bT ? kBT : kB);
      auto y = r.builder.gemm(a, b, {.aTranspose = aT, .bTranspose = bT});
      EXPECT_EQ(y.shape(), (std::vector<uint32_t>{2, 2}));
      expectNear(r.run(y), {22, 28, 49, 64});
    }
  }
}

WEBNN_BACKEND_TEST(Gemm, AlphaBetaAndC) {
  Runner r;
  auto a = r.input("a", {2, 3}, kA);
  auto b = r.constant({3, 2}, kB);
  auto c = r.constant({2, 2}, {1, 2, 3, 4});
  expectNear(r.run(r.builder.gemm(a, b, {.c = c, .alpha = 2, .beta = -3})),
             {44 - 3, 56 - 6, 98 - 9, 128 - 12});
}

WEBNN_BACKEND_TEST(Gemm, BetaWithoutCIsIgnored) {
  Runner r;
  auto a = r.input("a", {2, 3}, kA);
  auto b = r.constant({3, 2}, kB);
  expectNear(r.run(r.builder.gemm(a, b, {.alpha = 0.5, .beta = 7})), {11, 14, 24.5, 32});
}

WEBNN_BACKEND_TEST(Gemm, CBroadcasts) {
  struct Case {
    std::vector<uint32_t> shape;
    std::vector<float> data;
    std::vector<float> expected;
  };
  const std::vector<Case> cases = {
      {{}, {1}, {23, 29, 50, 65}},
      {{1}, {1}, {23, 29, 50, 65}},
      {{2}, {1, 2}, {23, 30, 50, 66}},
      {{1, 2}, {1, 2}, {23, 30, 50, 66}},
      {{2, 1}, {1, 2}, {23, 29, 51, 66}},
      {{1, 1}, {1}, {23, 29, 50, 65}},
  };
  for (const auto& c : cases) {
    Runner r;
    auto a = r.input("a", {2, 3}, kA);
    auto b = r.constant({3, 2}, kB);
    auto cc = r.constant(c.shape, c.data);
    expectNear(r.run(r.builder.gemm(a, b, {.c = cc})), c.expected);
  }
}

WEBNN_BACKEND_TEST(Gemm, Float16) {
  Runner r;
  auto a = r.input("a", {2, 3}, kA, F16);
  auto b = r.constant({3, 2}, kB, F16);
  auto c = r.constant({2}, {0.5, 0.25}, F16);
  auto y = r.builder.gemm(a, b, {.c = c});
  EXPECT_EQ(y.dataType(), F16);
  expectNear(r.run(y), {22.5, 28.25, 49.5, 64.25}, 1e-3f);
}

WEBNN_BACKEND_TEST(Gemm, Errors) {
  struct Case {
    std::string name;
    MLOperandDescriptor a, b;
    MLGemmOptions options;
    std::optional<MLOperandDescriptor> c;
    std::string fragment;
  };
  std::vector<Case> cases = {
      {"a rank", {F32, {2, 3, 1}}, {F32, {3, 2}}, {}, {}, "a has rank 3"},
      {"b rank", {F32, {2, 3}}, {F32, {3}}, {}, {}, "b has rank 1"},
      {"int", {MLOperandDataType::Int32, {2, 3}}, {MLOperandDataType::Int32, {3, 2}}, {}, {}, "int32"},
      {"types", {F32, {2, 3}}, {F16, {3, 2}}, {}, {}, "same data type"},
      {"inner", {F32, {2, 3}}, {F32, {2, 3}}, {}, {}, "inner dimensions differ"},
      {"inner transposed", {F32, {2, 3}}, {F32, {3, 2}}, {.aTranspose = true}, {}, "(transposed)"},
      {"c shape", {F32, {2, 3}}, {F32, {3, 2}}, {}, MLOperandDescriptor{F32, {3, 2}}, "not broadcastable"},
      {"c rank", {F32, {2, 3}}, {F32, {3, 2}}, {}, MLOperandDescriptor{F32, {1, 2, 2}}, "c has rank 3"},
      {"c type", {F32, {2, 3}}, {F32, {3, 2}}, {}, MLOperandDescriptor{F16, {2, 2}}, "same data type"},
  };
  for (auto& c : cases) {
    SCOPED_TRACE(c.name);
    MLContext context = testing::createTestContext();
    MLGraphBuilder builder(context);
    auto a = builder.input("a", c.a);
    auto b = builder.input("b", c.b);
    c.options.label = "fc";
    if (c.c) c.options.c = builder.input("c", *c.c);
    expectError([&] { builder.gemm(a, b, c.options); }, K::TypeError, {"gemm 'fc'", c.fragment});
  }
}

}  // namespace
}  // namespace webnn
