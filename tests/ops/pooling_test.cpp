// averagePool2d, l2Pool2d, maxPool2d: default window, padding (left out of the average),
// strides, dilations, layouts, floor/ceil rounding, outputSizes, float16; shape inference and
// the TypeErrors.
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

using PoolMethod = MLOperand (MLGraphBuilder::*)(const MLOperand&, const MLPool2dOptions&);

std::vector<float> pool(PoolMethod method, std::vector<uint32_t> shape, std::vector<float> data,
                        const MLPool2dOptions& options, std::vector<uint32_t> expectedShape,
                        MLOperandDataType type = F32) {
  Runner r;
  auto x = r.input("x", std::move(shape), std::move(data), type);
  auto y = (r.builder.*method)(x, options);
  EXPECT_EQ(y.shape(), expectedShape);
  EXPECT_EQ(y.dataType(), type);
  return r.run(y);
}

constexpr PoolMethod kAverage = &MLGraphBuilder::averagePool2d;
constexpr PoolMethod kL2 = &MLGraphBuilder::l2Pool2d;
constexpr PoolMethod kMax = &MLGraphBuilder::maxPool2d;

WEBNN_BACKEND_TEST(Pool2d, DefaultWindowIsTheWholeSpatialExtent) {
  expectNear(pool(kAverage, {1, 1, 4, 4}, iota(16, 1), {}, {1, 1, 1, 1}), {8.5});
  expectNear(pool(kMax, {1, 1, 4, 4}, iota(16, 1), {}, {1, 1, 1, 1}), {16});
  expectNear(pool(kL2, {1, 1, 1, 2}, {3, -4}, {}, {1, 1, 1, 1}), {5});
  expectNear(pool(kAverage, {1, 2, 1, 2}, {1, 2, -3, -5}, {}, {1, 2, 1, 1}), {1.5, -4});
}

WEBNN_BACKEND_TEST(Pool2d, WindowAndStrides) {
  const MLPool2dOptions options{.windowDimensions = {{2, 2}}, .strides = {2, 2}};
  expectNear(pool(kAverage, {1, 1, 4, 4}, iota(16, 1), options, {1, 1, 2, 2}),
             {3.5, 5.5, 11.5, 13.5});
  expectNear(pool(kMax, {1, 1, 4, 4}, iota(16, 1), options, {1, 1, 2, 2}), {6, 8, 14, 16});
  expectNear(pool(kL2, {1, 1, 4, 4}, iota(16, 1), options, {1, 1, 2, 2}),
             {std::sqrt(1.f + 4 + 25 + 36), std::sqrt(9.f + 16 + 49 + 64),
              std::sqrt(81.f + 100 + 169 + 196), std::sqrt(121.f + 144 + 225 + 256)});
}

WEBNN_BACKEND_TEST(Pool2d, PaddingIsLeftOutOfTheAverage) {
  const MLPool2dOptions options{.windowDimensions = {{2, 2}}, .padding = {1, 1, 1, 1}};
  expectNear(pool(kAverage, {1, 1, 2, 2}, {1, 2, 3, 4}, options, {1, 1, 3, 3}),
             {1, 1.5, 2, 2, 2.5, 3, 3, 3.5, 4});
  expectNear(pool(kMax, {1, 1, 2, 2}, {-1, -2, -3, -4}, options, {1, 1, 3, 3}),
             {-1, -1, -2, -1, -1, -2, -3, -3, -4});
  expectNear(pool(kL2, {1, 1, 2, 2}, {1, 2, 3, 4}, options, {1, 1, 3, 3}),
             {1, std::sqrt(5.f), 2, std::sqrt(10.f), std::sqrt(30.f), std::sqrt(20.f), 3, 5, 4});
}

WEBNN_BACKEND_TEST(Pool2d, Dilations) {
  const MLPool2dOptions options{.windowDimensions = {{3, 3}}, .dilations = {2, 2}};
  expectNear(pool(kMax, {1, 1, 5, 5}, iota(25), options, {1, 1, 1, 1}), {24});
  expectNear(pool(kAverage, {1, 1, 5, 5}, iota(25), options, {1, 1, 1, 1}), {12});
}

WEBNN_BACKEND_TEST(Pool2d, CeilRoundingAndOutputSizes) {
  const MLPool2dOptions floorOptions{.windowDimensions = {{3, 3}}, .strides = {2, 2}};
  MLPool2dOptions ceilOptions = floorOptions;
  ceilOptions.roundingType = MLRoundingType::Ceil;
  expectNear(pool(kMax, {1, 1, 4, 4}, iota(16, 1), floorOptions, {1, 1, 1, 1}), {11});
  expectNear(pool(kMax, {1, 1, 4, 4}, iota(16, 1), ceilOptions, {1, 1, 2, 2}), {11, 12, 15, 16});
  expectNear(pool(kAverage, {1, 1, 4, 4}, iota(16, 1), ceilOptions, {1, 1, 2, 2}),
             {6, 7.5, 12, 13.5});
  // outputSizes picks floor or ceil, whatever the rounding says.
  MLPool2dOptions sized = floorOptions;
  sized.outputSizes = {{2, 1}};
  expectNear(pool(kMax, {1, 1, 4, 4}, iota(16, 1), sized, {1, 1, 2, 1}), {11, 15});
  sized = ceilOptions;
  sized.outputSizes = {{1, 1}};
  expectNear(pool(kMax, {1, 1, 4, 4}, iota(16, 1), sized, {1, 1, 1, 1}), {11});
}

