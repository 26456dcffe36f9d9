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

TEST(CpuBackend, HotFloat32OpsRunOnOneDnnTheRestOnKernelsOfOursOrTheReference) {
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
  auto counted = builder.reduceSum(builder.cast(product, MLOperandDataType::Int32));
  MLGraph graph = builder.build({{"y", product}, {"count", counted}});
  const auto implementations = cpu::operationImplementations(*graph.state()->compiled);
  // conv2d, relu, maxPool2d, l2Pool2d, reshape, matmul, cast, reduceSum
  ASSERT_EQ(implementations.size(), 8u);
  for (size_t oneDnn : {0u, 1u, 2u, 5u}) {
    EXPECT_NE(implementations[oneDnn], kFallback) << "operation " << oneDnn;
    EXPECT_FALSE(implementations[oneDnn].empty());
  }
  EXPECT_EQ(implementations[3], "cpu l2Pool2d kernel");  // oneDNN has no l2 pooling
  // The matmul reads the reshape's input through strides (strided_views.h).
  EXPECT_EQ(implementations[4], "view: through strides of a matmul");
  EXPECT_NE(implementations[6], kFallback);
  EXPECT_EQ(implementations[7], kFallback);  // no int32 reduction of the cpu backend's own
}

// Every operation of `graph` runs on a kernel of the cpu backend, none on the reference fallback.
void expectNoFallback(const MLGraph& graph, size_t operations) {
  const auto implementations = cpu::operationImplementations(*graph.state()->compiled);
  ASSERT_EQ(implementations.size(), operations);
  for (size_t i = 0; i < implementations.size(); ++i) {
    EXPECT_NE(implementations[i], kFallback) << "operation " << i;
    EXPECT_FALSE(implementations[i].empty()) << "operation " << i;
  }
}

TEST(CpuBackend, DataMovementRunsOnOwnKernelsForEveryByteType) {
  for (MLOperandDataType type : {F32, MLOperandDataType::Float16, MLOperandDataType::Int32,
                                 MLOperandDataType::Int64, MLOperandDataType::Uint8}) {
    MLContext context = createContext({.backend = "cpu"});
    MLGraphBuilder builder(context);
    auto x = builder.input("x", {type, {2, 3, 4}});
    auto condition = builder.input("c", {MLOperandDataType::Uint8, {3, 1}});
    auto t = builder.transpose(x, {.permutation = std::vector<uint32_t>{2, 0, 1}});  // [4, 2, 3]
    auto r = builder.reshape(t, {8, 3});
    auto s = builder.slice(r, {1, 0}, {6, 3}, {.strides = {2, 1}});  // [3, 3]
    auto pieces = builder.split(s, 3, {.axis = 1});                  // 3 x [3, 1]
    auto c = builder.concat({pieces[2], pieces[0]}, 1);              // [3, 2]
    auto e = builder.expand(c, {2, 3, 2});
    auto tiled = builder.tile(e, {1, 1, 2});  // [2, 3, 4]
    auto reversed = builder.reverse(tiled);
    auto padded = builder.pad(reversed, {0, 1, 0}, {0, 0, 1});  // [2, 4, 5]
    auto gathered = builder.gather(padded, builder.input("i", {MLOperandDataType::Int32, {2}}),
                                   {.axis = 1});                   // [2, 2, 5]
    auto chosen = builder.where(condition, pieces[0], pieces[1]);  // [3, 1]
    auto picked = builder.gatherElements(builder.triangular(padded),
                                         builder.input("e", {MLOperandDataType::Int32, {2, 4, 5}}));
    auto rows = builder.gatherND(picked, builder.input("n", {MLOperandDataType::Int64, {3, 2}}));
    rows = builder.scatterND(rows, builder.input("s", {MLOperandDataType::Int32, {1, 1}}),
                             builder.input("u", {type, {1, 5}}));
    rows = builder.scatterElements(rows, builder.input("se", {MLOperandDataType::Int32, {3, 2}}),
                                   builder.input("ue", {type, {3, 2}}), {.axis = 1});
    MLGraph graph = builder.build({{"y", builder.reshape(gathered, {20})},
                                   {"w", chosen},
                                   {"x2", builder.identity(x)},
                                   {"rows", rows}});
    expectNoFallback(graph, 18);
  }
}

