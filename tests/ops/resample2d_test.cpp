// resample2d: nearest-neighbor and linear (half-pixel centers), scales or sizes, axes;
// shape inference and the TypeErrors.
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

WEBNN_BACKEND_TEST(Resample2d, DefaultOptionsAreIdentity) {
  Runner r;
  auto x = r.input("x", {1, 1, 2, 3}, iota(6));
  auto y = r.builder.resample2d(x);
  EXPECT_EQ(y.shape(), (std::vector<uint32_t>{1, 1, 2, 3}));
  expectNear(r.run(y), iota(6));
}

WEBNN_BACKEND_TEST(Resample2d, NearestUpsampleByScales) {
  Runner r;
  auto x = r.input("x", {1, 1, 2, 2}, {1, 2, 3, 4});
  auto y = r.builder.resample2d(x, {.scales = {{2, 2}}});
  EXPECT_EQ(y.shape(), (std::vector<uint32_t>{1, 1, 4, 4}));
  expectNear(r.run(y), {1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4});
}

WEBNN_BACKEND_TEST(Resample2d, NearestDownsample) {
  // Half-pixel centers: destination 0 maps to source 0.5 -> 1, destination 1 to 2.5 -> 3.
  Runner r;
  auto x = r.input("x", {1, 1, 4, 4}, iota(16, 1));
  auto y = r.builder.resample2d(x, {.scales = {{0.5f, 0.5f}}});
  EXPECT_EQ(y.shape(), (std::vector<uint32_t>{1, 1, 2, 2}));
  expectNear(r.run(y), {6, 8, 14, 16});
}

WEBNN_BACKEND_TEST(Resample2d, LinearUpsample) {
  // Source coordinates -0.25 (clamped to 0), 0.25, 0.75, 1.25 (clamped to 1).
  Runner r;
  auto x = r.input("x", {1, 1, 2, 2}, {1, 2, 3, 4});
  auto y = r.builder.resample2d(x, {.mode = MLInterpolationMode::Linear, .sizes = {{4, 4}}});
  expectNear(r.run(y), {1, 1.25, 1.75, 2, 1.5, 1.75, 2.25, 2.5, 2.5, 2.75, 3.25, 3.5, 3, 3.25,
                        3.75, 4});
}

WEBNN_BACKEND_TEST(Resample2d, LinearDownsample) {
  // Scale 0.5: destination 0 -> source 0.5 (mean of 0 and 1), destination 1 -> 2.5.
  Runner r;
  auto x = r.input("x", {1, 1, 1, 4}, {0, 10, 20, 30});
  auto y = r.builder.resample2d(x, {.mode = MLInterpolationMode::Linear, .scales = {{1, 0.5f}}});
  EXPECT_EQ(y.shape(), (std::vector<uint32_t>{1, 1, 1, 2}));
  expectNear(r.run(y), {5, 25});
}

WEBNN_BACKEND_TEST(Resample2d, SizesOverrideScales) {
  Runner r;
  auto x = r.input("x", {1, 1, 1, 2}, {1, 2});
  auto y = r.builder.resample2d(x, {.scales = {{0.5f, 0.5f}}, .sizes = {{2, 4}}});
  EXPECT_EQ(y.shape(), (std::vector<uint32_t>{1, 1, 2, 4}));
  expectNear(r.run(y), {1, 1, 2, 2, 1, 1, 2, 2});
}

WEBNN_BACKEND_TEST(Resample2d, AxesOneAndTwo) {
  Runner r;
  auto x = r.input("x", {1, 2, 1, 2}, {1, 2, 3, 4});  // nhwc: h=2, w=1, c=2
  auto y = r.builder.resample2d(x, {.sizes = {{4, 2}}, .axes = {{1, 2}}});
  EXPECT_EQ(y.shape(), (std::vector<uint32_t>{1, 4, 2, 2}));
  expectNear(r.run(y), {1, 2, 1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4, 3, 4});
}

WEBNN_BACKEND_TEST(Resample2d, AxesInAnyOrder) {
  Runner r;
  auto x = r.input("x", {2, 1, 1, 1}, {1, 2});
  // sizes follow axes: axis 1 -> 2, axis 0 -> 4.
  auto y = r.builder.resample2d(x, {.mode = MLInterpolationMode::Linear, .sizes = {{2, 4}}, .axes = {{1, 0}}});
  EXPECT_EQ(y.shape(), (std::vector<uint32_t>{4, 2, 1, 1}));
  expectNear(r.run(y), {1, 1, 1.25, 1.25, 1.75, 1.75, 2, 2});
}

WEBNN_BACKEND_TEST(Resample2d, Float16) {
  Runner r;
  auto x = r.input("x", {1, 1, 2, 2}, {1, 2, 3, 4}, F16);
  auto y = r.builder.resample2d(x, {.mode = MLInterpolationMode::Linear, .scales = {{2, 2}}});
  EXPECT_EQ(y.dataType(), F16);
  expectNear(r.run(y), {1, 1.25, 1.75, 2, 1.5, 1.75, 2.25, 2.5, 2.5, 2.75, 3.25, 3.5, 3, 3.25,
                        3.75, 4}, 1e-3f);
}

WEBNN_BACKEND_TEST(Resample2d, ShapeInferenceFloorsScaledSizes) {
  MLContext context = testing::createTestContext();
  MLGraphBuilder builder(context);
  auto x = builder.input("x", {F32, {1, 3, 3, 5}});
  EXPECT_EQ(builder.resample2d(x, {.scales = {{1.5f, 0.5f}}}).shape(),
            (std::vector<uint32_t>{1, 3, 4, 2}));
}

WEBNN_BACKEND_TEST(Resample2d, Errors) {
  struct Case {
    std::string name;
    MLOperandDescriptor input;
    MLResample2dOptions options;
    std::string fragment;
  };
  const MLOperandDescriptor in{F32, {1, 1, 2, 2}};
  std::vector<Case> cases = {
      {"rank", {F32, {1, 2, 2}}, {}, "input has rank 3"},
      {"int", {MLOperandDataType::Uint8, {1, 1, 2, 2}}, {}, "uint8"},
      {"scales size", in, {.scales = {{2}}}, "scales must have 2 values"},
      {"scale 0", in, {.scales = {{0, 2}}}, "scales must be finite and > 0"},
      {"scale negative", in, {.scales = {{2, -1}}}, "scales must be finite and > 0"},
      {"scale too small", in, {.scales = {{0.1f, 1}}}, "makes output dimension 2"},
      {"sizes size", in, {.sizes = {{2, 2, 2}}}, "sizes must have 2 values"},
      {"sizes 0", in, {.sizes = {{0, 2}}}, "sizes must be > 0"},
      {"axes size", in, {.axes = {{1}}}, "axes must have 2 values"},
      {"axes range", in, {.axes = {{3, 4}}}, "axis 4 is out of range"},
      {"axes repeat", in, {.axes = {{2, 2}}}, "axis 2 repeats"},
  };
  for (auto& c : cases) {
    SCOPED_TRACE(c.name);
    MLContext context = testing::createTestContext();
    MLGraphBuilder builder(context);
    auto x = builder.input("x", c.input);
    c.options.label = "rs";
    expectError([&] { builder.resample2d(x, c.options); }, K::TypeError,
                {"resample2d 'rs'", c.fragment});
  }
}

}  // namespace
}  // namespace webnn
