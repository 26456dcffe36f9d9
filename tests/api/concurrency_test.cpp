// Dispatches from several threads, and tensors and contexts destroyed while a dispatch reads them:
// safe on every backend (a dispatch holds the tensors it binds; backends that cannot run one graph
// concurrently are serialized by the API layer).
#include <atomic>
#include <chrono>
#include <thread>

#include "test_helpers.h"

namespace webnn {
namespace {

using K = Error::Kind;
using Type = MLOperandDataType;
constexpr uint32_t kSize = 96;

// y = relu(matmul(matmul(x, w), w)) + x, w a hollow constant: slow enough on the reference
// backend that a destroy lands while a dispatch runs.
struct Model {
  MLContext context = testing::createTestContext();
  MLOperand w;
  MLGraph graph;

  Model() {
    MLGraphBuilder builder(context);
    auto x = builder.input("x", {Type::Float32, {kSize, kSize}});
    w = builder.constant({Type::Float32, {kSize, kSize}}, {.label = "w"});
    graph = builder.build(
        {{"y", builder.add(builder.relu(builder.matmul(builder.matmul(x, w), w)), x)}});
    std::vector<float> identity(kSize * kSize, 0.0f);
    for (uint32_t i = 0; i < kSize; ++i) identity[i * kSize + i] = 1.0f;
    graph.setConstantData(w, testing::bytesOf(identity));
  }
};

std::vector<float> filled(float value) {
  return std::vector<float>(kSize * kSize, value);
}

TEST(Concurrency, DispatchesFromSeveralThreadsAllComputeTheirOwnInputs) {
  Model model;
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 3; ++round) {
        const float value = static_cast<float>(t * 10 + round + 1);
        auto y = testing::runFloat(model.context, model.graph, {{"x", filled(value)}}, "y");
        if (y != filled(2 * value)) ++wrong;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(wrong.load(), 0);
}

// Runs dispatches on a thread while the main thread destroys what they use; every dispatch either
// completes or fails with InvalidStateError, and nothing reads freed memory (ASan checks).
template <class Destroy>
void destroyDuringDispatches(Destroy destroy) {
  Model model;
  const auto descriptor = model.graph.inputDescriptors().at("x");
  MLTensor x = testing::inputTensor(model.context, descriptor);
  MLTensor y = testing::outputTensor(model.context, model.graph.outputDescriptors().at("y"));
  model.context.writeTensor(x, testing::bytesOf(filled(1.0f)));
  // The worker dispatches until one is refused (however fast a backend runs the graph); the main
  // thread destroys once dispatches are under way.
  constexpr int kMaxRounds = 1'000'000;
  std::atomic<int> rounds{0}, completed{0}, refused{0}, other{0};
  std::thread worker([&] {
    while (rounds < kMaxRounds && refused == 0 && other == 0) {
      ++rounds;
      try {
        model.context.dispatch(model.graph, {{"x", x}}, {{"y", y}});
        ++completed;
      } catch (const Error& error) {
        (error.kind() == K::InvalidStateError ? refused : other)++;
      }
    }
  });
  while (completed == 0 && rounds < kMaxRounds) std::this_thread::yield();
  destroy(model, x, y);
  worker.join();
  EXPECT_EQ(other.load(), 0);
  EXPECT_EQ(completed + refused, rounds);
  EXPECT_GT(refused.load(), 0) << "every dispatch ran before the destroy; nothing was tested";
}

TEST(Concurrency, TensorDestroyedWhileADispatchReadsItIsSafe) {
  destroyDuringDispatches([](Model& model, MLTensor& x, MLTensor& y) {
    x.destroy();
    y.destroy();
    testing::expectError([&] { model.context.readTensor(y); }, K::InvalidStateError, {"destroyed"});
  });
}

TEST(Concurrency, ContextDestroyedWhileADispatchRunsIsSafe) {
  destroyDuringDispatches([](Model& model, MLTensor&, MLTensor&) { model.context.destroy(); });
}

TEST(Concurrency, TensorMemoryIsFreedWhenTheLastDispatchUsingItEnds) {
  Model model;
  MLTensor x = testing::inputTensor(model.context, model.graph.inputDescriptors().at("x"));
  MLTensor y = testing::outputTensor(model.context, model.graph.outputDescriptors().at("y"));
  EXPECT_EQ(model.context.memoryStats().tensorBytes, 2ull * kSize * kSize * 4);
  x.destroy();
  EXPECT_EQ(model.context.memoryStats().tensorBytes, 1ull * kSize * kSize * 4);
  testing::expectError(
      [&] {
        model.context.dispatch(model.graph, {{"x", x}}, {{"y", y}});
      },
      K::InvalidStateError, {"destroyed"});
}

}  // namespace
}  // namespace webnn
