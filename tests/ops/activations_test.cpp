// Activations: relu, elu, gelu, hardSigmoid, hardSwish, leakyRelu, linear, prelu, sigmoid,
// softmax, softplus, softsign, tanh, clamp.
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

// Builds y = make(builder, x) for x of `type`/`shape`, runs it on `input`, returns y's elements.
template <class Out, class In, class Make>
std::vector<Out> run(T type, const std::vector<uint32_t>& shape, const std::vector<In>& input,
                     Make make) {
  MLContext context = testing::createTestContext();
  MLGraphBuilder builder(context);
  auto x = builder.input("x", {type, shape});
  auto graph = builder.build({{"y", make(builder, x)}});
  MLTensor in = testing::inputTensor(context, graph.inputDescriptors().at("x"));
  context.writeTensor(in, bytesOf(input));
  MLTensor out = testing::outputTensor(context, graph.outputDescriptors().at("y"));
  context.dispatch(graph, {{"x", in}}, {{"y", out}});
  return testing::readAs<Out>(context, out);
}

template <class Make>
std::vector<float> runFloat32(const std::vector<float>& input, Make make) {
  return run<float>(T::Float32, {static_cast<uint32_t>(input.size())}, input, make);
}

template <class Make>
std::vector<float> runFloat16(const std::vector<float>& input, Make make) {
  std::vector<uint16_t> halves;
  for (float value : input) halves.push_back(floatToHalf(value));
  auto output = run<uint16_t>(T::Float16, {static_cast<uint32_t>(input.size())}, halves, make);
  std::vector<float> result;
  for (uint16_t bits : output) result.push_back(halfToFloat(bits));
  return result;
}

float half(float value) {
  return halfToFloat(floatToHalf(value));
}

constexpr double kInfD = std::numeric_limits<double>::infinity();

