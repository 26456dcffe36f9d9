// Shape and data movement ops: reshape, transpose, concat, split, slice, expand, pad, tile,
// reverse, triangular. Values (float32, float16, integer and int4 types), shape inference and the
// error paths.
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

// 0..n-1 as floats.
F32 iota(size_t n) {
  F32 values(n);
  for (size_t i = 0; i < n; ++i) values[i] = static_cast<float>(i);
  return values;
}

// ---- reshape ----

WEBNN_BACKEND_TEST(ShapeOpsReshape, KeepsDataInNewShape) {
  Graph g;
  auto x = g.input("x", {T::Float32, {2, 3}}, iota(6));
  auto y = g.builder.reshape(x, {3, 1, 2});
  EXPECT_EQ(y.shape(), (Shape{3, 1, 2}));
  EXPECT_EQ(g.runAs<float>(y), iota(6));
}

WEBNN_BACKEND_TEST(ShapeOpsReshape, ScalarToOneElementAndBack) {
  Graph g;
  auto x = g.input("x", {T::Int64, {}}, std::vector<int64_t>{-7});
  auto y = g.builder.reshape(g.builder.reshape(x, {1, 1}), {});
  EXPECT_EQ(y.shape(), Shape{});
  EXPECT_EQ(g.runAs<int64_t>(y), (std::vector<int64_t>{-7}));
}

WEBNN_BACKEND_TEST(ShapeOpsReshape, Errors) {
  Graph g;
  auto x = g.builder.input("x", {T::Float32, {2, 3}});
  expectError([&] { g.builder.reshape(x, {4, 2}); }, K::TypeError, {"reshape", "newShape"});
  expectError([&] { g.builder.reshape(x, {6, 0}); }, K::TypeError, {"reshape", "0"});
  expectError(
      [&] {
        g.builder.reshape(x, {0xffffffffu, 0xffffffffu, 2});
      },
      K::TypeError, {"reshape"});
  expectError(
      [&] {
        g.builder.reshape(x, {1, 1, 1, 1, 1, 1, 1, 1, 6}, {.label = "r"});
      },
      K::TypeError, {"reshape 'r'", "rank"});
}

// ---- transpose ----

WEBNN_BACKEND_TEST(ShapeOpsTranspose, DefaultReversesAxes) {
  Graph g;
  auto x = g.input("x", {T::Float32, {2, 3}}, iota(6));
  auto y = g.builder.transpose(x);
  EXPECT_EQ(y.shape(), (Shape{3, 2}));
  EXPECT_EQ(g.runAs<float>(y), (F32{0, 3, 1, 4, 2, 5}));
}

WEBNN_BACKEND_TEST(ShapeOpsTranspose, PermutationOnRank3Float16) {
  Graph g;
  // x[a][b][c] = 100a + 10b + c, shape [2, 2, 3]; permutation [1, 2, 0] -> [2, 3, 2].
  F32 data;
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 2; ++b)
      for (int c = 0; c < 3; ++c) data.push_back(static_cast<float>(100 * a + 10 * b + c));
  auto x = g.input("x", {T::Float16, {2, 2, 3}}, halves(data));
  auto y = g.builder.transpose(x, MLTransposeOptions{{}, Shape{1, 2, 0}});
  EXPECT_EQ(y.shape(), (Shape{2, 3, 2}));
  F32 expected;
  for (int b = 0; b < 2; ++b)
    for (int c = 0; c < 3; ++c)
      for (int a = 0; a < 2; ++a) expected.push_back(static_cast<float>(100 * a + 10 * b + c));
  EXPECT_EQ(g.runAs<uint16_t>(y), halves(expected));
}

