// batchNormalization, instanceNormalization, layerNormalization: axes and layouts, scale and
// bias, epsilon, float16; shape checks and the TypeErrors.
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

WEBNN_BACKEND_TEST(BatchNormalization, DefaultAxisIsOne) {
  Runner r;
  auto x = r.input("x", {2, 2}, {1, 2, 3, 4});
  auto mean = r.constant({2}, {2, 3});
  auto variance = r.constant({2}, {1, 4});
  auto y = r.builder.batchNormalization(x, mean, variance, {.epsilon = 0});
  EXPECT_EQ(y.shape(), (std::vector<uint32_t>{2, 2}));
  expectNear(r.run(y), {-1, -0.5, 1, 0.5});
}

WEBNN_BACKEND_TEST(BatchNormalization, ScaleBiasAndEpsilon) {
  Runner r;
  auto x = r.input("x", {1, 2, 1, 2}, {1, 3, 10, 20});
  auto mean = r.input("mean", {2}, {2, 10});
  auto variance = r.input("variance", {2}, {0.75, 99.75});
  auto scale = r.constant({2}, {2, 10});
  auto bias = r.constant({2}, {1, -1});
  auto y = r.builder.batchNormalization(
      x, mean, variance, {.scale = scale, .bias = bias, .axis = 1, .epsilon = 0.25});
  // c0: (x - 2) / 1 * 2 + 1; c1: (x - 10) / 10 * 10 - 1.
  expectNear(r.run(y), {-1, 3, -1, 9});
}

WEBNN_BACKEND_TEST(BatchNormalization, LastAxisAndDefaultEpsilon) {
  Runner r;
  auto x = r.input("x", {2, 1, 3}, {1, 2, 3, 4, 5, 6});
  auto mean = r.constant({3}, {0, 1, 2});
  auto variance = r.constant({3}, {1, 1, 1});
  auto y = r.builder.batchNormalization(x, mean, variance, {.axis = 2});
  const float s = 1 / std::sqrt(1 + 1e-5f);
  expectNear(r.run(y), {1 * s, 1 * s, 1 * s, 4 * s, 4 * s, 4 * s});
}

WEBNN_BACKEND_TEST(BatchNormalization, Float16) {
  Runner r;
  auto x = r.input("x", {2, 2}, {1, 2, 3, 4}, F16);
  auto mean = r.constant({2}, {2, 3}, F16);
  auto variance = r.constant({2}, {1, 4}, F16);
  auto y = r.builder.batchNormalization(x, mean, variance, {.epsilon = 0});
  EXPECT_EQ(y.dataType(), F16);
  expectNear(r.run(y), {-1, -0.5, 1, 0.5}, 1e-3f);
}

WEBNN_BACKEND_TEST(BatchNormalization, Errors) {
  struct Case {
    std::string name;
    MLOperandDescriptor input, mean, variance;
    std::optional<MLOperandDescriptor> scale, bias;
    uint32_t axis = 1;
    std::string fragment;
  };
  const MLOperandDescriptor in{F32, {2, 3, 4}};
  const MLOperandDescriptor c3{F32, {3}};
  std::vector<Case> cases = {
      {"axis", in, c3, c3, {}, {}, 3, "axis 3 is out of range"},
      {"scalar input", {F32, {}}, c3, c3, {}, {}, 0, "axis 0 is out of range"},
      {"int", {MLOperandDataType::Int32, {2, 3}}, c3, c3, {}, {}, 1, "int32"},
      {"mean size", in, {F32, {4}}, c3, {}, {}, 1, "mean must have shape [3]"},
      {"mean rank", in, {F32, {1, 3}}, c3, {}, {}, 1, "mean has rank 2"},
      {"variance size", in, c3, {F32, {2}}, {}, {}, 1, "variance must have shape [3]"},
      {"variance type", in, c3, {F16, {3}}, {}, {}, 1, "same data type"},
      {"scale size", in, c3, c3, MLOperandDescriptor{F32, {4}}, {}, 1, "scale must have shape [3]"},
      {"bias size with axis", in, {F32, {4}}, {F32, {4}}, {}, MLOperandDescriptor{F32, {3}}, 2,
       "bias must have shape [4]"},
  };
  for (auto& c : cases) {
    SCOPED_TRACE(c.name);
    MLContext context = testing::createTestContext();
    MLGraphBuilder builder(context);
    auto x = builder.input("x", c.input);
    auto mean = builder.input("mean", c.mean);
    auto variance = builder.input("variance", c.variance);
    MLBatchNormalizationOptions options;
    options.label = "bn";
    options.axis = c.axis;
    if (c.scale) options.scale = builder.input("scale", *c.scale);
    if (c.bias) options.bias = builder.input("bias", *c.bias);
    expectError([&] { builder.batchNormalization(x, mean, variance, options); }, K::TypeError,
                {"batchNormalization 'bn'", c.fragment});
  }
}

