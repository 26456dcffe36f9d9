// convTranspose2d: every filter layout, both input layouts, groups, strides, dilations, padding,
// outputPadding and outputSizes, bias, float16; shape inference and the TypeErrors.
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

WEBNN_BACKEND_TEST(ConvTranspose2d, DefaultOptions) {
  Runner r;
  auto x = r.input("x", {1, 1, 2, 2}, {1, 2, 3, 4});
  auto w = r.constant({1, 1, 2, 2}, {1, 1, 1, 1});
  auto y = r.builder.convTranspose2d(x, w);
  EXPECT_EQ(y.shape(), (std::vector<uint32_t>{1, 1, 3, 3}));
  expectNear(r.run(y), {1, 3, 2, 4, 10, 6, 3, 7, 4});
}

WEBNN_BACKEND_TEST(ConvTranspose2d, Strides) {
  Runner r;
  auto x = r.input("x", {1, 1, 2, 2}, {1, 2, 3, 4});
  auto w = r.constant({1, 1, 2, 2}, {1, 1, 1, 1});
  auto y = r.builder.convTranspose2d(x, w, {.strides = {2, 2}});
  EXPECT_EQ(y.shape(), (std::vector<uint32_t>{1, 1, 4, 4}));
  expectNear(r.run(y), {1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4});
}

WEBNN_BACKEND_TEST(ConvTranspose2d, Padding) {
  Runner r;
  auto x = r.input("x", {1, 1, 2, 2}, {1, 2, 3, 4});
  auto w = r.constant({1, 1, 2, 2}, {1, 1, 1, 1});
  auto y = r.builder.convTranspose2d(x, w, {.padding = {1, 1, 1, 1}});
  EXPECT_EQ(y.shape(), (std::vector<uint32_t>{1, 1, 1, 1}));
  expectNear(r.run(y), {10});
}

WEBNN_BACKEND_TEST(ConvTranspose2d, AsymmetricPadding) {
  Runner r;
  auto x = r.input("x", {1, 1, 2, 2}, {1, 2, 3, 4});
  auto w = r.constant({1, 1, 2, 2}, {1, 1, 1, 1});
  // Drops the first row and the last column of the 3x3 default result.
  auto y = r.builder.convTranspose2d(x, w, {.padding = {1, 0, 0, 1}});
  EXPECT_EQ(y.shape(), (std::vector<uint32_t>{1, 1, 2, 2}));
  expectNear(r.run(y), {4, 10, 3, 7});
}

WEBNN_BACKEND_TEST(ConvTranspose2d, OutputPaddingAndOutputSizes) {
  const std::vector<float> expected = {1, 1, 2, 2, 0, 1, 1, 2, 2, 0, 3, 3, 4,
                                       4, 0, 3, 3, 4, 4, 0, 0, 0, 0, 0, 0};
  {
    Runner r;
    auto x = r.input("x", {1, 1, 2, 2}, {1, 2, 3, 4});
    auto w = r.constant({1, 1, 2, 2}, {1, 1, 1, 1});
    auto y = r.builder.convTranspose2d(x, w, {.strides = {2, 2}, .outputPadding = {1, 1}});
    EXPECT_EQ(y.shape(), (std::vector<uint32_t>{1, 1, 5, 5}));
    expectNear(r.run(y), expected);
  }
  {
    Runner r;
    auto x = r.input("x", {1, 1, 2, 2}, {1, 2, 3, 4});
    auto w = r.constant({1, 1, 2, 2}, {1, 1, 1, 1});
    auto y = r.builder.convTranspose2d(x, w, {.strides = {2, 2}, .outputSizes = {{5, 5}}});
    EXPECT_EQ(y.shape(), (std::vector<uint32_t>{1, 1, 5, 5}));
    expectNear(r.run(y), expected);
  }
}

WEBNN_BACKEND_TEST(ConvTranspose2d, Dilations) {
  Runner r;
  auto x = r.input("x", {1, 1, 2, 2}, {1, 2, 3, 4});
  auto w = r.constant({1, 1, 2, 2}, {1, 1, 1, 1});
  auto y = r.builder.convTranspose2d(x, w, {.dilations = {2, 2}});
  EXPECT_EQ(y.shape(), (std::vector<uint32_t>{1, 1, 4, 4}));
  expectNear(r.run(y), {1, 2, 1, 2, 3, 4, 3, 4, 1, 2, 1, 2, 3, 4, 3, 4});
}