WEBNN_BACKEND_TEST(ShapeOpsTranspose, Errors) {
  Graph g;
  auto x = g.builder.input("x", {T::Float32, {2, 3}});
  expectError(
      [&] {
        g.builder.transpose(x, MLTransposeOptions{{"t"}, Shape{0}});
      },
      K::TypeError, {"transpose 't'", "permutation"});
  expectError(
      [&] {
        g.builder.transpose(x, MLTransposeOptions{{}, Shape{0, 0}});
      },
      K::TypeError, {"transpose", "repeats"});
  expectError(
      [&] {
        g.builder.transpose(x, MLTransposeOptions{{}, Shape{0, 2}});
      },
      K::TypeError, {"transpose", "out of range"});
}

// ---- concat ----

WEBNN_BACKEND_TEST(ShapeOpsConcat, AlongMiddleAxis) {
  Graph g;
  auto a = g.input("a", {T::Float32, {2, 1, 2}}, F32{1, 2, 3, 4});
  auto b = g.input("b", {T::Float32, {2, 2, 2}}, F32{5, 6, 7, 8, 9, 10, 11, 12});
  auto y = g.builder.concat({a, b}, 1);
  EXPECT_EQ(y.shape(), (Shape{2, 3, 2}));
  EXPECT_EQ(g.runAs<float>(y), (F32{1, 2, 5, 6, 7, 8, 3, 4, 9, 10, 11, 12}));
}

WEBNN_BACKEND_TEST(ShapeOpsConcat, Int4AndSingleInput) {
  Graph g;
  auto a = g.input("a", {T::Int4, {3}}, nibbles({-8, 7, 1}));
  auto b = g.input("b", {T::Int4, {2}}, nibbles({-1, 2}));
  auto y = g.builder.concat({a, b, a}, 0);
  EXPECT_EQ(y.shape(), (Shape{8}));
  auto bytes = g.runAll({{"out", y}}).at("out");
  EXPECT_EQ(bytes, nibbles({-8, 7, 1, -1, 2, -8, 7, 1}));
}

WEBNN_BACKEND_TEST(ShapeOpsConcat, Errors) {
  Graph g;
  auto a = g.builder.input("a", {T::Float32, {2, 3}});
  auto b = g.builder.input("b", {T::Float32, {3, 3}});
  auto c = g.builder.input("c", {T::Float16, {2, 3}});
  auto s = g.builder.input("s", {T::Float32, {}});
  expectError([&] { g.builder.concat({}, 0); }, K::TypeError, {"concat", "empty"});
  expectError([&] { g.builder.concat({a, b}, 1); }, K::TypeError, {"concat", "dimension 0"});
  expectError([&] { g.builder.concat({a, c}, 0); }, K::TypeError, {"concat", "data type"});
  expectError([&] { g.builder.concat({a, b}, 2); }, K::TypeError, {"concat", "axis 2"});
  expectError([&] { g.builder.concat({s}, 0); }, K::TypeError, {"concat", "rank"});
  EXPECT_EQ(g.builder.concat({a, b}, 0).shape(), (Shape{5, 3}));
}

// ---- split ----

WEBNN_BACKEND_TEST(ShapeOpsSplit, EvenCountAndSizes) {
  Graph g;
  auto x = g.input("x", {T::Int32, {2, 4}}, std::vector<int32_t>{0, 1, 2, 3, 4, 5, 6, 7});
  auto even = g.builder.split(x, 2, MLSplitOptions{{}, 1});
  ASSERT_EQ(even.size(), 2u);
  EXPECT_EQ(even[0].shape(), (Shape{2, 2}));
  auto sized = g.builder.split(x, Shape{1, 3}, MLSplitOptions{{}, 1});
  ASSERT_EQ(sized.size(), 2u);
  EXPECT_EQ(sized[1].shape(), (Shape{2, 3}));
  auto results = g.runAll({{"e0", even[0]}, {"e1", even[1]}, {"s0", sized[0]}, {"s1", sized[1]}});
  EXPECT_EQ(results["e0"], raw(std::vector<int32_t>{0, 1, 4, 5}));
  EXPECT_EQ(results["e1"], raw(std::vector<int32_t>{2, 3, 6, 7}));
  EXPECT_EQ(results["s0"], raw(std::vector<int32_t>{0, 4}));
  EXPECT_EQ(results["s1"], raw(std::vector<int32_t>{1, 2, 3, 5, 6, 7}));
}

