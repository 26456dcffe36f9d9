// Reductions (reduceL1 ... reduceSumSquare), argMin/argMax and cumulativeSum: values in float32,
// float16 and integer types, axes and keepDimensions, shape inference and the error paths.
#include <cmath>
#include <cstring>

#include "core/float16.h"
#include "ops/typed_graph.h"
#include "test_helpers.h"

namespace webnn {
namespace {

using testing::expectError;
using testing::Graph;
using testing::halves;
using testing::nibbles;
using testing::raw;
using K = Error::Kind;
using T = MLOperandDataType;
using Shape = std::vector<uint32_t>;
using F32 = std::vector<float>;
using I32 = std::vector<int32_t>;

// x = [[1, -2, 3], [-4, 5, -6]]
const F32 kX = {1, -2, 3, -4, 5, -6};

MLReduceOptions axes(Shape values, bool keep = false) {
  MLReduceOptions options;
  options.axes = std::move(values);
  options.keepDimensions = keep;
  return options;
}

WEBNN_BACKEND_TEST(ReductionReduce, EveryReductionOverAxis1) {
  Graph g;
  auto x = g.input("x", {T::Float32, {2, 3}}, kX);
  auto& b = g.builder;
  const auto o = axes({1});
  auto results = g.runAll({{"l1", b.reduceL1(x, o)},
                           {"l2", b.reduceL2(x, o)},
                           {"max", b.reduceMax(x, o)},
                           {"mean", b.reduceMean(x, o)},
                           {"min", b.reduceMin(x, o)},
                           {"product", b.reduceProduct(x, o)},
                           {"sum", b.reduceSum(x, o)},
                           {"sumSquare", b.reduceSumSquare(x, o)}});
  EXPECT_EQ(results["l1"], raw(F32{6, 15}));
  EXPECT_EQ(results["l2"], raw(F32{std::sqrt(14.0f), std::sqrt(77.0f)}));
  EXPECT_EQ(results["max"], raw(F32{3, 5}));
  EXPECT_EQ(results["mean"], raw(F32{2.0f / 3.0f, -5.0f / 3.0f}));
  EXPECT_EQ(results["min"], raw(F32{-2, -6}));
  EXPECT_EQ(results["product"], raw(F32{-6, 120}));
  EXPECT_EQ(results["sum"], raw(F32{2, -5}));
  EXPECT_EQ(results["sumSquare"], raw(F32{14, 77}));
}

WEBNN_BACKEND_TEST(ReductionReduce, LogSumAndLogSumExp) {
  Graph g;
  auto x = g.input("x", {T::Float32, {2, 2}}, F32{1, 2, 1000, 1000});
  auto logSum = g.builder.reduceLogSum(x, axes({1}));
  auto logSumExp = g.builder.reduceLogSumExp(x, axes({1}));
  auto results = g.runAll({{"ls", logSum}, {"lse", logSumExp}});
  EXPECT_EQ(results["ls"], raw(F32{std::log(3.0f), static_cast<float>(std::log(2000.0))}));
  // No overflow for large inputs: log(2 e^1000) = 1000 + log 2.
  EXPECT_EQ(results["lse"], raw(F32{static_cast<float>(std::log(std::exp(1.0) + std::exp(2.0))),
                                    static_cast<float>(1000 + std::log(2.0))}));
}

WEBNN_BACKEND_TEST(ReductionReduce, DefaultAxesReduceEverything) {
  Graph g;
  auto x = g.input("x", {T::Float32, {2, 3}}, kX);
  auto all = g.builder.reduceSum(x);
  EXPECT_EQ(all.shape(), Shape{});
  MLReduceOptions keep;
  keep.keepDimensions = true;
  auto kept = g.builder.reduceMax(x, keep);
  EXPECT_EQ(kept.shape(), (Shape{1, 1}));
  auto results = g.runAll({{"all", all}, {"kept", kept}});
  EXPECT_EQ(results["all"], raw(F32{-3}));
  EXPECT_EQ(results["kept"], raw(F32{5}));
}

WEBNN_BACKEND_TEST(ReductionReduce, EmptyAxesAppliesPerElement) {
  Graph g;
  auto x = g.input("x", {T::Float32, {2, 3}}, kX);
  auto y = g.builder.reduceL1(x, axes({}));
  EXPECT_EQ(y.shape(), (Shape{2, 3}));
  EXPECT_EQ(g.runAs<float>(y), (F32{1, 2, 3, 4, 5, 6}));
}

WEBNN_BACKEND_TEST(ReductionReduce, ScalarInput) {
  Graph g;
  auto x = g.input("x", {T::Float32, {}}, F32{-2.5f});
  auto y = g.builder.reduceSumSquare(x);
  EXPECT_EQ(y.shape(), Shape{});
  EXPECT_EQ(g.runAs<float>(y), (F32{6.25f}));
}

WEBNN_BACKEND_TEST(ReductionReduce, KeepDimensionsAndAxisOrder) {
  Graph g;
  // [2, 3, 2]: x[a][b][c] = 6a + 2b + c.
  F32 data(12);
  for (int i = 0; i < 12; ++i) data[i] = static_cast<float>(i);
  auto x = g.input("x", {T::Float32, {2, 3, 2}}, data);
  auto kept = g.builder.reduceSum(x, axes({2, 0}, true));
  EXPECT_EQ(kept.shape(), (Shape{1, 3, 1}));
  auto dropped = g.builder.reduceSum(x, axes({1}));
  EXPECT_EQ(dropped.shape(), (Shape{2, 2}));
  auto results = g.runAll({{"k", kept}, {"d", dropped}});
  // b = 0: 0+1+6+7 = 14; b = 1: 2+3+8+9 = 22; b = 2: 4+5+10+11 = 30.
  EXPECT_EQ(results["k"], raw(F32{14, 22, 30}));
  // a = 0: c = 0: 0+2+4, c = 1: 1+3+5; a = 1: 6+8+10, 7+9+11.
  EXPECT_EQ(results["d"], raw(F32{6, 9, 24, 27}));
}

WEBNN_BACKEND_TEST(ReductionReduce, Float16RoundsOnce) {
  Graph g;
  // 2048 + 1 + 1 in float16 step by step would stay 2048; accumulated in double it is 2050.
  auto x = g.input("x", {T::Float16, {3}}, halves({2048, 1, 1}));
  auto sum = g.builder.reduceSum(x);
  auto mean = g.builder.reduceMean(x);
  auto results = g.runAll({{"s", sum}, {"m", mean}});
  EXPECT_EQ(results["s"], raw(halves({2050})));
  EXPECT_EQ(results["m"], raw(halves({2050.0f / 3.0f})));
}

WEBNN_BACKEND_TEST(ReductionReduce, IntegersAreExact) {
  Graph g;
  auto x = g.input("x", {T::Int32, {2, 2}}, I32{-7, 3, 2147483647, 1});
  auto sum = g.builder.reduceSum(x, axes({1}));
  auto l1 = g.builder.reduceL1(x, axes({0}));
  auto product = g.builder.reduceProduct(x, axes({0}));
  auto max = g.builder.reduceMax(x, axes({0, 1}));
  auto u = g.input("u", {T::Uint32, {3}}, std::vector<uint32_t>{4000000000u, 5, 6});
  auto umin = g.builder.reduceMin(u);
  auto usumSquare = g.builder.reduceSumSquare(u, axes({0}));
  auto big = g.input("big", {T::Int64, {2}},
                     std::vector<int64_t>{9007199254740993LL, 1});  // 2^53 + 1: not a double
  auto bigSum = g.builder.reduceSum(big);
  auto results = g.runAll({{"sum", sum},
                           {"l1", l1},
                           {"product", product},
                           {"max", max},
                           {"umin", umin},
                           {"usq", usumSquare},
                           {"big", bigSum}});
  EXPECT_EQ(results["sum"], raw(I32{-4, static_cast<int32_t>(0x80000000u)}));  // wraps
  EXPECT_EQ(results["l1"], raw(I32{static_cast<int32_t>(0x80000006u), 4}));
  EXPECT_EQ(results["product"], raw(I32{static_cast<int32_t>(-7LL * 2147483647LL), 3}));
  EXPECT_EQ(results["max"], raw(I32{2147483647}));
  EXPECT_EQ(results["umin"], raw(std::vector<uint32_t>{5}));
  const uint32_t square = static_cast<uint32_t>(4000000000ull * 4000000000ull);
  EXPECT_EQ(results["usq"], raw(std::vector<uint32_t>{square + 25u + 36u}));
  EXPECT_EQ(results["big"], raw(std::vector<int64_t>{9007199254740994LL}));
}

WEBNN_BACKEND_TEST(ReductionReduce, MinOnInt8) {
  Graph g;
  auto x = g.input("x", {T::Int8, {4}}, std::vector<int8_t>{-128, 5, 127, 0});
  auto y = g.builder.reduceMin(x);
  EXPECT_EQ(g.runAs<int8_t>(y), (std::vector<int8_t>{-128}));
}

WEBNN_BACKEND_TEST(ReductionReduce, NaNPropagatesThroughMax) {
  Graph g;
  auto x = g.input("x", {T::Float32, {3}}, F32{1, NAN, 2});
  EXPECT_TRUE(std::isnan(g.runAs<float>(g.builder.reduceMax(x))[0]));
}

WEBNN_BACKEND_TEST(ReductionReduce, Errors) {
  Graph g;
  auto x = g.builder.input("x", {T::Float32, {2, 3}});
  auto i = g.builder.input("i", {T::Int32, {2}});
  auto i8 = g.builder.input("i8", {T::Int8, {2}});
  expectError([&] { g.builder.reduceSum(x, axes({2})); }, K::TypeError,
              {"reduceSum", "out of range"});
  expectError(
      [&] {
        g.builder.reduceMean(x, axes({1, 1}));
      },
      K::TypeError, {"reduceMean", "repeats"});
  MLReduceOptions labelled = axes({0});
  labelled.label = "r";
  expectError([&] { g.builder.reduceL2(i, labelled); }, K::TypeError, {"reduceL2 'r'", "int32"});
  expectError([&] { g.builder.reduceLogSumExp(i); }, K::TypeError, {"reduceLogSumExp", "int32"});
  expectError([&] { g.builder.reduceSum(i8); }, K::TypeError, {"reduceSum", "int8"});
  EXPECT_EQ(g.builder.reduceMax(i8).shape(), Shape{});
}

// ---- argMin / argMax ----

WEBNN_BACKEND_TEST(ReductionArgMinMax, FirstIndexOnTies) {
  Graph g;
  auto x = g.input("x", {T::Float32, {2, 4}}, F32{1, 5, 5, 0, 3, 3, -1, -1});
  auto maxRows = g.builder.argMax(x, 1);
  auto minRows = g.builder.argMin(x, 1);
  MLArgMinMaxOptions options;
  options.keepDimensions = true;
  options.outputDataType = T::Int64;
  auto maxColumns = g.builder.argMax(x, 0, options);
  EXPECT_EQ(maxRows.shape(), (Shape{2}));
  EXPECT_EQ(maxRows.dataType(), T::Int32);
  EXPECT_EQ(maxColumns.shape(), (Shape{1, 4}));
  EXPECT_EQ(maxColumns.dataType(), T::Int64);
  auto results = g.runAll({{"maxRows", maxRows}, {"minRows", minRows}, {"maxCols", maxColumns}});
  EXPECT_EQ(results["maxRows"], raw(I32{1, 0}));
  EXPECT_EQ(results["minRows"], raw(I32{3, 2}));
  EXPECT_EQ(results["maxCols"], raw(std::vector<int64_t>{1, 0, 0, 0}));
}

WEBNN_BACKEND_TEST(ReductionArgMinMax, IntegerAndFloat16Inputs) {
  Graph g;
  auto x = g.input("x", {T::Uint32, {3}}, std::vector<uint32_t>{7, 4000000000u, 3});
  auto h = g.input("h", {T::Float16, {3}}, halves({0.5f, -2, -2}));
  auto results = g.runAll({{"x", g.builder.argMax(x, 0)}, {"h", g.builder.argMin(h, 0)}});
  EXPECT_EQ(results["x"], raw(I32{1}));
  EXPECT_EQ(results["h"], raw(I32{1}));
}

WEBNN_BACKEND_TEST(ReductionArgMinMax, Errors) {
  Graph g;
  auto x = g.builder.input("x", {T::Float32, {2, 3}});
  auto s = g.builder.input("s", {T::Float32, {}});
  expectError([&] { g.builder.argMax(x, 2); }, K::TypeError, {"argMax", "axis 2"});
  expectError([&] { g.builder.argMin(s, 0); }, K::TypeError, {"argMin", "rank"});
  MLArgMinMaxOptions options;
  options.outputDataType = T::Uint32;
  options.label = "a";
  expectError([&] { g.builder.argMin(x, 0, options); }, K::TypeError,
              {"argMin 'a'", "outputDataType", "uint32"});
}

// ---- cumulativeSum ----

WEBNN_BACKEND_TEST(ReductionCumulativeSum, EveryDirection) {
  Graph g;
  auto x = g.input("x", {T::Float32, {4}}, F32{1, 2, 3, 4});
  auto& b = g.builder;
  auto results = g.runAll({{"f", b.cumulativeSum(x, 0)},
                           {"e", b.cumulativeSum(x, 0, MLCumulativeSumOptions{{}, true, false})},
                           {"r", b.cumulativeSum(x, 0, MLCumulativeSumOptions{{}, false, true})},
                           {"er", b.cumulativeSum(x, 0, MLCumulativeSumOptions{{}, true, true})}});
  EXPECT_EQ(results["f"], raw(F32{1, 3, 6, 10}));
  EXPECT_EQ(results["e"], raw(F32{0, 1, 3, 6}));
  EXPECT_EQ(results["r"], raw(F32{10, 9, 7, 4}));
  EXPECT_EQ(results["er"], raw(F32{9, 7, 4, 0}));
}

WEBNN_BACKEND_TEST(ReductionCumulativeSum, InnerAxisInt32AndFloat16) {
  Graph g;
  auto x = g.input("x", {T::Int32, {2, 3}}, I32{1, 2, 3, 4, 5, 6});
  auto y = g.builder.cumulativeSum(x, 0);
  auto z = g.builder.cumulativeSum(x, 1, MLCumulativeSumOptions{{}, false, true});
  auto h = g.input("h", {T::Float16, {3}}, halves({0.5f, 0.25f, -1}));
  auto w = g.builder.cumulativeSum(h, 0);
  auto results = g.runAll({{"y", y}, {"z", z}, {"w", w}});
  EXPECT_EQ(results["y"], raw(I32{1, 2, 3, 5, 7, 9}));
  EXPECT_EQ(results["z"], raw(I32{6, 5, 3, 15, 11, 6}));
  EXPECT_EQ(results["w"], raw(halves({0.5f, 0.75f, -0.25f})));
}

WEBNN_BACKEND_TEST(ReductionCumulativeSum, Errors) {
  Graph g;
  auto x = g.builder.input("x", {T::Float32, {2, 3}});
  auto s = g.builder.input("s", {T::Float32, {}});
  expectError(
      [&] {
        g.builder.cumulativeSum(x, 2, MLCumulativeSumOptions{{"c"}, false, false});
      },
      K::TypeError, {"cumulativeSum 'c'", "axis 2"});
  expectError([&] { g.builder.cumulativeSum(s, 0); }, K::TypeError, {"cumulativeSum", "rank"});
}

WEBNN_BACKEND_TEST(Reduction, AppearInOpSupportLimits) {
  MLContext context = testing::createTestContext();
  WEBNN_REQUIRE_SPEC_LIMITS(context);
  auto limits = context.opSupportLimits();
  for (const char* op : {"reduceL1", "reduceL2", "reduceLogSum", "reduceLogSumExp", "reduceMax",
                         "reduceMean", "reduceMin", "reduceProduct", "reduceSum", "reduceSumSquare",
                         "argMin", "argMax", "cumulativeSum"}) {
    EXPECT_TRUE(limits.ops.count(op)) << op;
  }
  EXPECT_TRUE(limits.ops.at("reduceSum").at("input").supports(T::Uint32));
  EXPECT_FALSE(limits.ops.at("reduceMean").at("input").supports(T::Int32));
  EXPECT_TRUE(limits.ops.at("argMax").at("output").supports(T::Int64));
}

}  // namespace
}  // namespace webnn
