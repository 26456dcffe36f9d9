// conv2d steps on the cpu backend make their oneDNN memory objects once per set of pointers (the
// input, output, workspace, bias, post-op operands and weights: ops/convolution.cpp) and reuse
// them while those hold. Results stay the reference's when a dispatch's tensors change, when two
// threads dispatch at once (two arenas), and when the constants are filled again with other
// values (the packed filter and the folded batchNormalization are rewritten in place).
#include "webnn/config.h"
#ifdef WEBNN_HAVE_CPU

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "test_helpers.h"
#include "webnn/webnn.h"

namespace webnn {
namespace {

using Type = MLOperandDataType;

std::vector<float> randomValues(uint32_t seed, size_t count, float scale) {
  std::vector<float> values(count);
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> uniform(-scale, scale);
  for (auto& value : values) value = uniform(random);
  return values;
}

// y = conv2d(relu(batchNormalization(conv2d(x, f1, bias b1, padding 1)) + x), f2, bias b2), 1x1
// f2: the first convolution reads the caller's input and writes a blocked intermediate with a
// folded batchNormalization, a residual add of the caller's input and a relu as post-ops; the
// second reads it and writes the caller's output. Every weight is a hollow constant.
struct Model {
  MLContext context;
  std::map<std::string, MLOperand> constants;
  MLGraph graph;
  static inline const std::map<std::string, std::vector<uint32_t>> kShapes = {
      {"f1", {8, 8, 3, 3}}, {"b1", {8}},    {"mean", {8}},        {"variance", {8}},
      {"scale", {8}},       {"shift", {8}}, {"f2", {8, 8, 1, 1}}, {"b2", {8}}};

  explicit Model(const std::string& backend) : context(createContext({.backend = backend})) {
    MLGraphBuilder builder(context);
    for (const auto& [name, shape] : kShapes) {
      constants[name] = builder.constant({Type::Float32, shape}, {.label = name});
    }
    auto x = builder.input("x", {Type::Float32, {1, 8, 10, 10}});
    auto first =
        builder.conv2d(x, constants["f1"], {.padding = {1, 1, 1, 1}, .bias = constants["b1"]});
    auto normalized =
        builder.batchNormalization(first, constants["mean"], constants["variance"],
                                   {.scale = constants["scale"], .bias = constants["shift"]});
    auto y = builder.conv2d(builder.relu(builder.add(normalized, x)), constants["f2"],
                            {.bias = constants["b2"]});
    graph = builder.build({{"y", y}});
  }

  void fill(uint32_t seed) {
    for (const auto& [name, shape] : kShapes) {
      size_t count = 1;
      for (uint32_t extent : shape) count *= extent;
      std::vector<float> values = randomValues(seed++, count, 0.5f);
      if (name == "variance") {
        for (float& value : values) value = std::fabs(value) + 0.1f;
      }
      graph.setConstantData(constants[name], testing::bytesOf(values));
    }
  }

  std::vector<float> run(const MLTensor& input, const MLTensor& output) {
    context.dispatch(graph, {{"x", input}}, {{"y", output}});
    return testing::readAs<float>(context, output);
  }
};

const MLOperandDescriptor kActivation{Type::Float32, {1, 8, 10, 10}};

MLTensor inputOf(MLContext& context, const std::vector<float>& values) {
  MLTensor tensor = testing::inputTensor(context, kActivation);
  context.writeTensor(tensor, testing::bytesOf(values));
  return tensor;
}

// The reference backend's y for each input, with the constants of `seed`.
std::vector<std::vector<float>> referenceOutputs(uint32_t seed,
                                                 const std::vector<std::vector<float>>& inputs) {
  Model reference("reference");
  reference.fill(seed);
  MLTensor output = testing::outputTensor(reference.context, kActivation);
  std::vector<std::vector<float>> outputs;
  for (const auto& values : inputs) {
    outputs.push_back(reference.run(inputOf(reference.context, values), output));
  }
  return outputs;
}

bool close(const std::vector<float>& actual, const std::vector<float>& expected) {
  if (actual.size() != expected.size()) return false;
  for (size_t i = 0; i < actual.size(); ++i) {
    if (std::fabs(actual[i] - expected[i]) > 1e-4f * (1.0f + std::fabs(expected[i]))) return false;
  }
  return true;
}

TEST(CpuConvolution, BoundMemoriesFollowTheDispatchsTensors) {
  const std::vector<std::vector<float>> inputs = {randomValues(1, 800, 1.0f),
                                                  randomValues(2, 800, 1.0f)};
  const auto expected = referenceOutputs(10, inputs);
  Model model("cpu");
  model.fill(10);
  MLTensor a = inputOf(model.context, inputs[0]), b = inputOf(model.context, inputs[1]);
  MLTensor first = testing::outputTensor(model.context, kActivation);
  MLTensor second = testing::outputTensor(model.context, kActivation);
  // Each input with each output, twice: the pointers change from one dispatch to the next and
  // come back.
  for (int round = 0; round < 2; ++round) {
    EXPECT_TRUE(close(model.run(a, first), expected[0])) << round;
    EXPECT_TRUE(close(model.run(b, second), expected[1])) << round;
    EXPECT_TRUE(close(model.run(a, second), expected[0])) << round;
    EXPECT_TRUE(close(model.run(b, first), expected[1])) << round;
  }

  // The constants filled again with other values: the same buffers, new contents.
  const auto refilled = referenceOutputs(20, inputs);
  model.fill(20);
  EXPECT_TRUE(close(model.run(a, first), refilled[0]));
  EXPECT_TRUE(close(model.run(b, second), refilled[1]));
}

TEST(CpuConvolution, TwoThreadsDispatchingAtOnceEachGetTheirResults) {
  std::vector<std::vector<float>> inputs;
  for (uint32_t seed = 0; seed < 4; ++seed) inputs.push_back(randomValues(30 + seed, 800, 1.0f));
  const auto expected = referenceOutputs(40, inputs);
  Model model("cpu");
  model.fill(40);
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (size_t t = 0; t < 2; ++t) {
    threads.emplace_back([&, t] {
      MLTensor own[2] = {inputOf(model.context, inputs[2 * t]),
                         inputOf(model.context, inputs[2 * t + 1])};
      MLTensor output = testing::outputTensor(model.context, kActivation);
      for (int round = 0; round < 40; ++round) {
        const size_t which = static_cast<size_t>(round) % 2;
        if (!close(model.run(own[which], output), expected[2 * t + which])) ++wrong;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(wrong.load(), 0);
}

}  // namespace
}  // namespace webnn

#endif  // WEBNN_HAVE_CPU