TEST(CpuBackend, NormalizationAndElementwiseFloat32RunOnOwnKernels) {
  MLContext context = createContext({.backend = "cpu"});
  MLGraphBuilder builder(context);
  const std::vector<float> ones(4, 1.0f);
  auto channel = [&] { return builder.constant({F32, {4}}, bytesOf(ones)); };
  auto x = builder.input("x", {F32, {2, 4, 3, 5}});
  auto y = builder.batchNormalization(x, channel(), channel(), {.scale = channel()});
  y = builder.instanceNormalization(y, {.bias = channel()});
  y = builder.layerNormalization(y, {.axes = std::vector<uint32_t>{2, 3}});
  y = builder.hardSigmoid(y);
  y = builder.erf(y);
  y = builder.pow(y, builder.max(y, builder.floor(y)));
  y = builder.prelu(y, builder.constant({F32, {4, 1, 1}}, bytesOf(ones)));
  auto flags = builder.logicalNot(builder.greater(y, builder.min(y, builder.sin(y))));
  auto counts = builder.cast(builder.cast(flags, MLOperandDataType::Int32), F32);
  MLGraph graph = builder.build({{"y", y}, {"counts", counts}});
  expectNoFallback(graph, 15);
}

TEST(CpuBackend, DeconvolutionResampleAndReductionsDoNotFallBack) {
  MLContext context = createContext({.backend = "cpu"});
  MLGraphBuilder builder(context);
  const std::vector<float> filter(6 * 2 * 3 * 3, 0.5f), bias(6, 1.0f);
  auto x = builder.input("x", {F32, {1, 6, 5, 4}});
  auto y = builder.convTranspose2d(x, builder.constant({F32, {6, 2, 3, 3}}, bytesOf(filter)),
                                   {.padding = {1, 0, 0, 1},
                                    .strides = {2, 2},
                                    .dilations = {1, 2},
                                    .outputPadding = {1, 0},
                                    .groups = 3,
                                    .bias = builder.constant({F32, {6}}, bytesOf(bias))});
  y = builder.resample2d(
      y, {.mode = MLInterpolationMode::Linear, .scales = std::vector<float>{2.0f, 2.0f}});
  y = builder.resample2d(y, {.sizes = std::vector<uint32_t>{7, 5}});
  auto mean = builder.reduceMean(y, {.axes = std::vector<uint32_t>{2, 3}, .keepDimensions = true});
  auto sum = builder.reduceSum(y, {.axes = std::vector<uint32_t>{1}});
  auto largest = builder.reduceLogSumExp(y, {.axes = std::vector<uint32_t>{3}});
  auto where = builder.argMax(y, 1, {.outputDataType = MLOperandDataType::Int64});
  auto running = builder.cumulativeSum(builder.reduceMax(y, {.axes = std::vector<uint32_t>{2}}), 2);
  auto nearest = builder.argMin(y, 2);
  MLGraph graph = builder.build({{"mean", mean},
                                 {"sum", sum},
                                 {"lse", largest},
                                 {"where", where},
                                 {"running", running},
                                 {"nearest", nearest}});
  expectNoFallback(graph, 10);
}

TEST(CpuBackend, QuantizationDoesNotFallBack) {
  MLContext context = createContext({.backend = "cpu"});
  MLGraphBuilder builder(context);
  const std::vector<float> scales{0.5f, 0.25f};
  const std::vector<int8_t> zeroPoints{1, -2};
  auto x = builder.input("x", {F32, {2, 8}});
  auto scale = builder.constant({F32, {2, 1}}, bytesOf(scales));
  auto zero =
      builder.constant({MLOperandDataType::Int8, {2, 1}}, std::as_bytes(std::span(zeroPoints)));
  auto y = builder.dequantizeLinear(builder.quantizeLinear(x, scale, zero), scale, zero);
  MLGraph graph = builder.build({{"y", y}});
  expectNoFallback(graph, 2);
}

