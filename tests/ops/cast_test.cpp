// cast: every pair of data types, following the spec's table: float to integer truncates
// (saturating out of range, our implementation-defined choice), integer to integer keeps the
// lowest bits, to floats rounds to nearest; int4/uint4 packed two per byte, low nibble first.
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

std::vector<float> floatsOf(const std::vector<uint16_t>& bits) {
  std::vector<float> values;
  for (uint16_t b : bits) values.push_back(halfToFloat(b));
  return values;
}

// Unpacks `count` int4 (isSigned) or uint4 values.
std::vector<int> unpackNibbles(const std::vector<std::byte>& bytes, size_t count, bool isSigned) {
  std::vector<int> values;
  for (size_t i = 0; i < count; ++i) {
    const auto byte = static_cast<uint8_t>(bytes.at(i / 2));
    int nibble = i % 2 == 0 ? (byte & 0x0f) : (byte >> 4);
    if (isSigned && nibble >= 8) nibble -= 16;
    values.push_back(nibble);
  }
  return values;
}

template <class Out, class In>
std::vector<Out> castValues(T from, T to, const std::vector<In>& values,
                            std::vector<uint32_t> shape = {}) {
  if (shape.empty() && values.size() != 1) shape = {static_cast<uint32_t>(values.size())};
  Graph g;
  auto x = g.input("x", {from, shape}, values);
  auto out = g.builder.cast(x, to);
  EXPECT_EQ(out.dataType(), to);
  EXPECT_EQ(out.shape(), shape);
  return g.runAs<Out>(out);
}

WEBNN_BACKEND_TEST(Cast, FloatToIntegerTruncatesTowardZero) {
  EXPECT_EQ(
      (castValues<int32_t>(T::Float32, T::Int32,
                           std::vector<float>{102.1578369140625f, -43.5f, -2.5f, 83.5f, -0.9f})),
      (std::vector<int32_t>{102, -43, -2, 83, 0}));
  EXPECT_EQ((castValues<int64_t>(T::Float32, T::Int64, std::vector<float>{-7.99f, 3e9f})),
            (std::vector<int64_t>{-7, 3000000000}));
  EXPECT_EQ((castValues<uint32_t>(T::Float16, T::Uint32, halves({3.103515625f, 125.375f}))),
            (std::vector<uint32_t>{3, 125}));
  EXPECT_EQ((castValues<int8_t>(T::Float16, T::Int8, halves({-99.9f, 12.9296875f}))),
            (std::vector<int8_t>{-99, 12}));
}

WEBNN_BACKEND_TEST(Cast, FloatToIntegerOutOfRangeSaturatesAndNaNIsZero) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ((castValues<uint8_t>(T::Float32, T::Uint8, std::vector<float>{-1, 300, nan, inf})),
            (std::vector<uint8_t>{0, 255, 0, 255}));
  EXPECT_EQ((castValues<int32_t>(T::Float32, T::Int32, std::vector<float>{-1e10f, 1e10f, -inf})),
            (std::vector<int32_t>{std::numeric_limits<int32_t>::min(),
                                  std::numeric_limits<int32_t>::max(),
                                  std::numeric_limits<int32_t>::min()}));
  EXPECT_EQ((castValues<uint64_t>(T::Float32, T::Uint64, std::vector<float>{-5, 1e30f})),
            (std::vector<uint64_t>{0, std::numeric_limits<uint64_t>::max()}));
}

WEBNN_BACKEND_TEST(Cast, FloatToFloatRoundsToNearest) {
  auto bits = castValues<uint16_t>(
      T::Float32, T::Float16,
      std::vector<float>{102.1578369140625f, 43.60371780395508f, 72.9759750366211f, 1e6f, -1e6f});
  auto values = floatsOf(bits);
  EXPECT_EQ(values[0], 102.1875f);
  EXPECT_EQ(values[1], 43.59375f);
  EXPECT_EQ(values[2], 73.0f);
  EXPECT_EQ(values[3], std::numeric_limits<float>::infinity());
  EXPECT_EQ(values[4], -std::numeric_limits<float>::infinity());
  EXPECT_EQ((castValues<float>(T::Float16, T::Float32, halves({3.103515625f, -0.5f, 65504}))),
            (std::vector<float>{3.103515625f, -0.5f, 65504}));
  auto nan = castValues<float>(T::Float16, T::Float32, halves({NAN}));
  EXPECT_TRUE(std::isnan(nan[0]));
}

