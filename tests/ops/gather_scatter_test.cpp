// gather, gatherElements, gatherND, scatterElements, scatterND: values with every index type,
// negative and out-of-range indices (wrap once, then clamp, as the WPT vectors expect), shape
// inference and the error paths.
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

// input [4, 3] = [[0, 1, 2], [10, 11, 12], [20, 21, 22], [30, 31, 32]] (the spec's examples).
const F32 kTable = {0, 1, 2, 10, 11, 12, 20, 21, 22, 30, 31, 32};

// ---- gather ----

WEBNN_BACKEND_TEST(GatherScatterGather, SpecExamples) {
  Graph g;
  auto x = g.input("x", {T::Float32, {4, 3}}, kTable);
  auto i1 = g.input("i1", {T::Uint32, {2}}, std::vector<uint32_t>{3, 1});
  auto i2 = g.input("i2", {T::Int64, {3}}, std::vector<int64_t>{2, 1, 1});
  auto i3 = g.input("i3", {T::Int32, {2, 2}}, I32{0, 1, 1, 2});
  auto y1 = g.builder.gather(x, i1);
  auto y2 = g.builder.gather(x, i2, MLGatherOptions{{}, 1});
  auto y3 = g.builder.gather(x, i3, MLGatherOptions{{}, 1});
  EXPECT_EQ(y1.shape(), (Shape{2, 3}));
  EXPECT_EQ(y2.shape(), (Shape{4, 3}));
  EXPECT_EQ(y3.shape(), (Shape{4, 2, 2}));
  auto results = g.runAll({{"y1", y1}, {"y2", y2}, {"y3", y3}});
  EXPECT_EQ(results["y1"], raw(F32{30, 31, 32, 10, 11, 12}));
  EXPECT_EQ(results["y2"], raw(F32{2, 1, 1, 12, 11, 11, 22, 21, 21, 32, 31, 31}));
  EXPECT_EQ(results["y3"], raw(F32{0, 1, 1, 2, 10, 11, 11, 12, 20, 21, 21, 22, 30, 31, 31, 32}));
}

WEBNN_BACKEND_TEST(GatherScatterGather, ScalarIndicesRemoveTheAxis) {
  Graph g;
  auto x = g.input("x", {T::Float32, {4, 3}}, kTable);
  auto i = g.input("i", {T::Int32, {}}, I32{2});
  auto y = g.builder.gather(x, i);
  EXPECT_EQ(y.shape(), (Shape{3}));
  EXPECT_EQ(g.runAs<float>(y), (F32{20, 21, 22}));
}

WEBNN_BACKEND_TEST(GatherScatterGather, NegativeWrapsOnceAndOutOfRangeClamps) {
  Graph g;
  auto x = g.input("x", {T::Int8, {2}}, std::vector<int8_t>{5, 6});
  auto i = g.input("i", {T::Int32, {5}}, I32{-1, -2, 10, -10, 1});
  auto y = g.builder.gather(x, i);
  EXPECT_EQ(g.runAs<int8_t>(y), (std::vector<int8_t>{6, 5, 6, 5, 6}));
}

WEBNN_BACKEND_TEST(GatherScatterGather, Float16AndInt4) {
  Graph g;
  auto x = g.input("x", {T::Float16, {3}}, halves({0.5f, -1.25f, 2}));
  auto i = g.input("i", {T::Uint32, {2}}, std::vector<uint32_t>{2, 0});
  EXPECT_EQ(g.runAs<uint16_t>(g.builder.gather(x, i)), halves({2, 0.5f}));
  Graph h;
  auto n = h.input("n", {T::Int4, {2, 3}}, nibbles({-8, -1, 0, 1, 2, 7}));
  auto j = h.input("j", {T::Int64, {3}}, std::vector<int64_t>{2, 2, 0});
  auto y = h.builder.gather(n, j, MLGatherOptions{{}, 1});
  EXPECT_EQ(h.runAll({{"out", y}}).at("out"), nibbles({0, 0, -8, 7, 7, 1}));
}

