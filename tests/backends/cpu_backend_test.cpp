// The cpu backend runs its hot ops on oneDNN primitives and the rest on the reference kernels
// (what each operation got is what operationImplementations reports). Results are checked
// against the reference by the per-backend suite; this checks that oneDNN is actually chosen.
#include "webnn/config.h"
#ifdef WEBNN_HAVE_CPU

#include <gtest/gtest.h>

#include <vector>

#include "api/graph_state.h"
#include "backends/cpu/cpu_backend.h"
#include "webnn/context.h"
#include "webnn/graph_builder.h"

namespace webnn {
namespace {

constexpr auto F32 = MLOperandDataType::Float32;
constexpr const char* kFallback = "reference fallback";

std::span<const std::byte> bytesOf(const std::vector<float>& values) {
  return std::as_bytes(std::span(values));
}

TEST(CpuBackend, HotFloat32OpsRunOnOneDnnTheRestOnTheReference) {
  MLContext context = createContext({.backend = "cpu"});
  MLGraphBuilder builder(context);
  const std::vector<float> filter(8 * 4 * 3 * 3, 0.5f), bias(8, 1.0f), weights(16 * 5, 0.25f);
  auto x = builder.input("x", {F32, {1, 4, 8, 8}});
  auto convolved = builder.conv2d(
      x, builder.constant({F32, {8, 4, 3, 3}}, bytesOf(filter)),
      {.padding = {1, 1, 1, 1}, .bias = builder.constant({F32, {8}}, bytesOf(bias))});
  auto activated = builder.relu(convolved);  // [1, 8, 8, 8]
  auto pooled = builder.maxPool2d(activated, {.windowDimensions = std::vector<uint32_t>{2, 2},
                                              .strides = {2, 2}});  // [1, 8, 4, 4]
  auto l2 = builder.l2Pool2d(pooled, {.windowDimensions = std::vector<uint32_t>{1, 1}});
  auto rows = builder.reshape(l2, {8, 16});
  auto product = builder.matmul(rows, builder.constant({F32, {16, 5}}, bytesOf(weights)));
  MLGraph graph = builder.build({{"y", product}});
  const auto implementations = cpu::operationImplementations(*graph.state()->compiled);
  ASSERT_EQ(implementations.size(), 6u);  // conv2d, relu, maxPool2d, l2Pool2d, reshape, matmul
  for (size_t oneDnn : {0u, 1u, 2u, 5u}) {
    EXPECT_NE(implementations[oneDnn], kFallback) << "operation " << oneDnn;
    EXPECT_FALSE(implementations[oneDnn].empty());
  }
  EXPECT_EQ(implementations[3], kFallback);  // oneDNN has no l2 pooling
  EXPECT_EQ(implementations[4], kFallback);
}

TEST(CpuBackend, Float16StaysOnTheReference) {
  MLContext context = createContext({.backend = "cpu"});
  MLGraphBuilder builder(context);
  auto x = builder.input("x", {MLOperandDataType::Float16, {2, 3}});
  MLGraph graph = builder.build({{"y", builder.relu(x)}});
  EXPECT_EQ(cpu::operationImplementations(*graph.state()->compiled),
            std::vector<std::string>{kFallback});
}

}  // namespace
}  // namespace webnn

#endif  // WEBNN_HAVE_CPU