// Per (sample, channel): c0 = [1, 3] (mean 2, variance 1), c1 = [2, 6] (mean 4, variance 4).
WEBNN_BACKEND_TEST(InstanceNormalization, Nchw) {
  Runner r;
  auto x = r.input("x", {1, 2, 1, 2}, {1, 3, 2, 6});
  auto y = r.builder.instanceNormalization(x, {.epsilon = 0});
  EXPECT_EQ(y.shape(), (std::vector<uint32_t>{1, 2, 1, 2}));
  expectNear(r.run(y), {-1, 1, -1, 1});
}

WEBNN_BACKEND_TEST(InstanceNormalization, NhwcWithScaleAndBias) {
  Runner r;
  auto x = r.input("x", {1, 1, 2, 2}, {1, 2, 3, 6});
  auto scale = r.constant({2}, {2, 3});
  auto bias = r.constant({2}, {10, 20});
  auto y = r.builder.instanceNormalization(
      x, {.scale = scale, .bias = bias, .epsilon = 0, .layout = MLInputOperandLayout::Nhwc});
  expectNear(r.run(y), {8, 17, 12, 23});
}

WEBNN_BACKEND_TEST(InstanceNormalization, BatchesAreIndependentAndEpsilonCounts) {
  Runner r;
  auto x = r.input("x", {2, 1, 1, 2}, {1, 3, 10, 30});
  auto y = r.builder.instanceNormalization(x, {.epsilon = 3});
  // Sample 0: variance 1 -> / 2; sample 1: mean 20, variance 100 -> / sqrt(103).
  const float d = std::sqrt(103.0f);
  expectNear(r.run(y), {-0.5, 0.5, -10 / d, 10 / d});
}

WEBNN_BACKEND_TEST(InstanceNormalization, Float16) {
  Runner r;
  auto x = r.input("x", {1, 2, 1, 2}, {1, 3, 2, 6}, F16);
  auto y = r.builder.instanceNormalization(x, {.epsilon = 0});
  EXPECT_EQ(y.dataType(), F16);
  expectNear(r.run(y), {-1, 1, -1, 1}, 1e-3f);
}

WEBNN_BACKEND_TEST(InstanceNormalization, Errors) {
  struct Case {
    std::string name;
    MLOperandDescriptor input;
    std::optional<MLOperandDescriptor> scale, bias;
    MLInputOperandLayout layout = MLInputOperandLayout::Nchw;
    std::string fragment;
  };
  std::vector<Case> cases = {
      {"rank", {F32, {2, 3, 4}}, {}, {}, MLInputOperandLayout::Nchw, "input has rank 3"},
      {"int", {MLOperandDataType::Int8, {1, 2, 2, 2}}, {}, {}, MLInputOperandLayout::Nchw, "int8"},
      {"scale size", {F32, {1, 2, 3, 3}}, MLOperandDescriptor{F32, {3}}, {},
       MLInputOperandLayout::Nchw, "scale must have shape [2]"},
      {"bias size nhwc", {F32, {1, 2, 3, 3}}, {}, MLOperandDescriptor{F32, {2}},
       MLInputOperandLayout::Nhwc, "bias must have shape [3]"},
      {"scale type", {F32, {1, 2, 3, 3}}, MLOperandDescriptor{F16, {2}}, {},
       MLInputOperandLayout::Nchw, "same data type"},
  };
  for (auto& c : cases) {
    SCOPED_TRACE(c.name);
    MLContext context = testing::createTestContext();
    MLGraphBuilder builder(context);
    auto x = builder.input("x", c.input);
    MLInstanceNormalizationOptions options;
    options.label = "in";
    options.layout = c.layout;
    if (c.scale) options.scale = builder.input("scale", *c.scale);
    if (c.bias) options.bias = builder.input("bias", *c.bias);
    expectError([&] { builder.instanceNormalization(x, options); }, K::TypeError,
                {"instanceNormalization 'in'", c.fragment});
  }
}

WEBNN_BACKEND_TEST(LayerNormalization, DefaultAxesAreAllButTheFirst) {
  Runner r;
  auto x = r.input("x", {2, 2}, {1, 3, 2, 6});
  auto y = r.builder.layerNormalization(x, {.epsilon = 0});
  expectNear(r.run(y), {-1, 1, -1, 1});
  Runner r3;
  auto x3 = r3.input("x", {2, 1, 2}, {1, 3, 2, 6});
  expectNear(r3.run(r3.builder.layerNormalization(x3, {.epsilon = 0})), {-1, 1, -1, 1});
}

