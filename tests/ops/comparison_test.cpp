// equal, notEqual, greater, greaterOrEqual, lesser, lesserOrEqual, logicalNot, logicalAnd,
// logicalOr, logicalXor: uint8 results, broadcasting, every input type, and the error paths.
#include <cmath>
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
using Method = MLOperand (MLGraphBuilder::*)(const MLOperand&, const MLOperand&,
                                             const MLOperatorOptions&);

struct Case {
  const char* name;
  Method method;
  U8 expected;  // for a = [1, 2, 3, NaN] and b = [2, 2, 2, 2] (float32)
};

const std::vector<Case> kComparisons = {
    {"equal", &MLGraphBuilder::equal, {0, 1, 0, 0}},
    {"notEqual", &MLGraphBuilder::notEqual, {1, 0, 1, 1}},
    {"greater", &MLGraphBuilder::greater, {0, 0, 1, 0}},
    {"greaterOrEqual", &MLGraphBuilder::greaterOrEqual, {0, 1, 1, 0}},
    {"lesser", &MLGraphBuilder::lesser, {1, 0, 0, 0}},
    {"lesserOrEqual", &MLGraphBuilder::lesserOrEqual, {1, 1, 0, 0}},
};

WEBNN_BACKEND_TEST(Comparison, Float32WithNaN) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (const auto& c : kComparisons) {
    Graph g;
    auto a = g.input("a", {T::Float32, {4}}, std::vector<float>{1, 2, 3, nan});
    auto b = g.input("b", {T::Float32, {4}}, std::vector<float>{2, 2, 2, 2});
    auto out = (g.builder.*c.method)(a, b, {});
    EXPECT_EQ(out.dataType(), T::Uint8) << c.name;
    EXPECT_EQ(out.shape(), (std::vector<uint32_t>{4})) << c.name;
    EXPECT_EQ(g.runAs<uint8_t>(out), c.expected) << c.name;
  }
}

WEBNN_BACKEND_TEST(Comparison, Float16) {
  for (const auto& c : kComparisons) {
    Graph g;
    auto a = g.input("a", {T::Float16, {4}}, halves({1, 2, 3, NAN}));
    auto b = g.input("b", {T::Float16, {4}}, halves({2, 2, 2, 2}));
    EXPECT_EQ(g.runAs<uint8_t>((g.builder.*c.method)(a, b, {})), c.expected) << c.name;
  }
}

WEBNN_BACKEND_TEST(Comparison, SignedZerosAreEqual) {
  Graph g;
  auto a = g.input("a", {T::Float32, {2}}, std::vector<float>{0.0f, -0.0f});
  auto b = g.input("b", {T::Float32, {2}}, std::vector<float>{-0.0f, 0.0f});
  EXPECT_EQ(g.runAs<uint8_t>(g.builder.equal(a, b)), (U8{1, 1}));
}

WEBNN_BACKEND_TEST(Comparison, BroadcastsBothWays) {
  // a [2, 1] = [[1], [5]], b [3] = [0, 1, 5] -> [2, 3]
  Graph g;
  auto a = g.input("a", {T::Int32, {2, 1}}, std::vector<int32_t>{1, 5});
  auto b = g.input("b", {T::Int32, {3}}, std::vector<int32_t>{0, 1, 5});
  auto out = g.builder.greaterOrEqual(a, b);
  EXPECT_EQ(out.shape(), (std::vector<uint32_t>{2, 3}));
  EXPECT_EQ(g.runAs<uint8_t>(out), (U8{1, 1, 0, 1, 1, 1}));
}

WEBNN_BACKEND_TEST(Comparison, ScalarAgainstTensor) {
  Graph g;
  auto a = g.input("a", {T::Float32, {}}, std::vector<float>{2});
  auto b = g.input("b", {T::Float32, {2, 2}}, std::vector<float>{1, 2, 3, 4});
  auto out = g.builder.lesser(a, b);
  EXPECT_EQ(out.shape(), (std::vector<uint32_t>{2, 2}));
  EXPECT_EQ(g.runAs<uint8_t>(out), (U8{0, 0, 1, 1}));
}

WEBNN_BACKEND_TEST(Comparison, Int64ComparesExactlyBeyondDoublePrecision) {
  // 2^53 + 1 and 2^53 are the same double; they must still compare unequal.
  const int64_t big = (int64_t{1} << 53) + 1;
  Graph g;
  auto a = g.input("a", {T::Int64, {2}}, std::vector<int64_t>{big, -5});
  auto b = g.input("b", {T::Int64, {2}}, std::vector<int64_t>{big - 1, -5});
  EXPECT_EQ(g.runAs<uint8_t>(g.builder.greater(a, b)), (U8{1, 0}));
}