// int4/uint4 (two a byte): casts from and to them, dequantizeLinear of them and quantizeLinear to
// them run on kernels of the cpu backend (the op suite checks the float32 ones; not a cast from
// int4).
TEST(CpuBackend, FourBitCastsAndQuantizationRunOnKernelsOfOurs) {
  MLContext context = createContext({.backend = "cpu"});
  MLGraphBuilder builder(context);
  constexpr auto I4 = MLOperandDataType::Int4, U4 = MLOperandDataType::Uint4;
  const std::vector<float> scales{0.5f, 0.25f, 2.0f};
  const std::vector<uint8_t> zeroPoints{0x1f, 0x03};  // 15, 1, 3 (and a high nibble unused)
  auto packed = builder.input("packed", {I4, {3, 5}});
  auto x = builder.input("x", {F32, {3, 5}});
  auto scale = builder.constant({F32, {3, 1}}, bytesOf(scales));
  auto zero = builder.constant({U4, {3, 1}}, std::as_bytes(std::span(zeroPoints)));
  auto widened = builder.cast(packed, MLOperandDataType::Int32);
  auto narrowed = builder.cast(x, I4);
  auto quantized = builder.quantizeLinear(x, scale, zero);
  auto dequantized = builder.dequantizeLinear(quantized, scale, zero);
  MLGraph graph = builder.build({{"widened", widened},
                                 {"narrowed", narrowed},
                                 {"quantized", quantized},
                                 {"dequantized", dequantized}});
  expectNoFallback(graph, 4);
}

TEST(CpuBackend, Float16RunsOnTheFloat32Implementations) {
  MLContext context = createContext({.backend = "cpu"});
  MLGraphBuilder builder(context);
  auto x = builder.input("x", {MLOperandDataType::Float16, {2, 3}});
  MLGraph graph = builder.build({{"y", builder.relu(x)}});
  const auto implementations = cpu::operationImplementations(*graph.state()->compiled);
  ASSERT_EQ(implementations.size(), 1u);
  EXPECT_NE(implementations[0], kFallback);
}

// MLGraph::implementations(): per step, as the plan has it, with the graph's data types.
TEST(CpuBackend, ImplementationsNameEachStepItsTypeAndWhyItFallsBack) {
  MLContext context = createContext({.backend = "cpu"});
  MLGraphBuilder builder(context);
  auto x = builder.input("x", {MLOperandDataType::Float16, {1, 2, 4, 4}});
  auto counted = builder.reduceSum(builder.cast(builder.relu(x), MLOperandDataType::Int32));
  MLGraph graph = builder.build({{"y", counted}});
  const std::vector<MLStepImplementation> steps = graph.implementations();
  ASSERT_FALSE(steps.empty());
  size_t relus = 0, sums = 0;
  for (const auto& step : steps) {
    if (step.type == "relu") {
      ++relus;
      EXPECT_EQ(step.dataType, "float16");  // as built (computed in float32)
      EXPECT_TRUE(step.fallbackReason.empty()) << step.fallbackReason;
    } else if (step.type == "reduceSum") {
      ++sums;
      EXPECT_EQ(step.dataType, "int32");
      EXPECT_EQ(step.implementation, kFallback);
      EXPECT_NE(step.fallbackReason.find("no int32 implementation"), std::string::npos)
          << step.fallbackReason;
    } else {
      EXPECT_EQ(step.type, "cast");  // the float16 input and output
    }
  }
  EXPECT_EQ(relus, 1u);
  EXPECT_EQ(sums, 1u);
  // The reference backend's kernels are its own: it reports no steps.
  MLContext reference = createContext({.backend = "reference"});
  MLGraphBuilder referenceBuilder(reference);
  auto input = referenceBuilder.input("x", {F32, {2}});
  EXPECT_TRUE(
      referenceBuilder.build({{"y", referenceBuilder.relu(input)}}).implementations().empty());
}

}  // namespace
}  // namespace webnn

#endif  // WEBNN_HAVE_CPU
