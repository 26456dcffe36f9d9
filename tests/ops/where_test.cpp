// where: selection by a uint8 condition (non-zero is true), three-way broadcasting, every value
// type (int4 too), and the error paths.
#include <cstring>
#include <limits>

#include "core/float16.h"
#include "ops/typed_graph.h"
#include "test_helpers.h"

namespace webnn {
namespace {

using testing::expectError;
using K = Error::Kind;
using T = MLOperandDataType;

using testing::Graph;
using testing::halves;
using testing::nibbles;
using testing::raw;

using U8 = std::vector<uint8_t>;
using Shape = std::vector<uint32_t>;

WEBNN_BACKEND_TEST(Where, SameShapes) {
  Graph g;
  auto c = g.input("c", {T::Uint8, {4}}, U8{1, 0, 2, 0});
  auto t = g.input("t", {T::Float32, {4}}, std::vector<float>{1, 2, 3, 4});
  auto f = g.input("f", {T::Float32, {4}}, std::vector<float>{-1, -2, -3, -4});
  auto out = g.builder.where(c, t, f);
  EXPECT_EQ(out.dataType(), T::Float32);
  EXPECT_EQ(out.shape(), (Shape{4}));
  EXPECT_EQ(g.runAs<float>(out), (std::vector<float>{1, -2, 3, -4}));
}

WEBNN_BACKEND_TEST(Where, ThreeWayBroadcasting) {
  // condition [2, 1, 1], trueValue [3], falseValue [1, 2, 1] -> [2, 2, 3]
  Graph g;
  auto c = g.input("c", {T::Uint8, {2, 1, 1}}, U8{1, 0});
  auto t = g.input("t", {T::Int32, {3}}, std::vector<int32_t>{1, 2, 3});
  auto f = g.input("f", {T::Int32, {1, 2, 1}}, std::vector<int32_t>{-7, -8});
  auto out = g.builder.where(c, t, f);
  EXPECT_EQ(out.shape(), (Shape{2, 2, 3}));
  EXPECT_EQ(g.runAs<int32_t>(out),
            (std::vector<int32_t>{1, 2, 3, 1, 2, 3, -7, -7, -7, -8, -8, -8}));
}

WEBNN_BACKEND_TEST(Where, ConditionLargerThanValues) {
  Graph g;
  auto c = g.input("c", {T::Uint8, {2, 3}}, U8{1, 0, 1, 0, 1, 0});
  auto t = g.input("t", {T::Float32, {}}, std::vector<float>{9});
  auto f = g.input("f", {T::Float32, {3}}, std::vector<float>{1, 2, 3});
  auto out = g.builder.where(c, t, f);
  EXPECT_EQ(out.shape(), (Shape{2, 3}));
  EXPECT_EQ(g.runAs<float>(out), (std::vector<float>{9, 2, 9, 1, 9, 3}));
}

WEBNN_BACKEND_TEST(Where, ScalarsOnly) {
  Graph g;
  auto c = g.input("c", {T::Uint8, {}}, U8{0});
  auto t = g.input("t", {T::Int64, {}}, std::vector<int64_t>{std::numeric_limits<int64_t>::max()});
  auto f = g.input("f", {T::Int64, {}}, std::vector<int64_t>{std::numeric_limits<int64_t>::min()});
  auto out = g.builder.where(c, t, f);
  EXPECT_EQ(out.shape(), Shape{});
  EXPECT_EQ(g.runAs<int64_t>(out), (std::vector<int64_t>{std::numeric_limits<int64_t>::min()}));
}

WEBNN_BACKEND_TEST(Where, Float16AndSmallIntegers) {
  {
    Graph g;
    auto c = g.input("c", {T::Uint8, {3}}, U8{0, 1, 255});
    auto t = g.input("t", {T::Float16, {3}}, halves({0.5f, 1.5f, 2.5f}));
    auto f = g.input("f", {T::Float16, {1}}, halves({-65504.0f}));
    EXPECT_EQ(
        g.runAs<uint16_t>(g.builder.where(c, t, f)),
        (std::vector<uint16_t>{floatToHalf(-65504.0f), floatToHalf(1.5f), floatToHalf(2.5f)}));
  }
  {
    Graph g;
    auto c = g.input("c", {T::Uint8, {2}}, U8{1, 0});
    auto t = g.input("t", {T::Uint8, {2}}, U8{200, 201});
    auto f = g.input("f", {T::Uint8, {2}}, U8{3, 4});
    EXPECT_EQ(g.runAs<uint8_t>(g.builder.where(c, t, f)), (U8{200, 4}));
  }
}

WEBNN_BACKEND_TEST(Where, Int4ValuesStayPacked) {
  Graph g;
  auto c = g.input("c", {T::Uint8, {3}}, U8{1, 0, 1});
  auto t = g.input("t", {T::Int4, {3}}, nibbles({-8, 7, -1}));
  auto f = g.input("f", {T::Int4, {}}, nibbles({3}));
  auto bytes = g.run(g.builder.where(c, t, f));
  ASSERT_EQ(bytes.size(), 2u);
  EXPECT_EQ(bytes, nibbles({-8, 3, -1}));
}

WEBNN_BACKEND_TEST(Where, ConditionFromAComparison) {
  // relu by where(greater(x, 0), x, 0).
  Graph g;
  auto x = g.input("x", {T::Float32, {4}}, std::vector<float>{-2, -0.5f, 0, 3});
  auto zero = g.builder.constant(T::Float32, 0);
  auto out = g.builder.where(g.builder.greater(x, zero), x, zero);
  EXPECT_EQ(g.runAs<float>(out), (std::vector<float>{0, 0, 0, 3}));
}

WEBNN_BACKEND_TEST(WhereErrors, ConditionMustBeUint8) {
  MLContext context = testing::createTestContext();
  MLGraphBuilder builder(context);
  auto c = builder.input("c", {T::Int8, {2}});
  auto t = builder.input("t", {T::Float32, {2}});
  expectError([&] { builder.where(c, t, t, {.label = "w"}); }, K::TypeError,
              {"where 'w'", "condition", "int8", "uint8"});
}

WEBNN_BACKEND_TEST(WhereErrors, ValuesMustShareADataType) {
  MLContext context = testing::createTestContext();
  MLGraphBuilder builder(context);
  auto c = builder.input("c", {T::Uint8, {2}});
  auto t = builder.input("t", {T::Float32, {2}});
  auto f = builder.input("f", {T::Float16, {2}});
  expectError([&] { builder.where(c, t, f); }, K::TypeError,
              {"where", "trueValue", "falseValue", "same data type"});
}

WEBNN_BACKEND_TEST(WhereErrors, ShapesMustBroadcast) {
  MLContext context = testing::createTestContext();
  MLGraphBuilder builder(context);
  auto c = builder.input("c", {T::Uint8, {2}});
  auto t = builder.input("t", {T::Float32, {3}});
  auto f = builder.input("f", {T::Float32, {2}});
  expectError([&] { builder.where(c, t, f); }, K::TypeError,
              {"where", "trueValue [3]", "falseValue [2]", "broadcastable"});
  auto c4 = builder.input("c4", {T::Uint8, {4}});
  auto t3 = builder.input("t3", {T::Float32, {2, 3}});
  expectError([&] { builder.where(c4, t3, t3); }, K::TypeError,
              {"where", "condition [4]", "[2, 3]", "broadcastable"});
}

WEBNN_BACKEND_TEST(WhereErrors, EmptyOrForeignOperands) {
  MLContext context = testing::createTestContext();
  MLGraphBuilder builder(context);
  MLGraphBuilder other(context);
  auto c = builder.input("c", {T::Uint8, {2}});
  auto t = builder.input("t", {T::Float32, {2}});
  auto foreign = other.input("f", {T::Float32, {2}});
  expectError([&] { builder.where(c, t, MLOperand()); }, K::TypeError, {"where", "empty"});
  expectError([&] { builder.where(c, t, foreign); }, K::TypeError, {"where", "another"});
}

WEBNN_BACKEND_TEST(WhereLimits, ReportedBySupportLimits) {
  MLContext context = testing::createTestContext();
  WEBNN_REQUIRE_SPEC_LIMITS(context, "where");
  auto limits = context.opSupportLimits();
  ASSERT_TRUE(limits.ops.count("where"));
  EXPECT_TRUE(limits.ops["where"]["condition"].supports(T::Uint8));
  EXPECT_FALSE(limits.ops["where"]["condition"].supports(T::Float32));
  EXPECT_TRUE(limits.ops["where"]["trueValue"].supports(T::Int4));
  EXPECT_TRUE(limits.ops["where"]["falseValue"].supports(T::Float16));
}

}  // namespace
}  // namespace webnn