WEBNN_BACKEND_TEST(ShapeOpsSplit, Errors) {
  Graph g;
  auto x = g.builder.input("x", {T::Float32, {2, 6}});
  expectError(
      [&] {
        g.builder.split(x, 4, MLSplitOptions{{}, 1});
      },
      K::TypeError, {"split", "divide"});
  expectError([&] { g.builder.split(x, 0u); }, K::TypeError, {"split", "0"});
  expectError(
      [&] {
        g.builder.split(x, Shape{2, 3}, MLSplitOptions{{}, 1});
      },
      K::TypeError, {"split", "sum to 5"});
  expectError(
      [&] {
        g.builder.split(x, Shape{6, 0}, MLSplitOptions{{}, 1});
      },
      K::TypeError, {"split", "value of 0"});
  expectError(
      [&] {
        g.builder.split(x, 2, MLSplitOptions{{}, 2});
      },
      K::TypeError, {"split", "axis 2"});
}

// A count that divides a dimension that large is refused before any output is made (found by
// builder_api_fuzzer as a 16 GiB allocation of output sizes).
WEBNN_BACKEND_TEST(ShapeOpsSplit, MoreOutputsThanTheLimit) {
  Graph g;
  auto x = g.builder.input("x", {T::Uint8, {131072}});
  expectError([&] { g.builder.split(x, 131072u); }, K::TypeError,
              {"split", "131072", "65536 outputs"});
  auto y = g.builder.input("y", {T::Uint8, {65537}});
  expectError([&] { g.builder.split(y, Shape(65537, 1)); }, K::TypeError,
              {"split", "65537 sizes", "65536 outputs"});
  EXPECT_EQ(g.builder.split(x, 65536u).size(), 65536u);
}

// ---- slice ----

WEBNN_BACKEND_TEST(ShapeOpsSlice, StartsSizesAndStrides) {
  Graph g;
  auto x = g.input("x", {T::Float32, {3, 4}}, iota(12));
  auto plain = g.builder.slice(x, {1, 1}, {2, 2});
  EXPECT_EQ(plain.shape(), (Shape{2, 2}));
  auto strided = g.builder.slice(x, {0, 1}, {3, 3}, MLSliceOptions{{}, {2, 2}});
  EXPECT_EQ(strided.shape(), (Shape{2, 2}));
  auto results = g.runAll({{"p", plain}, {"s", strided}});
  EXPECT_EQ(results["p"], raw(F32{5, 6, 9, 10}));
  EXPECT_EQ(results["s"], raw(F32{1, 3, 9, 11}));
}

WEBNN_BACKEND_TEST(ShapeOpsSlice, Uint4) {
  Graph g;
  auto x = g.input("x", {T::Uint4, {5}}, nibbles({1, 2, 3, 4, 15}));
  auto y = g.builder.slice(x, {1}, {4});
  EXPECT_EQ(g.runAll({{"out", y}}).at("out"), nibbles({2, 3, 4, 15}));
}

WEBNN_BACKEND_TEST(ShapeOpsSlice, Errors) {
  Graph g;
  auto x = g.builder.input("x", {T::Float32, {3, 4}});
  expectError([&] { g.builder.slice(x, {0}, {1, 1}); }, K::TypeError, {"slice", "starts"});
  expectError([&] { g.builder.slice(x, {0, 0}, {1, 0}); }, K::TypeError, {"slice", "sizes[1]"});
  expectError([&] { g.builder.slice(x, {2, 0}, {2, 1}); }, K::TypeError, {"slice", "exceeds"});
  expectError([&] { g.builder.slice(x, {3, 0}, {1, 1}); }, K::TypeError, {"slice", "out of range"});
  expectError(
      [&] {
        g.builder.slice(x, {0, 0}, {1, 1}, MLSliceOptions{{}, {1, 0}});
      },
      K::TypeError, {"slice", "strides[1]"});
  expectError(
      [&] {
        g.builder.slice(x, {0, 0}, {1, 1}, MLSliceOptions{{}, {1}});
      },
      K::TypeError, {"slice", "strides"});
}