MLClampOptions clampOptions(double minValue, double maxValue) {
  MLClampOptions options;
  options.minValue = minValue;
  options.maxValue = maxValue;
  return options;
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

WEBNN_BACKEND_TEST(Activations, Relu) {
  auto relu = [](MLGraphBuilder& b, const MLOperand& x) { return b.relu(x); };
  expectFloats(runFloat32({-2.f, 0.f, 3.5f, -kInf, kInf}, relu), {0.f, 0.f, 3.5f, 0.f, kInf});
  expectFloats(runFloat16({-2.f, 0.1f}, relu), {0.f, half(0.1f)});
  EXPECT_EQ(run<int8_t>(T::Int8, {3}, std::vector<int8_t>{-128, 0, 127}, relu),
            (std::vector<int8_t>{0, 0, 127}));
  const int64_t big = (int64_t{1} << 62) + 1;
  EXPECT_EQ(run<int64_t>(T::Int64, {2}, std::vector<int64_t>{big, -big}, relu),
            (std::vector<int64_t>{big, 0}));
}

WEBNN_BACKEND_TEST(Activations, Elu) {
  // max(0, x) + alpha * (exp(min(0, x)) - 1)
  auto elu = [](MLGraphBuilder& b, const MLOperand& x) { return b.elu(x); };
  expectFloats(runFloat32({-1.f, 0.f, 2.f, -kInf}, elu), {-0.63212056f, 0.f, 2.f, -1.f});
  auto elu2 = [](MLGraphBuilder& b, const MLOperand& x) { return b.elu(x, MLEluOptions{{}, 2.0}); };
  expectFloats(runFloat32({-1.f, 3.f}, elu2), {-1.2642411f, 3.f});
  expectFloats(runFloat16({-1.f, 2.f}, elu), {half(-0.63212056f), 2.f});
}

WEBNN_BACKEND_TEST(Activations, Gelu) {
  // 0.5 * x * (1 + erf(x / sqrt(2)))
  auto gelu = [](MLGraphBuilder& b, const MLOperand& x) { return b.gelu(x); };
  expectFloats(runFloat32({-1.f, 0.f, 1.f, 2.f}, gelu),
               {-0.15865525f, 0.f, 0.84134475f, 1.9544997f});
  expectFloats(runFloat16({1.f}, gelu), {half(0.84134475f)});
}

WEBNN_BACKEND_TEST(Activations, HardSigmoid) {
  // max(0, min(1, alpha * x + beta)), defaults alpha 0.2, beta 0.5
  auto hs = [](MLGraphBuilder& b, const MLOperand& x) { return b.hardSigmoid(x); };
  expectFloats(runFloat32({-3.f, 0.f, 1.f, 3.f}, hs), {0.f, 0.5f, 0.7f, 1.f});
  auto custom = [](MLGraphBuilder& b, const MLOperand& x) {
    return b.hardSigmoid(x, MLHardSigmoidOptions{{}, -0.5, 0.25});
  };
  expectFloats(runFloat32({-1.f, 0.f, 1.f}, custom), {0.75f, 0.25f, 0.f});
  expectFloats(runFloat16({1.f}, hs), {half(0.7f)});
}

WEBNN_BACKEND_TEST(Activations, HardSwish) {
  // x * max(0, min(6, x + 3)) / 6
  auto hs = [](MLGraphBuilder& b, const MLOperand& x) { return b.hardSwish(x); };
  expectFloats(runFloat32({-4.f, -1.f, 0.f, 1.f, 4.f}, hs),
               {-0.f, -0.33333334f, 0.f, 0.6666667f, 4.f});
  expectFloats(runFloat16({1.f}, hs), {half(0.66666667f)});
}

WEBNN_BACKEND_TEST(Activations, LeakyRelu) {
  auto lr = [](MLGraphBuilder& b, const MLOperand& x) { return b.leakyRelu(x); };
  expectFloats(runFloat32({-2.f, 0.f, 3.f}, lr), {-0.02f, 0.f, 3.f});
  auto lr5 = [](MLGraphBuilder& b, const MLOperand& x) {
    return b.leakyRelu(x, MLLeakyReluOptions{{}, 5});
  };
  expectFloats(runFloat32({-2.f, 3.f}, lr5), {-10.f, 3.f});
  // float16: alpha is cast to float16 first (0.01 -> 0.0099945068), then one rounding.
  expectFloats(runFloat16({-100.f}, lr), {half(-100.0 * static_cast<double>(half(0.01f)))});
}

WEBNN_BACKEND_TEST(Activations, Linear) {
  auto identity = [](MLGraphBuilder& b, const MLOperand& x) { return b.linear(x); };
  expectFloats(runFloat32({-2.f, 0.5f}, identity), {-2.f, 0.5f});
  auto affine = [](MLGraphBuilder& b, const MLOperand& x) {
    return b.linear(x, MLLinearOptions{{}, 2, -1});
  };
  expectFloats(runFloat32({-2.f, 0.5f, 3.f}, affine), {-5.f, 0.f, 5.f});
  expectFloats(runFloat16({-2.f, 0.5f}, affine), {-5.f, 0.f});
}

WEBNN_BACKEND_TEST(Activations, SigmoidSoftplusSoftsignTanh) {
  auto sigmoid = [](MLGraphBuilder& b, const MLOperand& x) { return b.sigmoid(x); };
  expectFloats(runFloat32({0.f, 1.f, -1.f, -kInf, kInf}, sigmoid),
               {0.5f, 0.7310586f, 0.26894142f, 0.f, 1.f});
  expectFloats(runFloat16({1.f}, sigmoid), {half(0.7310586f)});
  // softplus = log(1 + exp(x)); large inputs do not overflow.
  auto softplus = [](MLGraphBuilder& b, const MLOperand& x) { return b.softplus(x); };
  expectFloats(runFloat32({0.f, 1.f, -1.f, 1000.f, -1000.f}, softplus),
               {0.6931472f, 1.3132616f, 0.31326169f, 1000.f, 0.f});
  expectFloats(runFloat16({1.f}, softplus), {half(1.3132616f)});
  // softsign = x / (1 + |x|)
  auto softsign = [](MLGraphBuilder& b, const MLOperand& x) { return b.softsign(x); };
  expectFloats(runFloat32({0.f, 1.f, -3.f}, softsign), {0.f, 0.5f, -0.75f});
  expectFloats(runFloat16({2.f}, softsign), {half(0.6666667f)});
  auto tanh = [](MLGraphBuilder& b, const MLOperand& x) { return b.tanh(x); };
  expectFloats(runFloat32({0.f, 1.f, -0.5f, kInf}, tanh), {0.f, 0.7615942f, -0.46211716f, 1.f});
  expectFloats(runFloat16({1.f}, tanh), {half(0.7615942f)});
}

WEBNN_BACKEND_TEST(Activations, PreluBroadcastsSlope) {
  MLContext context = testing::createTestContext();
  MLGraphBuilder builder(context);
  auto x = builder.input("x", {T::Float32, {2, 3}});
  std::vector<float> slopeData = {0.5f, 2.f, -1.f};
  auto slope = builder.constant({T::Float32, {3}}, bytesOf(slopeData));
  auto y = builder.prelu(x, slope);
  EXPECT_EQ(y.shape(), (std::vector<uint32_t>{2, 3}));
  auto graph = builder.build({{"y", y}});
  EXPECT_EQ(testing::runFloat(context, graph, {{"x", {-2, -2, -2, 1, 2, 3}}}, "y"),
            (std::vector<float>{-1, -4, 2, 1, 2, 3}));
}

WEBNN_BACKEND_TEST(Activations, PreluFloat16AndIntegers) {
  MLContext context = testing::createTestContext();
  MLGraphBuilder builder(context);
  auto x = builder.input("x", {T::Float16, {3}});
  std::vector<uint16_t> slopeData = {floatToHalf(0.1f)};
  auto slope = builder.constant({T::Float16, {}}, bytesOf(slopeData));
  auto xi = builder.input("xi", {T::Int8, {4}});
  std::vector<int8_t> slopeInt = {3};
  auto slopeI = builder.constant({T::Int8, {1}}, bytesOf(slopeInt));
  auto graph = builder.build({{"y", builder.prelu(x, slope)}, {"yi", builder.prelu(xi, slopeI)}});
  MLTensor in = testing::inputTensor(context, {T::Float16, {3}});
  std::vector<uint16_t> xData = {floatToHalf(-3.f), floatToHalf(0.f), floatToHalf(5.f)};
  context.writeTensor(in, bytesOf(xData));
  MLTensor inI = testing::inputTensor(context, {T::Int8, {4}});
  std::vector<int8_t> xiData = {-50, -2, 0, 7};
  context.writeTensor(inI, bytesOf(xiData));
  MLTensor out = testing::outputTensor(context, {T::Float16, {3}});
  MLTensor outI = testing::outputTensor(context, {T::Int8, {4}});
  context.dispatch(graph, {{"x", in}, {"xi", inI}}, {{"y", out}, {"yi", outI}});
  auto y = testing::readAs<uint16_t>(context, out);
  EXPECT_EQ(halfToFloat(y[0]), half(-3.0 * static_cast<double>(half(0.1f))));
  EXPECT_EQ(halfToFloat(y[1]), 0.f);
  EXPECT_EQ(halfToFloat(y[2]), 5.f);
  // -50 * 3 = -150 wraps to 106 in int8, as integer mul does.
  EXPECT_EQ(testing::readAs<int8_t>(context, outI), (std::vector<int8_t>{106, -6, 0, 7}));
}

WEBNN_BACKEND_TEST(Activations, PreluValidation) {
  MLContext context = testing::createTestContext();
  MLGraphBuilder builder(context);
  auto x = builder.input("x", {T::Float32, {2, 3}});
  auto slope4 = builder.input("s4", {T::Float32, {4}});
  auto slopeI = builder.input("si", {T::Int32, {3}});
  auto slopeWide = builder.input("sw", {T::Float32, {2, 1, 3}});
  auto u8 = builder.input("u8", {T::Uint8, {3}});
  expectError([&] { builder.prelu(x, slope4, {.label = "p"}); }, K::TypeError,
              {"prelu", "'p'", "[4]", "[2, 3]"});
  expectError([&] { builder.prelu(x, slopeI); }, K::TypeError, {"prelu", "slope", "int32"});
  expectError([&] { builder.prelu(u8, u8); }, K::TypeError, {"prelu", "input", "uint8"});
  // The spec's steps broadcast bidirectionally: the output takes the broadcast shape.
  EXPECT_EQ(builder.prelu(x, slopeWide).shape(), (std::vector<uint32_t>{2, 2, 3}));
  MLGraphBuilder other(context);
  auto foreign = other.input("f", {T::Float32, {3}});
  expectError([&] { builder.prelu(x, foreign); }, K::TypeError, {"prelu"});
}

WEBNN_BACKEND_TEST(Activations, SoftmaxAlongAnAxis) {
  MLContext context = testing::createTestContext();
  MLGraphBuilder builder(context);
  auto x = builder.input("x", {T::Float32, {2, 2}});
  auto graph = builder.build({{"rows", builder.softmax(x, 1)}, {"cols", builder.softmax(x, 0)}});
  // rows: softmax([0, ln 3]) = [0.25, 0.75]; softmax([1000, 1000]) = [0.5, 0.5] (no overflow).
  const float ln3 = 1.0986123f;
  std::vector<float> input = {0.f, ln3, 1000.f, 1000.f};
  expectFloats(testing::runFloat(context, graph, {{"x", input}}, "rows"),
               {0.25f, 0.75f, 0.5f, 0.5f});
  // cols: softmax([0, 1000]) and softmax([ln 3, 1000]).
  expectFloats(testing::runFloat(context, graph, {{"x", input}}, "cols"), {0.f, 0.f, 1.f, 1.f});
}

WEBNN_BACKEND_TEST(Activations, SoftmaxMiddleAxisAndFloat16) {
  // [1, 3, 2] over axis 1: each column of 3 values.
  std::vector<float> input = {0.f, 1.f, 0.f, 2.f, 0.f, 3.f};
  auto softmax1 = [](MLGraphBuilder& b, const MLOperand& x) { return b.softmax(x, 1); };
  auto y = run<float>(T::Float32, {1, 3, 2}, input, softmax1);
  const double e1 = std::exp(1.0), e2 = std::exp(2.0), e3 = std::exp(3.0);
  const double s = e1 + e2 + e3;
  expectFloats(y, {1.f / 3, static_cast<float>(e1 / s), 1.f / 3, static_cast<float>(e2 / s),
                   1.f / 3, static_cast<float>(e3 / s)});
  auto softmax0 = [](MLGraphBuilder& b, const MLOperand& x) { return b.softmax(x, 0); };
  expectFloats(runFloat16({0.f, 1.0986123f}, softmax0), {0.25f, 0.75f});
}

WEBNN_BACKEND_TEST(Activations, SoftmaxValidation) {
  MLContext context = testing::createTestContext();
  MLGraphBuilder builder(context);
  auto x = builder.input("x", {T::Float32, {2, 3}});
  auto scalar = builder.input("s", {T::Float32, {}});
  auto i32 = builder.input("i", {T::Int32, {2}});
  EXPECT_EQ(builder.softmax(x, 0).shape(), (std::vector<uint32_t>{2, 3}));
  expectError([&] { builder.softmax(x, 2, {.label = "sm"}); }, K::TypeError,
              {"softmax", "'sm'", "axis 2", "rank 2"});
  expectError([&] { builder.softmax(scalar, 0); }, K::TypeError, {"softmax", "axis"});
  expectError([&] { builder.softmax(i32, 0); }, K::TypeError, {"softmax", "int32"});
}

WEBNN_BACKEND_TEST(Activations, ClampFloat) {
  auto both = [](MLGraphBuilder& b, const MLOperand& x) { return b.clamp(x, clampOptions(-1, 2)); };
  expectFloats(runFloat32({-5.f, -1.f, 0.5f, 2.f, 9.f, kNaN, -kInf, kInf}, both),
               {-1.f, -1.f, 0.5f, 2.f, 2.f, kNaN, -1.f, 2.f});
  auto none = [](MLGraphBuilder& b, const MLOperand& x) { return b.clamp(x); };
  expectFloats(runFloat32({-5.f, kInf, kNaN}, none), {-5.f, kInf, kNaN});
  auto minOnly = [](MLGraphBuilder& b, const MLOperand& x) {
    return b.clamp(x, clampOptions(-2, kInfD));
  };
  // The WPT float16 case: NaN stays NaN, infinities clamp on the bounded side only.
  expectFloats(runFloat16({kNaN, -kInf, kInf, -64000.f, 64000.f, -2.f, 1.f, 0.f}, minOnly),
               {kNaN, -2.f, kInf, -2.f, 64000.f, -2.f, 1.f, 0.f});
  // Bounds are cast to the input type: 0.1 becomes float16's 0.099975586.
  auto tenth = [](MLGraphBuilder& b, const MLOperand& x) {
    return b.clamp(x, clampOptions(-kInfD, 0.1));
  };
  expectFloats(runFloat16({1.f}, tenth), {half(0.1f)});
}

WEBNN_BACKEND_TEST(Activations, ClampIntegersExactly) {
  auto c = [](double low, double high) {
    return
        [=](MLGraphBuilder& b, const MLOperand& x) { return b.clamp(x, clampOptions(low, high)); };
  };
  EXPECT_EQ(
      run<int8_t>(T::Int8, {8}, std::vector<int8_t>{-128, 127, -4, -2, 1, 0, 2, 4}, c(-2, 125)),
      (std::vector<int8_t>{-2, 125, -2, -2, 1, 0, 2, 4}));
  EXPECT_EQ(run<uint8_t>(T::Uint8, {4}, std::vector<uint8_t>{255, 127, 5, 0}, c(5, 200)),
            (std::vector<uint8_t>{200, 127, 5, 5}));
  EXPECT_EQ(
      run<uint32_t>(T::Uint32, {2}, std::vector<uint32_t>{4294967295u, 0}, c(5, 4294967290.0)),
      (std::vector<uint32_t>{4294967290u, 5}));
  // int64 values beyond 2^53 pass through untouched; the bounds saturate to the type's range.
  const int64_t big = (int64_t{1} << 62) + 1;
  auto noBounds = [](MLGraphBuilder& b, const MLOperand& x) { return b.clamp(x); };
  EXPECT_EQ(run<int64_t>(T::Int64, {3}, std::vector<int64_t>{big, -big, 3}, noBounds),
            (std::vector<int64_t>{big, -big, 3}));
  EXPECT_EQ(run<int64_t>(T::Int64, {3}, std::vector<int64_t>{big, -big, 3}, c(-4147483648.0, 1e30)),
            (std::vector<int64_t>{big, -4147483648, 3}));
  const uint64_t huge = ~uint64_t{0} - 2;
  EXPECT_EQ(run<uint64_t>(T::Uint64, {3}, std::vector<uint64_t>{huge, 127, 0}, c(5, 5294967290.0)),
            (std::vector<uint64_t>{5294967290u, 127, 5}));
  // Fractional bounds are cast (truncated) to the integer type: [1.7, 3.9] -> [1, 3].
  EXPECT_EQ(run<int32_t>(T::Int32, {3}, std::vector<int32_t>{0, 2, 9}, c(1.7, 3.9)),
            (std::vector<int32_t>{1, 2, 3}));
  // int4: packed nibbles, low first: [-8, 7, 3] -> clamp [-2, 5] -> [-2, 5, 3].
  EXPECT_EQ(run<uint8_t>(T::Int4, {3}, std::vector<uint8_t>{0x78, 0x03}, c(-2, 5)),
            (std::vector<uint8_t>{0x5e, 0x03}));
}

// MLNumber bounds: int64/uint64 bounds beyond 2^53 (which a double cannot hold) clamp exactly.
WEBNN_BACKEND_TEST(Activations, ClampWithBoundsBeyondDoublePrecision) {
  const int64_t low = (int64_t{1} << 60) + 3, high = (int64_t{1} << 60) + 7;
  auto exact = [=](MLGraphBuilder& b, const MLOperand& x) {
    return b.clamp(x, {.minValue = low, .maxValue = high});
  };
  EXPECT_EQ(run<int64_t>(T::Int64, {4}, std::vector<int64_t>{low - 1, low + 1, high + 1, 0}, exact),
            (std::vector<int64_t>{low, low + 1, high, low}));
  const uint64_t top = ~uint64_t{0} - 1;
  auto upper = [=](MLGraphBuilder& b, const MLOperand& x) {
    return b.clamp(x, {.minValue = uint64_t{1}, .maxValue = top});
  };
  EXPECT_EQ(run<uint64_t>(T::Uint64, {3}, std::vector<uint64_t>{~uint64_t{0}, top - 1, 0}, upper),
            (std::vector<uint64_t>{top, top - 1, 1}));
}

WEBNN_BACKEND_TEST(Activations, ClampValidation) {
  MLContext context = testing::createTestContext();
  WEBNN_REQUIRE_SPEC_LIMITS(context, "clamp");
  MLGraphBuilder builder(context);
  auto f = builder.input("f", {T::Float32, {2}});
  auto i = builder.input("i", {T::Int32, {2}});
  auto h = builder.input("h", {T::Float16, {2}});
  expectError([&] { builder.clamp(f, {.label = "c", .minValue = 3, .maxValue = 2}); }, K::TypeError,
              {"clamp", "'c'", "minValue", "maxValue"});
  // Equal bounds are fine; after casting to int32, 1.2 and 1.7 are both 1.
  EXPECT_NO_THROW(builder.clamp(f, clampOptions(2, 2)));
  EXPECT_NO_THROW(builder.clamp(i, clampOptions(1.7, 1.2)));
  expectError([&] { builder.clamp(i, clampOptions(3, 2.5)); }, K::TypeError, {"clamp", "int32"});
  // After casting to float16 both bounds are +Infinity.
  EXPECT_NO_THROW(builder.clamp(h, clampOptions(70000, 65520)));
  EXPECT_EQ(builder.clamp(h).dataType(), T::Float16);
  MLGraphBuilder other(context);
  auto foreign = other.input("x", {T::Float32, {2}});
  expectError([&] { builder.clamp(foreign); }, K::TypeError, {"clamp"});
  EXPECT_TRUE(context.opSupportLimits().ops.at("clamp").at("input").supports(T::Uint64));
}

WEBNN_BACKEND_TEST(Activations, FloatOnlyActivationsRejectIntegers) {
  MLContext context = testing::createTestContext();
  WEBNN_REQUIRE_SPEC_LIMITS(context);
  MLGraphBuilder builder(context);
  auto i = builder.input("i", {T::Int32, {2}});
  auto u = builder.input("u", {T::Uint32, {2}});
  expectError([&] { builder.elu(i, {.label = "e", .alpha = 1.0}); }, K::TypeError,
              {"elu", "'e'", "int32"});
  expectError([&] { builder.gelu(i); }, K::TypeError, {"gelu", "int32"});
  expectError([&] { builder.hardSigmoid(i); }, K::TypeError, {"hardSigmoid", "int32"});
  expectError([&] { builder.hardSwish(i); }, K::TypeError, {"hardSwish", "int32"});
  expectError([&] { builder.leakyRelu(i); }, K::TypeError, {"leakyRelu", "int32"});
  expectError([&] { builder.linear(i); }, K::TypeError, {"linear", "int32"});
  expectError([&] { builder.sigmoid(i); }, K::TypeError, {"sigmoid", "int32"});
  expectError([&] { builder.softplus(i); }, K::TypeError, {"softplus", "int32"});
  expectError([&] { builder.softsign(i); }, K::TypeError, {"softsign", "int32"});
  expectError([&] { builder.tanh(i); }, K::TypeError, {"tanh", "int32"});
  expectError([&] { builder.relu(u, {.label = "r"}); }, K::TypeError, {"relu", "'r'", "uint32"});
  EXPECT_NO_THROW(builder.relu(i));
  MLGraphBuilder other(context);
  auto foreign = other.input("x", {T::Float32, {2}});
  expectError([&] { builder.sigmoid(foreign); }, K::TypeError, {"sigmoid"});
  expectError([&] { builder.elu(foreign); }, K::TypeError, {"elu"});
}

WEBNN_BACKEND_TEST(Activations, ShapesAreKept) {
  MLContext context = testing::createTestContext();
  MLGraphBuilder builder(context);
  auto x = builder.input("x", {T::Float16, {1, 2, 3}});
  for (const auto& y : {builder.relu(x), builder.elu(x), builder.gelu(x), builder.hardSigmoid(x),
                        builder.hardSwish(x), builder.leakyRelu(x), builder.linear(x),
                        builder.sigmoid(x), builder.softplus(x), builder.softsign(x),
                        builder.tanh(x), builder.clamp(x), builder.softmax(x, 2)}) {
    EXPECT_EQ(y.dataType(), T::Float16);
    EXPECT_EQ(y.shape(), (std::vector<uint32_t>{1, 2, 3}));
  }
  auto scalar = builder.input("s", {T::Float32, {}});
  EXPECT_EQ(builder.sigmoid(scalar).shape(), std::vector<uint32_t>{});
}

}  // namespace
}  // namespace webnn