WEBNN_BACKEND_TEST(Cast, IntegerToIntegerKeepsTheLowestBits) {
  // The spec's note: -1 from int8 to uint8 is 255.
  EXPECT_EQ((castValues<uint8_t>(T::Int8, T::Uint8, std::vector<int8_t>{-1, -128, 127})),
            (std::vector<uint8_t>{255, 128, 127}));
  EXPECT_EQ((castValues<int8_t>(T::Uint8, T::Int8, std::vector<uint8_t>{255, 128, 5})),
            (std::vector<int8_t>{-1, -128, 5}));
  EXPECT_EQ((castValues<int8_t>(T::Int32, T::Int8, std::vector<int32_t>{300, -129, 127})),
            (std::vector<int8_t>{44, 127, 127}));
  EXPECT_EQ(
      (castValues<int32_t>(T::Int64, T::Int32, std::vector<int64_t>{(int64_t{1} << 32) + 5, -1})),
      (std::vector<int32_t>{5, -1}));
  EXPECT_EQ((castValues<uint32_t>(T::Int32, T::Uint32, std::vector<int32_t>{-1, 7})),
            (std::vector<uint32_t>{4294967295u, 7}));
  EXPECT_EQ((castValues<int64_t>(T::Uint32, T::Int64, std::vector<uint32_t>{4294967295u})),
            (std::vector<int64_t>{4294967295}));
  EXPECT_EQ((castValues<int32_t>(T::Int8, T::Int32, std::vector<int8_t>{-128, 17})),
            (std::vector<int32_t>{-128, 17}));
}

WEBNN_BACKEND_TEST(Cast, Int64AndUint64AreExact) {
  const uint64_t top = std::numeric_limits<uint64_t>::max();
  const int64_t big = (int64_t{1} << 62) + 3;
  EXPECT_EQ((castValues<int64_t>(T::Uint64, T::Int64, std::vector<uint64_t>{top, 42})),
            (std::vector<int64_t>{-1, 42}));
  EXPECT_EQ((castValues<uint64_t>(T::Int64, T::Uint64, std::vector<int64_t>{-1, big})),
            (std::vector<uint64_t>{top, static_cast<uint64_t>(big)}));
  EXPECT_EQ((castValues<int8_t>(T::Uint64, T::Int8, std::vector<uint64_t>{top})),
            (std::vector<int8_t>{-1}));
}

WEBNN_BACKEND_TEST(Cast, IntegerToFloatRoundsOnce) {
  // 2^24 + 1 is not a float32: nearest (ties to even) is 2^24.
  EXPECT_EQ((castValues<float>(T::Int32, T::Float32, std::vector<int32_t>{16777217, -45})),
            (std::vector<float>{16777216.0f, -45.0f}));
  // 2^60 + 2^36 + 1 is just above a float32 tie: rounded once it is 2^60 + 2^37; through a double
  // first it would become the tie 2^60 + 2^36 and round to even, 2^60.
  const int64_t tricky = (int64_t{1} << 60) + (int64_t{1} << 36) + 1;
  auto once = castValues<float>(T::Int64, T::Float32, std::vector<int64_t>{tricky});
  EXPECT_EQ(once[0], std::ldexp(1.0f, 60) + std::ldexp(1.0f, 37));
  EXPECT_EQ((castValues<float>(T::Uint64, T::Float32,
                               std::vector<uint64_t>{std::numeric_limits<uint64_t>::max()})),
            (std::vector<float>{18446744073709551616.0f}));
  auto half = floatsOf(
      castValues<uint16_t>(T::Int32, T::Float16, std::vector<int32_t>{2049, 65504, 70000, -3}));
  EXPECT_EQ(half, (std::vector<float>{2048, 65504, std::numeric_limits<float>::infinity(), -3}));
  EXPECT_EQ(floatsOf(castValues<uint16_t>(T::Uint8, T::Float16, std::vector<uint8_t>{255, 0})),
            (std::vector<float>{255, 0}));
}

WEBNN_BACKEND_TEST(Cast, FromInt4AndUint4) {
  {
    Graph g;
    auto x = g.input("x", {T::Int4, {5}}, nibbles({-8, 7, -1, 0, 3}));
    EXPECT_EQ(g.runAs<int8_t>(g.builder.cast(x, T::Int8)), (std::vector<int8_t>{-8, 7, -1, 0, 3}));
  }
  {
    Graph g;
    auto x = g.input("x", {T::Uint4, {3}}, nibbles({15, 0, 8}));
    EXPECT_EQ(g.runAs<float>(g.builder.cast(x, T::Float32)), (std::vector<float>{15, 0, 8}));
  }
  {
    Graph g;
    auto x = g.input("x", {T::Int4, {2}}, nibbles({-1, -8}));
    EXPECT_EQ(g.runAs<uint32_t>(g.builder.cast(x, T::Uint32)),
              (std::vector<uint32_t>{4294967295u, 4294967288u}));
  }
}

