// The cpu backend on a QDQ model's convolutions and matmuls: conv2d(dequantizeLinear(quantized
// input), dequantizeLinear(int8 filter)) is one step on oneDNN's int8 convolution (the
// dequantizeLinear operations fused into it, the quantized tensors read), with the reference
// backend's results; a filter zero point other than 0 runs on the float path; a dequantized input
// another operation also reads keeps its own step; a matmul of a dequantized 3-d A and int8 B with
// a bias add and relu is one int8 step. (Values against the reference for every backend: the op
// suite's "conv2d on quantized operands" cases.)
#include "webnn/config.h"
#ifdef WEBNN_HAVE_CPU

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "api/graph_state.h"
#include "backends/cpu/cpu_backend.h"
#include "backends/cpu/kernels/quantized_glue.h"
#include "backends/cpu/plan.h"
#include "test_helpers.h"
#include "webnn/context.h"
#include "webnn/graph_builder.h"

namespace webnn {
namespace {

constexpr auto F32 = MLOperandDataType::Float32;
constexpr auto U8 = MLOperandDataType::Uint8;
constexpr auto I8 = MLOperandDataType::Int8;
using Kind = cpu::OperationPlacement::Kind;

const cpu::CpuPlan& planOf(const MLGraph& graph) {
  const cpu::CpuPlan* plan = cpu::planOf(*graph.state()->compiled);
  if (!plan) throw std::logic_error("not a cpu graph");
  return *plan;
}

template <class T>
MLOperand classic(MLGraphBuilder& b, MLOperandDataType type, std::vector<uint32_t> shape,
                  std::vector<T> values) {
  return b.constant({type, std::move(shape)}, testing::bytesOf(values));
}

constexpr uint32_t kChannels = 8, kOutputs = 16;

struct QdqGraph {
  MLGraph graph;
  MLOperand filter, filterScale, filterZeroPoint, bias;
  uint32_t outputs = kOutputs,
           filterPerOutput = kChannels * 9;  // output channels, filter elements of each
};

// The convolution: 8 -> 16 channels on a 6 x 6 image (a padded convolution with an input zero point
// on a small image pads its input itself), or a depthwise one on 260 x 260 (8 x 260 x 260 uint8,
// over 512 KiB: it keeps oneDNN's source zero point, on its older int8 kernel, whose packed
// filter carries compensation).
struct Layer {
  uint32_t image = 6;
  bool depthwise = false;
  uint32_t outputs() const { return depthwise ? kChannels : kOutputs; }
  uint32_t filterPerOutput() const { return (depthwise ? 1 : kChannels) * 9; }
};
constexpr Layer kLargeDepthwise{.image = 260, .depthwise = true};

// quantizeLinear -> dequantizeLinear -> conv2d(filter: dequantizeLinear of an int8 hollow
// constant, per channel) + bias -> relu; `alsoAdd`: the dequantized input is read by an add too.
// `reshapedScales`: the filter's scale and zero point are [16] constants reshaped to [16, 1, 1, 1]
// (as the ONNX importer lays per-axis ones out).
QdqGraph buildQdq(MLContext& context, bool alsoAdd, bool reshapedScales = false, Layer layer = {}) {
  const uint32_t kOutputs = layer.outputs();  // (this function's, shadowing the 8 -> 16 one's)
  MLGraphBuilder b(context);
  const MLOperand x = b.input("x", {F32, {1, kChannels, layer.image, layer.image}});
  const MLOperand scale = classic<float>(b, F32, {}, {0.05f});
  const MLOperand zero = classic<uint8_t>(b, U8, {}, {128});
  const MLOperand dequantized = b.dequantizeLinear(b.quantizeLinear(x, scale, zero), scale, zero);
  QdqGraph result{
      .graph = MLGraph(),
      .filter = b.constant({I8, {kOutputs, layer.filterPerOutput() / 9, 3, 3}}, {.label = "w"}),
      .filterScale = b.constant({F32, reshapedScales ? std::vector<uint32_t>{kOutputs}
                                                     : std::vector<uint32_t>{kOutputs, 1, 1, 1}},
                                {.label = "ws"}),
      .filterZeroPoint = b.constant({I8, reshapedScales ? std::vector<uint32_t>{kOutputs}
                                                        : std::vector<uint32_t>{kOutputs, 1, 1, 1}},
                                    {.label = "wz"}),
      .bias = b.constant({F32, {kOutputs}}, {.label = "b"}),
      .outputs = kOutputs,
      .filterPerOutput = layer.filterPerOutput()};
  const MLOperand filter =
      reshapedScales
          ? b.dequantizeLinear(result.filter, b.reshape(result.filterScale, {kOutputs, 1, 1, 1}),
                               b.reshape(result.filterZeroPoint, {kOutputs, 1, 1, 1}))
          : b.dequantizeLinear(result.filter, result.filterScale, result.filterZeroPoint);
  MLOperand y = b.relu(b.conv2d(
      dequantized, filter,
      {.padding = {1, 1, 1, 1}, .groups = layer.depthwise ? kChannels : 1, .bias = result.bias}));
  std::map<std::string, MLOperand> outputs{{"y", y}};
  if (alsoAdd) outputs.emplace("z", b.add(dequantized, dequantized));
  result.graph = b.build(outputs);
  return result;
}

// `seed` 0: the filter of every test; another: other values (a re-fill).
void fill(QdqGraph& qdq, int8_t zeroPoint, uint32_t seed = 0) {
  const uint32_t kOutputs = qdq.outputs;
  std::vector<int8_t> filter(kOutputs * qdq.filterPerOutput);
  for (size_t i = 0; i < filter.size(); ++i)
    filter[i] = static_cast<int8_t>(int((i * 37 + seed * (i % 7 + 1)) % 255) - 127);
  std::vector<float> scales(kOutputs), bias(kOutputs);
  for (uint32_t o = 0; o < kOutputs; ++o) {
    scales[o] = 0.002f * static_cast<float>(o + 1);
    bias[o] = 0.25f * static_cast<float>(o) - 1.0f;
  }
  std::vector<int8_t> zeroPoints(kOutputs, zeroPoint);
  qdq.graph.setConstantData(qdq.filter, testing::bytesOf(filter));
  qdq.graph.setConstantData(qdq.filterScale, testing::bytesOf(scales));
  qdq.graph.setConstantData(qdq.filterZeroPoint, testing::bytesOf(zeroPoints));
  qdq.graph.setConstantData(qdq.bias, testing::bytesOf(bias));
}

std::vector<float> run(MLContext& context, const MLGraph& graph, Layer layer = {}) {
  std::vector<float> x(kChannels * layer.image * layer.image);
  for (size_t i = 0; i < x.size(); ++i) x[i] = std::sin(static_cast<float>(i)) * 6.0f;
  return testing::runFloat(context, graph, {{"x", x}}, "y");
}

std::vector<float> onReference(bool alsoAdd, int8_t zeroPoint, uint32_t seed = 0,
                               Layer layer = {}) {
  MLContext reference = createContext({.backend = "reference"});
  QdqGraph qdq = buildQdq(reference, alsoAdd, false, layer);
  fill(qdq, zeroPoint, seed);
  return run(reference, qdq.graph, layer);
}

void expectNear(const std::vector<float>& actual, const std::vector<float>& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    EXPECT_NEAR(actual[i], expected[i], 1e-5 * std::max(1.0f, std::abs(expected[i]))) << i;
  }
}

TEST(CpuQuantized, AQdqConvolutionIsOneInt8StepReadingTheQuantizedTensors) {
  for (bool reshapedScales : {false, true}) {
    SCOPED_TRACE(reshapedScales ? "scales reshaped" : "scales as constants");
    MLContext context = createContext({.backend = "cpu"});
    QdqGraph qdq = buildQdq(context, false, reshapedScales);
    fill(qdq, 0);
    const cpu::CpuPlan& plan = planOf(qdq.graph);
    // The reshapes of the filter's scale and zero point join the step: the step reads the
    // constants behind them, and no step copies them at every dispatch.
    const std::string types = reshapedScales
                                  ? "dequantizeLinear+reshape+reshape+dequantizeLinear+conv2d+relu"
                                  : "dequantizeLinear+dequantizeLinear+conv2d+relu";
    size_t found = plan.steps.size();
    for (size_t s = 0; s < plan.steps.size(); ++s) {
      if (plan.steps[s].types == types) found = s;
      EXPECT_EQ(plan.steps[s].types.find("reshape"),
                reshapedScales && s == found ? 17 : std::string::npos)
          << plan.steps[s].types;
    }
    ASSERT_LT(found, plan.steps.size());
    const cpu::PlanStep& step = plan.steps[found];
    EXPECT_FALSE(step.isFallback());
    EXPECT_NE(step.op->implementation().find("(int8)"), std::string::npos)
        << step.op->implementation();
    // conv2d, the two dequantizeLinear, relu (and the two reshapes)
    EXPECT_EQ(step.operations.size(), reshapedScales ? 6u : 4u);
    size_t fused = 0;
    for (const auto& placement : plan.operations) fused += placement.kind == Kind::Fused;
    EXPECT_EQ(fused, reshapedScales ? 5u : 3u);
    expectNear(run(context, qdq.graph), onReference(false, 0));
  }
}

// The input's zero point (128) makes oneDNN's packed filter carry compensation after the weights
// (a large depthwise convolution: a small one pads its input itself, below): the filter is still
// packed on arrival (no plain copy beside it), its compensation computed when the constants are
// in, again after a re-fill with other values.
TEST(CpuQuantized, AFilterWithAnInputZeroPointIsPackedOnArrivalWithItsCompensation) {
  MLContext context = createContext({.backend = "cpu"});
  QdqGraph qdq = buildQdq(context, false, false, kLargeDepthwise);
  fill(qdq, 0);
  const auto layouts = cpu::constantLayouts(*qdq.graph.state()->compiled);
  uint64_t packedBytes = 0;
  for (const std::string& line : layouts) {
    const std::string prefix = " w: packed on arrival (";
    const size_t at = line.find(prefix);
    if (at == std::string::npos) continue;
    packedBytes = std::stoull(line.substr(at + prefix.size()));
    EXPECT_NE(line.find("compensation computed"), std::string::npos) << line;
  }
  ASSERT_GT(packedBytes, 0u) << ::testing::PrintToString(layouts);
  // The packed filter (weights and compensation) and the small constants: no plain copy of the
  // filter's bytes, no reordered one.
  const uint64_t filterBytes = qdq.outputs * qdq.filterPerOutput;
  const uint64_t smallConstants = qdq.outputs * (4 + 1 + 4) + 4 + 1;
  EXPECT_LE(context.memoryStats().constantBytes, packedBytes + smallConstants);
  EXPECT_GE(packedBytes, filterBytes);
  const cpu::CpuPlan& plan = planOf(qdq.graph);
  bool int8Step = false;
  for (const auto& step : plan.steps) {
    int8Step = int8Step || step.op->implementation().find("(int8)") != std::string::npos;
  }
  EXPECT_TRUE(int8Step);
  expectNear(run(context, qdq.graph, kLargeDepthwise), onReference(false, 0, 0, kLargeDepthwise));
  fill(qdq, 0, 5);  // other weights: the compensation follows them
  expectNear(run(context, qdq.graph, kLargeDepthwise), onReference(false, 0, 5, kLargeDepthwise));
}

// A padded convolution of a small image whose input has a zero point (128): oneDNN 2.6 runs such
// a source zero point on its older int8 kernels only, so the step pads the input itself with the
// zero point (the dequantized 0 the graph pads with) and runs a brgemm kernel without padding, the
// zero point's share in the bias; the filter carries no compensation. Also after a re-fill.
TEST(CpuQuantized, ASmallPaddedConvolutionPadsItsInputWithTheZeroPoint) {
  MLContext context = createContext({.backend = "cpu"});
  QdqGraph qdq = buildQdq(context, false);
  fill(qdq, 0);
  bool padded = false;
  for (const auto& step : planOf(qdq.graph).steps) {
    const std::string implementation = step.op->implementation();
    if (implementation.find("(int8)") == std::string::npos) continue;
    EXPECT_NE(implementation.find("on the input padded with its zero point"), std::string::npos)
        << implementation;
    EXPECT_TRUE(implementation.rfind("brg", 0) == 0 || implementation.rfind("brdgmm", 0) == 0)
        << implementation;
    padded = true;
  }
  EXPECT_TRUE(padded);
  for (const std::string& line : cpu::constantLayouts(*qdq.graph.state()->compiled)) {
    EXPECT_EQ(line.find("compensation"), std::string::npos) << line;
  }
  expectNear(run(context, qdq.graph), onReference(false, 0));
  fill(qdq, 0, 5);
  expectNear(run(context, qdq.graph), onReference(false, 0, 5));
}

TEST(CpuQuantized, AFilterZeroPointOtherThanZeroRunsOnTheFloatPath) {
  MLContext context = createContext({.backend = "cpu"});
  QdqGraph qdq = buildQdq(context, false);
  fill(qdq, 7);
  const cpu::CpuPlan& plan = planOf(qdq.graph);
  bool floatPath = false;
  for (const auto& step : plan.steps) {
    floatPath =
        floatPath || step.op->implementation().find("(dequantized filter)") != std::string::npos;
  }
  EXPECT_TRUE(floatPath);
  expectNear(run(context, qdq.graph), onReference(false, 7));
  // Filled again with zero points of 0: back on the int8 convolution.
  fill(qdq, 0);
  for (const auto& step : plan.steps) {
    EXPECT_EQ(step.op->implementation().find("(dequantized filter)"), std::string::npos);
  }
  expectNear(run(context, qdq.graph), onReference(false, 0));
}

TEST(CpuQuantized, ADequantizedInputThatAnotherOperationReadsKeepsItsStep) {
  MLContext context = createContext({.backend = "cpu"});
  QdqGraph qdq = buildQdq(context, true);
  fill(qdq, 0);
  const cpu::CpuPlan& plan = planOf(qdq.graph);
  size_t dequantizeSteps = 0;
  for (const auto& step : plan.steps) dequantizeSteps += step.types == "dequantizeLinear";
  EXPECT_EQ(dequantizeSteps, 2u);  // the input's and the filter's
  expectNear(run(context, qdq.graph), onReference(true, 0));
}

TEST(CpuQuantized, AQdqMatmulWithBiasAndReluIsOneInt8Step) {
  MLContext context = createContext({.backend = "cpu"});
  MLGraphBuilder b(context);
  const MLOperand x = b.input("x", {F32, {2, 3, 8}});
  const MLOperand scale = classic<float>(b, F32, {}, {0.02f});
  const MLOperand zero = classic<uint8_t>(b, U8, {}, {100});
  const MLOperand a = b.dequantizeLinear(b.quantizeLinear(x, scale, zero), scale, zero);
  std::vector<int8_t> weights(8 * 4);
  for (size_t i = 0; i < weights.size(); ++i)
    weights[i] = static_cast<int8_t>(int(i * 29 % 200) - 100);
  const MLOperand bOperand = b.dequantizeLinear(
      classic<int8_t>(b, I8, {8, 4}, weights),
      b.reshape(classic<float>(b, F32, {4}, {0.01f, 0.02f, 0.03f, 0.04f}), {1, 4}),
      b.reshape(classic<int8_t>(b, I8, {4}, {0, 0, 0, 0}), {1, 4}));
  const MLOperand y =
      b.relu(b.add(b.matmul(a, bOperand), classic<float>(b, F32, {4}, {0.5f, -0.5f, 1.0f, 0.0f})));
  MLGraph graph = b.build({{"y", y}});
  const cpu::CpuPlan& plan = planOf(graph);
  size_t found = plan.steps.size();
  for (size_t s = 0; s < plan.steps.size(); ++s) {
    if (plan.steps[s].types == "dequantizeLinear+reshape+reshape+dequantizeLinear+matmul+add+relu")
      found = s;
  }
  ASSERT_LT(found, plan.steps.size());
  EXPECT_NE(plan.steps[found].op->implementation().find("(int8)"), std::string::npos)
      << plan.steps[found].op->implementation();
  std::vector<float> input(2 * 3 * 8);
  for (size_t i = 0; i < input.size(); ++i) input[i] = std::cos(static_cast<float>(i)) * 2.0f;
  const std::vector<float> result = testing::runFloat(context, graph, {{"x", input}}, "y");
  // The reference: dequantize, then the float math.
  ASSERT_EQ(result.size(), 2u * 3 * 4);
  const float bias[4] = {0.5f, -0.5f, 1.0f, 0.0f};
  for (size_t row = 0; row < 6; ++row) {
    for (size_t n = 0; n < 4; ++n) {
      double sum = 0;
      for (size_t k = 0; k < 8; ++k) {
        const double q = std::clamp(std::nearbyint(input[row * 8 + k] / 0.02f) + 100.0, 0.0, 255.0);
        sum += (q - 100.0) * 0.02f * (weights[k * 4 + n] * static_cast<double>((n + 1) * 0.01f));
      }
      EXPECT_NEAR(result[row * 4 + n], std::max(0.0, sum + bias[n]), 1e-4) << row << ", " << n;
    }
  }
}

// conv2d -> relu -> quantizeLinear into uint8: one step writing uint8, as the reference.
TEST(CpuQuantized, AQuantizeLinearAfterTheChainMakesTheStepWriteUint8) {
  auto build = [](MLContext& context, QdqGraph& qdq) {
    MLGraphBuilder b(context);
    const MLOperand x = b.input("x", {F32, {1, kChannels, 6, 6}});
    const MLOperand scale = classic<float>(b, F32, {}, {0.05f});
    const MLOperand zero = classic<uint8_t>(b, U8, {}, {128});
    const MLOperand dequantized = b.dequantizeLinear(b.quantizeLinear(x, scale, zero), scale, zero);
    qdq.filter = b.constant({I8, {kOutputs, kChannels, 3, 3}}, {.label = "w"});
    qdq.filterScale = b.constant({F32, {kOutputs, 1, 1, 1}}, {.label = "ws"});
    qdq.filterZeroPoint = b.constant({I8, {kOutputs, 1, 1, 1}}, {.label = "wz"});
    qdq.bias = b.constant({F32, {kOutputs}}, {.label = "b"});
    const MLOperand y = b.relu(
        b.conv2d(dequantized, b.dequantizeLinear(qdq.filter, qdq.filterScale, qdq.filterZeroPoint),
                 {.padding = {1, 1, 1, 1}, .bias = qdq.bias}));
    const MLOperand q =
        b.quantizeLinear(y, classic<float>(b, F32, {}, {0.04f}), classic<uint8_t>(b, U8, {}, {5}));
    qdq.graph = b.build({{"y", q}});
  };
  auto runUint8 = [](MLContext& context, const MLGraph& graph) {
    std::vector<float> x(kChannels * 36);
    for (size_t i = 0; i < x.size(); ++i) x[i] = std::sin(static_cast<float>(i)) * 6.0f;
    MLTensor input = testing::inputTensor(context, {F32, {1, kChannels, 6, 6}});
    context.writeTensor(input, testing::bytesOf(x));
    MLTensor output = testing::outputTensor(context, {U8, {1, kOutputs, 6, 6}});
    context.dispatch(graph, {{"x", input}}, {{"y", output}});
    return testing::readAs<uint8_t>(context, output);
  };
  MLContext context = createContext({.backend = "cpu"});
  QdqGraph qdq;
  build(context, qdq);
  fill(qdq, 0);
  const cpu::CpuPlan& plan = planOf(qdq.graph);
  bool found = false;
  for (const auto& step : plan.steps) {
    found = found || step.types == "dequantizeLinear+dequantizeLinear+conv2d+relu+quantizeLinear";
  }
  EXPECT_TRUE(found);
  MLContext reference = createContext({.backend = "reference"});
  QdqGraph expected;
  build(reference, expected);
  fill(expected, 0);
  const auto actual = runUint8(context, qdq.graph);
  const auto wanted = runUint8(reference, expected.graph);
  ASSERT_EQ(actual.size(), wanted.size());
  size_t nonzero = 0;
  for (size_t i = 0; i < actual.size(); ++i) {
    EXPECT_EQ(actual[i], wanted[i]) << i;
    nonzero += wanted[i] > 5;
  }
  EXPECT_GT(nonzero, actual.size() / 4);  // the values are not all the zero point
  // Filter zero points other than 0: the float path, saturated into uint8 as well.
  fill(qdq, 7);
  fill(expected, 7);
  const auto floatPath = runUint8(context, qdq.graph);
  const auto floatWanted = runUint8(reference, expected.graph);
  ASSERT_EQ(floatPath.size(), floatWanted.size());
  for (size_t i = 0; i < floatPath.size(); ++i) EXPECT_EQ(floatPath[i], floatWanted[i]) << i;
}

// A QDQ model's int32 bias (dequantizeLinear of constants): fused into the step, computed once.
TEST(CpuQuantized, ADequantizedInt32BiasIsFusedIntoTheStep) {
  auto build = [](MLContext& context) {
    MLGraphBuilder b(context);
    const MLOperand x = b.input("x", {F32, {1, 4, 5, 5}});
    const MLOperand scale = classic<float>(b, F32, {}, {0.05f});
    const MLOperand zero = classic<uint8_t>(b, U8, {}, {128});
    std::vector<int8_t> filter(8 * 4 * 9);
    for (size_t i = 0; i < filter.size(); ++i)
      filter[i] = static_cast<int8_t>(int(i * 13 % 200) - 100);
    const MLOperand dequantizedFilter = b.dequantizeLinear(
        classic<int8_t>(b, I8, {8, 4, 3, 3}, filter), classic<float>(b, F32, {1, 1, 1, 1}, {0.01f}),
        classic<int8_t>(b, I8, {1, 1, 1, 1}, {0}));
    const MLOperand bias = b.dequantizeLinear(
        classic<int32_t>(b, MLOperandDataType::Int32, {8},
                         {-300, -200, -100, 0, 100, 200, 300, 400}),
        classic<float>(b, F32, {8},
                       {0.0005f, 0.0005f, 0.0005f, 0.0005f, 0.001f, 0.001f, 0.001f, 0.001f}),
        classic<int32_t>(b, MLOperandDataType::Int32, {8}, {0, 0, 0, 0, 0, 0, 0, 0}));
    const MLOperand y = b.conv2d(b.dequantizeLinear(b.quantizeLinear(x, scale, zero), scale, zero),
                                 dequantizedFilter, {.padding = {1, 1, 1, 1}, .bias = bias});
    return b.build({{"y", y}});
  };
  MLContext context = createContext({.backend = "cpu"});
  MLGraph graph = build(context);
  bool fused = false;
  for (const auto& step : planOf(graph).steps) {
    fused = fused || step.types == "dequantizeLinear+dequantizeLinear+dequantizeLinear+conv2d";
  }
  EXPECT_TRUE(fused);
  std::vector<float> x(4 * 25);
  for (size_t i = 0; i < x.size(); ++i) x[i] = std::sin(static_cast<float>(i) * 0.7f) * 5.0f;
  MLContext reference = createContext({.backend = "reference"});
  expectNear(testing::runFloat(context, graph, {{"x", x}}, "y"),
             testing::runFloat(reference, build(reference), {{"x", x}}, "y"));
}

TEST(CpuQuantized, AConvolutionOfThreeInputChannelsRunsTheFloatPathInItsWorkspace) {
  // RGB pixels: int8 products need groups of 4 channels; the float path is chosen at compile and
  // its buffers are part of the step's workspace.
  auto build = [](MLContext& context, MLOperand* filter) {
    MLGraphBuilder b(context);
    const MLOperand scale = classic<float>(b, F32, {}, {0.02f});
    const MLOperand zero = classic<uint8_t>(b, U8, {}, {120});
    const MLOperand x = b.dequantizeLinear(
        b.quantizeLinear(b.input("x", {F32, {1, 3, 9, 12}}), scale, zero), scale, zero);
    *filter = b.constant({I8, {kOutputs, 3, 3, 3}}, {.label = "w"});
    std::vector<float> scales(kOutputs);
    for (uint32_t o = 0; o < kOutputs; ++o) scales[o] = 0.003f * static_cast<float>(o + 1);
    const MLOperand weights = b.dequantizeLinear(
        *filter, classic<float>(b, F32, {kOutputs, 1, 1, 1}, scales),
        classic<int8_t>(b, I8, {kOutputs, 1, 1, 1}, std::vector<int8_t>(kOutputs, 0)));
    return b.build(
        {{"y", b.relu(b.conv2d(x, weights, {.padding = {1, 1, 1, 1}, .strides = {2, 2}}))}});
  };
  std::vector<int8_t> filterValues(kOutputs * 27);
  for (size_t i = 0; i < filterValues.size(); ++i) {
    filterValues[i] = static_cast<int8_t>(int(i * 53 % 255) - 127);
  }
  std::vector<float> x(3 * 9 * 12);
  for (size_t i = 0; i < x.size(); ++i) x[i] = std::cos(static_cast<float>(i)) * 2.0f;
  auto runOn = [&](const char* backend, bool checkPlan) {
    MLContext context = createContext({.backend = backend});
    MLOperand filter;
    MLGraph graph = build(context, &filter);
    if (checkPlan) {
      bool found = false;
      for (const auto& step : planOf(graph).steps) {
        if (step.types.find("conv2d") == std::string::npos) continue;
        found = true;
        EXPECT_NE(step.implementation.find("(dequantized filter)"), std::string::npos)
            << step.implementation;
        EXPECT_GT(step.op->workspaceBytes(), 3u * 9 * 12 * sizeof(float)) << step.implementation;
      }
      EXPECT_TRUE(found);
    }
    graph.setConstantData(filter, testing::bytesOf(filterValues));
    return testing::runFloat(context, graph, {{"x", x}}, "y");
  };
  expectNear(runOn("cpu", true), runOn("reference", false));
}

TEST(CpuQuantized, ASmallConvolutionAvoidsOneDnnsAmxImplementations) {
  // oneDNN 2.6's AMX int8 convolutions lose to its VNNI ones on small convolutions (per-call tile
  // setup): a 1x1 convolution of 32 channels on 12x12 must not run on AMX (on a CPU without AMX
  // it never does).
  MLContext context = createContext({.backend = "cpu"});
  MLGraphBuilder b(context);
  const MLOperand scale = classic<float>(b, F32, {}, {0.05f});
  const MLOperand zero = classic<uint8_t>(b, U8, {}, {128});
  const MLOperand x = b.dequantizeLinear(
      b.quantizeLinear(b.input("x", {F32, {1, 32, 12, 12}}), scale, zero), scale, zero);
  std::vector<int8_t> filter(32 * 32);
  for (size_t i = 0; i < filter.size(); ++i)
    filter[i] = static_cast<int8_t>(int(i * 31 % 255) - 127);
  const MLOperand weights =
      b.dequantizeLinear(classic<int8_t>(b, I8, {32, 32, 1, 1}, filter),
                         classic<float>(b, F32, {32, 1, 1, 1}, std::vector<float>(32, 0.004f)),
                         classic<int8_t>(b, I8, {32, 1, 1, 1}, std::vector<int8_t>(32, 0)));
  MLGraph graph = b.build({{"y", b.relu(b.conv2d(x, weights))}});
  bool found = false;
  for (const auto& step : planOf(graph).steps) {
    if (step.types.find("conv2d") == std::string::npos) continue;
    found = true;
    EXPECT_NE(step.implementation.find("(int8)"), std::string::npos) << step.implementation;
    EXPECT_EQ(step.implementation.find("amx"), std::string::npos) << step.implementation;
  }
  EXPECT_TRUE(found);
}

// A squeeze-and-excitation layer's convolution on a 1x1 image: with the multipliers as oneDNN's
// output scales and the chain's scalar affine folded into them, oneDNN runs it int8 (with binary
// post-ops it offered only its reference int8 convolution there, and the step took the float
// path).
TEST(CpuQuantized, ASqueezeAndExcitationConvolutionOnA1x1ImageRunsInt8) {
  auto build = [](MLContext& context) {
    MLGraphBuilder b(context);
    const MLOperand scale = classic<float>(b, F32, {}, {0.03f});
    const MLOperand zero = classic<uint8_t>(b, U8, {}, {0});
    const MLOperand x = b.dequantizeLinear(
        b.quantizeLinear(b.input("x", {F32, {1, 96, 1, 1}}), scale, zero), scale, zero);
    std::vector<int8_t> filter(24 * 96);
    for (size_t i = 0; i < filter.size(); ++i)
      filter[i] = static_cast<int8_t>(int(i * 41 % 255) - 127);
    std::vector<float> scales(24), bias(24);
    for (size_t o = 0; o < 24; ++o) {
      scales[o] = 0.0005f * static_cast<float>(o + 1);
      bias[o] = 0.1f * static_cast<float>(o) - 1.0f;
    }
    const MLOperand weights =
        b.dequantizeLinear(classic<int8_t>(b, I8, {24, 96, 1, 1}, filter),
                           classic<float>(b, F32, {24, 1, 1, 1}, scales),
                           classic<int8_t>(b, I8, {24, 1, 1, 1}, std::vector<int8_t>(24, 0)));
    const MLOperand y = b.conv2d(x, weights, {.bias = classic<float>(b, F32, {24}, bias)});
    const MLOperand affine =
        b.add(b.mul(y, classic<float>(b, F32, {}, {0.5f})), classic<float>(b, F32, {}, {0.25f}));
    return b.build({{"y", b.relu(affine)}});
  };
  MLContext context = createContext({.backend = "cpu"});
  MLGraph graph = build(context);
  bool found = false;
  for (const auto& step : planOf(graph).steps) {
    if (step.types.find("conv2d") == std::string::npos) continue;
    found = true;
    EXPECT_EQ(step.types, "dequantizeLinear+dequantizeLinear+conv2d+mul+add+relu");
    EXPECT_NE(step.op->implementation().find("(int8)"), std::string::npos)
        << step.op->implementation();
    EXPECT_EQ(step.op->implementation().find("ref"), std::string::npos)
        << step.op->implementation();
  }
  EXPECT_TRUE(found);
  std::vector<float> x(96);
  for (size_t i = 0; i < x.size(); ++i) x[i] = 3.0f + 3.0f * std::sin(static_cast<float>(i));
  MLContext reference = createContext({.backend = "reference"});
  expectNear(testing::runFloat(context, graph, {{"x", x}}, "y"),
             testing::runFloat(reference, build(reference), {{"x", x}}, "y"));
}

// Filter scales of 0 (a pruned channel) and subnormal ones: their output scale becomes tiny, the
// bias divided by it; the step stays int8 and gives the bias there, as the reference.
TEST(CpuQuantized, AFilterScaleOfZeroStaysOnTheInt8Path) {
  auto fillScales = [](QdqGraph& qdq) {
    fill(qdq, 0);
    std::vector<float> scales(kOutputs);
    for (uint32_t o = 0; o < kOutputs; ++o) scales[o] = 0.002f * static_cast<float>(o + 1);
    scales[2] = 0.0f;
    scales[5] = 1e-41f;
    qdq.graph.setConstantData(qdq.filterScale, testing::bytesOf(scales));
  };
  MLContext context = createContext({.backend = "cpu"});
  QdqGraph qdq = buildQdq(context, false);
  fillScales(qdq);
  for (const auto& step : planOf(qdq.graph).steps) {
    if (step.types.find("conv2d") == std::string::npos) continue;
    EXPECT_NE(step.op->implementation().find("(int8)"), std::string::npos)
        << step.op->implementation();
  }
  MLContext reference = createContext({.backend = "reference"});
  QdqGraph expected = buildQdq(reference, false);
  fillScales(expected);
  expectNear(run(context, qdq.graph), run(reference, expected.graph));
}

// A convolution without padding (a 1x1 one): the input's zero point (128) is folded into the bias
// (minus it times each channel's weight sum), so oneDNN's primitive has no source zero point and
// its packed filter no compensation for one.
TEST(CpuQuantized, AnUnpaddedConvolutionFoldsTheInputZeroPointIntoItsBias) {
  auto build = [](MLContext& context, MLOperand* filter) {
    MLGraphBuilder b(context);
    const MLOperand scale = classic<float>(b, F32, {}, {0.05f});
    const MLOperand zero = classic<uint8_t>(b, U8, {}, {128});
    const MLOperand x = b.dequantizeLinear(
        b.quantizeLinear(b.input("x", {F32, {1, 32, 6, 7}}), scale, zero), scale, zero);
    *filter = b.constant({I8, {48, 32, 1, 1}}, {.label = "w"});
    std::vector<float> scales(48);
    for (size_t o = 0; o < scales.size(); ++o) scales[o] = 0.001f * static_cast<float>(o + 1);
    const MLOperand weights = b.dequantizeLinear(
        *filter, classic<float>(b, F32, {48, 1, 1, 1}, scales),
        classic<int8_t>(b, I8, {48, 1, 1, 1}, std::vector<int8_t>(48, 0)));
    return b.build({{"y", b.conv2d(x, weights, {.bias = classic<float>(
                                                     b, F32, {48}, std::vector<float>(48, 0.5f))})}});
  };
  std::vector<int8_t> filterValues(48 * 32);
  for (size_t i = 0; i < filterValues.size(); ++i)
    filterValues[i] = static_cast<int8_t>(int(i * 61 % 255) - 127);
  std::vector<float> x(32 * 42);
  for (size_t i = 0; i < x.size(); ++i) x[i] = std::sin(static_cast<float>(i) * 0.7f) * 6.0f;
  MLContext context = createContext({.backend = "cpu"});
  MLOperand filter;
  MLGraph graph = build(context, &filter);
  graph.setConstantData(filter, testing::bytesOf(filterValues));
  bool packed = false;
  for (const std::string& line : cpu::constantLayouts(*graph.state()->compiled)) {
    if (line.find(" w: packed on arrival (") == std::string::npos) continue;
    packed = true;
    EXPECT_EQ(line.find("compensation"), std::string::npos) << line;
  }
  EXPECT_TRUE(packed);
  for (const auto& step : planOf(graph).steps) {
    if (step.types.find("conv2d") == std::string::npos) continue;
    EXPECT_NE(step.op->implementation().find("(int8)"), std::string::npos)
        << step.op->implementation();
  }
  MLContext reference = createContext({.backend = "reference"});
  MLOperand referenceFilter;
  MLGraph expected = build(reference, &referenceFilter);
  expected.setConstantData(referenceFilter, testing::bytesOf(filterValues));
  expectNear(testing::runFloat(context, graph, {{"x", x}}, "y"),
             testing::runFloat(reference, expected, {{"x", x}}, "y"));
}

// Every quantized step gets an op for one thread (the step runs alone when that is faster; one
// without waits for the team): a first layer of 3 channels (the float path), a squeeze-and-
// excitation layer's 1x1-image convolutions, and an unpadded 1x1 convolution of 480 channels with
// an input zero point (oneDNN's brgemm kernels pick its filter layout by the thread count: the
// team's op keeps the zero point and a kernel whose filter one thread takes). Alone gives the
// team's results.
TEST(CpuQuantized, EveryQuantizedStepGetsAnOpForOneThread) {
  auto build = [](MLContext& context) {
    MLGraphBuilder b(context);
    auto quantized = [&](const MLOperand& value, float scale, uint8_t zero) {
      const MLOperand s = classic<float>(b, F32, {}, {scale});
      const MLOperand z = classic<uint8_t>(b, U8, {}, {zero});
      return b.dequantizeLinear(b.quantizeLinear(value, s, z), s, z);
    };
    auto filter = [&](uint32_t out, uint32_t in, uint32_t kernel, uint32_t seed) {
      std::vector<int8_t> values(out * in * kernel * kernel);
      for (size_t i = 0; i < values.size(); ++i)
        values[i] = static_cast<int8_t>(int((i * 37 + seed) % 255) - 127);
      return b.dequantizeLinear(
          classic<int8_t>(b, I8, {out, in, kernel, kernel}, values),
          classic<float>(b, F32, {out, 1, 1, 1}, std::vector<float>(out, 0.002f)),
          classic<int8_t>(b, I8, {out, 1, 1, 1}, std::vector<int8_t>(out, 0)));
    };
    const MLOperand first =
        b.relu(b.conv2d(quantized(b.input("x", {F32, {1, 3, 12, 160}}), 0.02f, 100),
                        filter(480, 3, 3, 1), {.padding = {1, 1, 1, 1}, .strides = {2, 2}}));
    const MLOperand wide = b.conv2d(quantized(first, 0.05f, 3), filter(480, 480, 1, 2));
    const MLOperand squeezed = b.relu(
        b.conv2d(quantized(b.averagePool2d(wide), 0.04f, 128), filter(120, 480, 1, 3)));
    const MLOperand gate =
        b.hardSigmoid(b.conv2d(quantized(squeezed, 0.03f, 0), filter(480, 120, 1, 4)));
    return b.build({{"y", b.mul(wide, gate)}});
  };
  auto run = [&](const char* mode, bool checkAloneOps) {
    setenv("WEBNN_CPU_THREADING", mode, 1);
    MLContext context = createContext({.backend = "cpu", .numThreads = 2});
    MLGraph graph = build(context);
    std::vector<float> x(3 * 12 * 160);
    for (size_t i = 0; i < x.size(); ++i) x[i] = std::sin(static_cast<float>(i) * 0.37f) * 2.0f;
    std::vector<float> result = testing::runFloat(context, graph, {{"x", x}}, "y");
    unsetenv("WEBNN_CPU_THREADING");
    if (checkAloneOps) {
      for (const auto& step : planOf(graph).steps) {
        EXPECT_TRUE(step.aloneOp || !step.op->fixesThreadCount()) << step.types;
      }
    }
    return result;
  };
  const std::vector<float> team = run("team", false);
  const std::vector<float> alone = run("alone", true);
  ASSERT_EQ(team.size(), alone.size());
  for (size_t i = 0; i < team.size(); ++i) EXPECT_NEAR(alone[i], team[i], 1e-5f) << i;
}

// The glue kernel (an add, sub, mul or div then quantizeLinear into uint8) against quantizeLinear's
// arithmetic in every layout it takes: odd sizes (masked tails), ties to even, saturation, NaN.
TEST(CpuQuantized, TheGlueKernelQuantizesAsQuantizeLinearInEveryLayout) {
  using Broadcast = cpu::GlueShape::Broadcast;
  auto value = [](int64_t i) {
    const int64_t k = i % 23;
    if (k == 0) return std::numeric_limits<float>::quiet_NaN();
    if (k == 1) return 0.25f;  // a tie after the division by 0.5 below
    if (k == 2) return 0.75f;
    if (k == 3) return 1e9f;
    return std::sin(static_cast<float>(i)) * 90.0f;
  };
  struct Case {
    const char* name;
    cpu::GlueShape shape;
    // b's element for a's element i
    std::function<int64_t(int64_t)> bIndex;
    int64_t bCount;
  };
  const int64_t n = 2, c = 37, s = 23;
  std::vector<Case> cases;
  cases.push_back({"full", {Broadcast::Full, n * c * s, 1, 1, 1}, [](int64_t i) { return i; },
                   n * c * s});
  cases.push_back({"scalar", {Broadcast::Scalar, n * c * s, 1, 1, 1}, [](int64_t) { return 0; }, 1});
  cases.push_back({"per channel, nchw", {Broadcast::PerChannel, n, c, s, 1},
                   [=](int64_t i) { return (i / s) % c; }, c});
  cases.push_back({"per channel, nhwc", {Broadcast::PerChannel, n, 1, s, c},
                   [=](int64_t i) { return i % c; }, c});
  cases.push_back({"per channel, nChw16c", {Broadcast::PerChannel, n, 3, s, 16},
                   [=](int64_t i) { return ((i / (s * 16)) % 3) * 16 + i % 16; }, 48});
  cases.push_back({"transposed", {Broadcast::Transposed, n, 1, s, c},
                   [=](int64_t i) {
                     const int64_t image = i / (s * c), position = (i / c) % s, channel = i % c;
                     return (image * c + channel) * s + position;
                   },
                   n * c * s});
  for (const Case& test : cases) {
    SCOPED_TRACE(test.name);
    const int64_t count = test.shape.elements();
    std::vector<float> a(static_cast<size_t>(count)), b(static_cast<size_t>(test.bCount));
    for (int64_t i = 0; i < count; ++i) a[static_cast<size_t>(i)] = value(i);
    for (int64_t i = 0; i < test.bCount; ++i) b[static_cast<size_t>(i)] = value(i * 7 + 5) / 8;
    for (cpu::GlueOp op :
         {cpu::GlueOp::Add, cpu::GlueOp::Sub, cpu::GlueOp::Mul, cpu::GlueOp::Div}) {
      std::vector<uint8_t> y(static_cast<size_t>(count));
      cpu::binaryQuantizeUint8(op, a.data(), b.data(), test.shape, 0.5f, 3.0f, y.data());
      for (int64_t i = 0; i < count; ++i) {
        const float x = a[static_cast<size_t>(i)], other = b[static_cast<size_t>(test.bIndex(i))];
        const float r = op == cpu::GlueOp::Add   ? x + other
                        : op == cpu::GlueOp::Sub ? x - other
                        : op == cpu::GlueOp::Mul ? x * other
                                                 : x / other;
        const double q = std::nearbyint(static_cast<double>(r / 0.5f)) + 3.0;
        const auto expected =
            std::isnan(q) ? uint8_t{0} : static_cast<uint8_t>(std::clamp(q, 0.0, 255.0));
        ASSERT_EQ(y[static_cast<size_t>(i)], expected) << "op " << int(op) << ", element " << i;
      }
    }
  }
}

// A squeeze-and-excitation multiply between two quantized convolutions: the multiply and its
// quantizeLinear are one step on the glue kernel, writing the uint8 values the next convolution
// reads.
TEST(CpuQuantized, AMultiplyBeforeAQuantizeLinearIsOneGlueStep) {
  auto build = [](MLContext& context) {
    MLGraphBuilder b(context);
    auto quantized = [&](const MLOperand& value, float scale, uint8_t zero) {
      const MLOperand s = classic<float>(b, F32, {}, {scale});
      const MLOperand z = classic<uint8_t>(b, U8, {}, {zero});
      return b.dequantizeLinear(b.quantizeLinear(value, s, z), s, z);
    };
    auto filter = [&](uint32_t out, uint32_t in, uint32_t seed) {
      std::vector<int8_t> values(out * in);
      for (size_t i = 0; i < values.size(); ++i)
        values[i] = static_cast<int8_t>(int((i * 37 + seed) % 255) - 127);
      return b.dequantizeLinear(classic<int8_t>(b, I8, {out, in, 1, 1}, values),
                                classic<float>(b, F32, {out, 1, 1, 1}, std::vector<float>(out, 0.01f)),
                                classic<int8_t>(b, I8, {out, 1, 1, 1}, std::vector<int8_t>(out, 0)));
    };
    const MLOperand c =
        b.conv2d(quantized(b.input("x", {F32, {1, 16, 8, 8}}), 0.05f, 128), filter(32, 16, 1));
    const MLOperand gated = b.mul(c, b.sigmoid(b.averagePool2d(c)));
    return b.build({{"y", b.conv2d(quantized(gated, 0.03f, 120), filter(16, 32, 2))}});
  };
  MLContext context = createContext({.backend = "cpu"});
  MLGraph graph = build(context);
  bool found = false;
  for (const auto& step : planOf(graph).steps) {
    if (step.types != "mul+quantizeLinear") continue;
    found = true;
    EXPECT_EQ(step.implementation, "cpu quantized glue kernel");
  }
  EXPECT_TRUE(found);
  std::vector<float> x(16 * 64);
  for (size_t i = 0; i < x.size(); ++i) x[i] = std::sin(static_cast<float>(i) * 0.3f) * 5.0f;
  MLContext reference = createContext({.backend = "reference"});
  expectNear(testing::runFloat(context, graph, {{"x", x}}, "y"),
             testing::runFloat(reference, build(reference), {{"x", x}}, "y"));
}

}  // namespace
}  // namespace webnn

#endif  // WEBNN_HAVE_CPU
