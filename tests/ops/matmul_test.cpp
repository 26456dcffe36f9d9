// matmul: rank 2 to 4 (and more), broadcast batch dimensions, float16; the TypeErrors (1-D
// operands are not allowed in the current spec).
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

WEBNN_BACKEND_TEST(Matmul, TwoByTwo) {
  Runner r;
  auto a = r.input("a", {2, 3}, {1, 2, 3, 4, 5, 6});
  auto b = r.input("b", {3, 2}, {1, 2, 3, 4, 5, 6});
  auto y = r.builder.matmul(a, b);
  EXPECT_EQ(y.shape(), (std::vector<uint32_t>{2, 2}));
  expectNear(r.run(y), {22, 28, 49, 64});
}

WEBNN_BACKEND_TEST(Matmul, BatchedThreeD) {
  Runner r;
  auto a = r.input("a", {2, 1, 2}, {1, 2, 3, 4});
  auto b = r.input("b", {2, 2, 1}, {1, 1, 1, -1});
  auto y = r.builder.matmul(a, b);
  EXPECT_EQ(y.shape(), (std::vector<uint32_t>{2, 1, 1}));
  expectNear(r.run(y), {3, -1});
}

WEBNN_BACKEND_TEST(Matmul, BroadcastsBatchDimensions) {
  // a [2, 1, 1, 2] x b [3, 2, 1] -> [2, 3, 1, 1]: every a row times every b column.
  Runner r;
  auto a = r.input("a", {2, 1, 1, 2}, {1, 2, 10, 20});
  auto b = r.input("b", {3, 2, 1}, {1, 0, 0, 1, 1, 1});
  auto y = r.builder.matmul(a, b);
  EXPECT_EQ(y.shape(), (std::vector<uint32_t>{2, 3, 1, 1}));
  expectNear(r.run(y), {1, 2, 3, 10, 20, 30});
}

WEBNN_BACKEND_TEST(Matmul, RankFourTimesRankTwo) {
  Runner r;
  auto a = r.input("a", {2, 2, 1, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
  auto b = r.constant({2, 2}, {1, 0, 0, 2});
  auto y = r.builder.matmul(a, b);
  EXPECT_EQ(y.shape(), (std::vector<uint32_t>{2, 2, 1, 2}));
  expectNear(r.run(y), {1, 4, 3, 8, 5, 12, 7, 16});
}

WEBNN_BACKEND_TEST(Matmul, RankTwoTimesRankThree) {
  Runner r;
  auto a = r.constant({1, 2}, {1, 2});
  auto b = r.input("b", {2, 2, 2}, {1, 0, 0, 1, 2, 0, 0, 2});
  auto y = r.builder.matmul(a, b);
  EXPECT_EQ(y.shape(), (std::vector<uint32_t>{2, 1, 2}));
  expectNear(r.run(y), {1, 2, 2, 4});
}

WEBNN_BACKEND_TEST(Matmul, Float16) {
  Runner r;
  auto a = r.input("a", {2, 3}, {1, 2, 3, 4, 5, 6}, F16);
  auto b = r.input("b", {3, 2}, {0.5, 1, 1.5, 2, 2.5, 3}, F16);
  auto y = r.builder.matmul(a, b);
  EXPECT_EQ(y.dataType(), F16);
  expectNear(r.run(y), {11, 14, 24.5, 32}, 1e-3f);
}

WEBNN_BACKEND_TEST(Matmul, ShapeInferenceFiveD) {
  MLContext context = testing::createTestContext();
  MLGraphBuilder builder(context);
  auto a = builder.input("a", {F32, {2, 2, 1, 3, 4}});
  auto b = builder.input("b", {F32, {1, 2, 1, 4, 5}});
  EXPECT_EQ(builder.matmul(a, b).shape(), (std::vector<uint32_t>{2, 2, 1, 3, 5}));
}

WEBNN_BACKEND_TEST(Matmul, Errors) {
  struct Case {
    std::string name;
    MLOperandDescriptor a, b;
    std::string fragment;
  };
  std::vector<Case> cases = {
      {"1-D a", {F32, {3}}, {F32, {3, 2}}, "a has rank 1"},
      {"1-D b", {F32, {2, 3}}, {F32, {3}}, "b has rank 1"},
      {"scalar", {F32, {}}, {F32, {3, 2}}, "a has rank 0"},
      {"int", {MLOperandDataType::Int32, {2, 3}}, {MLOperandDataType::Int32, {3, 2}}, "int32"},
      {"types", {F32, {2, 3}}, {F16, {3, 2}}, "same data type"},
      {"inner", {F32, {2, 3}}, {F32, {2, 3}}, "inner dimensions differ"},
      {"batch", {F32, {2, 2, 3}}, {F32, {3, 3, 2}}, "not broadcastable"},
  };
  for (auto& c : cases) {
    SCOPED_TRACE(c.name);
    MLContext context = testing::createTestContext();
    MLGraphBuilder builder(context);
    auto a = builder.input("a", c.a);
    auto b = builder.input("b", c.b);
    expectError([&] { builder.matmul(a, b, {{"mm"}}); }, K::TypeError, {"matmul 'mm'", c.fragment});
  }
}

}  // namespace
}  // namespace webnn