WEBNN_BACKEND_TEST(Pool2d, NhwcLayout) {
  const std::vector<float> data = {1, 10, 2, 20, 3, 30, 4, 40};  // c0 = 1..4, c1 = 10..40
  const MLPool2dOptions options{.layout = MLInputOperandLayout::Nhwc};
  expectNear(pool(kMax, {1, 2, 2, 2}, data, options, {1, 1, 1, 2}), {4, 40});
  expectNear(pool(kAverage, {1, 2, 2, 2}, data, options, {1, 1, 1, 2}), {2.5, 25});
  MLPool2dOptions windowed{.windowDimensions = {{1, 2}}, .layout = MLInputOperandLayout::Nhwc};
  expectNear(pool(kMax, {1, 2, 2, 2}, data, windowed, {1, 2, 1, 2}), {2, 20, 4, 40});
}

WEBNN_BACKEND_TEST(Pool2d, Float16) {
  const MLPool2dOptions options{.windowDimensions = {{2, 2}}, .strides = {2, 2}};
  expectNear(pool(kAverage, {1, 1, 4, 4}, iota(16, 1), options, {1, 1, 2, 2}, F16),
             {3.5, 5.5, 11.5, 13.5}, 1e-3f);
  expectNear(pool(kMax, {1, 1, 4, 4}, iota(16, 1), options, {1, 1, 2, 2}, F16), {6, 8, 14, 16});
  expectNear(pool(kL2, {1, 1, 1, 2}, {3, 4}, {}, {1, 1, 1, 1}, F16), {5}, 1e-3f);
}

WEBNN_BACKEND_TEST(Pool2d, ShapeInference) {
  MLContext context = testing::createTestContext();
  MLGraphBuilder builder(context);
  auto x = builder.input("x", {F32, {1, 112, 112, 64}});
  auto y = builder.maxPool2d(x, {.windowDimensions = {{3, 3}},
                                 .padding = {1, 1, 1, 1},
                                 .strides = {2, 2},
                                 .layout = MLInputOperandLayout::Nhwc});
  EXPECT_EQ(y.shape(), (std::vector<uint32_t>{1, 56, 56, 64}));
  auto x2 = builder.input("x2", {F32, {1, 2, 5, 5}});
  MLPool2dOptions ceil{.windowDimensions = {{3, 3}}, .padding = {1, 0, 0, 1}, .strides = {2, 2}};
  EXPECT_EQ(builder.averagePool2d(x2, ceil).shape(), (std::vector<uint32_t>{1, 2, 2, 2}));
  ceil.roundingType = MLRoundingType::Ceil;
  EXPECT_EQ(builder.l2Pool2d(x2, ceil).shape(), (std::vector<uint32_t>{1, 2, 3, 3}));
}

WEBNN_BACKEND_TEST(Pool2d, Errors) {
  struct Case {
    std::string name;
    MLOperandDescriptor input;
    MLPool2dOptions options;
    std::string fragment;
  };
  const MLOperandDescriptor in{F32, {1, 1, 4, 4}};
  std::vector<Case> cases = {
      {"rank", {F32, {1, 4, 4}}, {}, "input has rank 3"},
      {"int32", {MLOperandDataType::Int32, {1, 1, 4, 4}}, {}, "int32"},
      {"window size", in, {.windowDimensions = {{2}}}, "windowDimensions must have 2 values"},
      {"window 0", in, {.windowDimensions = {{0, 2}}}, "windowDimensions must be >= 1"},
      {"window too big", in, {.windowDimensions = {{5, 2}}}, "exceeds the padded input height"},
      {"dilated window too big", in, {.windowDimensions = {{2, 2}}, .dilations = {1, 4}},
       "exceeds the padded input width"},
      {"padding size", in, {.padding = {1, 1, 1}}, "padding must have 4 values"},
      {"strides 0", in, {.strides = {1, 0}}, "strides must be >= 1"},
      {"dilations size", in, {.dilations = {1}}, "dilations must have 2 values"},
      {"outputSizes size", in, {.outputSizes = {{1}}}, "outputSizes must have 2 values"},
      {"outputSizes mismatch", in,
       {.windowDimensions = {{3, 3}}, .strides = {2, 2}, .outputSizes = {{3, 3}}},
       "floor [1, 1] or ceil [2, 2]"},
  };
  for (auto& c : cases) {
    for (auto [methodPointer, name] :
         {std::pair{kAverage, "averagePool2d"}, std::pair{kL2, "l2Pool2d"},
          std::pair{kMax, "maxPool2d"}}) {
      const auto method = methodPointer;  // (clang 14 cannot capture structured bindings)
      SCOPED_TRACE(c.name + " " + name);
      MLContext context = testing::createTestContext();
      MLGraphBuilder builder(context);
      auto x = builder.input("x", c.input);
      c.options.label = "p";
      expectError([&] { (builder.*method)(x, c.options); }, K::TypeError,
                  {std::string(name) + " 'p'", c.fragment});
    }
  }
}

}  // namespace
}  // namespace webnn
