// conv2d: every input and filter layout, groups (depthwise), strides, dilations, padding, bias,
// float16; shape inference and the TypeErrors of the spec's validation steps.
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

WEBNN_BACKEND_TEST(Conv2d, DefaultOptions) {
  Runner r;
  auto x = r.input("x", {1, 1, 5, 5}, iota(25));
  auto w = r.constant({1, 1, 3, 3}, std::vector<float>(9, 1));
  auto y = r.builder.conv2d(x, w);
  EXPECT_EQ(y.shape(), (std::vector<uint32_t>{1, 1, 3, 3}));
  expectNear(r.run(y), {54, 63, 72, 99, 108, 117, 144, 153, 162});
}

WEBNN_BACKEND_TEST(Conv2d, Padding) {
  Runner r;
  auto x = r.input("x", {1, 1, 5, 5}, iota(25));
  auto w = r.constant({1, 1, 3, 3}, std::vector<float>(9, 1));
  auto y = r.builder.conv2d(x, w, {.padding = {1, 1, 1, 1}});
  expectNear(r.run(y), {12, 21, 27, 33, 24, 33, 54, 63, 72, 51, 63, 99, 108,
                        117, 81, 93, 144, 153, 162, 111, 72, 111, 117, 123, 84});
}

WEBNN_BACKEND_TEST(Conv2d, StridesWithPadding) {
  Runner r;
  auto x = r.input("x", {1, 1, 5, 5}, iota(25));
  auto w = r.constant({1, 1, 3, 3}, std::vector<float>(9, 1));
  auto y = r.builder.conv2d(x, w, {.padding = {1, 1, 1, 1}, .strides = {2, 2}});
  EXPECT_EQ(y.shape(), (std::vector<uint32_t>{1, 1, 3, 3}));
  expectNear(r.run(y), {12, 27, 24, 63, 108, 81, 72, 117, 84});
}

WEBNN_BACKEND_TEST(Conv2d, AsymmetricPaddingAndStrides) {
  Runner r;
  auto x = r.input("x", {1, 1, 5, 5}, iota(25));
  auto w = r.constant({1, 1, 3, 3}, std::vector<float>(9, 1));
  // Top 1, bottom 0, left 0, right 1; stride 2 -> [2, 2].
  auto y = r.builder.conv2d(x, w, {.padding = {1, 0, 0, 1}, .strides = {2, 2}});
  EXPECT_EQ(y.shape(), (std::vector<uint32_t>{1, 1, 2, 2}));
  // (0,0): rows -1..1, cols 0..2 -> 0+1+2+5+6+7; (0,1): cols 2..4 -> 2+3+4+7+8+9.
  expectNear(r.run(y), {21, 33, 99, 117});
}

WEBNN_BACKEND_TEST(Conv2d, Dilations) {
  Runner r;
  auto x = r.input("x", {1, 1, 5, 5}, iota(25));
  auto w = r.constant({1, 1, 3, 3}, std::vector<float>(9, 1));
  auto y = r.builder.conv2d(x, w, {.dilations = {2, 2}});
  EXPECT_EQ(y.shape(), (std::vector<uint32_t>{1, 1, 1, 1}));
  expectNear(r.run(y), {0 + 2 + 4 + 10 + 12 + 14 + 20 + 22 + 24});
}

// Input 3x3 = 1..9, one input channel, two output channels:
// o0 picks the top-left tap, o1 = 3 * top-right + 2 * bottom-right.
const std::vector<float> kSpatialOutput = {1, 2, 4, 5, 16, 21, 31, 36};  // nchw
const std::vector<float> kSpatialOutputNhwc = {1, 16, 2, 21, 4, 31, 5, 36};

struct FilterCase {
  MLConv2dFilterOperandLayout layout;
  std::vector<uint32_t> shape;
  std::vector<float> data;
};
const std::vector<FilterCase> kSpatialFilters = {
    {MLConv2dFilterOperandLayout::Oihw, {2, 1, 2, 2}, {1, 0, 0, 0, 0, 3, 0, 2}},
    {MLConv2dFilterOperandLayout::Hwio, {2, 2, 1, 2}, {1, 0, 0, 3, 0, 0, 0, 2}},
    {MLConv2dFilterOperandLayout::Ohwi, {2, 2, 2, 1}, {1, 0, 0, 0, 0, 3, 0, 2}},
    {MLConv2dFilterOperandLayout::Ihwo, {1, 2, 2, 2}, {1, 0, 0, 3, 0, 0, 0, 2}},
};

