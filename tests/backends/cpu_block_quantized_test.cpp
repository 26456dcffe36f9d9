// The cpu backend on block-quantized (4-bit LLM) weights: matmul(A, transpose(reshape(
// dequantizeLinear(int4 W [N, blocks, 32], reshaped flat scales and zero points)))) + bias (ONNX
// Runtime's MatMulNBits as its WebNN provider lowers it) is one step on block_quantized_gemm, the
// reshapes, dequantizeLinear, transpose and bias add fused into it; the weights stay as they
// arrive (a plain slot of their own 4-bit size, nothing packed or widened); a dequantized weight
// another operation also reads keeps its own steps. (Values against the reference on every
// backend: the op suite's "matmul on block-quantized weights" cases.)
#include "webnn/config.h"
#ifdef WEBNN_HAVE_CPU

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "api/graph_state.h"
#include "backends/cpu/cpu_backend.h"
#include "backends/cpu/kernels/block_quantized_gemm.h"
#include "backends/cpu/plan.h"
#include "core/float16.h"
#include "test_helpers.h"
#include "webnn/context.h"
#include "webnn/graph_builder.h"

namespace webnn {
namespace {

constexpr auto F32 = MLOperandDataType::Float32;
constexpr auto I4 = MLOperandDataType::Int4;
using Kind = cpu::OperationPlacement::Kind;

const cpu::CpuPlan& planOf(const MLGraph& graph) {
  const cpu::CpuPlan* plan = cpu::planOf(*graph.state()->compiled);
  if (!plan) throw std::logic_error("not a cpu graph");
  return *plan;
}

constexpr uint32_t kN = 24, kBlocks = 3, kBlockSize = 32, kK = kBlocks * kBlockSize, kRows = 5;

struct NBitsGraph {
  MLGraph graph;
  MLOperand weights, scales, zeroPoints, bias;
};

// `alsoRead`: the dequantized weights are a graph output too. `halfScales`: the scales are a
// float16 constant cast to float32 (as a GGUF's q4_0 scales are read).
NBitsGraph build(MLContext& context, bool alsoRead, bool halfScales = false) {
  MLGraphBuilder b(context);
  NBitsGraph result{
      .graph = MLGraph(),
      .weights = b.constant({I4, {kN, kBlocks, kBlockSize}}, {.label = "w"}),
      .scales = b.constant({halfScales ? MLOperandDataType::Float16 : F32, {kN * kBlocks}},
                           {.label = "s"}),
      .zeroPoints = b.constant({I4, {kN * kBlocks}}, {.label = "z"}),
      .bias = b.constant({F32, {kN}}, {.label = "b"})};
  const MLOperand scales = halfScales ? b.cast(result.scales, F32) : result.scales;
  const MLOperand dequantized =
      b.dequantizeLinear(result.weights, b.reshape(scales, {kN, kBlocks, 1}),
                         b.reshape(result.zeroPoints, {kN, kBlocks, 1}));
  const MLOperand x = b.input("x", {F32, {1, kRows, kK}});
  const MLOperand y =
      b.add(b.matmul(x, b.transpose(b.reshape(dequantized, {kN, kK}))), result.bias);
  std::map<std::string, MLOperand> outputs{{"y", y}};
  if (alsoRead) outputs.emplace("w", dequantized);
  result.graph = b.build(outputs);
  return result;
}

void fill(NBitsGraph& g) {
  std::vector<uint8_t> weights(kN * kK / 2), zeroPoints(kN * kBlocks / 2);
  for (size_t i = 0; i < weights.size(); ++i) weights[i] = static_cast<uint8_t>(i * 73 % 256);
  for (size_t i = 0; i < zeroPoints.size(); ++i) {
    zeroPoints[i] = static_cast<uint8_t>(i * 29 % 256);
  }
  std::vector<float> scales(kN * kBlocks), bias(kN);
  for (size_t i = 0; i < scales.size(); ++i) scales[i] = 0.01f * static_cast<float>(i % 7 + 1);
  for (size_t i = 0; i < bias.size(); ++i) bias[i] = 0.5f * static_cast<float>(i) - 3.0f;
  g.graph.setConstantData(g.weights, testing::bytesOf(weights));
  g.graph.setConstantData(g.zeroPoints, testing::bytesOf(zeroPoints));
  if (g.scales.dataType() == MLOperandDataType::Float16) {
    std::vector<uint16_t> halves(scales.size());
    for (size_t i = 0; i < scales.size(); ++i) halves[i] = floatToHalf(scales[i]);
    g.graph.setConstantData(g.scales, testing::bytesOf(halves));
  } else {
    g.graph.setConstantData(g.scales, testing::bytesOf(scales));
  }
  g.graph.setConstantData(g.bias, testing::bytesOf(bias));
}

std::vector<float> run(MLContext& context, const MLGraph& graph) {
  std::vector<float> x(kRows * kK);
  for (size_t i = 0; i < x.size(); ++i) x[i] = std::sin(static_cast<float>(i));
  return testing::runFloat(context, graph, {{"x", x}}, "y");
}

std::vector<float> onReference(bool halfScales = false) {
  MLContext reference = createContext({.backend = "reference"});
  NBitsGraph g = build(reference, false, halfScales);
  fill(g);
  return run(reference, g.graph);
}

void expectNear(const std::vector<float>& actual, const std::vector<float>& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    EXPECT_NEAR(actual[i], expected[i], 1e-4 * std::max(1.0f, std::abs(expected[i]))) << i;
  }
}

TEST(CpuBlockQuantized, AMatMulNBitsLayerIsOneStepReadingTheWeightsAsStored) {
  MLContext context = createContext({.backend = "cpu"});
  NBitsGraph g = build(context, false);
  const cpu::CpuPlan& plan = planOf(g.graph);
  ASSERT_EQ(plan.steps.size(), 1u);
  const cpu::PlanStep& step = plan.steps[0];
  EXPECT_EQ(step.types, "reshape+reshape+dequantizeLinear+reshape+transpose+matmul+add");
  const bool fast = cpu::blockQuantizedGemmIsFast(
      {.n = kN, .k = kK, .blockSize = kBlockSize, .bits = 4, .isSigned = true});
  EXPECT_EQ(step.implementation,
            std::string(fast ? "block_quantized_gemm:avx512" : "block_quantized_gemm:portable") +
                " (int4 weights, blocks of 32)");
  EXPECT_TRUE(step.fallbackReason.empty()) << step.fallbackReason;
  size_t fused = 0;
  for (const auto& placement : plan.operations) fused += placement.kind == Kind::Fused;
  EXPECT_EQ(fused, plan.operations.size() - 1);  // all but the matmul, the step's own
  fill(g);
  expectNear(run(context, g.graph), onReference());
  // The 4-bit weights are read where they arrived: their own 4-bit bytes, kept plain.
  const auto implementations = g.graph.implementations();
  ASSERT_EQ(implementations.size(), 1u);
  EXPECT_EQ(implementations[0].dataType, "float32");
}

// float16 scales cast to float32 (a GGUF's q4_0 scales): the cast joins the step too, which reads
// the scales as stored (2 bytes a block instead of 4), with the reference backend's values.
// MLContextOptions::blockQuantizedInt8Activations: the step quantizes its activations to int8
// (blockQuantizedGemmInt8Activations) and says so; the result moves by the activations' rounding
// only. Without it, the float product.
TEST(CpuBlockQuantized, Int8ActivationsWhenTheContextAsksForThem) {
  const std::vector<float> expected = onReference();
  std::vector<float> outputs[2];
  for (bool int8 : {false, true}) {
    MLContext context = createContext({.backend = "cpu", .blockQuantizedInt8Activations = int8});
    NBitsGraph g = build(context, false);
    fill(g);
    const cpu::CpuPlan& plan = planOf(g.graph);
    ASSERT_EQ(plan.steps.size(), 1u);
    const std::string& implementation = plan.steps[0].implementation;
    EXPECT_EQ(implementation.find("int8 activations") != std::string::npos, int8) << implementation;
    outputs[int8 ? 1 : 0] = run(context, g.graph);
  }
  expectNear(outputs[0], expected);
  double error = 0, norm = 0;
  ASSERT_EQ(outputs[1].size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    error += (outputs[1][i] - expected[i]) * double(outputs[1][i] - expected[i]);
    norm += expected[i] * double(expected[i]);
  }
  EXPECT_LT(std::sqrt(error / norm), 2e-2);
  EXPECT_GT(error, 0.0);  // rounded activations: not the float product
}

TEST(CpuBlockQuantized, Float16ScalesCastToFloat32AreReadAsStored) {
  MLContext context = createContext({.backend = "cpu"});
  NBitsGraph g = build(context, false, true);
  const cpu::CpuPlan& plan = planOf(g.graph);
  ASSERT_EQ(plan.steps.size(), 1u);
  const cpu::PlanStep& step = plan.steps[0];
  EXPECT_EQ(step.types, "cast+reshape+reshape+dequantizeLinear+reshape+transpose+matmul+add");
  EXPECT_NE(step.implementation.find(", float16 scales)"), std::string::npos)
      << step.implementation;
  fill(g);
  expectNear(run(context, g.graph), onReference(true));
  // The constants are the ones given, nothing widened: 4-bit weights and zero points, float16
  // scales, the float32 bias.
  EXPECT_EQ(context.memoryStats().constantBytes,
            uint64_t{kN} * kK / 2 + kN * kBlocks / 2 + kN * kBlocks * 2 + kN * 4);
}

// A zero point the graph gives as one value for every block: an expand of a one-element
// constant (as the ONNX importer writes MatMulNBits without zero points), or a classic constant
// whose elements are all equal; `mixed`: one element differs (a zero point per block after all).
enum class ZeroPointForm { Expanded, EqualElements, Mixed };
constexpr int8_t kZeroPoint = -2;

NBitsGraph buildWithZeroPoint(MLContext& context, ZeroPointForm form) {
  MLGraphBuilder b(context);
  NBitsGraph result{.graph = MLGraph(),
                    .weights = b.constant({I4, {kN, kBlocks, kBlockSize}}, {.label = "w"}),
                    .scales = b.constant({F32, {kN * kBlocks}}, {.label = "s"}),
                    .zeroPoints = MLOperand(),
                    .bias = b.constant({F32, {kN}}, {.label = "b"})};
  const auto nibble = static_cast<uint8_t>(kZeroPoint & 0xF);
  MLOperand zeroPoints;
  if (form == ZeroPointForm::Expanded) {
    const std::byte one[1] = {std::byte{nibble}};
    zeroPoints = b.expand(b.constant({I4, {1, 1, 1}}, one), {kN, kBlocks, 1});
  } else {
    std::vector<std::byte> bytes(kN * kBlocks / 2, std::byte(nibble | nibble << 4));
    if (form == ZeroPointForm::Mixed) bytes[5] = std::byte(nibble | 3 << 4);
    zeroPoints = b.reshape(b.constant({I4, {kN * kBlocks}}, bytes), {kN, kBlocks, 1});
  }
  const MLOperand dequantized =
      b.dequantizeLinear(result.weights, b.reshape(result.scales, {kN, kBlocks, 1}), zeroPoints);
  const MLOperand x = b.input("x", {F32, {1, kRows, kK}});
  const MLOperand y =
      b.add(b.matmul(x, b.transpose(b.reshape(dequantized, {kN, kK}))), result.bias);
  result.graph = b.build({{"y", y}});
  std::vector<uint8_t> weights(kN * kK / 2);
  for (size_t i = 0; i < weights.size(); ++i) weights[i] = static_cast<uint8_t>(i * 73 % 256);
  std::vector<float> scales(kN * kBlocks), bias(kN);
  for (size_t i = 0; i < scales.size(); ++i) scales[i] = 0.01f * static_cast<float>(i % 7 + 1);
  for (size_t i = 0; i < bias.size(); ++i) bias[i] = 0.5f * static_cast<float>(i) - 3.0f;
  result.graph.setConstantData(result.weights, testing::bytesOf(weights));
  result.graph.setConstantData(result.scales, testing::bytesOf(scales));
  result.graph.setConstantData(result.bias, testing::bytesOf(bias));
  return result;
}

// One zero point for every block is kept as that value: the step reads no zero point tensor (its
// implementation names the value) and nothing beyond the graph's own bytes is stored, with the
// reference's results; the expand joins the step. A constant of unequal zero points is read per
// block as before.
TEST(CpuBlockQuantized, OneZeroPointForEveryBlockIsKeptAsOneValue) {
  for (ZeroPointForm form :
       {ZeroPointForm::Expanded, ZeroPointForm::EqualElements, ZeroPointForm::Mixed}) {
    SCOPED_TRACE(static_cast<int>(form));
    MLContext context = createContext({.backend = "cpu"});
    NBitsGraph g = buildWithZeroPoint(context, form);
    const cpu::CpuPlan& plan = planOf(g.graph);
    ASSERT_EQ(plan.steps.size(), 1u);
    const cpu::PlanStep& step = plan.steps[0];
    EXPECT_EQ(step.types, form == ZeroPointForm::Expanded
                              ? "expand+reshape+dequantizeLinear+reshape+transpose+matmul+add"
                              : "reshape+reshape+dequantizeLinear+reshape+transpose+matmul+add");
    const bool uniform = form != ZeroPointForm::Mixed;
    EXPECT_EQ(step.implementation.find(", zero point -2)") != std::string::npos, uniform)
        << step.implementation;
    MLContext reference = createContext({.backend = "reference"});
    NBitsGraph r = buildWithZeroPoint(reference, form);
    expectNear(run(context, g.graph), run(reference, r.graph));
    // The weights, scales and bias, and the graph's own bytes of the zero point's constant (one
    // byte expanded, or all of them): no copy of a zero point per block.
    const uint64_t stored = uint64_t{kN} * kK / 2 + kN * kBlocks * 4 + kN * 4;
    EXPECT_EQ(context.memoryStats().constantBytes,
              stored + (form == ZeroPointForm::Expanded ? 1 : kN * kBlocks / 2));
  }
}

TEST(CpuBlockQuantized, DequantizedWeightsAnotherOutputReadsAreNotFused) {
  MLContext context = createContext({.backend = "cpu"});
  NBitsGraph g = build(context, true);
  const cpu::CpuPlan& plan = planOf(g.graph);
  for (const auto& step : plan.steps) {
    EXPECT_EQ(step.implementation.find("block_quantized_gemm"), std::string::npos) << step.types;
  }
  fill(g);
  expectNear(run(context, g.graph), onReference());
}

}  // namespace
}  // namespace webnn

#endif  // WEBNN_HAVE_CPU