WEBNN_BACKEND_TEST(Comparison, Uint64AboveInt64Range) {
  const uint64_t top = std::numeric_limits<uint64_t>::max();
  Graph g;
  auto a = g.input("a", {T::Uint64, {2}}, std::vector<uint64_t>{top, 1});
  auto b = g.input("b", {T::Uint64, {2}}, std::vector<uint64_t>{1, top});
  EXPECT_EQ(g.runAs<uint8_t>(g.builder.greater(a, b)), (U8{1, 0}));
}

WEBNN_BACKEND_TEST(Comparison, SmallIntegerTypes) {
  {
    Graph g;
    auto a = g.input("a", {T::Int8, {3}}, std::vector<int8_t>{-128, 0, 127});
    auto b = g.input("b", {T::Int8, {3}}, std::vector<int8_t>{127, 0, -128});
    EXPECT_EQ(g.runAs<uint8_t>(g.builder.lesser(a, b)), (U8{1, 0, 0}));
  }
  {
    Graph g;
    auto a = g.input("a", {T::Uint8, {3}}, U8{0, 200, 255});
    auto b = g.input("b", {T::Uint8, {3}}, U8{1, 200, 254});
    EXPECT_EQ(g.runAs<uint8_t>(g.builder.notEqual(a, b)), (U8{1, 0, 1}));
  }
  {
    Graph g;
    auto a = g.input("a", {T::Uint32, {2}}, std::vector<uint32_t>{4000000000u, 3});
    auto b = g.input("b", {T::Uint32, {2}}, std::vector<uint32_t>{3, 4000000000u});
    EXPECT_EQ(g.runAs<uint8_t>(g.builder.greater(a, b)), (U8{1, 0}));
  }
}

WEBNN_BACKEND_TEST(Comparison, Int4AndUint4Unpacked) {
  {
    Graph g;
    auto a = g.input("a", {T::Int4, {3}}, nibbles({-8, 7, -1}));
    auto b = g.input("b", {T::Int4, {3}}, nibbles({7, -8, -1}));
    EXPECT_EQ(g.runAs<uint8_t>(g.builder.lesserOrEqual(a, b)), (U8{1, 0, 1}));
  }
  {
    Graph g;
    auto a = g.input("a", {T::Uint4, {3}}, nibbles({15, 0, 8}));
    auto b = g.input("b", {T::Uint4, {}}, nibbles({8}));
    EXPECT_EQ(g.runAs<uint8_t>(g.builder.greaterOrEqual(a, b)), (U8{1, 0, 1}));
  }
}

WEBNN_BACKEND_TEST(Logical, NotTreatsNonZeroAsTrue) {
  Graph g;
  auto a = g.input("a", {T::Uint8, {2, 2}}, U8{0, 1, 2, 255});
  auto out = g.builder.logicalNot(a);
  EXPECT_EQ(out.dataType(), T::Uint8);
  EXPECT_EQ(out.shape(), (std::vector<uint32_t>{2, 2}));
  EXPECT_EQ(g.runAs<uint8_t>(out), (U8{1, 0, 0, 0}));
}

WEBNN_BACKEND_TEST(Logical, AndOrXorWithBroadcasting) {
  // a [4] x b [2, 1]: non-zero values other than 1 count as true.
  const U8 aValues = {0, 3, 0, 200};
  const U8 bValues = {0, 7};
  struct {
    Method method;
    U8 expected;
  } cases[] = {
      {&MLGraphBuilder::logicalAnd, {0, 0, 0, 0, 0, 1, 0, 1}},
      {&MLGraphBuilder::logicalOr, {0, 1, 0, 1, 1, 1, 1, 1}},
      {&MLGraphBuilder::logicalXor, {0, 1, 0, 1, 1, 0, 1, 0}},
  };
  for (const auto& c : cases) {
    Graph g;
    auto a = g.input("a", {T::Uint8, {4}}, aValues);
    auto b = g.input("b", {T::Uint8, {2, 1}}, bValues);
    auto out = (g.builder.*c.method)(a, b, {});
    EXPECT_EQ(out.shape(), (std::vector<uint32_t>{2, 4}));
    EXPECT_EQ(g.runAs<uint8_t>(out), c.expected);
  }
}