WEBNN_BACKEND_TEST(Conv2d, EveryFilterLayoutNchw) {
  for (const auto& filter : kSpatialFilters) {
    Runner r;
    auto x = r.input("x", {1, 1, 3, 3}, iota(9, 1));
    auto w = r.constant(filter.shape, filter.data);
    auto y = r.builder.conv2d(x, w, {.filterLayout = filter.layout});
    EXPECT_EQ(y.shape(), (std::vector<uint32_t>{1, 2, 2, 2}));
    expectNear(r.run(y), kSpatialOutput);
  }
}

WEBNN_BACKEND_TEST(Conv2d, EveryFilterLayoutNhwc) {
  for (const auto& filter : kSpatialFilters) {
    Runner r;
    auto x = r.input("x", {1, 3, 3, 1}, iota(9, 1));
    auto w = r.constant(filter.shape, filter.data);
    auto y = r.builder.conv2d(
        x, w, {.inputLayout = MLInputOperandLayout::Nhwc, .filterLayout = filter.layout});
    EXPECT_EQ(y.shape(), (std::vector<uint32_t>{1, 2, 2, 2}));
    expectNear(r.run(y), kSpatialOutputNhwc);
  }
}

// Two input channels c0 = 1..4, c1 = 5..8 (2x2), 1x1 filter: o0 = c0 + 2 c1, o1 = -c1.
WEBNN_BACKEND_TEST(Conv2d, InputAndOutputChannelOrderInEveryLayout) {
  const std::vector<float> nchwInput = {1, 2, 3, 4, 5, 6, 7, 8};
  const std::vector<float> nhwcInput = {1, 5, 2, 6, 3, 7, 4, 8};
  const std::vector<float> nchwOutput = {11, 14, 17, 20, -5, -6, -7, -8};
  const std::vector<float> nhwcOutput = {11, -5, 14, -6, 17, -7, 20, -8};
  const std::vector<FilterCase> filters = {
      {MLConv2dFilterOperandLayout::Oihw, {2, 2, 1, 1}, {1, 2, 0, -1}},
      {MLConv2dFilterOperandLayout::Hwio, {1, 1, 2, 2}, {1, 0, 2, -1}},
      {MLConv2dFilterOperandLayout::Ohwi, {2, 1, 1, 2}, {1, 2, 0, -1}},
      {MLConv2dFilterOperandLayout::Ihwo, {2, 1, 1, 2}, {1, 0, 2, -1}},
  };
  for (const auto& filter : filters) {
    for (bool nhwc : {false, true}) {
      Runner r;
      auto x = r.input("x", nhwc ? std::vector<uint32_t>{1, 2, 2, 2} : std::vector<uint32_t>{1, 2, 2, 2},
                       nhwc ? nhwcInput : nchwInput);
      auto w = r.constant(filter.shape, filter.data);
      MLConv2dOptions options;
      options.inputLayout = nhwc ? MLInputOperandLayout::Nhwc : MLInputOperandLayout::Nchw;
      options.filterLayout = filter.layout;
      expectNear(r.run(r.builder.conv2d(x, w, options)), nhwc ? nhwcOutput : nchwOutput);
    }
  }
}