// ---- expand ----

WEBNN_BACKEND_TEST(ShapeOpsExpand, BroadcastsToNewShape) {
  Graph g;
  auto x = g.input("x", {T::Float32, {2, 1}}, F32{1, 2});
  auto y = g.builder.expand(x, {2, 2, 3});
  EXPECT_EQ(y.shape(), (Shape{2, 2, 3}));
  EXPECT_EQ(g.runAs<float>(y), (F32{1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2}));
}

WEBNN_BACKEND_TEST(ShapeOpsExpand, ScalarUint8) {
  Graph g;
  auto x = g.input("x", {T::Uint8, {}}, std::vector<uint8_t>{9});
  auto y = g.builder.expand(x, {3});
  EXPECT_EQ(g.runAs<uint8_t>(y), (std::vector<uint8_t>{9, 9, 9}));
}

WEBNN_BACKEND_TEST(ShapeOpsExpand, Errors) {
  Graph g;
  auto x = g.builder.input("x", {T::Float32, {2, 3}});
  expectError([&] { g.builder.expand(x, {3, 3}); }, K::TypeError, {"expand", "broadcastable"});
  expectError([&] { g.builder.expand(x, {3}); }, K::TypeError, {"expand", "broadcastable"});
  expectError([&] { g.builder.expand(x, {0, 3}); }, K::TypeError, {"expand", "0"});
}

// ---- pad ----

WEBNN_BACKEND_TEST(ShapeOpsPad, EveryMode) {
  Graph g;
  auto x = g.input("x", {T::Float32, {2, 3}}, F32{1, 2, 3, 4, 5, 6});
  const Shape begin{1, 2};
  const Shape end{1, 2};
  auto constant = g.builder.pad(x, begin, end, MLPadOptions{{}, MLPaddingMode::Constant, 9});
  EXPECT_EQ(constant.shape(), (Shape{4, 7}));
  auto edge = g.builder.pad(x, begin, end, MLPadOptions{{}, MLPaddingMode::Edge, 0});
  auto reflection = g.builder.pad(x, begin, end, MLPadOptions{{}, MLPaddingMode::Reflection, 0});
  auto symmetric = g.builder.pad(x, begin, end, MLPadOptions{{}, MLPaddingMode::Symmetric, 0});
  auto results = g.runAll({{"c", constant}, {"e", edge}, {"r", reflection}, {"s", symmetric}});
  EXPECT_EQ(results["c"], raw(F32{9, 9, 9, 9, 9, 9, 9,  //
                                  9, 9, 1, 2, 3, 9, 9,  //
                                  9, 9, 4, 5, 6, 9, 9,  //
                                  9, 9, 9, 9, 9, 9, 9}));
  EXPECT_EQ(results["e"], raw(F32{1, 1, 1, 2, 3, 3, 3,  //
                                  1, 1, 1, 2, 3, 3, 3,  //
                                  4, 4, 4, 5, 6, 6, 6,  //
                                  4, 4, 4, 5, 6, 6, 6}));
  // The spec's example.
  EXPECT_EQ(results["r"], raw(F32{6, 5, 4, 5, 6, 5, 4,  //
                                  3, 2, 1, 2, 3, 2, 1,  //
                                  6, 5, 4, 5, 6, 5, 4,  //
                                  3, 2, 1, 2, 3, 2, 1}));
  EXPECT_EQ(results["s"], raw(F32{2, 1, 1, 2, 3, 3, 2,  //
                                  2, 1, 1, 2, 3, 3, 2,  //
                                  5, 4, 4, 5, 6, 6, 5,  //
                                  5, 4, 4, 5, 6, 6, 5}));
}

