// add, sub, mul, div, max, min, pow: values (float32, float16, every integer type with wrapping),
// broadcasting and shape inference, and the error paths.
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
using testing::raw;

using Shape = std::vector<uint32_t>;
using F = std::vector<float>;
using Method = MLOperand (MLGraphBuilder::*)(const MLOperand&, const MLOperand&,
                                             const MLOperatorOptions&);

template <class V>
std::vector<V> binary(Method method, T type, const std::vector<V>& a, const std::vector<V>& b,
                      Shape shapeA = {}, Shape shapeB = {}) {
  if (shapeA.empty() && a.size() != 1) shapeA = {static_cast<uint32_t>(a.size())};
  if (shapeB.empty() && b.size() != 1) shapeB = {static_cast<uint32_t>(b.size())};
  Graph g;
  auto x = g.input("a", {type, shapeA}, a);
  auto y = g.input("b", {type, shapeB}, b);
  auto out = (g.builder.*method)(x, y, {});
  EXPECT_EQ(out.dataType(), type);
  return g.runAs<V>(out);
}

WEBNN_BACKEND_TEST(ElementwiseBinary, Float32) {
  const F a = {1, -2, 3.5f, 8};
  const F b = {4, 0.5f, -2, 2};
  EXPECT_EQ(binary(&MLGraphBuilder::add, T::Float32, a, b), (F{5, -1.5f, 1.5f, 10}));
  EXPECT_EQ(binary(&MLGraphBuilder::sub, T::Float32, a, b), (F{-3, -2.5f, 5.5f, 6}));
  EXPECT_EQ(binary(&MLGraphBuilder::mul, T::Float32, a, b), (F{4, -1, -7, 16}));
  EXPECT_EQ(binary(&MLGraphBuilder::div, T::Float32, a, b), (F{0.25f, -4, -1.75f, 4}));
  EXPECT_EQ(binary(&MLGraphBuilder::max, T::Float32, a, b), (F{4, 0.5f, 3.5f, 8}));
  EXPECT_EQ(binary(&MLGraphBuilder::min, T::Float32, a, b), (F{1, -2, -2, 2}));
  EXPECT_EQ(binary(&MLGraphBuilder::pow, T::Float32, F{2, 4, 9, -3}, F{10, 0.5f, -0.5f, 3}),
            (F{1024, 2, 1.0f / 3, -27}));
}

WEBNN_BACKEND_TEST(ElementwiseBinary, Float32SpecialValues) {
  const float inf = std::numeric_limits<float>::infinity();
  auto quotient = binary(&MLGraphBuilder::div, T::Float32, F{1, -1, 0}, F{0, 0, 0});
  EXPECT_EQ(quotient[0], inf);
  EXPECT_EQ(quotient[1], -inf);
  EXPECT_TRUE(std::isnan(quotient[2]));
  auto root = binary(&MLGraphBuilder::pow, T::Float32, F{-8}, F{1.0f / 3});
  EXPECT_TRUE(std::isnan(root[0]));
  // max and min propagate NaN from either operand.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (auto method : {&MLGraphBuilder::max, &MLGraphBuilder::min}) {
    auto result = binary(method, T::Float32, F{nan, 1}, F{1, nan});
    EXPECT_TRUE(std::isnan(result[0]) && std::isnan(result[1]));
  }
  // float32 results round once: 16777216 + 1 is not representable.
  EXPECT_EQ(binary(&MLGraphBuilder::add, T::Float32, F{16777216}, F{1}), (F{16777216}));
}

