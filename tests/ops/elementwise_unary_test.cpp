// Element-wise unary ops: abs, ceil, cos, erf, exp, floor, identity, isInfinite, isNaN, log, neg,
// reciprocal, roundEven, sign, sin, sqrt, tan.
#include <cmath>
#include <limits>

#include "core/float16.h"
#include "test_helpers.h"

namespace webnn {
namespace {

using testing::bytesOf;
using testing::expectError;
using K = Error::Kind;
using T = MLOperandDataType;

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

using UnaryMethod = MLOperand (MLGraphBuilder::*)(const MLOperand&, const MLOperatorOptions&);

// Builds y = op(x) for x of `type`/`shape`, runs it on `input` and returns y's elements.
template <class Out, class In>
std::vector<Out> runUnary(UnaryMethod op, T type, const std::vector<uint32_t>& shape,
                          const std::vector<In>& input) {
  MLContext context = testing::createTestContext();
  MLGraphBuilder builder(context);
  auto x = builder.input("x", {type, shape});
  auto graph = builder.build({{"y", (builder.*op)(x, {})}});
  MLTensor in = testing::inputTensor(context, graph.inputDescriptors().at("x"));
  context.writeTensor(in, bytesOf(input));
  MLTensor out = testing::outputTensor(context, graph.outputDescriptors().at("y"));
  context.dispatch(graph, {{"x", in}}, {{"y", out}});
  return testing::readAs<Out>(context, out);
}

std::vector<float> runFloat32(UnaryMethod op, const std::vector<float>& input) {
  return runUnary<float>(op, T::Float32, {static_cast<uint32_t>(input.size())}, input);
}

// float16: inputs rounded to half precision, output decoded to float.
std::vector<float> runFloat16(UnaryMethod op, const std::vector<float>& input) {
  std::vector<uint16_t> halves;
  for (float value : input) halves.push_back(floatToHalf(value));
  auto output = runUnary<uint16_t>(op, T::Float16, {static_cast<uint32_t>(input.size())}, halves);
  std::vector<float> result;
  for (uint16_t half : output) result.push_back(halfToFloat(half));
  return result;
}

float half(float value) {
  return halfToFloat(floatToHalf(value));
}

void expectFloats(const std::vector<float>& actual, const std::vector<float>& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    if (std::isnan(expected[i])) {
      EXPECT_TRUE(std::isnan(actual[i])) << "element " << i << ": " << actual[i];
    } else {
      EXPECT_FLOAT_EQ(actual[i], expected[i]) << "element " << i;
    }
  }
}

WEBNN_BACKEND_TEST(ElementwiseUnary, AbsNegSignFloat32) {
  expectFloats(runFloat32(&MLGraphBuilder::abs, {-2.5f, 0.f, 3.f, -kInf}), {2.5f, 0.f, 3.f, kInf});
  expectFloats(runFloat32(&MLGraphBuilder::neg, {-2.5f, 0.f, 3.f, kInf}),
               {2.5f, -0.f, -3.f, -kInf});
  // sign: 1 if > 0, -1 if < 0, 0 otherwise (NaN and zeros give 0).
  expectFloats(runFloat32(&MLGraphBuilder::sign, {-0.25f, 7.f, 0.f, -kInf, kInf, kNaN}),
               {-1.f, 1.f, 0.f, -1.f, 1.f, 0.f});
}

WEBNN_BACKEND_TEST(ElementwiseUnary, AbsNegSignFloat16) {
  expectFloats(runFloat16(&MLGraphBuilder::abs, {-2.5f, 0.1f}), {2.5f, half(0.1f)});
  expectFloats(runFloat16(&MLGraphBuilder::neg, {-2.5f, 0.1f}), {2.5f, -half(0.1f)});
  expectFloats(runFloat16(&MLGraphBuilder::sign, {-0.25f, 7.f, 0.f}), {-1.f, 1.f, 0.f});
}

WEBNN_BACKEND_TEST(ElementwiseUnary, AbsAndNegOfSignedIntegersWrap) {
  EXPECT_EQ(
      runUnary<int8_t>(&MLGraphBuilder::abs, T::Int8, {4}, std::vector<int8_t>{-128, -5, 0, 7}),
      (std::vector<int8_t>{-128, 5, 0, 7}));
  EXPECT_EQ(runUnary<int32_t>(&MLGraphBuilder::neg, T::Int32, {3},
                              std::vector<int32_t>{std::numeric_limits<int32_t>::min(), -3, 4}),
            (std::vector<int32_t>{std::numeric_limits<int32_t>::min(), 3, -4}));
  const int64_t big = (int64_t{1} << 60) + 1;  // not representable in double
  EXPECT_EQ(runUnary<int64_t>(&MLGraphBuilder::abs, T::Int64, {2}, std::vector<int64_t>{-big, big}),
            (std::vector<int64_t>{big, big}));
  EXPECT_EQ(runUnary<int64_t>(&MLGraphBuilder::neg, T::Int64, {1}, std::vector<int64_t>{big}),
            (std::vector<int64_t>{-big}));
}

WEBNN_BACKEND_TEST(ElementwiseUnary, SignOfIntegers) {
  EXPECT_EQ(
      runUnary<int8_t>(&MLGraphBuilder::sign, T::Int8, {4}, std::vector<int8_t>{-128, 0, 1, 127}),
      (std::vector<int8_t>{-1, 0, 1, 1}));
  EXPECT_EQ(
      runUnary<int32_t>(&MLGraphBuilder::sign, T::Int32, {2, 2}, std::vector<int32_t>{-1, 0, 1, 2}),
      (std::vector<int32_t>{-1, 0, 1, 1}));
  EXPECT_EQ(runUnary<int64_t>(&MLGraphBuilder::sign, T::Int64, {3},
                              std::vector<int64_t>{std::numeric_limits<int64_t>::min(), 0, 5}),
            (std::vector<int64_t>{-1, 0, 1}));
}

WEBNN_BACKEND_TEST(ElementwiseUnary, Rounding) {
  const std::vector<float> x = {-1.5f, -0.5f, 0.5f, 1.2f, 1.5f, 2.5f, 2.6f, -2.5f};
  expectFloats(runFloat32(&MLGraphBuilder::ceil, x), {-1.f, -0.f, 1.f, 2.f, 2.f, 3.f, 3.f, -2.f});
  expectFloats(runFloat32(&MLGraphBuilder::floor, x), {-2.f, -1.f, 0.f, 1.f, 1.f, 2.f, 2.f, -3.f});
  // roundEven: halves go to the even neighbour.
  expectFloats(runFloat32(&MLGraphBuilder::roundEven, x),
               {-2.f, -0.f, 0.f, 1.f, 2.f, 2.f, 3.f, -2.f});
  expectFloats(runFloat16(&MLGraphBuilder::roundEven, {0.5f, 1.5f, 2.5f, -3.5f, 1000.4f}),
               {0.f, 2.f, 2.f, -4.f, 1000.f});
  expectFloats(runFloat16(&MLGraphBuilder::ceil, {-1.5f, 1.2f}), {-1.f, 2.f});
  expectFloats(runFloat16(&MLGraphBuilder::floor, {-1.5f, 1.2f}), {-2.f, 1.f});
}

WEBNN_BACKEND_TEST(ElementwiseUnary, TranscendentalsFloat32) {
  expectFloats(runFloat32(&MLGraphBuilder::exp, {0.f, 1.f, -1.f}), {1.f, 2.7182817f, 0.36787945f});
  expectFloats(runFloat32(&MLGraphBuilder::log, {1.f, 2.7182817f, 0.f, -1.f}),
               {0.f, 1.f, -kInf, kNaN});
  expectFloats(runFloat32(&MLGraphBuilder::sqrt, {4.f, 2.f, 0.f, -1.f}),
               {2.f, 1.4142135f, 0.f, kNaN});
  expectFloats(runFloat32(&MLGraphBuilder::reciprocal, {4.f, -0.5f, 0.f, 3.f}),
               {0.25f, -2.f, kInf, 0.33333334f});
  expectFloats(runFloat32(&MLGraphBuilder::cos, {0.f, 1.f, 3.1415927f}), {1.f, 0.5403023f, -1.f});
  expectFloats(runFloat32(&MLGraphBuilder::sin, {0.f, 1.f, -0.5f}),
               {0.f, 0.84147096f, -0.47942555f});
  expectFloats(runFloat32(&MLGraphBuilder::tan, {0.f, 1.f, -0.5f}),
               {0.f, 1.5574077f, -0.54630249f});
  expectFloats(runFloat32(&MLGraphBuilder::erf, {0.f, 1.f, -0.5f, 4.f}),
               {0.f, 0.84270079f, -0.52049988f, 0.99999998f});
}

WEBNN_BACKEND_TEST(ElementwiseUnary, TranscendentalsFloat16RoundOnce) {
  expectFloats(runFloat16(&MLGraphBuilder::exp, {0.f, 1.f, -1.f, 12.f}),
               {1.f, 2.71875f, 0.36791992f, kInf});  // e^12 = 162754.8 overflows half
  expectFloats(runFloat16(&MLGraphBuilder::log, {1.f, 2.f}), {0.f, half(0.69314718f)});
  expectFloats(runFloat16(&MLGraphBuilder::sqrt, {2.f}), {half(1.41421356f)});
  expectFloats(runFloat16(&MLGraphBuilder::reciprocal, {3.f}), {half(0.33333333f)});
  expectFloats(runFloat16(&MLGraphBuilder::cos, {1.f}), {half(0.54030231f)});
  expectFloats(runFloat16(&MLGraphBuilder::sin, {1.f}), {half(0.84147098f)});
  expectFloats(runFloat16(&MLGraphBuilder::tan, {1.f}), {half(1.55740772f)});
  expectFloats(runFloat16(&MLGraphBuilder::erf, {1.f}), {half(0.84270079f)});
}

WEBNN_BACKEND_TEST(ElementwiseUnary, IdentityCopiesEveryType) {
  expectFloats(runFloat32(&MLGraphBuilder::identity, {-1.5f, kInf, 0.f}), {-1.5f, kInf, 0.f});
  const uint64_t big = ~uint64_t{0} - 1;
  EXPECT_EQ(
      runUnary<uint64_t>(&MLGraphBuilder::identity, T::Uint64, {2}, std::vector<uint64_t>{big, 3}),
      (std::vector<uint64_t>{big, 3}));
  // int4: three elements packed in two bytes, low nibble first.
  EXPECT_EQ(
      runUnary<uint8_t>(&MLGraphBuilder::identity, T::Int4, {3}, std::vector<uint8_t>{0x9f, 0x07}),
      (std::vector<uint8_t>{0x9f, 0x07}));
  EXPECT_EQ(
      runUnary<uint16_t>(&MLGraphBuilder::identity, T::Float16, {1}, std::vector<uint16_t>{0x3c00}),
      (std::vector<uint16_t>{0x3c00}));
}

WEBNN_BACKEND_TEST(ElementwiseUnary, IsNaNAndIsInfiniteGiveUint8) {
  const std::vector<float> x = {1.5f, kNaN, kInf, -kInf, 0.f, -kNaN};
  EXPECT_EQ(runUnary<uint8_t>(&MLGraphBuilder::isNaN, T::Float32, {6}, x),
            (std::vector<uint8_t>{0, 1, 0, 0, 0, 1}));
  EXPECT_EQ(runUnary<uint8_t>(&MLGraphBuilder::isInfinite, T::Float32, {2, 3}, x),
            (std::vector<uint8_t>{0, 0, 1, 1, 0, 0}));
  std::vector<uint16_t> halves = {0x3e00, 0x7e00, 0x7c00, 0xfc00, 0x7bff};  // 1.5 NaN +Inf -Inf max
  EXPECT_EQ(runUnary<uint8_t>(&MLGraphBuilder::isNaN, T::Float16, {5}, halves),
            (std::vector<uint8_t>{0, 1, 0, 0, 0}));
  EXPECT_EQ(runUnary<uint8_t>(&MLGraphBuilder::isInfinite, T::Float16, {5}, halves),
            (std::vector<uint8_t>{0, 0, 1, 1, 0}));
}

WEBNN_BACKEND_TEST(ElementwiseUnary, ShapeInference) {
  MLContext context = testing::createTestContext();
  MLGraphBuilder builder(context);
  auto x = builder.input("x", {T::Float16, {2, 1, 3}});
  auto scalar = builder.input("s", {T::Float32, {}});
  for (UnaryMethod op :
       {&MLGraphBuilder::abs, &MLGraphBuilder::ceil, &MLGraphBuilder::cos, &MLGraphBuilder::erf,
        &MLGraphBuilder::exp, &MLGraphBuilder::floor, &MLGraphBuilder::identity,
        &MLGraphBuilder::log, &MLGraphBuilder::neg, &MLGraphBuilder::reciprocal,
        &MLGraphBuilder::roundEven, &MLGraphBuilder::sign, &MLGraphBuilder::sin,
        &MLGraphBuilder::sqrt, &MLGraphBuilder::tan}) {
    auto y = (builder.*op)(x, {});
    EXPECT_EQ(y.dataType(), T::Float16);
    EXPECT_EQ(y.shape(), (std::vector<uint32_t>{2, 1, 3}));
    EXPECT_EQ((builder.*op)(scalar, {}).shape(), std::vector<uint32_t>{});
  }
  for (UnaryMethod op : {&MLGraphBuilder::isNaN, &MLGraphBuilder::isInfinite}) {
    auto y = (builder.*op)(x, {});
    EXPECT_EQ(y.dataType(), T::Uint8);
    EXPECT_EQ(y.shape(), (std::vector<uint32_t>{2, 1, 3}));
  }
  auto i = builder.input("i", {T::Int4, {5}});
  EXPECT_EQ(builder.identity(i).dataType(), T::Int4);
}

WEBNN_BACKEND_TEST(ElementwiseUnary, DataTypesFollowTheSpec) {
  MLContext context = testing::createTestContext();
  WEBNN_REQUIRE_SPEC_LIMITS(context);
  MLGraphBuilder builder(context);
  auto i32 = builder.input("i32", {T::Int32, {2}});
  auto u32 = builder.input("u32", {T::Uint32, {2}});
  auto u8 = builder.input("u8", {T::Uint8, {2}});
  for (UnaryMethod op : {&MLGraphBuilder::abs, &MLGraphBuilder::neg, &MLGraphBuilder::sign}) {
    EXPECT_NO_THROW((builder.*op)(i32, {}));
    expectError([&] { (builder.*op)(u32, {.label = "u"}); }, K::TypeError,
                {"'u'", "uint32", "input"});
  }
  expectError([&] { builder.ceil(i32, {.label = "c"}); }, K::TypeError,
              {"ceil", "'c'", "input", "int32", "float32, float16"});
  expectError([&] { builder.roundEven(u8); }, K::TypeError, {"roundEven", "uint8"});
  expectError([&] { builder.sqrt(i32); }, K::TypeError, {"sqrt", "int32"});
  expectError([&] { builder.isNaN(i32, {.label = "n"}); }, K::TypeError, {"isNaN", "'n'", "int32"});
  expectError([&] { builder.isInfinite(u8); }, K::TypeError, {"isInfinite", "uint8"});
  EXPECT_NO_THROW(builder.identity(u32));
  EXPECT_NO_THROW(builder.identity(u8));

  auto limits = context.opSupportLimits();
  EXPECT_EQ(limits.ops.at("abs").at("input").dataTypes.size(), 5u);
  EXPECT_TRUE(limits.ops.at("sign").at("input").supports(T::Int64));
  EXPECT_FALSE(limits.ops.at("exp").at("input").supports(T::Int32));
  EXPECT_TRUE(limits.ops.at("identity").at("input").supports(T::Uint4));
  EXPECT_TRUE(limits.ops.at("isNaN").at("a").supports(T::Float16));
  EXPECT_EQ(limits.ops.at("isInfinite").at("output").dataTypes, std::vector<T>{T::Uint8});
  EXPECT_TRUE(limits.ops.at("roundEven").at("output").supports(T::Float32));
}

WEBNN_BACKEND_TEST(ElementwiseUnary, OperandFromAnotherBuilderIsATypeError) {
  MLContext context = testing::createTestContext();
  MLGraphBuilder builder(context);
  MLGraphBuilder other(context);
  auto foreign = other.input("x", {T::Float32, {2}});
  expectError([&] { builder.exp(foreign, {.label = "e"}); }, K::TypeError, {"exp"});
  expectError([&] { builder.isNaN(foreign); }, K::TypeError, {"isNaN"});
  expectError([&] { builder.abs(MLOperand()); }, K::TypeError, {"abs"});
}

WEBNN_BACKEND_TEST(ElementwiseUnary, BuilderIsOneShot) {
  MLContext context = testing::createTestContext();
  MLGraphBuilder builder(context);
  auto x = builder.input("x", {T::Float32, {2}});
  builder.build({{"y", builder.abs(x)}});
  expectError([&] { builder.abs(x); }, K::InvalidStateError);
}

}  // namespace
}  // namespace webnn