WEBNN_BACKEND_TEST(Cast, ToInt4AndUint4) {
  {
    // Integers wrap to the low 4 bits.
    Graph g;
    auto x = g.input("x", {T::Int8, {5}}, std::vector<int8_t>{7, 8, -9, -8, 0});
    auto out = g.builder.cast(x, T::Int4);
    EXPECT_EQ(unpackNibbles(g.run(out), 5, true), (std::vector<int>{7, -8, 7, -8, 0}));
  }
  {
    Graph g;
    auto x = g.input("x", {T::Int32, {3}}, std::vector<int32_t>{16, 17, -1});
    auto out = g.builder.cast(x, T::Uint4);
    auto bytes = g.run(out);
    EXPECT_EQ(bytes.size(), 2u);
    EXPECT_EQ(unpackNibbles(bytes, 3, false), (std::vector<int>{0, 1, 15}));
  }
  {
    // Floats truncate and saturate.
    Graph g;
    auto x = g.input("x", {T::Float32, {4}}, std::vector<float>{7.9f, -8.9f, 100, -2.5f});
    EXPECT_EQ(unpackNibbles(g.run(g.builder.cast(x, T::Int4)), 4, true),
              (std::vector<int>{7, -8, 7, -2}));
  }
  {
    Graph g;
    auto x = g.input("x", {T::Uint4, {3}}, nibbles({15, 9, 1}));
    EXPECT_EQ(unpackNibbles(g.run(g.builder.cast(x, T::Int4)), 3, true),
              (std::vector<int>{-1, -7, 1}));
  }
}

WEBNN_BACKEND_TEST(Cast, KeepsShapeIncludingScalarsAndSameTypeIsIdentity) {
  Graph g;
  auto x = g.input("x", {T::Float32, {2, 1, 3}}, std::vector<float>{1.5f, -2, 3, 4, 5, 6.25f});
  auto out = g.builder.cast(x, T::Float32);
  EXPECT_EQ(out.shape(), (std::vector<uint32_t>{2, 1, 3}));
  EXPECT_EQ(g.runAs<float>(out), (std::vector<float>{1.5f, -2, 3, 4, 5, 6.25f}));
  EXPECT_EQ((castValues<int32_t>(T::Float32, T::Int32, std::vector<float>{84.77753448486328f})),
            (std::vector<int32_t>{84}));
}

WEBNN_BACKEND_TEST(Cast, RoundTripThroughAConstant) {
  Graph g;
  std::vector<int32_t> data = {45, 55, -11};
  auto c = g.builder.constant({T::Int32, {3}}, testing::bytesOf(data));
  auto x = g.input("x", {T::Float32, {3}}, std::vector<float>{0.5f, 0.5f, 0.5f});
  auto out = g.builder.add(g.builder.cast(c, T::Float32), x);
  EXPECT_EQ(g.runAs<float>(out), (std::vector<float>{45.5f, 55.5f, -10.5f}));
}

WEBNN_BACKEND_TEST(CastErrors, InvalidOperandsAndUsedBuilder) {
  MLContext context = testing::createTestContext();
  MLGraphBuilder builder(context);
  MLGraphBuilder other(context);
  auto foreign = other.input("x", {T::Float32, {2}});
  expectError([&] { builder.cast(MLOperand(), T::Int32, {.label = "c"}); }, K::TypeError,
              {"cast 'c'", "empty"});
  expectError([&] { builder.cast(foreign, T::Int32); }, K::TypeError, {"cast", "another"});
  auto x = builder.input("x", {T::Float32, {2}});
  builder.build({{"y", builder.cast(x, T::Int8)}});
  expectError([&] { builder.cast(x, T::Int32); }, K::InvalidStateError);
}

WEBNN_BACKEND_TEST(CastLimits, EveryDataTypeIsSupported) {
  MLContext context = testing::createTestContext();
  WEBNN_REQUIRE_SPEC_LIMITS(context, "cast");
  auto limits = context.opSupportLimits();
  ASSERT_TRUE(limits.ops.count("cast"));
  for (T type : {T::Float32, T::Float16, T::Int32, T::Uint32, T::Int64, T::Uint64, T::Int8,
                 T::Uint8, T::Int4, T::Uint4}) {
    EXPECT_TRUE(limits.ops["cast"]["input"].supports(type));
    EXPECT_TRUE(limits.ops["cast"]["output"].supports(type));
  }
}

}  // namespace
}  // namespace webnn