WEBNN_BACKEND_TEST(ElementwiseBinary, Float16) {
  auto run = [](Method method, const F& a, const F& b) {
    return binary(method, T::Float16, halves(a), halves(b));
  };
  EXPECT_EQ(run(&MLGraphBuilder::add, {1.5f, 2.25f}, {0.25f, -4}), halves({1.75f, -1.75f}));
  EXPECT_EQ(run(&MLGraphBuilder::sub, {1.5f, 2.25f}, {0.25f, -4}), halves({1.25f, 6.25f}));
  EXPECT_EQ(run(&MLGraphBuilder::mul, {1.5f, 300}, {-2, 300}),
            halves({-3, std::numeric_limits<float>::infinity()}));  // 90000 overflows float16
  EXPECT_EQ(run(&MLGraphBuilder::div, {1, 3}, {4, -2}), halves({0.25f, -1.5f}));
  EXPECT_EQ(run(&MLGraphBuilder::max, {1, -3}, {-1, 2}), halves({1, 2}));
  EXPECT_EQ(run(&MLGraphBuilder::min, {1, -3}, {-1, 2}), halves({-1, -3}));
  EXPECT_EQ(run(&MLGraphBuilder::pow, {2, 9}, {3, 0.5f}), halves({8, 3}));
  // 2048 + 3 = 2051 is a tie between 2050 and 2052 in float16: rounds to even, 2052.
  EXPECT_EQ(run(&MLGraphBuilder::add, {2048, 2048}, {1, 3}), halves({2048, 2052}));
}

WEBNN_BACKEND_TEST(ElementwiseBinary, BroadcastingAndShapeInference) {
  Graph g;
  auto a = g.input("a", {T::Float32, {2, 1, 3}}, F{1, 2, 3, 4, 5, 6});
  auto b = g.input("b", {T::Float32, {4, 1}}, F{0, 10, 20, 30});
  auto out = g.builder.add(a, b);
  EXPECT_EQ(out.shape(), (Shape{2, 4, 3}));
  EXPECT_EQ(g.runAs<float>(out), (F{1, 2, 3, 11, 12, 13, 21, 22, 23, 31, 32, 33,  //
                                    4, 5, 6, 14, 15, 16, 24, 25, 26, 34, 35, 36}));
}

WEBNN_BACKEND_TEST(ElementwiseBinary, ScalarOperands) {
  Graph g;
  auto a = g.input("a", {T::Float32, {}}, F{3});
  auto b = g.input("b", {T::Float32, {2, 2}}, F{1, 2, 3, 4});
  auto out = g.builder.sub(a, b);
  EXPECT_EQ(out.shape(), (Shape{2, 2}));
  EXPECT_EQ(g.runAs<float>(out), (F{2, 1, 0, -1}));
  Graph s;
  auto x = s.input("x", {T::Float32, {}}, F{3});
  auto y = s.input("y", {T::Float32, {}}, F{4});
  auto product = s.builder.mul(x, y);
  EXPECT_EQ(product.shape(), Shape{});
  EXPECT_EQ(s.runAs<float>(product), (F{12}));
}

WEBNN_BACKEND_TEST(ElementwiseBinary, Int32Wraps) {
  using V = std::vector<int32_t>;
  const int32_t hi = std::numeric_limits<int32_t>::max();
  const int32_t lo = std::numeric_limits<int32_t>::min();
  EXPECT_EQ(binary(&MLGraphBuilder::add, T::Int32, V{hi, -5}, V{1, 3}), (V{lo, -2}));
  EXPECT_EQ(binary(&MLGraphBuilder::sub, T::Int32, V{lo, 5}, V{1, 7}), (V{hi, -2}));
  EXPECT_EQ(binary(&MLGraphBuilder::mul, T::Int32, V{65536, -3}, V{65536, 7}), (V{0, -21}));
  EXPECT_EQ(binary(&MLGraphBuilder::max, T::Int32, V{lo, 4}, V{hi, -4}), (V{hi, 4}));
  EXPECT_EQ(binary(&MLGraphBuilder::min, T::Int32, V{lo, 4}, V{hi, -4}), (V{lo, -4}));
}