WEBNN_BACKEND_TEST(GatherScatterGather, Errors) {
  Graph g;
  auto x = g.builder.input("x", {T::Float32, {4, 3}});
  auto s = g.builder.input("s", {T::Float32, {}});
  auto f = g.builder.input("f", {T::Float32, {2}});
  auto i = g.builder.input("i", {T::Int32, {2}});
  auto u8 = g.builder.input("u8", {T::Uint8, {2}});
  expectError([&] { g.builder.gather(x, f); }, K::TypeError, {"gather", "indices", "float32"});
  expectError([&] { g.builder.gather(x, u8); }, K::TypeError, {"gather", "indices"});
  expectError(
      [&] {
        g.builder.gather(x, i, MLGatherOptions{{"g"}, 2});
      },
      K::TypeError, {"gather 'g'", "axis 2"});
  expectError([&] { g.builder.gather(s, i); }, K::TypeError, {"gather", "rank"});
}

// ---- gatherElements ----

WEBNN_BACKEND_TEST(GatherScatterGatherElements, SpecExamples) {
  Graph g;
  auto x = g.input("x", {T::Float32, {4, 3}}, kTable);
  auto i1 = g.input("i1", {T::Uint32, {2, 3}}, std::vector<uint32_t>{3, 1, 1, 2, 0, 3});
  auto i2 = g.input("i2", {T::Int32, {4, 1}}, I32{2, 1, 0, -1});
  auto y1 = g.builder.gatherElements(x, i1);
  auto y2 = g.builder.gatherElements(x, i2, MLGatherOptions{{}, 1});
  EXPECT_EQ(y1.shape(), (Shape{2, 3}));
  EXPECT_EQ(y2.shape(), (Shape{4, 1}));
  auto results = g.runAll({{"y1", y1}, {"y2", y2}});
  EXPECT_EQ(results["y1"], raw(F32{30, 11, 12, 20, 1, 32}));
  EXPECT_EQ(results["y2"], raw(F32{2, 11, 20, 32}));
}

WEBNN_BACKEND_TEST(GatherScatterGatherElements, Errors) {
  Graph g;
  auto x = g.builder.input("x", {T::Float32, {4, 3}});
  auto rank1 = g.builder.input("r", {T::Int32, {4}});
  auto wrong = g.builder.input("w", {T::Int32, {2, 2}});
  expectError([&] { g.builder.gatherElements(x, rank1); }, K::TypeError,
              {"gatherElements", "rank"});
  expectError([&] { g.builder.gatherElements(x, wrong); }, K::TypeError,
              {"gatherElements", "dimension 1"});
  expectError(
      [&] {
        g.builder.gatherElements(x, wrong, MLGatherOptions{{}, 3});
      },
      K::TypeError, {"gatherElements", "axis 3"});
}

// ---- gatherND ----