WEBNN_BACKEND_TEST(Comparison, ChainsIntoLogicalOps) {
  // 1 < x <= 3 as logicalAnd(greater(x, 1), lesserOrEqual(x, 3)).
  Graph g;
  auto x = g.input("x", {T::Float32, {5}}, std::vector<float>{0, 1, 2, 3, 4});
  auto one = g.builder.constant(T::Float32, 1);
  auto three = g.builder.constant(T::Float32, 3);
  auto out = g.builder.logicalAnd(g.builder.greater(x, one), g.builder.lesserOrEqual(x, three));
  EXPECT_EQ(g.runAs<uint8_t>(out), (U8{0, 0, 1, 1, 0}));
}

WEBNN_BACKEND_TEST(ComparisonErrors, DataTypesMustMatch) {
  MLContext context = testing::createTestContext();
  MLGraphBuilder builder(context);
  auto a = builder.input("a", {T::Float32, {2}});
  auto b = builder.input("b", {T::Int32, {2}});
  for (const auto& c : kComparisons) {
    expectError([&] { (builder.*c.method)(a, b, {.label = "cmp"}); }, K::TypeError,
                {c.name, "'cmp'", "same data type"});
  }
}

WEBNN_BACKEND_TEST(ComparisonErrors, ShapesMustBroadcast) {
  MLContext context = testing::createTestContext();
  MLGraphBuilder builder(context);
  auto a = builder.input("a", {T::Float32, {2, 3}});
  auto b = builder.input("b", {T::Float32, {2}});
  expectError([&] { builder.equal(a, b, {.label = "e"}); }, K::TypeError,
              {"equal 'e'", "[2, 3]", "[2]", "broadcastable"});
  auto u = builder.input("u", {T::Uint8, {3}});
  auto v = builder.input("v", {T::Uint8, {4}});
  expectError([&] { builder.logicalOr(u, v); }, K::TypeError, {"logicalOr", "broadcastable"});
}

WEBNN_BACKEND_TEST(ComparisonErrors, LogicalOpsNeedUint8) {
  MLContext context = testing::createTestContext();
  MLGraphBuilder builder(context);
  auto f = builder.input("f", {T::Float32, {2}});
  auto i = builder.input("i", {T::Int8, {2}});
  auto u = builder.input("u", {T::Uint8, {2}});
  expectError([&] { builder.logicalNot(f, {.label = "not"}); }, K::TypeError,
              {"logicalNot 'not'", "a", "float32", "uint8"});
  expectError([&] { builder.logicalAnd(i, i); }, K::TypeError, {"logicalAnd", "int8", "uint8"});
  expectError([&] { builder.logicalOr(u, i); }, K::TypeError, {"logicalOr", "b", "int8"});
  expectError([&] { builder.logicalXor(f, u); }, K::TypeError, {"logicalXor", "float32"});
}

WEBNN_BACKEND_TEST(ComparisonErrors, OperandsOfAnotherBuilderOrEmpty) {
  MLContext context = testing::createTestContext();
  MLGraphBuilder builder(context);
  MLGraphBuilder other(context);
  auto a = builder.input("a", {T::Float32, {2}});
  auto foreign = other.input("b", {T::Float32, {2}});
  expectError([&] { builder.equal(a, foreign); }, K::TypeError, {"equal", "another"});
  expectError([&] { builder.logicalNot(MLOperand()); }, K::TypeError, {"logicalNot", "empty"});
}

WEBNN_BACKEND_TEST(ComparisonLimits, OpSupportLimitsListTheSpecTypes) {
  MLContext context = testing::createTestContext();
  WEBNN_REQUIRE_SPEC_LIMITS(context);
  auto limits = context.opSupportLimits();
  ASSERT_TRUE(limits.ops.count("greater"));
  EXPECT_TRUE(limits.ops["greater"]["a"].supports(T::Int64));
  EXPECT_TRUE(limits.ops["greater"]["output"].supports(T::Uint8));
  EXPECT_FALSE(limits.ops["greater"]["output"].supports(T::Float32));
  ASSERT_TRUE(limits.ops.count("logicalNot"));
  EXPECT_TRUE(limits.ops["logicalNot"]["a"].supports(T::Uint8));
  EXPECT_FALSE(limits.ops["logicalNot"]["a"].supports(T::Int8));
  EXPECT_FALSE(limits.ops["logicalNot"].count("b"));
}

}  // namespace
}  // namespace webnn