WEBNN_BACKEND_TEST(Conv2d, DepthwiseWithBias) {
  Runner r;
  auto x = r.input("x", {1, 2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
  auto w = r.constant({2, 1, 2, 2}, {1, 1, 1, 1, 1, 0, 0, -1});
  auto b = r.constant({2}, {1, 2});
  auto y = r.builder.conv2d(x, w, {.groups = 2, .bias = b});
  EXPECT_EQ(y.shape(), (std::vector<uint32_t>{1, 2, 1, 1}));
  expectNear(r.run(y), {11, -1});
}

WEBNN_BACKEND_TEST(Conv2d, GroupsWithSeveralChannelsPerGroup) {
  // 4 input channels (all ones, 1x1), 2 groups, 4 outputs: each output sums its group's 2
  // channels weighted by its filter.
  Runner r;
  auto x = r.input("x", {1, 4, 1, 1}, {1, 2, 3, 4});
  auto w = r.constant({4, 2, 1, 1}, {1, 1, 1, -1, 1, 1, 2, 0});
  auto y = r.builder.conv2d(x, w, {.groups = 2});
  // o0 = 1+2, o1 = 1-2 (group 0); o2 = 3+4, o3 = 2*3 (group 1).
  expectNear(r.run(y), {3, -1, 7, 6});
}

WEBNN_BACKEND_TEST(Conv2d, BatchesAndBias) {
  Runner r;
  auto x = r.input("x", {2, 1, 2, 2}, {1, 2, 3, 4, 10, 20, 30, 40});
  auto w = r.constant({1, 1, 2, 2}, {1, 1, 1, 1});
  auto b = r.constant({1}, {0.5});
  expectNear(r.run(r.builder.conv2d(x, w, {.bias = b})), {10.5, 100.5});
}

WEBNN_BACKEND_TEST(Conv2d, Float16) {
  Runner r;
  auto x = r.input("x", {1, 1, 5, 5}, iota(25), F16);
  auto w = r.constant({1, 1, 3, 3}, std::vector<float>(9, 1), F16);
  auto b = r.constant({1}, {0.5}, F16);
  auto y = r.builder.conv2d(x, w, {.bias = b});
  EXPECT_EQ(y.dataType(), F16);
  expectNear(r.run(y), {54.5, 63.5, 72.5, 99.5, 108.5, 117.5, 144.5, 153.5, 162.5}, 1e-3f);
}

WEBNN_BACKEND_TEST(Conv2d, ShapeInference) {
  MLContext context = testing::createTestContext();
  MLGraphBuilder builder(context);
  auto x = builder.input("x", {F32, {2, 224, 224, 3}});
  auto w = builder.input("w", {F32, {64, 7, 7, 3}});
  auto y = builder.conv2d(x, w,
                          {.padding = {3, 3, 3, 3},
                           .strides = {2, 2},
                           .inputLayout = MLInputOperandLayout::Nhwc,
                           .filterLayout = MLConv2dFilterOperandLayout::Ohwi});
  EXPECT_EQ(y.shape(), (std::vector<uint32_t>{2, 112, 112, 64}));
  auto x2 = builder.input("x2", {F32, {1, 32, 15, 17}});
  auto dw = builder.input("dw", {F32, {3, 3, 1, 32}});
  auto y2 = builder.conv2d(x2, dw,
                           {.strides = {2, 3},
                            .dilations = {2, 1},
                            .groups = 32,
                            .filterLayout = MLConv2dFilterOperandLayout::Hwio});
  // height: (15 - 5) / 2 + 1 = 6; width: (17 - 3) / 3 + 1 = 5.
  EXPECT_EQ(y2.shape(), (std::vector<uint32_t>{1, 32, 6, 5}));
}

struct ErrorCase {
  std::string name;
  MLOperandDescriptor input, filter;
  MLConv2dOptions options;
  std::optional<MLOperandDescriptor> bias;
  std::string fragment;
};

WEBNN_BACKEND_TEST(Conv2d, Errors) {
  const MLOperandDescriptor in{F32, {1, 1, 5, 5}};
  const MLOperandDescriptor filt{F32, {1, 1, 2, 2}};
  std::vector<ErrorCase> cases = {
      {"input rank", {F32, {1, 5, 5}}, filt, {}, {}, "input has rank 3"},
      {"filter rank", in, {F32, {1, 2, 2}}, {}, {}, "filter has rank 3"},
      {"int input", {MLOperandDataType::Int32, {1, 1, 5, 5}}, {MLOperandDataType::Int32, {1, 1, 2, 2}}, {}, {}, "int32"},
      {"type mismatch", in, {F16, {1, 1, 2, 2}}, {}, {}, "same data type"},
      {"padding size", in, filt, {.padding = {1, 1}}, {}, "padding must have 4 values"},
      {"strides size", in, filt, {.strides = {1}}, {}, "strides must have 2 values"},
      {"stride 0", in, filt, {.strides = {0, 1}}, {}, "strides must be >= 1"},
      {"dilation 0", in, filt, {.dilations = {1, 0}}, {}, "dilations must be >= 1"},
      {"groups 0", {F32, {1, 4, 5, 5}}, filt, {.groups = 0}, {}, "groups must be >= 1"},
      {"groups divide", {F32, {1, 4, 5, 5}}, filt, {.groups = 3}, {}, "not divisible by groups"},
      {"filter input channels", {F32, {1, 4, 5, 5}}, filt, {.groups = 2}, {}, "filter's input channels"},
      {"nhwc channels", {F32, {1, 5, 5, 2}}, {F32, {1, 2, 3, 3}},
       {.groups = 2, .inputLayout = MLInputOperandLayout::Nhwc}, {}, "filter's input channels"},
      {"output channels / groups", {F32, {1, 4, 5, 5}}, {F32, {3, 2, 2, 2}}, {.groups = 2}, {}, "output channels (3)"},
      {"filter too big", in, {F32, {1, 1, 6, 2}}, {}, {}, "exceeds the padded input height"},
      {"dilated filter too big", in, {F32, {1, 1, 4, 2}},
       {.padding = {1, 1, 1, 1}, .strides = {2, 2}, .dilations = {4, 1}}, {}, "exceeds"},
      {"dilation overflow", in, {F32, {1, 1, 434983, 2}}, {.dilations = {328442, 1}}, {}, "overflows"},
      {"bias rank", in, filt, {}, MLOperandDescriptor{F32, {1, 2}}, "bias has rank 2"},
      {"bias size", in, filt, {}, MLOperandDescriptor{F32, {2}}, "bias must have shape [1]"},
      {"bias size hwio", in, {F32, {2, 2, 1, 1}}, {.filterLayout = MLConv2dFilterOperandLayout::Hwio},
       MLOperandDescriptor{F32, {2}}, "bias must have shape [1]"},
      {"bias type", in, filt, {}, MLOperandDescriptor{MLOperandDataType::Int32, {1}}, "bias has data type int32"},
  };
  for (auto& c : cases) {
    SCOPED_TRACE(c.name);
    MLContext context = testing::createTestContext();
    MLGraphBuilder builder(context);
    auto x = builder.input("x", c.input);
    auto w = builder.input("w", c.filter);
    c.options.label = "my conv";
    if (c.bias) c.options.bias = builder.input("b", *c.bias);
    expectError([&] { builder.conv2d(x, w, c.options); }, K::TypeError,
                {"conv2d 'my conv'", c.fragment});
  }
}

WEBNN_BACKEND_TEST(Conv2d, OperandFromAnotherBuilderIsRejected) {
  MLContext context = testing::createTestContext();
  MLGraphBuilder builder(context), other(context);
  auto x = builder.input("x", {F32, {1, 1, 5, 5}});
  auto w = builder.input("w", {F32, {1, 1, 2, 2}});
  auto b = other.input("b", {F32, {1}});
  expectError([&] { builder.conv2d(x, w, {.bias = b}); }, K::TypeError, {"conv2d"});
}

WEBNN_BACKEND_TEST(Conv2d, HollowFilterFilledAfterBuild) {
  MLContext context = testing::createTestContext();
  MLGraphBuilder builder(context);
  auto x = builder.input("x", {F32, {1, 1, 2, 2}});
  auto w = builder.constant({F32, {1, 1, 2, 2}}, {.label = "w"});
  MLGraph graph = builder.build({{"y", builder.conv2d(x, w)}});
  const std::vector<float> weights = {1, 2, 3, 4};
  graph.setConstantData(w, testing::bytesOf(weights));
  EXPECT_EQ(testing::runFloat(context, graph, {{"x", {1, 1, 1, 1}}}, "y"), (std::vector<float>{10}));
}

WEBNN_BACKEND_TEST(Conv2d, OpSupportLimits) {
  MLContext context = testing::createTestContext();
  WEBNN_REQUIRE_SPEC_LIMITS(context, "conv2d");
  const auto limits = context.opSupportLimits();
  ASSERT_TRUE(limits.ops.count("conv2d"));
  const auto& conv = limits.ops.at("conv2d");
  EXPECT_EQ(conv.at("input").rankRange.min, 4u);
  EXPECT_TRUE(conv.at("bias").supports(F16));
  EXPECT_FALSE(conv.at("filter").supports(MLOperandDataType::Int32));
}

}  // namespace
}  // namespace webnn
