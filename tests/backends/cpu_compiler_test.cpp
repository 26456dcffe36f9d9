// The cpu backend's graph compiler: what it fuses into one step, which layouts flow between steps
// and where plain copies are made, checked on the plan it makes (cpu::planOf) and against the
// reference backend on the same graph and random data.
#include "webnn/config.h"
#ifdef WEBNN_HAVE_CPU

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "api/graph_state.h"
#include "backends/cpu/cpu_backend.h"
#include "backends/cpu/plan.h"
#include "test_helpers.h"
#include "webnn/context.h"
#include "webnn/graph_builder.h"

namespace webnn {
namespace {

constexpr auto F32 = MLOperandDataType::Float32;
using testing::bytesOf;

// Makes the graph on `builder`; constants come from a generator seeded the same for both
// backends, so both graphs are equal.
using GraphMaker = std::function<MLOperand(MLGraphBuilder&, std::mt19937&)>;

MLOperand randomConstant(MLGraphBuilder& builder, std::mt19937& rng, std::vector<uint32_t> shape,
                         float low = -1.0f, float high = 1.0f) {
  MLOperandDescriptor descriptor{F32, std::move(shape)};
  std::vector<float> values(descriptor.elementCount());
  std::uniform_real_distribution<float> distribution(low, high);
  for (float& v : values) v = distribution(rng);
  return builder.constant(descriptor, bytesOf(values));
}

struct Run {
  std::vector<float> output;
  std::vector<std::string> stepTypes;  // per step of the cpu plan: its '+'-joined op types
  std::vector<std::string> stepImplementations;
};

const cpu::CpuPlan& planOf(const MLGraph& graph) {
  const cpu::CpuPlan* plan = cpu::planOf(*graph.state()->compiled);
  if (!plan) throw std::logic_error("not a cpu graph");
  return *plan;
}

std::vector<std::string> stepTypesOf(const MLGraph& graph) {
  std::vector<std::string> types;
  for (const auto& step : planOf(graph).steps) types.push_back(step.types);
  return types;
}

Run run(const std::string& backend, const GraphMaker& make, const std::vector<uint32_t>& shape,
        uint32_t dispatches = 1) {
  MLContext context = createContext({.backend = backend, .profiling = true});
  MLGraphBuilder builder(context);
  std::mt19937 rng(7);
  MLOperand output = make(builder, rng);
  MLGraph graph = builder.build({{"y", output}});
  MLOperandDescriptor inputDescriptor{F32, shape};
  std::vector<float> input(inputDescriptor.elementCount());
  std::uniform_real_distribution<float> distribution(-1.0f, 1.0f);
  std::mt19937 inputRng(11);
  for (float& v : input) v = distribution(inputRng);
  Run result;
  for (uint32_t i = 0; i < dispatches; ++i) {
    result.output = testing::runFloat(context, graph, {{"x", input}}, "y");
  }
  if (backend == "cpu") {
    result.stepTypes = stepTypesOf(graph);
    for (const auto& step : planOf(graph).steps) {
      result.stepImplementations.push_back(step.implementation);
    }
  }
  return result;
}

// The cpu graph's run (its steps), its output checked against the reference.
Run compileAndCompareRun(const GraphMaker& make, const std::vector<uint32_t>& shape) {
  Run cpu = run("cpu", make, shape);
  const Run reference = run("reference", make, shape);
  EXPECT_EQ(cpu.output.size(), reference.output.size());
  double error = 0, norm = 0;
  for (size_t i = 0; i < cpu.output.size() && i < reference.output.size(); ++i) {
    error += (cpu.output[i] - reference.output[i]) * double(cpu.output[i] - reference.output[i]);
    norm += reference.output[i] * double(reference.output[i]);
  }
  EXPECT_LE(std::sqrt(error), 1e-5 * std::sqrt(norm) + 1e-6) << "relative L2 against the reference";
  return cpu;
}

// The cpu graph's steps (their '+'-joined types), its output checked against the reference.
std::vector<std::string> compileAndCompare(const GraphMaker& make,
                                           const std::vector<uint32_t>& shape) {
  return compileAndCompareRun(make, shape).stepTypes;
}

size_t count(const std::vector<std::string>& types, const std::string& type) {
  return static_cast<size_t>(std::count(types.begin(), types.end(), type));
}

MLOperand conv(MLGraphBuilder& b, std::mt19937& rng, const MLOperand& x, uint32_t in, uint32_t out,
               bool bias = true) {
  MLConv2dOptions options{.padding = {1, 1, 1, 1}};
  if (bias) options.bias = randomConstant(b, rng, {out});
  return b.conv2d(x, randomConstant(b, rng, {out, in, 3, 3}, -0.3f, 0.3f), options);
}

TEST(CpuCompiler, APlainOutputConvolutionStaysOffGemm) {
  // A graph output is plain: the convolution computes blocked and reorders (oneDNN's plain nchw
  // convolution is its gemm one).
  MLContext context = createContext({.backend = "cpu", .profiling = true});
  MLGraphBuilder b(context);
  std::mt19937 rng(3);
  MLOperand x = b.input("x", {F32, {1, 16, 24, 24}});
  MLGraph graph = b.build({{"y", b.relu(conv(b, rng, x, 16, 16))}});
  testing::runFloat(context, graph, {{"x", std::vector<float>(16 * 24 * 24, 0.25f)}}, "y");
  const auto& steps = planOf(graph).steps;
  ASSERT_EQ(steps.size(), 1u);
  EXPECT_EQ(steps[0].implementation.find("gemm"), std::string::npos) << steps[0].implementation;
  EXPECT_FALSE(steps[0].isFallback());
}

TEST(CpuCompiler, ConvolutionBiasAndActivationAreOneStep) {
  const auto types = compileAndCompare(
      [](MLGraphBuilder& b, std::mt19937& rng) {
        return b.relu(conv(b, rng, b.input("x", {F32, {1, 8, 10, 10}}), 8, 24));
      },
      {1, 8, 10, 10});
  EXPECT_EQ(types, std::vector<std::string>{"conv2d+relu"});
}

TEST(CpuCompiler, BatchNormalizationIsFoldedAndAResidualAddIsItsOwnStep) {
  const auto types = compileAndCompare(
      [](MLGraphBuilder& b, std::mt19937& rng) {
        MLOperand x = b.input("x", {F32, {1, 16, 8, 8}});
        MLOperand first = conv(b, rng, x, 16, 24, false);
        MLOperand normalized = b.batchNormalization(first, randomConstant(b, rng, {24}),
                                                    randomConstant(b, rng, {24}, 0.5f, 2.0f),
                                                    {.scale = randomConstant(b, rng, {24}),
                                                     .bias = randomConstant(b, rng, {24}),
                                                     .epsilon = 1e-3});
        MLOperand activated = b.relu(normalized);
        MLOperand second = conv(b, rng, activated, 24, 24);
        return b.sigmoid(b.add(second, activated));
      },
      {1, 16, 8, 8});
  // A whole-tensor add would send oneDNN 2.6's convolution to gemm: it runs after it.
  ASSERT_GE(types.size(), 3u);
  EXPECT_EQ(types[0], "conv2d+batchNormalization+relu");
  EXPECT_EQ(types[1], "conv2d");
  EXPECT_EQ(types[2], "add");
}

TEST(CpuCompiler, AnExportedHardSwishIsOnePostOp) {
  for (bool divideFirst : {false, true}) {
    const auto types = compileAndCompare(
        [divideFirst](MLGraphBuilder& b, std::mt19937& rng) {
          MLOperand y = conv(b, rng, b.input("x", {F32, {1, 4, 6, 6}}), 4, 16);
          MLOperand clamped =
              b.clamp(b.add(y, b.constant(F32, 3.0)), {.minValue = 0.0, .maxValue = 6.0});
          MLOperand six = b.constant(F32, 6.0);
          MLOperand out =
              divideFirst ? b.mul(y, b.div(clamped, six)) : b.div(b.mul(y, clamped), six);
          return b.relu(out);  // the chain goes on after the pattern
        },
        {1, 4, 6, 6});
    ASSERT_EQ(types.size(), 1u) << "divide first: " << divideFirst;
    EXPECT_EQ(types[0].rfind("conv2d+add+clamp+", 0), 0u) << types[0];
  }
}

TEST(CpuCompiler, AHardSwishLookalikeIsNotFused) {
  const auto types = compileAndCompare(
      [](MLGraphBuilder& b, std::mt19937& rng) {
        MLOperand y = conv(b, rng, b.input("x", {F32, {1, 4, 6, 6}}), 4, 16);
        MLOperand clamped =
            b.clamp(b.add(y, b.constant(F32, 2.0)), {.minValue = 0.0, .maxValue = 6.0});
        return b.div(b.mul(y, clamped), b.constant(F32, 6.0));
      },
      {1, 4, 6, 6});
  EXPECT_GT(types.size(), 1u);
}

TEST(CpuCompiler, BlockedLayoutsFlowAndPlainReadersShareOneReorder) {
  const auto types = compileAndCompare(
      [](MLGraphBuilder& b, std::mt19937& rng) {
        MLOperand x = b.input("x", {F32, {1, 3, 16, 16}});
        MLOperand first = conv(b, rng, x, 3, 16);
        MLOperand pooled = b.maxPool2d(
            b.tanh(first), {.windowDimensions = std::vector<uint32_t>{2, 2}, .strides = {2, 2}});
        MLOperand second = conv(b, rng, pooled, 16, 20);  // channels not a multiple of 16
        // `second` is blocked (tanh reads blocked layouts), but its readers all want plain (tanh
        // too, as its output is read plain): one plain copy serves the three of them.
        MLOperand flat = b.reshape(second, {20, 64});
        MLOperand swapped = b.reshape(
            b.transpose(second, {.permutation = std::vector<uint32_t>{0, 1, 3, 2}}), {20, 64});
        return b.add(b.add(flat, swapped), b.reshape(b.tanh(second), {20, 64}));
      },
      {1, 3, 16, 16});
  EXPECT_EQ(count(types, "reorder"), 1u);
  EXPECT_EQ(types[0], "conv2d+tanh");
  EXPECT_EQ(types[1], "maxPool2d");
  EXPECT_EQ(types[2], "conv2d");
}

TEST(CpuCompiler, APostOpOperandReadPlainByTheMainOpIsReadPlainByThePostOpToo) {
  const auto types = compileAndCompare(
      [](MLGraphBuilder& b, std::mt19937& rng) {
        MLOperand x = b.input("x", {F32, {1, 16, 8, 8}});
        MLOperand blocked = conv(b, rng, x, 16, 16);  // blocked: relu reads it so
        // matmul reads `blocked` through its plain copy; so does its fused add.
        MLOperand product = b.add(b.matmul(blocked, randomConstant(b, rng, {8, 8})), blocked);
        return b.add(product, b.relu(blocked));
      },
      {1, 16, 8, 8});
  EXPECT_EQ(count(types, "matmul+add+add"), 1u);  // the second add reads relu's output
  EXPECT_EQ(count(types, "reorder"), 1u);
}

TEST(CpuCompiler, AnOperationTwoChainsCouldTakeGoesToTheFirst) {
  const auto types = compileAndCompare(
      [](MLGraphBuilder& b, std::mt19937&) {
        MLOperand x = b.input("x", {F32, {6, 6}});
        MLOperand positive = b.relu(x);
        // Each matmul's only consumer is the add: the first takes it, the second runs alone.
        return b.add(b.matmul(x, x), b.matmul(positive, positive));
      },
      {6, 6});
  EXPECT_EQ(types, (std::vector<std::string>{"relu", "matmul", "matmul+add"}));
}

TEST(CpuCompiler, AnNhwcConvolutionKeepsItsAddSeparate) {
  const auto types = compileAndCompare(
      [](MLGraphBuilder& b, std::mt19937& rng) {
        MLOperand x = b.input("x", {F32, {1, 6, 6, 8}});
        MLOperand y = b.conv2d(x, randomConstant(b, rng, {8, 3, 3, 8}),
                               {.padding = {1, 1, 1, 1},
                                .inputLayout = MLInputOperandLayout::Nhwc,
                                .filterLayout = MLConv2dFilterOperandLayout::Ohwi});
        return b.add(y, x);
      },
      {1, 6, 6, 8});
  EXPECT_EQ(types, (std::vector<std::string>{"conv2d", "add"}));
}

TEST(CpuCompiler, ABatchedMatmulWithATwoDimensionalBRunsItsBatchAsRows) {
  // Bias and residual broadcast over all of the rows or none of them: the product runs as
  // [2 * 3 * 8, 16] x [16, 24] with both adds as post-ops.
  const auto types = compileAndCompare(
      [](MLGraphBuilder& b, std::mt19937& rng) {
        MLOperand x = b.input("x", {F32, {2, 3, 8, 16}});
        MLOperand product = b.matmul(x, randomConstant(b, rng, {16, 24}));
        MLOperand biased = b.add(product, randomConstant(b, rng, {24}));
        return b.gelu(b.add(biased, randomConstant(b, rng, {2, 3, 8, 24})));
      },
      {2, 3, 8, 16});
  EXPECT_EQ(types, std::vector<std::string>{"matmul+add+add+gelu"});
}

// A linear layer's bias (one value per output column) is added by the matmul primitive as its
// bias, not as a binary post-op; an add of anything else stays a post-op.
TEST(CpuCompiler, AMatmulTakesTheChainsFirstAddOfARowAsItsBias) {
  struct Case {
    const char* name;
    std::vector<uint32_t> addedShape;
    bool addFirst;  // the row added right after the product (else after a gelu)
    bool bias;
  };
  for (const Case& c : {Case{"row of N", {24}, true, true},
                        Case{"row of N with leading ones", {1, 1, 24}, true, true},
                        Case{"a value per row", {8, 1}, true, false},
                        Case{"after an activation", {24}, false, false}}) {
    SCOPED_TRACE(c.name);
    const auto cpu = compileAndCompareRun(
        [&](MLGraphBuilder& b, std::mt19937& rng) {
          MLOperand x = b.input("x", {F32, {2, 8, 16}});
          MLOperand product = b.matmul(x, randomConstant(b, rng, {16, 24}));
          MLOperand added = randomConstant(b, rng, c.addedShape);
          MLOperand y = c.addFirst ? b.gelu(b.add(product, added)) : b.add(b.gelu(product), added);
          return b.add(y, randomConstant(b, rng, {2, 8, 24}));
        },
        {2, 8, 16});
    ASSERT_EQ(cpu.stepImplementations.size(), 1u);
    const std::string& implementation = cpu.stepImplementations[0];
    EXPECT_EQ(implementation.find(", bias") != std::string::npos, c.bias) << implementation;
  }
}

TEST(CpuCompiler, APostOpOperandOverSomeOfTheBatchKeepsTheMatmulBatched) {
  // [3, 1, 24] broadcasts over the batch's first dimension and the rows but not the second:
  // it cannot be a [rows, 24] operand, so the matmul stays batched, still one step.
  const auto types = compileAndCompare(
      [](MLGraphBuilder& b, std::mt19937& rng) {
        MLOperand x = b.input("x", {F32, {2, 3, 8, 16}});
        MLOperand product = b.matmul(x, randomConstant(b, rng, {1, 16, 24}));
        return b.mul(product, randomConstant(b, rng, {3, 1, 24}));
      },
      {2, 3, 8, 16});
  EXPECT_EQ(types, std::vector<std::string>{"matmul+mul"});
}

// One attention block as the encoder benchmark writes it (seq 8, hidden 32, 4 heads of 8): Q, K
// and V split into heads by reshape + transpose, the context merged back by transpose + reshape.
MLOperand attention(MLGraphBuilder& b, std::mt19937& rng, const MLOperand& x) {
  auto heads = [&](std::vector<uint32_t> permutation) {
    MLOperand y =
        b.add(b.matmul(x, randomConstant(b, rng, {32, 32})), randomConstant(b, rng, {32}));
    return b.transpose(b.reshape(y, {1, 8, 4, 8}), {.permutation = std::move(permutation)});
  };
  MLOperand q = heads({0, 2, 1, 3}), k = heads({0, 2, 3, 1}), v = heads({0, 2, 1, 3});
  MLOperand scores = b.mul(b.matmul(q, k), b.constant(F32, 0.35));
  MLOperand context = b.matmul(b.softmax(scores, 3), v);
  MLOperand merged = b.reshape(
      b.transpose(context, {.permutation = std::vector<uint32_t>{0, 2, 1, 3}}), {1, 8, 32});
  return b.add(b.matmul(merged, randomConstant(b, rng, {32, 32})), x);
}

TEST(CpuCompiler, AttentionHeadsAreReadAndWrittenByTheMatmulsThroughStrides) {
  const auto types = compileAndCompare(
      [](MLGraphBuilder& b, std::mt19937& rng) {
        return attention(b, rng, b.input("x", {F32, {1, 8, 32}}));
      },
      {1, 8, 32});
  // Q K^T and probabilities x V read the projections through strides; the context is written
  // merged: no reshape or transpose runs.
  EXPECT_EQ(types, (std::vector<std::string>{"matmul+add", "matmul+add", "matmul+add", "matmul+mul",
                                             "softmax", "matmul", "matmul+add"}));
}

TEST(CpuCompiler, ReshapesAroundAMatmulAreViews) {
  const auto types = compileAndCompare(
      [](MLGraphBuilder& b, std::mt19937& rng) {
        MLOperand x = b.reshape(b.input("x", {F32, {6, 8}}), {2, 3, 8});
        MLOperand y =
            b.add(b.matmul(x, randomConstant(b, rng, {8, 4})), randomConstant(b, rng, {4}));
        return b.reshape(b.relu(b.matmul(y, randomConstant(b, rng, {4, 5}))), {30});
      },
      {6, 8});
  EXPECT_EQ(types, (std::vector<std::string>{"matmul+add", "matmul+relu"}));
}

TEST(CpuCompiler, AViewAnotherReaderNeedsStillRuns) {
  const auto types = compileAndCompare(
      [](MLGraphBuilder& b, std::mt19937& rng) {
        MLOperand x = b.input("x", {F32, {1, 8, 32}});
        MLOperand heads = b.transpose(b.reshape(b.relu(x), {1, 8, 4, 8}),
                                      {.permutation = std::vector<uint32_t>{0, 2, 1, 3}});
        MLOperand product = b.matmul(heads, randomConstant(b, rng, {1, 4, 8, 8}));
        // tanh reads the transpose too: it runs, and so does the reshape it reads (the matmul
        // still reads the relu's output through strides).
        return b.add(product, b.tanh(heads));
      },
      {1, 8, 32});
  EXPECT_EQ(count(types, "transpose"), 1u);
  EXPECT_EQ(count(types, "reshape"), 1u);
}

TEST(CpuCompiler, AReshapeThatMergesStridedDimensionsIsNotAView) {
  const auto types = compileAndCompare(
      [](MLGraphBuilder& b, std::mt19937& rng) {
        MLOperand x = b.input("x", {F32, {1, 8, 32}});
        MLOperand heads = b.transpose(b.reshape(b.relu(x), {1, 8, 4, 8}),
                                      {.permutation = std::vector<uint32_t>{0, 2, 1, 3}});
        // [1, 4, 8 (stride 32), 8 (stride 1)] -> [1, 4, 64] needs a copy: the transpose runs, the
        // matmul reads its result through the reshape.
        MLOperand merged = b.reshape(heads, {1, 4, 64});
        return b.matmul(merged, randomConstant(b, rng, {64, 16}));
      },
      {1, 8, 32});
  EXPECT_EQ(types, (std::vector<std::string>{"relu", "reshape", "transpose", "matmul"}));
}

TEST(CpuCompiler, AMatmulWritesThroughTheTransposeAfterItsFusedChain) {
  const auto types = compileAndCompare(
      [](MLGraphBuilder& b, std::mt19937& rng) {
        MLOperand x = b.input("x", {F32, {1, 2, 6, 8}});
        MLOperand y = b.relu(b.matmul(x, randomConstant(b, rng, {8, 10})));
        // [1, 2, 6, 10] written as [1, 6, 2, 10] (strides 120, 10, 20, 1: oneDNN's acbd, which
        // its brgemm matmul writes), read on as [6, 20].
        MLOperand swapped = b.transpose(y, {.permutation = std::vector<uint32_t>{0, 2, 1, 3}});
        return b.sigmoid(b.reshape(swapped, {6, 20}));
      },
      {1, 2, 6, 8});
  EXPECT_EQ(types, (std::vector<std::string>{"matmul+relu", "sigmoid"}));
}

TEST(CpuCompiler, AMatmulWithABinaryPostOpDoesNotWriteThroughStrides) {
  // oneDNN 2.6 crashes on binary post-ops with a strided destination: the transpose runs.
  const auto types = compileAndCompare(
      [](MLGraphBuilder& b, std::mt19937& rng) {
        MLOperand x = b.input("x", {F32, {2, 6, 8}});
        MLOperand y =
            b.add(b.matmul(x, randomConstant(b, rng, {8, 10})), randomConstant(b, rng, {10}));
        return b.transpose(y, {.permutation = std::vector<uint32_t>{1, 0, 2}});
      },
      {2, 6, 8});
  EXPECT_EQ(types, (std::vector<std::string>{"matmul+add", "transpose"}));
}

TEST(CpuCompiler, AScalarConstantMultipliedOrAddedIsAnElementwisePostOp) {
  // x * 0.5 + 0.25 after the matmul: linear post-ops, not binary ones, so the matmul writes
  // through the transpose after them.
  const auto types = compileAndCompare(
      [](MLGraphBuilder& b, std::mt19937& rng) {
        MLOperand x = b.input("x", {F32, {1, 2, 6, 8}});
        MLOperand y =
            b.add(b.mul(b.matmul(x, randomConstant(b, rng, {8, 10})), b.constant(F32, 0.5)),
                  b.constant(F32, 0.25));
        return b.sigmoid(b.transpose(y, {.permutation = std::vector<uint32_t>{0, 2, 1, 3}}));
      },
      {1, 2, 6, 8});
  EXPECT_EQ(types, (std::vector<std::string>{"matmul+mul+add", "sigmoid"}));
}

TEST(CpuCompiler, NoChainHasTwoLinearPostOpsApart) {
  // oneDNN 2.6 runs a second linear post-op wrong: after relu, the scalar multiply and add (a
  // learnable affine block after an activation) are binary post-ops with their scalar constants.
  const auto types = compileAndCompare(
      [](MLGraphBuilder& b, std::mt19937& rng) {
        MLOperand x = b.input("x", {F32, {2, 6, 8}});
        MLOperand y =
            b.relu(b.mul(b.matmul(x, randomConstant(b, rng, {8, 10})), b.constant(F32, 0.5)));
        return b.add(b.mul(y, b.constant(F32, 1.5)), b.constant(F32, 0.25));
      },
      {2, 6, 8});
  EXPECT_EQ(types, (std::vector<std::string>{"matmul+mul+relu+mul+add"}));
}

TEST(CpuCompiler, AViewThatIsAGraphOutputRunsAndAMatmulWritesAGraphOutputThroughStrides) {
  MLContext context = createContext({.backend = "cpu", .profiling = true});
  MLGraphBuilder b(context);
  // [1, 2, 4, 6] read as [1, 2, 6, 4] (oneDNN's abdc) and the product [1, 2, 6, 6] written as
  // [1, 6, 2, 6] (acbd): layouts oneDNN's brgemm matmul takes.
  MLOperand x = b.input("x", {F32, {1, 2, 4, 6}});
  MLOperand swapped = b.transpose(x, {.permutation = std::vector<uint32_t>{0, 1, 3, 2}});
  MLOperand product = b.matmul(swapped, x);  // [1, 2, 6, 6]
  MLOperand y = b.transpose(product, {.permutation = std::vector<uint32_t>{0, 2, 1, 3}});
  MLGraph graph = b.build({{"y", y}, {"t", swapped}});
  std::vector<float> input(48);
  for (size_t i = 0; i < input.size(); ++i) input[i] = 0.05f * static_cast<float>(i) - 1.0f;
  const auto output = testing::runFloat(context, graph, {{"x", input}}, "y");
  // y[0][i][batch][j] = sum over k of x[0][batch][k][i] x[0][batch][k][j].
  ASSERT_EQ(output.size(), 72u);
  for (size_t i = 0; i < 6; ++i) {
    for (size_t batch = 0; batch < 2; ++batch) {
      for (size_t j = 0; j < 6; ++j) {
        float expected = 0;
        for (size_t k = 0; k < 4; ++k) {
          expected += input[batch * 24 + k * 6 + i] * input[batch * 24 + k * 6 + j];
        }
        EXPECT_NEAR(output[(i * 2 + batch) * 6 + j], expected, 1e-5f) << i << ", " << j;
      }
    }
  }
  const std::vector<std::string> types = stepTypesOf(graph);
  // `t` is an output: its transpose runs; the matmul reads x through strides (not `t`) and
  // writes `y` through strides.
  EXPECT_EQ(types, (std::vector<std::string>{"transpose", "matmul"}));
}

TEST(CpuCompiler, DispatchesReuseOneArenaAndTheProfileCountsThem) {
  MLContext context = createContext({.backend = "cpu", .profiling = true});
  MLGraphBuilder builder(context);
  std::mt19937 rng(1);
  MLOperand x = builder.input("x", {F32, {1, 8, 8, 8}});
  MLOperand y = builder.relu(conv(builder, rng, conv(builder, rng, x, 8, 16), 16, 16));
  MLGraph graph = builder.build({{"y", y}});
  const std::vector<float> input(8 * 8 * 8, 0.5f);
  testing::runFloat(context, graph, {{"x", input}}, "y");
  const uint64_t afterOne = context.memoryStats().activationBytes;
  EXPECT_GT(afterOne, 0u);  // the arena is kept for the next dispatch
  testing::runFloat(context, graph, {{"x", input}}, "y");
  testing::runFloat(context, graph, {{"x", input}}, "y");
  EXPECT_EQ(context.memoryStats().activationBytes, afterOne);
  EXPECT_EQ(context.memoryStats().activationBytesPeak, afterOne);
  const auto steps = graph.profile();
  ASSERT_FALSE(steps.empty());
  for (const auto& step : steps) {
    EXPECT_EQ(step.runs, 3u) << step.type;
    EXPECT_FALSE(step.implementation.empty());
  }
  graph.destroy();
  EXPECT_EQ(context.memoryStats().activationBytes, 0u);
}

TEST(CpuCompiler, NoProfileUnlessAsked) {
  MLContext context = createContext({.backend = "cpu"});
  MLGraphBuilder builder(context);
  MLGraph graph = builder.build({{"y", builder.relu(builder.input("x", {F32, {4}}))}});
  testing::runFloat(context, graph, {{"x", {1, -1, 2, -2}}}, "y");
  EXPECT_TRUE(graph.profile().empty());
}

}  // namespace
}  // namespace webnn

#endif  // WEBNN_HAVE_CPU