WEBNN_BACKEND_TEST(ElementwiseBinary, IntegerDivisionTruncatesTowardZero) {
  using V = std::vector<int32_t>;
  const int32_t lo = std::numeric_limits<int32_t>::min();
  EXPECT_EQ(binary(&MLGraphBuilder::div, T::Int32, V{7, -7, 7, -7, lo}, V{2, 2, -2, -2, -1}),
            (V{3, -3, -3, 3, lo}));
  // Division by zero is implementation-defined; the reference backend gives 0.
  EXPECT_EQ(binary(&MLGraphBuilder::div, T::Int32, V{5}, V{0}), (V{0}));
  EXPECT_EQ(binary(&MLGraphBuilder::div, T::Uint32, std::vector<uint32_t>{4000000000u, 9},
                   std::vector<uint32_t>{3, 0}),
            (std::vector<uint32_t>{1333333333u, 0}));
}

WEBNN_BACKEND_TEST(ElementwiseBinary, SmallIntegersWrap) {
  using U8 = std::vector<uint8_t>;
  using I8 = std::vector<int8_t>;
  EXPECT_EQ(binary(&MLGraphBuilder::add, T::Uint8, U8{200, 1}, U8{100, 2}), (U8{44, 3}));
  EXPECT_EQ(binary(&MLGraphBuilder::sub, T::Uint8, U8{3, 9}, U8{5, 4}), (U8{254, 5}));
  EXPECT_EQ(binary(&MLGraphBuilder::mul, T::Uint8, U8{16, 15}, U8{16, 17}), (U8{0, 255}));
  EXPECT_EQ(binary(&MLGraphBuilder::mul, T::Int8, I8{-128, 64}, I8{-1, 2}), (I8{-128, -128}));
  EXPECT_EQ(binary(&MLGraphBuilder::add, T::Int8, I8{127, -128}, I8{1, -1}), (I8{-128, 127}));
  EXPECT_EQ(binary(&MLGraphBuilder::div, T::Int8, I8{-128, -9}, I8{-1, 4}), (I8{-128, -2}));
}

WEBNN_BACKEND_TEST(ElementwiseBinary, Int64AndUint64AreExact) {
  using I = std::vector<int64_t>;
  using U = std::vector<uint64_t>;
  const int64_t big = (int64_t{1} << 53) + 1;  // not a double
  const int64_t hi = std::numeric_limits<int64_t>::max();
  const uint64_t top = std::numeric_limits<uint64_t>::max();
  EXPECT_EQ(binary(&MLGraphBuilder::add, T::Int64, I{big, hi}, I{2, 1}),
            (I{big + 2, std::numeric_limits<int64_t>::min()}));
  EXPECT_EQ(binary(&MLGraphBuilder::mul, T::Int64, I{big}, I{3}), (I{3 * big}));
  EXPECT_EQ(binary(&MLGraphBuilder::max, T::Int64, I{big}, I{big - 1}), (I{big}));
  EXPECT_EQ(binary(&MLGraphBuilder::add, T::Uint64, U{top, 5}, U{1, top - 10}), (U{0, top - 5}));
  EXPECT_EQ(binary(&MLGraphBuilder::sub, T::Uint64, U{0}, U{1}), (U{top}));
  EXPECT_EQ(binary(&MLGraphBuilder::div, T::Uint64, U{top}, U{2}), (U{top / 2}));
  EXPECT_EQ(binary(&MLGraphBuilder::min, T::Uint64, U{top}, U{top - 1}), (U{top - 1}));
}

WEBNN_BACKEND_TEST(ElementwiseBinary, IntegerPow) {
  using V = std::vector<int32_t>;
  EXPECT_EQ(binary(&MLGraphBuilder::pow, T::Int32, V{3, -2, 5, 7}, V{4, 3, 0, 1}),
            (V{81, -8, 1, 7}));
  // Negative exponents: 1 / b^n truncated toward zero.
  EXPECT_EQ(binary(&MLGraphBuilder::pow, T::Int32, V{2, 1, -1, -1}, V{-1, -5, -3, -2}),
            (V{0, 1, -1, 1}));
  // int64 powers beyond 2^53 are exact.
  using I = std::vector<int64_t>;
  EXPECT_EQ(binary(&MLGraphBuilder::pow, T::Int64, I{3}, I{39}), (I{4052555153018976267}));
  // Overflow wraps like repeated multiplication.
  EXPECT_EQ(binary(&MLGraphBuilder::pow, T::Int32, V{2}, V{32}), (V{0}));
  EXPECT_EQ(
      binary(&MLGraphBuilder::pow, T::Uint8, std::vector<uint8_t>{3}, std::vector<uint8_t>{5}),
      (std::vector<uint8_t>{243}));
}