WEBNN_BACKEND_TEST(ShapeOpsPad, ValueIsCastToTheInputType) {
  Graph g;
  auto x = g.input("x", {T::Int8, {2}}, std::vector<int8_t>{-1, 1});
  auto y = g.builder.pad(x, {1}, {1}, MLPadOptions{{}, MLPaddingMode::Constant, 300.7});
  EXPECT_EQ(g.runAs<int8_t>(y), (std::vector<int8_t>{127, -1, 1, 127}));
  Graph h;
  auto half = h.input("x", {T::Float16, {1}}, halves({1.5f}));
  auto z = h.builder.pad(half, {2}, {0}, MLPadOptions{{}, MLPaddingMode::Constant, -0.25});
  EXPECT_EQ(h.runAs<uint16_t>(z), halves({-0.25f, -0.25f, 1.5f}));
}

WEBNN_BACKEND_TEST(ShapeOpsPad, Int64ValueBeyondDoublePrecisionIsExact) {
  Graph g;
  const int64_t value = (int64_t{1} << 62) + 1;  // not a double
  auto x = g.input("x", {T::Int64, {1}}, std::vector<int64_t>{5});
  auto y = g.builder.pad(x, {1}, {1}, MLPadOptions{{}, MLPaddingMode::Constant, value});
  EXPECT_EQ(g.runAs<int64_t>(y), (std::vector<int64_t>{value, 5, value}));
}

WEBNN_BACKEND_TEST(ShapeOpsPad, Errors) {
  Graph g;
  auto x = g.builder.input("x", {T::Float32, {2, 3}});
  auto s = g.builder.input("s", {T::Float32, {}});
  expectError([&] { g.builder.pad(x, {1}, {1, 1}); }, K::TypeError, {"pad", "beginningPadding"});
  expectError([&] { g.builder.pad(s, {}, {}); }, K::TypeError, {"pad", "rank"});
  expectError(
      [&] {
        g.builder.pad(x, {2, 0}, {0, 0}, MLPadOptions{{}, MLPaddingMode::Reflection, 0});
      },
      K::TypeError, {"pad", "reflection", "too large"});
  expectError(
      [&] {
        g.builder.pad(x, {0, 0}, {0, 4}, MLPadOptions{{}, MLPaddingMode::Symmetric, 0});
      },
      K::TypeError, {"pad", "symmetric"});
  expectError([&] { g.builder.pad(x, {0xffffffffu, 0}, {0, 0}); }, K::TypeError, {"pad"});
  EXPECT_EQ(g.builder.pad(x, {1, 3}, {1, 3}, MLPadOptions{{}, MLPaddingMode::Symmetric, 0}).shape(),
            (Shape{4, 9}));
}

// ---- tile ----

WEBNN_BACKEND_TEST(ShapeOpsTile, RepeatsEveryAxis) {
  Graph g;
  auto x = g.input("x", {T::Uint32, {2, 2}}, std::vector<uint32_t>{1, 2, 3, 4});
  auto y = g.builder.tile(x, {2, 3});
  EXPECT_EQ(y.shape(), (Shape{4, 6}));
  EXPECT_EQ(g.runAs<uint32_t>(y), (std::vector<uint32_t>{1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4,  //
                                                         1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4}));
}

WEBNN_BACKEND_TEST(ShapeOpsTile, Errors) {
  Graph g;
  auto x = g.builder.input("x", {T::Float32, {2, 2}});
  expectError([&] { g.builder.tile(x, {2}); }, K::TypeError, {"tile", "repetitions"});
  expectError([&] { g.builder.tile(x, {2, 0}); }, K::TypeError, {"tile", "0"});
  expectError([&] { g.builder.tile(x, {0x80000000u, 1}); }, K::TypeError, {"tile"});
}

// ---- reverse ----