WEBNN_BACKEND_TEST(GatherScatterGatherND, SpecExamples) {
  Graph g;
  auto x = g.input("x", {T::Float32, {2, 2, 2}}, F32{0, 1, 2, 3, 4, 5, 6, 7});
  auto i1 = g.input("i1", {T::Int32, {2, 2}}, I32{0, 1, 1, 0});
  auto i2 = g.input("i2", {T::Uint32, {3, 1}}, std::vector<uint32_t>{1, 0, 1});
  auto i3 = g.input("i3", {T::Int64, {5, 3}},
                    std::vector<int64_t>{0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1, 0, -1, -1, -1});
  auto y1 = g.builder.gatherND(x, i1);
  auto y2 = g.builder.gatherND(x, i2);
  auto y3 = g.builder.gatherND(x, i3);
  EXPECT_EQ(y1.shape(), (Shape{2, 2}));
  EXPECT_EQ(y2.shape(), (Shape{3, 2, 2}));
  EXPECT_EQ(y3.shape(), (Shape{5}));
  auto results = g.runAll({{"y1", y1}, {"y2", y2}, {"y3", y3}});
  EXPECT_EQ(results["y1"], raw(F32{2, 3, 4, 5}));
  EXPECT_EQ(results["y2"], raw(F32{4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(results["y3"], raw(F32{1, 2, 4, 6, 7}));
}

WEBNN_BACKEND_TEST(GatherScatterGatherND, Errors) {
  Graph g;
  auto x = g.builder.input("x", {T::Float32, {2, 2}});
  auto tooLong = g.builder.input("i", {T::Int32, {1, 3}});
  auto scalar = g.builder.input("s", {T::Int32, {}});
  expectError([&] { g.builder.gatherND(x, tooLong); }, K::TypeError,
              {"gatherND", "exceeds the rank"});
  expectError([&] { g.builder.gatherND(x, scalar); }, K::TypeError, {"gatherND", "rank"});
}

// ---- scatterElements ----

WEBNN_BACKEND_TEST(GatherScatterScatterElements, AlongBothAxes) {
  Graph g;
  auto x = g.input("x", {T::Float32, {3, 3}}, F32(9, 0));
  auto i = g.input("i", {T::Int32, {2, 3}}, I32{1, 0, 2, 0, 2, 1});
  auto u = g.input("u", {T::Float32, {2, 3}}, F32{1, 1.5f, 1.25f, 2, 2.5f, 2.25f});
  auto y = g.builder.scatterElements(x, i, u);
  EXPECT_EQ(y.shape(), (Shape{3, 3}));
  auto row = g.input("row", {T::Float32, {1, 5}}, F32{1, 2, 3, 4, 5});
  auto j = g.input("j", {T::Int64, {1, 2}}, std::vector<int64_t>{1, -2});
  auto v = g.input("v", {T::Float32, {1, 2}}, F32{10, 20});
  auto z = g.builder.scatterElements(row, j, v, MLScatterOptions{{}, 1});
  auto results = g.runAll({{"y", y}, {"z", z}});
  EXPECT_EQ(results["y"], raw(F32{2, 1.5f, 0, 1, 0, 2.25f, 0, 2.5f, 1.25f}));
  EXPECT_EQ(results["z"], raw(F32{1, 10, 3, 20, 5}));
}

WEBNN_BACKEND_TEST(GatherScatterScatterElements, Errors) {
  Graph g;
  auto x = g.builder.input("x", {T::Float32, {3, 3}});
  auto i = g.builder.input("i", {T::Int32, {2, 3}});
  auto u = g.builder.input("u", {T::Float32, {2, 2}});
  auto u16 = g.builder.input("u16", {T::Float16, {2, 3}});
  auto good = g.builder.input("g", {T::Float32, {2, 3}});
  expectError([&] { g.builder.scatterElements(x, i, u); }, K::TypeError,
              {"scatterElements", "updates"});
  expectError([&] { g.builder.scatterElements(x, i, u16); }, K::TypeError,
              {"scatterElements", "data type"});
  expectError(
      [&] {
        g.builder.scatterElements(x, i, good, MLScatterOptions{{}, 1});
      },
      K::TypeError, {"scatterElements", "dimension 0"});
}

// ---- scatterND ----

WEBNN_BACKEND_TEST(GatherScatterScatterND, ElementsAndSlices) {
  Graph g;
  auto x = g.input("x", {T::Int32, {8}}, I32{1, 2, 3, 4, 5, 6, 7, 8});
  auto i = g.input("i", {T::Int32, {4, 1}}, I32{4, 3, 1, 7});
  auto u = g.input("u", {T::Int32, {4}}, I32{9, 10, 11, 12});
  auto y = g.builder.scatterND(x, i, u);
  auto m = g.input("m", {T::Float32, {3, 2}}, F32{1, 2, 3, 4, 5, 6});
  auto j = g.input("j", {T::Uint32, {1, 1}}, std::vector<uint32_t>{2});
  auto v = g.input("v", {T::Float32, {1, 2}}, F32{-1, -2});
  auto z = g.builder.scatterND(m, j, v);
  auto results = g.runAll({{"y", y}, {"z", z}});
  EXPECT_EQ(results["y"], raw(I32{1, 11, 3, 10, 9, 6, 7, 12}));
  EXPECT_EQ(results["z"], raw(F32{1, 2, 3, 4, -1, -2}));
}

WEBNN_BACKEND_TEST(GatherScatterScatterND, Errors) {
  Graph g;
  auto x = g.builder.input("x", {T::Float32, {3, 2}});
  auto i = g.builder.input("i", {T::Int32, {2, 1}});
  auto wrong = g.builder.input("w", {T::Float32, {2}});
  auto tooLong = g.builder.input("t", {T::Int32, {2, 3}});
  auto u = g.builder.input("u", {T::Float32, {2, 2}});
  expectError([&] { g.builder.scatterND(x, i, wrong); }, K::TypeError,
              {"scatterND", "updates", "[2, 2]"});
  expectError([&] { g.builder.scatterND(x, tooLong, u); }, K::TypeError,
              {"scatterND", "exceeds the rank"});
}

}  // namespace
}  // namespace webnn
