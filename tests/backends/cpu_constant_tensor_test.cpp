// Constant tensors on the cpu backend (cpu_constant_tensor.h): graphs of several input sizes over
// one weight set keep each layout once (memoryStats' constants are one packed copy, not one per
// graph), whether the tensor is filled before or after the graphs are built; a tensor filled
// before any graph keeps its values in the layout the graphs read, not beside it.
#include "webnn/config.h"

#ifdef WEBNN_HAVE_CPU

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "api/graph_state.h"
#include "backends/cpu/cpu_backend.h"
#include "core/float16.h"
#include "test_helpers.h"
#include "webnn/webnn.h"

namespace webnn {
namespace {

constexpr MLOperandDataType F32 = MLOperandDataType::Float32;
constexpr MLOperandDataType F16 = MLOperandDataType::Float16;
const MLOperandDescriptor kFilter{F32, {32, 16, 3, 3}};  // oihw

std::vector<float> values(size_t count, uint32_t seed) {
  std::vector<float> out(count);
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> uniform(-0.5f, 0.5f);
  for (auto& value : out) value = uniform(random);
  return out;
}

std::span<const std::byte> bytesOf(const std::vector<float>& v) {
  return std::as_bytes(std::span(v));
}

MLContext cpuContext() {
  return createContext({.backend = "cpu", .numThreads = 2});
}

// relu(conv2d(x [1, 16, size, size], filter)).
MLGraph convOn(MLContext& context, const MLTensor& filter, uint32_t size) {
  MLGraphBuilder builder(context);
  auto x = builder.input("x", {F32, {1, 16, size, size}});
  MLConv2dOptions options;
  options.padding = {1, 1, 1, 1};
  return builder.build({{"y", builder.relu(builder.conv2d(x, builder.constant(filter), options))}});
}

// The same with the filter as a classic constant: the expected values.
std::vector<float> expectedConv(const std::vector<float>& filter, uint32_t size,
                                const std::vector<float>& x) {
  MLContext context = cpuContext();
  MLGraphBuilder builder(context);
  auto input = builder.input("x", {F32, {1, 16, size, size}});
  MLConv2dOptions options;
  options.padding = {1, 1, 1, 1};
  auto graph = builder.build(
      {{"y", builder.relu(builder.conv2d(input, builder.constant(kFilter, bytesOf(filter)),
                                         options))}});
  return testing::runFloat(context, graph, {{"x", x}}, "y");
}

void expectClose(const std::vector<float>& actual, const std::vector<float>& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    ASSERT_NEAR(actual[i], expected[i], 1e-4f + 1e-4f * std::fabs(expected[i])) << "at " << i;
  }
}

// The constant bytes one graph alone keeps for the filter (a hollow constant packed on arrival).
uint64_t packedBytesOfOneGraph() {
  MLContext context = cpuContext();
  MLGraphBuilder builder(context);
  auto x = builder.input("x", {F32, {1, 16, 20, 20}});
  MLConv2dOptions options;
  options.padding = {1, 1, 1, 1};
  auto graph = builder.build(
      {{"y", builder.relu(builder.conv2d(x, builder.constant(kFilter, {.label = "f"}), options))}});
  return context.memoryStats().constantBytes;
}

TEST(CpuConstantTensor, GraphsOfTwoSizesKeepOnePackedFilterFilledAfterTheBuild) {
  const auto filter = values(kFilter.elementCount(), 1);
  MLContext context = cpuContext();
  auto tensor = context.createConstantTensor(kFilter, MLConstantOptions{.label = "f"});
  auto small = convOn(context, tensor, 20);
  auto large = convOn(context, tensor, 33);
  const uint64_t packed = packedBytesOfOneGraph();
  ASSERT_GT(packed, kFilter.byteLength() / 2);
  EXPECT_EQ(context.memoryStats().constantBytes, packed);  // one layout for both graphs
  const auto layouts = cpu::constantLayouts(*small.state()->compiled);
  ASSERT_EQ(layouts.size(), 1u);
  EXPECT_NE(layouts[0].find("constant tensor (packed"), std::string::npos) << layouts[0];
  EXPECT_EQ(layouts, cpu::constantLayouts(*large.state()->compiled));

  context.writeConstantTensor(tensor, 0, bytesOf(filter));
  EXPECT_EQ(context.memoryStats().constantBytes, packed);  // scattered in place, nothing beside
  EXPECT_EQ(context.memoryStats().stagingBytes, 0u);
  const auto x20 = values(16 * 20 * 20, 2);
  const auto x33 = values(16 * 33 * 33, 3);
  expectClose(testing::runFloat(context, small, {{"x", x20}}, "y"), expectedConv(filter, 20, x20));
  expectClose(testing::runFloat(context, large, {{"x", x33}}, "y"), expectedConv(filter, 33, x33));
}

TEST(CpuConstantTensor, FilledBeforeTheBuildTheValuesMoveIntoThePackedLayout) {
  const auto filter = values(kFilter.elementCount(), 4);
  MLContext context = cpuContext();
  auto tensor = context.createConstantTensor(kFilter, bytesOf(filter));
  EXPECT_EQ(context.memoryStats().constantBytes, kFilter.byteLength());  // the raw bytes
  auto small = convOn(context, tensor, 20);
  const uint64_t packed = packedBytesOfOneGraph();
  EXPECT_EQ(context.memoryStats().constantBytes, packed);  // raw dropped: nothing reads it
  auto large = convOn(context, tensor, 33);
  EXPECT_EQ(context.memoryStats().constantBytes, packed);
  const auto x33 = values(16 * 33 * 33, 5);
  expectClose(testing::runFloat(context, large, {{"x", x33}}, "y"), expectedConv(filter, 33, x33));
  // Every graph gone: the tensor keeps its values (packed), and a new graph reads them.
  small = MLGraph();
  large = MLGraph();
  EXPECT_EQ(context.memoryStats().constantBytes, packed);
  auto again = convOn(context, tensor, 20);
  const auto x20 = values(16 * 20 * 20, 6);
  expectClose(testing::runFloat(context, again, {{"x", x20}}, "y"), expectedConv(filter, 20, x20));
}

TEST(CpuConstantTensor, APlainReaderAddsTheRawLayoutForAsLongAsItLives) {
  const auto filter = values(kFilter.elementCount(), 7);
  MLContext context = cpuContext();
  auto tensor = context.createConstantTensor(kFilter, bytesOf(filter));
  auto conv = convOn(context, tensor, 20);
  const uint64_t packed = context.memoryStats().constantBytes;
  {
    // A plain reader: relu of the filter itself.
    MLGraphBuilder builder(context);
    auto plain = builder.build({{"r", builder.relu(builder.constant(tensor))}});
    EXPECT_EQ(context.memoryStats().constantBytes, packed + kFilter.byteLength());
    std::vector<float> expected(filter);
    for (auto& value : expected) value = std::max(0.0f, value);
    EXPECT_EQ(testing::runFloat(context, plain, {}, "r"), expected);
  }
  EXPECT_EQ(context.memoryStats().constantBytes, packed);  // the raw layout went with its graph
  const auto x20 = values(16 * 20 * 20, 8);
  expectClose(testing::runFloat(context, conv, {{"x", x20}}, "y"), expectedConv(filter, 20, x20));
}

TEST(CpuConstantTensor, AFloat16FilterStaysSixteenBitAndShared) {
  std::vector<float> filter = values(kFilter.elementCount(), 9);
  std::vector<uint16_t> half(filter.size());
  for (size_t i = 0; i < filter.size(); ++i) {
    half[i] = floatToHalf(filter[i]);
    filter[i] = halfToFloat(half[i]);
  }
  MLContext context = cpuContext();
  const MLOperandDescriptor descriptor{F16, kFilter.shape};
  auto tensor = context.createConstantTensor(descriptor, MLConstantOptions{.label = "f"});
  auto graphOf = [&](uint32_t size) {
    MLGraphBuilder builder(context);
    auto x = builder.input("x", {F16, {1, 16, size, size}});
    MLConv2dOptions options;
    options.padding = {1, 1, 1, 1};
    return builder.build({{"y", builder.conv2d(x, builder.constant(tensor), options)}});
  };
  auto small = graphOf(20);
  auto large = graphOf(24);
  context.writeConstantTensor(tensor, 0, std::as_bytes(std::span(half)));
  // At most one float16 copy of the filter per layout, and both graphs share it.
  EXPECT_LE(context.memoryStats().constantBytes, 2 * descriptor.byteLength());
  const auto layouts = cpu::constantLayouts(*small.state()->compiled);
  EXPECT_EQ(layouts, cpu::constantLayouts(*large.state()->compiled));
  auto x = values(16 * 24 * 24, 10);
  std::vector<uint16_t> xHalf(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    xHalf[i] = floatToHalf(x[i]);
    x[i] = halfToFloat(xHalf[i]);
  }
  auto input = context.createTensor({{F16, {1, 16, 24, 24}}, false, true});
  auto output = context.createTensor({{F16, {1, 32, 24, 24}}, true, false});
  context.writeTensor(input, std::as_bytes(std::span(xHalf)));
  context.dispatch(large, {{"x", input}}, {{"y", output}});
  const auto bytes = context.readTensor(output);
  std::vector<uint16_t> result(bytes.size() / 2);
  std::memcpy(result.data(), bytes.data(), bytes.size());
  MLContext reference = cpuContext();
  MLGraphBuilder builder(reference);
  auto in = builder.input("x", {F32, {1, 16, 24, 24}});
  MLConv2dOptions options;
  options.padding = {1, 1, 1, 1};
  auto graph = builder.build(
      {{"y", builder.conv2d(in, builder.constant(kFilter, bytesOf(filter)), options)}});
  const auto expected = testing::runFloat(reference, graph, {{"x", x}}, "y");
  ASSERT_EQ(result.size(), expected.size());
  for (size_t i = 0; i < result.size(); ++i) {
    ASSERT_NEAR(halfToFloat(result[i]), expected[i], 2e-3f + 2e-3f * std::fabs(expected[i]))
        << "at " << i;
  }
}

}  // namespace
}  // namespace webnn

#endif  // WEBNN_HAVE_CPU