// Input 2x2 = 1..4, two output channels: o0 = top-left tap, o1 = bottom-right tap.
WEBNN_BACKEND_TEST(ConvTranspose2d, EveryFilterLayoutAndInputLayout) {
  struct FilterCase {
    MLConvTranspose2dFilterOperandLayout layout;
    std::vector<uint32_t> shape;
    std::vector<float> data;
  };
  const std::vector<FilterCase> filters = {
      {MLConvTranspose2dFilterOperandLayout::Iohw, {1, 2, 2, 2}, {1, 0, 0, 0, 0, 0, 0, 1}},
      {MLConvTranspose2dFilterOperandLayout::Hwoi, {2, 2, 2, 1}, {1, 0, 0, 0, 0, 0, 0, 1}},
      {MLConvTranspose2dFilterOperandLayout::Ohwi, {2, 2, 2, 1}, {1, 0, 0, 0, 0, 0, 0, 1}},
  };
  const std::vector<float> nchw = {1, 2, 0, 3, 4, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 0, 3, 4};
  std::vector<float> nhwc(18);
  for (size_t c = 0; c < 2; ++c) {
    for (size_t i = 0; i < 9; ++i) nhwc[i * 2 + c] = nchw[c * 9 + i];
  }
  for (const auto& filter : filters) {
    for (bool isNhwc : {false, true}) {
      Runner r;
      auto x = r.input("x", isNhwc ? std::vector<uint32_t>{1, 2, 2, 1} : std::vector<uint32_t>{1, 1, 2, 2},
                       {1, 2, 3, 4});
      auto w = r.constant(filter.shape, filter.data);
      MLConvTranspose2dOptions options;
      options.filterLayout = filter.layout;
      options.inputLayout = isNhwc ? MLInputOperandLayout::Nhwc : MLInputOperandLayout::Nchw;
      auto y = r.builder.convTranspose2d(x, w, options);
      EXPECT_EQ(y.shape(), isNhwc ? (std::vector<uint32_t>{1, 3, 3, 2}) : (std::vector<uint32_t>{1, 2, 3, 3}));
      expectNear(r.run(y), isNhwc ? nhwc : nchw);
    }
  }
}

// Two input channels 1x1 (values 1, 2); hwoi/ohwi put input channels last, so i and o differ.
WEBNN_BACKEND_TEST(ConvTranspose2d, InputChannelsSumInEveryLayout) {
  // out[o] = sum_i x[i] * w[i][o]; w = [[1, 10], [100, 1000]] (i rows, o columns).
  struct FilterCase {
    MLConvTranspose2dFilterOperandLayout layout;
    std::vector<uint32_t> shape;
    std::vector<float> data;
  };
  const std::vector<FilterCase> filters = {
      {MLConvTranspose2dFilterOperandLayout::Iohw, {2, 2, 1, 1}, {1, 10, 100, 1000}},
      {MLConvTranspose2dFilterOperandLayout::Hwoi, {1, 1, 2, 2}, {1, 100, 10, 1000}},
      {MLConvTranspose2dFilterOperandLayout::Ohwi, {2, 1, 1, 2}, {1, 100, 10, 1000}},
  };
  for (const auto& filter : filters) {
    Runner r;
    auto x = r.input("x", {1, 2, 1, 1}, {1, 2});
    auto w = r.constant(filter.shape, filter.data);
    expectNear(r.run(r.builder.convTranspose2d(x, w, {.filterLayout = filter.layout})), {201, 2010});
  }
}

WEBNN_BACKEND_TEST(ConvTranspose2d, Groups) {
  Runner r;
  auto x = r.input("x", {1, 2, 1, 1}, {1, 2});
  auto w = r.constant({2, 1, 1, 1}, {3, 4});
  auto y = r.builder.convTranspose2d(x, w, {.groups = 2});
  EXPECT_EQ(y.shape(), (std::vector<uint32_t>{1, 2, 1, 1}));
  expectNear(r.run(y), {3, 8});
}

WEBNN_BACKEND_TEST(ConvTranspose2d, GroupsWithSeveralOutputsPerGroup) {
  // 2 input channels, 2 groups, 2 outputs per group: iohw [2, 2, 1, 1].
  Runner r;
  auto x = r.input("x", {1, 2, 1, 1}, {1, 2});
  auto w = r.constant({2, 2, 1, 1}, {1, 2, 3, 4});
  auto y = r.builder.convTranspose2d(x, w, {.groups = 2});
  EXPECT_EQ(y.shape(), (std::vector<uint32_t>{1, 4, 1, 1}));
  expectNear(r.run(y), {1, 2, 6, 8});
}

WEBNN_BACKEND_TEST(ConvTranspose2d, BiasAndFloat16) {
  Runner r;
  auto x = r.input("x", {1, 1, 2, 2}, {1, 2, 3, 4}, F16);
  auto w = r.constant({1, 1, 2, 2}, {1, 1, 1, 1}, F16);
  auto b = r.constant({1}, {0.5}, F16);
  auto y = r.builder.convTranspose2d(x, w, {.bias = b});
  EXPECT_EQ(y.dataType(), F16);
  expectNear(r.run(y), {1.5, 3.5, 2.5, 4.5, 10.5, 6.5, 3.5, 7.5, 4.5}, 1e-3f);
}