WEBNN_BACKEND_TEST(LayerNormalization, ExplicitAxes) {
  Runner r;
  auto x = r.input("x", {2, 2}, {1, 3, 2, 6});
  // Over axis 0: columns [1, 2] and [3, 6].
  expectNear(r.run(r.builder.layerNormalization(x, {.axes = {{0}}, .epsilon = 0})),
             {-1, -1, 1, 1});
}

WEBNN_BACKEND_TEST(LayerNormalization, ScaleAndBiasFollowAxesOrder) {
  // Input [1, 2, 2]; axes [2, 1] -> scale/bias shape [2 (axis 2), 2 (axis 1)].
  // x = [[1, 1], [3, 3]] (h, w): over all 4 values mean 2, variance 1.
  Runner r;
  auto x = r.input("x", {1, 2, 2}, {1, 1, 3, 3});
  auto scale = r.constant({2, 2}, {1, 2, 3, 4});  // scale[w][h]
  auto bias = r.constant({2, 2}, {0, 10, 20, 30});
  auto y = r.builder.layerNormalization(
      x, {.scale = scale, .bias = bias, .axes = {{2, 1}}, .epsilon = 0});
  // (h, w) = (0,0): -1 * s[0][0] + b[0][0]; (0,1): -1 * s[1][0] + b[1][0];
  // (1,0): 1 * s[0][1] + b[0][1]; (1,1): 1 * s[1][1] + b[1][1].
  expectNear(r.run(y), {-1, 17, 12, 34});
}

WEBNN_BACKEND_TEST(LayerNormalization, EmptyAxesAndScalars) {
  Runner r;
  auto x = r.input("x", {2, 2}, {1, 3, 2, 6});
  auto bias = r.constant({}, {0.5});
  expectNear(r.run(r.builder.layerNormalization(x, {.bias = bias, .axes = std::vector<uint32_t>{}})),
             {0.5, 0.5, 0.5, 0.5});
  Runner r0;
  auto s = r0.input("s", {}, {7});
  auto y = r0.builder.layerNormalization(s);
  EXPECT_TRUE(y.shape().empty());
  expectNear(r0.run(y), {0});
}

WEBNN_BACKEND_TEST(LayerNormalization, Float16) {
  Runner r;
  auto x = r.input("x", {2, 2}, {1, 3, 2, 6}, F16);
  auto scale = r.constant({2}, {2, 3}, F16);
  auto y = r.builder.layerNormalization(x, {.scale = scale, .epsilon = 0});
  EXPECT_EQ(y.dataType(), F16);
  expectNear(r.run(y), {-2, 3, -2, 3}, 1e-3f);
}

WEBNN_BACKEND_TEST(LayerNormalization, Errors) {
  struct Case {
    std::string name;
    MLOperandDescriptor input;
    std::optional<std::vector<uint32_t>> axes;
    std::optional<MLOperandDescriptor> scale, bias;
    std::string fragment;
  };
  const MLOperandDescriptor in{F32, {2, 3, 4}};
  std::vector<Case> cases = {
      {"int", {MLOperandDataType::Int32, {2, 3}}, {}, {}, {}, "int32"},
      {"axis range", in, std::vector<uint32_t>{3}, {}, {}, "axis 3 is out of range"},
      {"axis repeat", in, std::vector<uint32_t>{1, 1}, {}, {}, "axis 1 repeats"},
      {"scale default axes", in, {}, MLOperandDescriptor{F32, {4, 3}}, {}, "scale must have shape [3, 4]"},
      {"bias axes order", in, std::vector<uint32_t>{2, 0}, {}, MLOperandDescriptor{F32, {2, 4}},
       "bias must have shape [4, 2]"},
      {"scale type", in, {}, MLOperandDescriptor{F16, {3, 4}}, {}, "same data type"},
  };
  for (auto& c : cases) {
    SCOPED_TRACE(c.name);
    MLContext context = testing::createTestContext();
    MLGraphBuilder builder(context);
    auto x = builder.input("x", c.input);
    MLLayerNormalizationOptions options;
    options.label = "ln";
    options.axes = c.axes;
    if (c.scale) options.scale = builder.input("scale", *c.scale);
    if (c.bias) options.bias = builder.input("bias", *c.bias);
    expectError([&] { builder.layerNormalization(x, options); }, K::TypeError,
                {"layerNormalization 'ln'", c.fragment});
  }
}

}  // namespace
}  // namespace webnn
