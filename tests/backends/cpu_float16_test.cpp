// float16 graphs on the cpu backend (backends/cpu/widen_float16.h): computed on the float32
// implementations, float16 weights kept 16-bit (conv filters, matmul panels) or widened as they
// arrive (packed or plain), whether written by
// the caller or read from a file in chunks; rounded to float16 where the graph says so. Results
// are checked against the reference backend, which computes float16 op by op.
#include "webnn/config.h"
#ifdef WEBNN_HAVE_CPU

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "api/graph_state.h"
#include "backends/cpu/cpu_backend.h"
#include "backends/cpu/half_weights.h"
#include "backends/cpu/plan.h"
#include "core/float16.h"
#include "test_helpers.h"
#include "webnn/webnn.h"
#include "webnn/weight_source.h"
#include "weights/weight_generators.h"

namespace webnn {
namespace {

using Type = MLOperandDataType;
using testing::TempDir;

std::vector<uint16_t> halves(uint32_t seed, size_t count, float scale = 0.5f) {
  std::vector<uint16_t> values(count);
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> uniform(-scale, scale);
  for (auto& value : values) value = floatToHalf(uniform(random));
  return values;
}

testing::Bytes bytesOf(const std::vector<uint16_t>& values) {
  testing::Bytes bytes(values.size() * sizeof(uint16_t));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

std::vector<float> widen(const std::vector<std::byte>& bytes) {
  std::vector<float> values(bytes.size() / 2);
  for (size_t i = 0; i < values.size(); ++i) {
    uint16_t half;
    std::memcpy(&half, bytes.data() + 2 * i, 2);
    values[i] = halfToFloat(half);
  }
  return values;
}

// conv2d nhwc [1, 20, 20, 24] with an ohwi filter [40, 3, 3, 24] (packed on arrival, each weight
// used 18 x 18 times) and a bias [40] (read plainly), relu, flattened into [1, 12960] x w [12960,
// 72] (packed), plus b [72] (a plain operand of add), softmax. The weights are hollow float16
// constants.
struct Model {
  MLContext context;
  std::map<std::string, MLOperand> constants;
  std::map<std::string, std::vector<uint16_t>> values;
  MLGraph graph;

  explicit Model(const std::string& backend) : context(createContext({.backend = backend})) {
    MLGraphBuilder builder(context);
    const std::map<std::string, std::vector<uint32_t>> shapes = {
        {"filter", {40, 3, 3, 24}}, {"bias", {40}}, {"w", {12960, 72}}, {"b", {72}}};
    uint32_t seed = 1;
    for (const auto& [name, shape] : shapes) {
      constants[name] = builder.constant({Type::Float16, shape}, {.label = name});
      size_t count = 1;
      for (uint32_t extent : shape) count *= extent;
      values[name] = halves(seed++, count, name == "w" ? 0.05f : 0.5f);
    }
    auto x = builder.input("x", {Type::Float16, {1, 20, 20, 24}});
    auto convolved = builder.conv2d(x, constants["filter"],
                                    {.inputLayout = MLInputOperandLayout::Nhwc,
                                     .filterLayout = MLConv2dFilterOperandLayout::Ohwi,
                                     .bias = constants["bias"]});
    auto rows = builder.reshape(builder.relu(convolved), {1, 18 * 18 * 40});
    auto y = builder.softmax(builder.add(builder.matmul(rows, constants["w"]), constants["b"]), 1);
    graph = builder.build({{"y", y}});
  }

  void setAll() {
    for (const auto& [name, operand] : constants) {
      graph.setConstantData(operand, testing::bytesOf(values[name]));
    }
  }

  // Chunks of an odd number of elements, in reverse order.
  void writeInChunks() {
    for (const auto& [name, operand] : constants) {
      const testing::Bytes bytes = bytesOf(values[name]);
      const uint64_t chunk = 2 * 1001;
      uint64_t offset = (bytes.size() - 1) / chunk * chunk;
      while (true) {
        const uint64_t size = std::min<uint64_t>(chunk, bytes.size() - offset);
        graph.writeConstantData(operand, offset, std::span(bytes).subspan(offset, size));
        if (offset == 0) break;
        offset -= chunk;
      }
    }
  }

  std::vector<float> run() {
    const std::vector<uint16_t> x = halves(99, 20 * 20 * 24, 1.0f);
    MLTensor input = testing::inputTensor(context, {Type::Float16, {1, 20, 20, 24}});
    MLTensor output = testing::outputTensor(context, {Type::Float16, {1, 72}});
    context.writeTensor(input, std::as_bytes(std::span(x)));
    context.dispatch(graph, {{"x", input}}, {{"y", output}});
    return widen(context.readTensor(output));
  }
};

double relativeL2(const std::vector<float>& a, const std::vector<float>& b) {
  double error = 0, norm = 0;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    error += (a[i] - b[i]) * double(a[i] - b[i]);
    norm += b[i] * double(b[i]);
  }
  return std::sqrt(error / std::max(norm, 1e-30));
}

std::vector<float> referenceResult() {
  Model reference("reference");
  reference.setAll();
  return reference.run();
}

// The packed bytes of the constant labelled `label` in `layouts` (cpu::constantLayouts), when its
// line says `how` ("kept float16", "widened from float16"); 0 otherwise.
uint64_t packedBytesOf(const std::vector<std::string>& layouts, const std::string& label,
                       const std::string& how) {
  for (const std::string& line : layouts) {
    const auto colon = line.find(": ");
    if (colon == std::string::npos ||
        line.substr(line.find(' ') + 1, colon - line.find(' ') - 1) != label) {
      continue;
    }
    const std::string prefix = ": packed on arrival (";
    if (line.find(how) == std::string::npos || line.find(prefix) == std::string::npos) return 0;
    return std::stoull(line.substr(line.find(prefix) + prefix.size()));
  }
  return 0;
}

TEST(CpuFloat16, WeightsKeptSixteenBitGiveTheReferenceResults) {
  const std::vector<float> expected = referenceResult();
  Model model("cpu");
  model.setAll();
  const std::vector<float> result = model.run();
  ASSERT_EQ(result.size(), expected.size());
  EXPECT_LE(relativeL2(result, expected), 5e-3);
  // No step of the plan falls back; the conv's filter is small (within the budget of filters
  // widened once, half_weights.h), so its step reads it widened: no per-dispatch widening.
  size_t halfFilterSteps = 0;
  for (const cpu::PlanStep& step : cpu::planOf(*model.graph.state()->compiled)->steps) {
    EXPECT_FALSE(step.isFallback()) << step.types << ": " << step.fallbackReason;
    if (step.types.rfind("conv2d", 0) == 0 &&
        step.implementation.find("float16 weights") != std::string::npos) {
      ++halfFilterSteps;
    }
  }
  EXPECT_EQ(halfFilterSteps, 0u);
  // Both are packed as they arrive: the filter widened, in the primitive's blocked layout (8640
  // elements, padded), w as float16 panels; the biases are widened (plain readers).
  const auto layouts = cpu::constantLayouts(*model.graph.state()->compiled);
  const uint64_t filterBytes = packedBytesOf(layouts, "filter", "widened from float16");
  const uint64_t wBytes = packedBytesOf(layouts, "w", "kept float16");
  EXPECT_GE(filterBytes, 8640u * 4) << ::testing::PrintToString(layouts);
  EXPECT_LE(filterBytes, 8640u * 8) << ::testing::PrintToString(layouts);
  EXPECT_EQ(wBytes, 12960u * 96 * 2) << ::testing::PrintToString(layouts);
  EXPECT_EQ(model.context.memoryStats().constantBytes,
            filterBytes + wBytes + (40 + 72) * sizeof(float));
}

// convTranspose2d and a filter two convolutions read (widened: each may want another layout) give
// the reference's results. (Small filters: both are widened once; FiltersBeyondTheBudgetStay-
// SixteenBit keeps a convTranspose2d's filter 16-bit.)
TEST(CpuFloat16, ConvTransposeAndASharedFilter) {
  const std::vector<uint16_t> filter = halves(11, 16 * 8 * 3 * 3, 0.3f);
  const std::vector<uint16_t> upFilter = halves(12, 16 * 6 * 4 * 4, 0.3f);
  const std::vector<uint16_t> x = halves(13, 1 * 8 * 17 * 17, 1.0f);
  std::map<std::string, std::vector<float>> results;
  for (const std::string backend : {"cpu", "reference"}) {
    MLContext context = createContext({.backend = backend});
    MLGraphBuilder builder(context);
    auto input = builder.input("x", {Type::Float16, {1, 8, 17, 17}});
    auto shared = builder.constant({Type::Float16, {16, 8, 3, 3}}, {.label = "shared"});
    auto up = builder.constant({Type::Float16, {16, 6, 4, 4}}, {.label = "up"});
    auto a = builder.conv2d(input, shared, {.padding = {1, 1, 1, 1}});  // [1,16,17,17]
    auto b = builder.conv2d(input, shared, {.padding = {1, 1, 1, 1}, .strides = {2, 2}});
    auto upsampled = builder.convTranspose2d(a, up, {.strides = {2, 2}});  // [1,6,36,36]
    MLGraph graph = builder.build({{"y", builder.relu(upsampled)}, {"z", b}});
    graph.setConstantData(shared, testing::bytesOf(filter));
    graph.setConstantData(up, testing::bytesOf(upFilter));
    MLTensor in = testing::inputTensor(context, {Type::Float16, {1, 8, 17, 17}});
    MLTensor y = testing::outputTensor(context, {Type::Float16, {1, 6, 36, 36}});
    MLTensor z = testing::outputTensor(context, {Type::Float16, {1, 16, 9, 9}});
    context.writeTensor(in, std::as_bytes(std::span(x)));
    context.dispatch(graph, {{"x", in}}, {{"y", y}, {"z", z}});
    results[backend + ".y"] = widen(context.readTensor(y));
    results[backend + ".z"] = widen(context.readTensor(z));
    if (backend != "cpu") continue;
    for (const cpu::PlanStep& step : cpu::planOf(*graph.state()->compiled)->steps) {
      EXPECT_FALSE(step.isFallback()) << step.types << ": " << step.fallbackReason;
    }
    const auto layouts = cpu::constantLayouts(*graph.state()->compiled);
    EXPECT_GE(packedBytesOf(layouts, "up", "widened from float16"), 16u * 6 * 16 * 4)
        << ::testing::PrintToString(layouts);
    EXPECT_EQ(packedBytesOf(layouts, "shared", "kept float16"), 0u)
        << ::testing::PrintToString(layouts);
  }
  EXPECT_LE(relativeL2(results["cpu.y"], results["reference.y"]), 5e-3);
  EXPECT_LE(relativeL2(results["cpu.z"], results["reference.z"]), 5e-3);
}

// The float16 packed bytes of every filter in `layouts` kept 16-bit, and the float32 bytes of
// those widened from float16 (packed on arrival).
struct FilterBytes {
  uint64_t kept = 0, widened = 0;
};
FilterBytes filterBytesOf(const std::vector<std::string>& layouts,
                          const std::vector<std::string>& labels) {
  FilterBytes bytes;
  for (const std::string& label : labels) {
    bytes.kept += packedBytesOf(layouts, label, "kept float16");
    bytes.widened += packedBytesOf(layouts, label, "widened from float16");
  }
  return bytes;
}

size_t stepsOnFloat16Filters(const MLGraph& graph) {
  size_t steps = 0;
  for (const cpu::PlanStep& step : cpu::planOf(*graph.state()->compiled)->steps) {
    EXPECT_FALSE(step.isFallback()) << step.types << ": " << step.fallbackReason;
    if (step.types.rfind("conv", 0) == 0 &&
        step.implementation.find("float16 weights") != std::string::npos) {
      ++steps;
    }
  }
  return steps;
}

// Filters are widened once, on arrival, smallest first within 1 MiB + 5% of the graph's float16
// weights (half_weights.h), however many times a dispatch uses them: "a" (72 KiB, each weight used
// 256 times) and the squeeze-and-excitation "c" (32 KiB, used once) are widened; "b" (1 MiB) would
// fit the budget alone but not after them, so it stays 16-bit and is widened per dispatch.
TEST(CpuFloat16, SmallestFiltersAreWidenedOnArrivalWithinTheBudget) {
  const std::vector<uint16_t> aValues = halves(21, 64 * 64 * 3 * 3, 0.05f);
  const std::vector<uint16_t> bValues = halves(22, 512 * 64 * 4 * 4, 0.05f);
  const std::vector<uint16_t> cValues = halves(23, 32 * 512, 0.1f);
  const std::vector<uint16_t> x = halves(24, 64 * 16 * 16, 1.0f);
  std::map<std::string, std::vector<float>> results;
  for (const std::string backend : {"cpu", "reference"}) {
    MLContext context = createContext({.backend = backend});
    MLGraphBuilder builder(context);
    auto input = builder.input("x", {Type::Float16, {1, 64, 16, 16}});
    auto a = builder.constant({Type::Float16, {64, 64, 3, 3}}, {.label = "a"});
    auto b = builder.constant({Type::Float16, {512, 64, 4, 4}}, {.label = "b"});
    auto c = builder.constant({Type::Float16, {32, 512, 1, 1}}, {.label = "c"});
    auto first = builder.relu(builder.conv2d(input, a, {.padding = {1, 1, 1, 1}}));
    auto features = builder.relu(builder.conv2d(first, b, {.strides = {4, 4}}));  // [1,512,4,4]
    auto squeezed = builder.conv2d(builder.averagePool2d(features), c);           // [1,32,1,1]
    MLGraph graph = builder.build({{"features", features}, {"y", builder.sigmoid(squeezed)}});
    graph.setConstantData(a, testing::bytesOf(aValues));
    graph.setConstantData(b, testing::bytesOf(bValues));
    graph.setConstantData(c, testing::bytesOf(cValues));
    MLTensor in = testing::inputTensor(context, {Type::Float16, {1, 64, 16, 16}});
    MLTensor featuresOut = testing::outputTensor(context, {Type::Float16, {1, 512, 4, 4}});
    MLTensor y = testing::outputTensor(context, {Type::Float16, {1, 32, 1, 1}});
    context.writeTensor(in, std::as_bytes(std::span(x)));
    context.dispatch(graph, {{"x", in}}, {{"features", featuresOut}, {"y", y}});
    results[backend + ".features"] = widen(context.readTensor(featuresOut));
    results[backend + ".y"] = widen(context.readTensor(y));
    if (backend != "cpu") continue;
    const auto layouts = cpu::constantLayouts(*graph.state()->compiled);
    EXPECT_GE(packedBytesOf(layouts, "a", "widened from float16"), 64u * 64 * 9 * 4)
        << ::testing::PrintToString(layouts);
    EXPECT_GE(packedBytesOf(layouts, "c", "widened from float16"), 32u * 512 * 4)
        << ::testing::PrintToString(layouts);
    EXPECT_GE(packedBytesOf(layouts, "b", "kept float16"), 512u * 64 * 16 * 2)
        << ::testing::PrintToString(layouts);
    EXPECT_EQ(stepsOnFloat16Filters(graph), 1u);
    // What widening added stays within the budget: each widened filter takes twice its float16
    // bytes.
    const uint64_t halfWeights = (aValues.size() + bValues.size() + cValues.size()) * 2;
    const FilterBytes bytes = filterBytesOf(layouts, {"a", "b", "c"});
    EXPECT_LE(bytes.widened / 2, cpu::kHalfFiltersWidenedBytes + halfWeights / 20);
  }
  EXPECT_LE(relativeL2(results["cpu.features"], results["reference.features"]), 5e-3);
  EXPECT_LE(relativeL2(results["cpu.y"], results["reference.y"]), 5e-3);
}

// Filters beyond the budget stay 16-bit, conv2d's and convTranspose2d's, and are widened into
// their steps' workspaces at every dispatch, with the reference's results; the weights take
// their float16 bytes (padded) plus the small ones widened.
TEST(CpuFloat16, FiltersBeyondTheBudgetStaySixteenBit) {
  const std::vector<uint16_t> bigValues = halves(31, 384 * 256 * 3 * 3, 0.03f);
  const std::vector<uint16_t> upValues = halves(32, 384 * 128 * 4 * 4, 0.03f);
  const std::vector<uint16_t> smallValues = halves(33, 16 * 128, 0.1f);
  const std::vector<uint16_t> x = halves(34, 256 * 4 * 4, 1.0f);
  std::map<std::string, std::vector<float>> results;
  for (const std::string backend : {"cpu", "reference"}) {
    MLContext context = createContext({.backend = backend});
    MLGraphBuilder builder(context);
    auto input = builder.input("x", {Type::Float16, {1, 256, 4, 4}});
    auto big = builder.constant({Type::Float16, {384, 256, 3, 3}}, {.label = "big"});
    auto up = builder.constant({Type::Float16, {384, 128, 4, 4}}, {.label = "up"});  // iohw
    auto small = builder.constant({Type::Float16, {16, 128, 1, 1}}, {.label = "small"});
    auto features = builder.relu(builder.conv2d(input, big));  // [1,384,2,2]
    auto upsampled = builder.relu(builder.convTranspose2d(features, up, {.strides = {2, 2}}));
    auto y = builder.conv2d(upsampled, small);  // [1,16,6,6]
    MLGraph graph = builder.build({{"y", y}});
    graph.setConstantData(big, testing::bytesOf(bigValues));
    graph.setConstantData(up, testing::bytesOf(upValues));
    graph.setConstantData(small, testing::bytesOf(smallValues));
    MLTensor in = testing::inputTensor(context, {Type::Float16, {1, 256, 4, 4}});
    MLTensor out = testing::outputTensor(context, {Type::Float16, {1, 16, 6, 6}});
    context.writeTensor(in, std::as_bytes(std::span(x)));
    for (int dispatch = 0; dispatch < 2; ++dispatch) {
      context.dispatch(graph, {{"x", in}}, {{"y", out}});
      results[backend + std::to_string(dispatch)] = widen(context.readTensor(out));
    }
    if (backend != "cpu") continue;
    const auto layouts = cpu::constantLayouts(*graph.state()->compiled);
    EXPECT_GE(packedBytesOf(layouts, "big", "kept float16"), bigValues.size() * 2)
        << ::testing::PrintToString(layouts);
    EXPECT_GE(packedBytesOf(layouts, "up", "kept float16"), upValues.size() * 2)
        << ::testing::PrintToString(layouts);
    EXPECT_GE(packedBytesOf(layouts, "small", "widened from float16"), smallValues.size() * 4)
        << ::testing::PrintToString(layouts);
    EXPECT_EQ(stepsOnFloat16Filters(graph), 2u);
    const uint64_t halfWeights = (bigValues.size() + upValues.size() + smallValues.size()) * 2;
    const FilterBytes bytes = filterBytesOf(layouts, {"big", "up", "small"});
    EXPECT_LE(bytes.kept, halfWeights * 21 / 20) << ::testing::PrintToString(layouts);
    EXPECT_EQ(context.memoryStats().constantBytes, bytes.kept + bytes.widened);
  }
  EXPECT_EQ(results["cpu0"], results["cpu1"]);
  EXPECT_LE(relativeL2(results["cpu0"], results["reference0"]), 5e-3);
}

// The bytes a filter is counted for in the budget: channels padded as the blocked layouts pad
// them (output channels or depthwise groups to 64, input channels to 16).
TEST(CpuFloat16, FilterBytesAreCountedPadded) {
  EXPECT_EQ(cpu::paddedFilterElements(8 * 3 * 3 * 3, 3, 8, 1), 64u * 16 * 9);
  EXPECT_EQ(cpu::paddedFilterElements(128 * 64, 64, 128, 1), 128u * 64);
  EXPECT_EQ(cpu::paddedFilterElements(200 * 25, 200, 200, 200), 256u * 25);  // depthwise 5x5
  EXPECT_EQ(cpu::paddedFilterElements(4 * 8 * 8 * 9, 32, 32, 4), 4u * 64 * 16 * 9);  // grouped
  EXPECT_EQ(cpu::paddedFilterElements(100, 3, 7, 1), 100u);  // channels do not divide it
}

TEST(CpuFloat16, ChunksInAnyOrderAndAFileLoadGiveTheSameResults) {
  Model written("cpu");
  written.setAll();
  const std::vector<float> expected = written.run();

  Model chunked("cpu");
  chunked.writeInChunks();
  EXPECT_EQ(chunked.run(), expected);

  TempDir dir;
  const std::string path = dir.file("weights.safetensors");
  std::vector<testing::SafetensorsTensor> tensors;
  Model loaded("cpu");
  for (const auto& [name, operand] : loaded.constants) {
    std::vector<uint64_t> shape(operand.shape().begin(), operand.shape().end());
    tensors.push_back({name, "F16", shape, bytesOf(loaded.values[name])});
  }
  testing::writeFile(path, testing::makeSafetensors(tensors));
  loaded.graph.loadConstants(*WeightSource::open(path));
  EXPECT_EQ(loaded.run(), expected);
  // Staging stayed bounded and went back.
  const MLMemoryStats stats = loaded.context.memoryStats();
  EXPECT_EQ(stats.stagingBytes, 0u);
  EXPECT_LE(stats.stagingBytesPeak, 4ull << 20);
}

TEST(CpuFloat16, ACastToFloat16RoundsAndOverflowsAsFloat16) {
  for (const std::string backend : {"cpu", "reference"}) {
    MLContext context = createContext({.backend = backend});
    MLGraphBuilder builder(context);
    auto x = builder.input("x", {Type::Float32, {4}});
    auto rounded = builder.cast(builder.cast(x, Type::Float16), Type::Float32);
    MLGraph graph =
        builder.build({{"y", builder.mul(rounded, builder.constant(Type::Float32, 1.0))}});
    const std::vector<float> y =
        testing::runFloat(context, graph, {{"x", {1.0001f, 70000.0f, 0.1f, -65519.0f}}}, "y");
    ASSERT_EQ(y.size(), 4u) << backend;
    EXPECT_EQ(y[0], 1.0f) << backend;
    EXPECT_EQ(y[1], std::numeric_limits<float>::infinity()) << backend;
    EXPECT_EQ(y[2], halfToFloat(floatToHalf(0.1f))) << backend;
    EXPECT_EQ(y[3], -65504.0f) << backend;
  }
}

TEST(CpuFloat16, AFloat16OutputOverflowsToInfinity) {
  MLContext context = createContext({.backend = "cpu"});
  MLGraphBuilder builder(context);
  auto x = builder.input("x", {Type::Float16, {2}});
  MLGraph graph = builder.build({{"y", builder.add(x, x)}});
  const std::vector<uint16_t> input = {floatToHalf(40000.0f), floatToHalf(-1.5f)};
  MLTensor in = testing::inputTensor(context, {Type::Float16, {2}});
  MLTensor out = testing::outputTensor(context, {Type::Float16, {2}});
  context.writeTensor(in, std::as_bytes(std::span(input)));
  context.dispatch(graph, {{"x", in}}, {{"y", out}});
  const std::vector<float> y = widen(context.readTensor(out));
  EXPECT_EQ(y[0], std::numeric_limits<float>::infinity());
  EXPECT_EQ(y[1], -3.0f);
}

// An input the outputs do not need is not the graph's: it gets no cast, and dispatch does not
// ask for it (the fuzzer's finding: a cast read an input nobody binds).
TEST(CpuFloat16, AnInputTheOutputsDoNotNeedIsLeftAlone) {
  MLContext context = createContext({.backend = "cpu"});
  MLGraphBuilder builder(context);
  auto x = builder.input("x", {Type::Float16, {16}});
  auto unused = builder.input("z", {Type::Float16, {16}});
  (void)builder.relu(unused);
  MLGraph graph = builder.build({{"y", builder.neg(x)}});
  std::vector<uint16_t> input(16, floatToHalf(1.5f));
  MLTensor in = testing::inputTensor(context, {Type::Float16, {16}});
  MLTensor out = testing::outputTensor(context, {Type::Float16, {16}});
  context.writeTensor(in, std::as_bytes(std::span(input)));
  context.dispatch(graph, {{"x", in}}, {{"y", out}});
  EXPECT_EQ(widen(context.readTensor(out)), std::vector<float>(16, -1.5f));
}

// matmul and gemm with float16 weights: B stays 16-bit (packed on arrival into float16 panels),
// results as the reference's.
TEST(CpuFloat16, MatmulWeightsStaySixteenBit) {
  const uint32_t k = 96, n = 70, outputs = 50;
  const std::vector<uint16_t> w = halves(5, k * n, 0.1f), g = halves(6, outputs * n, 0.1f),
                              bias = halves(7, outputs, 1.0f);
  const std::vector<uint16_t> x = halves(8, 3 * 5 * k, 1.0f);
  std::map<std::string, std::vector<float>> results;
  for (const std::string backend : {"cpu", "reference"}) {
    MLContext context = createContext({.backend = backend});
    MLGraphBuilder builder(context);
    auto input = builder.input("x", {Type::Float16, {3, 5, k}});
    auto wOperand = builder.constant({Type::Float16, {k, n}}, {.label = "w"});
    auto gOperand = builder.constant({Type::Float16, {outputs, n}}, {.label = "g"});
    auto biasOperand = builder.constant({Type::Float16, {outputs}}, {.label = "bias"});
    auto projected = builder.matmul(input, wOperand);  // [3, 5, n]: rows folded into M
    auto rows = builder.reshape(projected, {15, n});
    auto mixed = builder.gemm(rows, gOperand, {.c = biasOperand, .bTranspose = true});
    MLGraph graph = builder.build({{"y", builder.relu(mixed)}});
    graph.setConstantData(wOperand, testing::bytesOf(w));
    graph.setConstantData(gOperand, testing::bytesOf(g));
    graph.setConstantData(biasOperand, testing::bytesOf(bias));
    MLTensor in = testing::inputTensor(context, {Type::Float16, {3, 5, k}});
    MLTensor out = testing::outputTensor(context, {Type::Float16, {15, outputs}});
    context.writeTensor(in, std::as_bytes(std::span(x)));
    context.dispatch(graph, {{"x", in}}, {{"y", out}});
    results[backend] = widen(context.readTensor(out));
    if (backend != "cpu") continue;
    size_t halfSteps = 0;
    for (const cpu::PlanStep& step : cpu::planOf(*graph.state()->compiled)->steps) {
      EXPECT_FALSE(step.isFallback()) << step.types;
      if (step.implementation.find("float16 weights") != std::string::npos) ++halfSteps;
    }
    EXPECT_EQ(halfSteps, 2u);
    // w and g packed on arrival as float16 panels (columns padded to 32), the bias widened.
    const uint64_t wPanels = uint64_t{k} * 96 * 2, gPanels = uint64_t{n} * 64 * 2;
    const auto layouts = cpu::constantLayouts(*graph.state()->compiled);
    size_t sixteenBit = 0;
    for (const std::string& line : layouts) {
      for (uint64_t bytes : {wPanels, gPanels}) {
        if (line.find("packed on arrival (" + std::to_string(bytes) + " bytes") !=
            std::string::npos) {
          ++sixteenBit;
        }
      }
    }
    EXPECT_EQ(sixteenBit, 2u) << ::testing::PrintToString(layouts);
    EXPECT_EQ(context.memoryStats().constantBytes, wPanels + gPanels + outputs * sizeof(float));
  }
  EXPECT_LE(relativeL2(results["cpu"], results["reference"]), 5e-3);
}

}  // namespace
}  // namespace webnn

#endif  // WEBNN_HAVE_CPU