WEBNN_BACKEND_TEST(ConvTranspose2d, ShapeInference) {
  MLContext context = testing::createTestContext();
  MLGraphBuilder builder(context);
  auto x = builder.input("x", {F32, {1, 3, 3, 1}});
  auto w = builder.input("w", {F32, {2, 3, 3, 1}});
  auto y = builder.convTranspose2d(x, w,
                                   {.padding = {0, 1, 0, 1},
                                    .strides = {2, 2},
                                    .outputSizes = {{6, 6}},
                                    .inputLayout = MLInputOperandLayout::Nhwc,
                                    .filterLayout = MLConvTranspose2dFilterOperandLayout::Ohwi});
  EXPECT_EQ(y.shape(), (std::vector<uint32_t>{1, 6, 6, 2}));
  auto x2 = builder.input("x2", {F32, {1, 1, 3, 3}});
  auto w2 = builder.input("w2", {F32, {1, 2, 3, 3}});
  EXPECT_EQ(builder.convTranspose2d(x2, w2, {.strides = {3, 2}}).shape(),
            (std::vector<uint32_t>{1, 2, 9, 7}));
  EXPECT_EQ(builder.convTranspose2d(x2, w2, {.strides = {3, 2}, .outputPadding = {1, 1}}).shape(),
            (std::vector<uint32_t>{1, 2, 10, 8}));
}

WEBNN_BACKEND_TEST(ConvTranspose2d, Errors) {
  const MLOperandDescriptor in{F32, {1, 1, 3, 3}};
  const MLOperandDescriptor filt{F32, {1, 1, 2, 2}};
  struct Case {
    std::string name;
    MLOperandDescriptor input, filter;
    MLConvTranspose2dOptions options;
    std::optional<MLOperandDescriptor> bias;
    std::string fragment;
  };
  std::vector<Case> cases = {
      {"input rank", {F32, {1, 3, 3}}, filt, {}, {}, "input has rank 3"},
      {"type mismatch", in, {F16, {1, 1, 2, 2}}, {}, {}, "same data type"},
      {"int types", {MLOperandDataType::Int8, {1, 1, 3, 3}}, {MLOperandDataType::Int8, {1, 1, 2, 2}}, {}, {}, "int8"},
      {"stride 0", in, filt, {.strides = {0, 1}}, {}, "strides must be >= 1"},
      {"dilations size", in, filt, {.dilations = {1, 1, 1}}, {}, "dilations must have 2 values"},
      {"groups 0", in, filt, {.groups = 0}, {}, "groups must be >= 1"},
      {"channels", {F32, {1, 2, 3, 3}}, filt, {}, {}, "filter's input channels"},
      {"groups divide", {F32, {1, 3, 3, 3}}, {F32, {3, 1, 2, 2}}, {.groups = 2}, {}, "not divisible by groups"},
      {"outputPadding vs stride", in, filt, {.strides = {2, 2}, .outputPadding = {2, 0}}, {}, "outputPadding"},
      {"outputPadding without stride", in, filt, {.outputPadding = {1, 1}}, {}, "smaller than strides"},
      {"outputSizes too small", in, filt, {.strides = {2, 2}, .outputSizes = {{5, 5}}}, {}, "outputSizes"},
      {"outputSizes too large", in, filt, {.strides = {2, 2}, .outputSizes = {{8, 6}}}, {}, "outputSizes"},
      {"outputSizes size", in, filt, {.outputSizes = {{4}}}, {}, "outputSizes must have 2 values"},
      {"padding eats output", in, filt, {.padding = {2, 2, 0, 0}}, {}, "padding removes"},
      {"bias shape", in, {F32, {1, 2, 2, 2}}, {}, MLOperandDescriptor{F32, {1}}, "bias must have shape [2]"},
      {"bias shape groups", {F32, {1, 2, 3, 3}}, {F32, {2, 3, 2, 2}}, {.groups = 2},
       MLOperandDescriptor{F32, {3}}, "bias must have shape [6]"},
      {"bias type", in, filt, {}, MLOperandDescriptor{F16, {1}}, "same data type"},
  };
  for (auto& c : cases) {
    SCOPED_TRACE(c.name);
    MLContext context = testing::createTestContext();
    MLGraphBuilder builder(context);
    auto x = builder.input("x", c.input);
    auto w = builder.input("w", c.filter);
    c.options.label = "up";
    if (c.bias) c.options.bias = builder.input("b", *c.bias);
    expectError([&] { builder.convTranspose2d(x, w, c.options); }, K::TypeError,
                {"convTranspose2d 'up'", c.fragment});
  }
}

}  // namespace
}  // namespace webnn
