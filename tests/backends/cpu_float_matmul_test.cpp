// The cpu backend's float32 matmul on floatGemm (ops/float_matmul.cpp): a linear layer of many
// rows over a constant B of 1 MiB or more runs on it with its bias and residual added by the
// kernel and an activation after them, with the reference backend's values; what it does not
// take (few rows, a small B, another post-op) runs on oneDNN's matmul.
#include "webnn/config.h"
#ifdef WEBNN_HAVE_CPU

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "backends/cpu/kernels/float_gemm.h"
#include "test_helpers.h"
#include "webnn/context.h"
#include "webnn/graph_builder.h"

namespace webnn {
namespace {

constexpr auto F32 = MLOperandDataType::Float32;

enum class Tail { BiasAndResidual, BiasResidualGelu, BiasOnly, BiasThenMultiply };

struct Layer {
  uint32_t rows = 32, k = 512, n = 1024;  // B: 2 MiB
  Tail tail = Tail::BiasAndResidual;
};

MLGraph buildLayer(MLContext& context, const Layer& layer) {
  MLGraphBuilder b(context);
  const MLOperand x = b.input("x", {F32, {1, layer.rows, layer.k}});
  const bool readsResidual = layer.tail != Tail::BiasOnly;
  const MLOperand residual =
      readsResidual ? b.input("r", {F32, {1, layer.rows, layer.n}}) : MLOperand();
  std::vector<float> weights(size_t{layer.k} * layer.n), bias(layer.n);
  for (size_t i = 0; i < weights.size(); ++i) {
    weights[i] = 0.05f * std::sin(0.1f * static_cast<float>(i % 977));
  }
  for (size_t i = 0; i < bias.size(); ++i) bias[i] = 0.01f * static_cast<float>(i % 13) - 0.06f;
  const MLOperand w = b.constant({F32, {layer.k, layer.n}}, testing::bytesOf(weights));
  const MLOperand biased =
      b.add(b.matmul(x, w), b.constant({F32, {layer.n}}, testing::bytesOf(bias)));
  MLOperand y = biased;
  switch (layer.tail) {
    case Tail::BiasAndResidual:
      y = b.add(biased, residual);
      break;
    case Tail::BiasResidualGelu:
      y = b.gelu(b.add(biased, residual));
      break;
    case Tail::BiasOnly:
      break;
    case Tail::BiasThenMultiply:
      y = b.mul(biased, residual);
      break;
  }
  return b.build({{"y", y}});
}

std::vector<float> run(MLContext& context, const MLGraph& graph, const Layer& layer) {
  std::vector<float> x(size_t{layer.rows} * layer.k), r(size_t{layer.rows} * layer.n);
  for (size_t i = 0; i < x.size(); ++i) x[i] = std::cos(0.37f * static_cast<float>(i));
  for (size_t i = 0; i < r.size(); ++i) r[i] = 0.5f * std::sin(0.11f * static_cast<float>(i));
  if (layer.tail == Tail::BiasOnly) return testing::runFloat(context, graph, {{"x", x}}, "y");
  return testing::runFloat(context, graph, {{"x", x}, {"r", r}}, "y");
}

// The implementation of the step that runs the matmul.
std::string matmulStep(const MLGraph& graph) {
  for (const auto& step : graph.implementations()) {
    if (step.type.find("matmul") != std::string::npos ||
        step.type.find("gemm") != std::string::npos) {
      return step.implementation;
    }
  }
  return "no matmul step";
}

void expectReferenceValues(const Layer& layer) {
  MLContext cpu = createContext({.backend = "cpu"});
  MLContext reference = createContext({.backend = "reference"});
  const std::vector<float> got = run(cpu, buildLayer(cpu, layer), layer);
  const std::vector<float> expected = run(reference, buildLayer(reference, layer), layer);
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i) {
    ASSERT_NEAR(got[i], expected[i], 1e-5f * std::max(1.0f, std::abs(expected[i]))) << i;
  }
}

TEST(CpuFloatMatmul, ALinearLayerWithItsResidualRunsOnTheKernel) {
  MLContext context = createContext({.backend = "cpu"});
  const Layer layer;
  const std::string implementation = matmulStep(buildLayer(context, layer));
  EXPECT_EQ(implementation,
            cpu::floatGemmIsFast() ? "float_gemm:avx512, bias, residual" : "brg:avx512_core, bias")
      << implementation;
  expectReferenceValues(layer);
}

TEST(CpuFloatMatmul, AnActivationAfterTheAddendsRunsInPlaceAfterTheKernel) {
  MLContext context = createContext({.backend = "cpu"});
  const Layer layer{.tail = Tail::BiasResidualGelu};
  const std::string implementation = matmulStep(buildLayer(context, layer));
  if (cpu::floatGemmIsFast()) {
    EXPECT_EQ(implementation.rfind("float_gemm:avx512, bias, residual, then ", 0), 0u)
        << implementation;
  }
  expectReferenceValues(layer);
}

TEST(CpuFloatMatmul, WhatTheKernelDoesNotTakeRunsOnOneDnn) {
  // Few rows (bound by memory bandwidth), a B under 1 MiB, and a multiply after the bias.
  for (const Layer& layer : {Layer{.rows = 8, .tail = Tail::BiasOnly},
                             Layer{.rows = 32, .k = 256, .n = 512, .tail = Tail::BiasOnly},
                             Layer{.tail = Tail::BiasThenMultiply}}) {
    MLContext context = createContext({.backend = "cpu"});
    const std::string implementation = matmulStep(buildLayer(context, layer));
    EXPECT_EQ(implementation.find("float_gemm"), std::string::npos) << implementation;
    expectReferenceValues(layer);
  }
  // The bias alone, with 16 rows: the kernel.
  MLContext context = createContext({.backend = "cpu"});
  const Layer layer{.rows = 16, .tail = Tail::BiasOnly};
  if (cpu::floatGemmIsFast()) {
    EXPECT_EQ(matmulStep(buildLayer(context, layer)), "float_gemm:avx512, bias");
  }
  expectReferenceValues(layer);
}

// gemm (a linear layer as ONNX Gemm writes it: B as [N, K], transposed) with C a bias row, with C a
// whole [M, N] tensor, and with alpha 2 (not the kernel's).
TEST(CpuFloatMatmul, AGemmWithItsCAsBiasOrResidualRunsOnTheKernel) {
  constexpr uint32_t kRows = 24, kK = 512, kN = 768;  // B: 1.5 MiB
  struct Case {
    bool wholeC;
    double alpha;
    const char* expected;
  };
  for (const Case& gemmCase :
       {Case{false, 1.0, "float_gemm:avx512, bias"}, Case{true, 1.0, "float_gemm:avx512, residual"},
        Case{false, 2.0, ""}}) {
    SCOPED_TRACE(gemmCase.expected);
    const auto build = [&](MLContext& context) {
      MLGraphBuilder b(context);
      const MLOperand x = b.input("x", {F32, {kRows, kK}});
      std::vector<float> weights(size_t{kN} * kK), c(gemmCase.wholeC ? size_t{kRows} * kN : kN);
      for (size_t i = 0; i < weights.size(); ++i) {
        weights[i] = 0.05f * std::cos(0.3f * static_cast<float>(i % 611));
      }
      for (size_t i = 0; i < c.size(); ++i) c[i] = 0.02f * static_cast<float>(i % 17) - 0.1f;
      const MLOperand w = b.constant({F32, {kN, kK}}, testing::bytesOf(weights));
      const std::vector<uint32_t> cShape =
          gemmCase.wholeC ? std::vector<uint32_t>{kRows, kN} : std::vector<uint32_t>{kN};
      const MLOperand y = b.gemm(x, w,
                                 {.c = b.constant({F32, cShape}, testing::bytesOf(c)),
                                  .alpha = gemmCase.alpha,
                                  .bTranspose = true});
      return b.build({{"y", b.relu(y)}});
    };
    MLContext cpu = createContext({.backend = "cpu"});
    MLContext reference = createContext({.backend = "reference"});
    const MLGraph graph = build(cpu);
    const std::string implementation = matmulStep(graph);
    if (cpu::floatGemmIsFast() && *gemmCase.expected) {
      EXPECT_EQ(implementation.rfind(std::string(gemmCase.expected) + ", then ", 0), 0u)
          << implementation;
    } else {
      EXPECT_EQ(implementation.find("float_gemm"), std::string::npos) << implementation;
    }
    std::vector<float> x(size_t{kRows} * kK);
    for (size_t i = 0; i < x.size(); ++i) x[i] = std::sin(0.21f * static_cast<float>(i));
    const std::vector<float> got = testing::runFloat(cpu, graph, {{"x", x}}, "y");
    const std::vector<float> expected =
        testing::runFloat(reference, build(reference), {{"x", x}}, "y");
    ASSERT_EQ(got.size(), expected.size());
    for (size_t i = 0; i < got.size(); ++i) {
      ASSERT_NEAR(got[i], expected[i], 1e-5f * std::max(1.0f, std::abs(expected[i]))) << i;
    }
  }
}

}  // namespace
}  // namespace webnn

#endif  // WEBNN_HAVE_CPU