WEBNN_BACKEND_TEST(ShapeOpsReverse, DefaultAllAxesAndSelectedAxes) {
  Graph g;
  auto x = g.input("x", {T::Float32, {2, 3}}, iota(6));
  auto all = g.builder.reverse(x);
  auto columns = g.builder.reverse(x, MLReverseOptions{{}, Shape{1}});
  auto none = g.builder.reverse(x, MLReverseOptions{{}, Shape{}});
  auto results = g.runAll({{"a", all}, {"c", columns}, {"n", none}});
  EXPECT_EQ(results["a"], raw(F32{5, 4, 3, 2, 1, 0}));
  EXPECT_EQ(results["c"], raw(F32{2, 1, 0, 5, 4, 3}));
  EXPECT_EQ(results["n"], raw(iota(6)));
}

WEBNN_BACKEND_TEST(ShapeOpsReverse, Errors) {
  Graph g;
  auto x = g.builder.input("x", {T::Float32, {2, 3}});
  expectError(
      [&] {
        g.builder.reverse(x, MLReverseOptions{{}, Shape{2}});
      },
      K::TypeError, {"reverse", "out of range"});
  expectError(
      [&] {
        g.builder.reverse(x, MLReverseOptions{{}, Shape{1, 1}});
      },
      K::TypeError, {"reverse", "repeats"});
}

// ---- triangular ----

WEBNN_BACKEND_TEST(ShapeOpsTriangular, UpperLowerAndDiagonals) {
  Graph g;
  auto x = g.input("x", {T::Float32, {3, 3}}, F32{1, 2, 3, 4, 5, 6, 7, 8, 9});
  auto upper = g.builder.triangular(x);
  auto lower = g.builder.triangular(x, MLTriangularOptions{{}, false, 0});
  auto upperShifted = g.builder.triangular(x, MLTriangularOptions{{}, true, 1});
  auto lowerShifted = g.builder.triangular(x, MLTriangularOptions{{}, false, -1});
  auto results = g.runAll({{"u", upper}, {"l", lower}, {"u1", upperShifted}, {"l1", lowerShifted}});
  EXPECT_EQ(results["u"], raw(F32{1, 2, 3, 0, 5, 6, 0, 0, 9}));
  EXPECT_EQ(results["l"], raw(F32{1, 0, 0, 4, 5, 0, 7, 8, 9}));
  EXPECT_EQ(results["u1"], raw(F32{0, 2, 3, 0, 0, 6, 0, 0, 0}));
  EXPECT_EQ(results["l1"], raw(F32{0, 0, 0, 4, 0, 0, 7, 8, 0}));
}

WEBNN_BACKEND_TEST(ShapeOpsTriangular, BatchedInt64) {
  Graph g;
  auto x = g.input("x", {T::Int64, {2, 2, 2}}, std::vector<int64_t>{1, 2, 3, 4, 5, 6, 7, 8});
  auto y = g.builder.triangular(x, MLTriangularOptions{{}, false, 0});
  EXPECT_EQ(g.runAs<int64_t>(y), (std::vector<int64_t>{1, 0, 3, 4, 5, 0, 7, 8}));
}

WEBNN_BACKEND_TEST(ShapeOpsTriangular, NeedsRank2) {
  Graph g;
  auto x = g.builder.input("x", {T::Float32, {3}});
  expectError(
      [&] {
        g.builder.triangular(x, MLTriangularOptions{{"tri"}, true, 0});
      },
      K::TypeError, {"triangular 'tri'", "rank"});
}

WEBNN_BACKEND_TEST(ShapeOps, AppearInOpSupportLimits) {
  MLContext context = testing::createTestContext();
  WEBNN_REQUIRE_SPEC_LIMITS(context);
  auto limits = context.opSupportLimits();
  for (const char* op : {"reshape", "transpose", "concat", "split", "slice", "expand", "pad",
                         "tile", "reverse", "triangular"}) {
    ASSERT_TRUE(limits.ops.count(op)) << op;
    const auto& operands = limits.ops.at(op);
    const auto& input = operands.count("input") ? operands.at("input") : operands.at("inputs");
    EXPECT_TRUE(input.supports(T::Int4)) << op;
  }
}

}  // namespace
}  // namespace webnn