WEBNN_BACKEND_TEST(ElementwiseBinary, ChainedWithConstants) {
  Graph g;
  auto x = g.input("x", {T::Float32, {3}}, F{1, 2, 3});
  auto two = g.builder.constant(T::Float32, 2);
  auto out = g.builder.div(g.builder.pow(x, two), g.builder.add(x, two));  // x^2 / (x + 2)
  EXPECT_EQ(g.runAs<float>(out), (F{1.0f / 3, 1, 9.0f / 5}));
}

WEBNN_BACKEND_TEST(ElementwiseBinaryErrors, DataTypesMustMatch) {
  MLContext context = testing::createTestContext();
  MLGraphBuilder builder(context);
  auto a = builder.input("a", {T::Float32, {2}});
  auto b = builder.input("b", {T::Float16, {2}});
  for (const auto& [name, methodPointer] :
       std::vector<std::pair<std::string, Method>>{{"add", &MLGraphBuilder::add},
                                                   {"sub", &MLGraphBuilder::sub},
                                                   {"mul", &MLGraphBuilder::mul},
                                                   {"div", &MLGraphBuilder::div},
                                                   {"max", &MLGraphBuilder::max},
                                                   {"min", &MLGraphBuilder::min},
                                                   {"pow", &MLGraphBuilder::pow}}) {
    const Method method = methodPointer;  // (clang 14 cannot capture structured bindings)
    expectError([&] { (builder.*method)(a, b, {.label = "op"}); }, K::TypeError,
                {name + " 'op'", "float32", "float16", "same data type"});
  }
}

WEBNN_BACKEND_TEST(ElementwiseBinaryErrors, ShapesMustBroadcast) {
  MLContext context = testing::createTestContext();
  MLGraphBuilder builder(context);
  auto a = builder.input("a", {T::Float32, {2, 3}});
  auto b = builder.input("b", {T::Float32, {3, 2}});
  expectError([&] { builder.add(a, b, {.label = "sum"}); }, K::TypeError,
              {"add 'sum'", "[2, 3]", "[3, 2]", "broadcastable"});
}

WEBNN_BACKEND_TEST(ElementwiseBinaryErrors, Int4IsNotSupported) {
  MLContext context = testing::createTestContext();
  MLGraphBuilder builder(context);
  auto a = builder.input("a", {T::Int4, {2}});
  expectError([&] { builder.mul(a, a); }, K::TypeError, {"mul", "int4"});
  auto limits = context.opSupportLimits();
  EXPECT_FALSE(limits.ops["mul"]["a"].supports(T::Int4));
  EXPECT_TRUE(limits.ops["mul"]["a"].supports(T::Uint64));
}

WEBNN_BACKEND_TEST(ElementwiseBinaryErrors, InvalidOperands) {
  MLContext context = testing::createTestContext();
  MLGraphBuilder builder(context);
  MLGraphBuilder other(context);
  auto a = builder.input("a", {T::Float32, {2}});
  auto foreign = other.input("b", {T::Float32, {2}});
  expectError([&] { builder.sub(a, MLOperand()); }, K::TypeError, {"sub", "empty"});
  expectError([&] { builder.pow(foreign, a); }, K::TypeError, {"pow", "another"});
  builder.build({{"y", builder.add(a, a)}});
  expectError([&] { builder.add(a, a); }, K::InvalidStateError);
}

}  // namespace
}  // namespace webnn
