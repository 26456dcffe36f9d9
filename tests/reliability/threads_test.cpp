// Threads on the public API (run under ThreadSanitizer by the tsan preset): one graph dispatched
// from N threads, writes to constants of one graph while another dispatches, re-fills refused
// during a dispatch with nothing lost, tensors and graphs destroyed while another thread
// dispatches, loadConstants from several threads into different graphs.
#include <gtest/gtest.h>
#include <webnn/webnn.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "test_helpers.h"
#include "weights/weight_generators.h"

namespace webnn {
namespace {

constexpr uint32_t kSize = 64;  // y = x @ w + b on [kSize, kSize]
const MLOperandDescriptor kMatrix{MLOperandDataType::Float32, {kSize, kSize}};

std::vector<float> values(float scale) {
  std::vector<float> v(size_t{kSize} * kSize);
  for (size_t i = 0; i < v.size(); ++i) v[i] = scale * static_cast<float>(i % 7);
  return v;
}

// x @ w + b computed here.
std::vector<float> expected(const std::vector<float>& x, const std::vector<float>& w,
                            const std::vector<float>& b) {
  std::vector<float> y(x.size());
  for (uint32_t r = 0; r < kSize; ++r) {
    for (uint32_t c = 0; c < kSize; ++c) {
      float sum = 0;
      for (uint32_t k = 0; k < kSize; ++k) sum += x[r * kSize + k] * w[k * kSize + c];
      y[r * kSize + c] = sum + b[r * kSize + c];
    }
  }
  return y;
}

struct Model {
  MLContext context;
  MLGraph graph;
  MLOperand w, b;

  explicit Model(MLContext shared = createContext()) : context(std::move(shared)) {
    MLGraphBuilder builder(context);
    w = builder.constant(kMatrix, {.label = "w"});
    b = builder.constant(kMatrix, {.label = "b"});
    graph = builder.build({{"y", builder.add(builder.matmul(builder.input("x", kMatrix), w), b)}});
  }

  void fill(const std::vector<float>& wv, const std::vector<float>& bv) {
    graph.setConstantData(w, testing::bytesOf(wv));
    graph.setConstantData(b, testing::bytesOf(bv));
  }

  // One dispatch with its own tensors.
  std::vector<float> run(const std::vector<float>& x) {
    MLTensor in = context.createTensor({kMatrix, false, true});
    MLTensor out = context.createTensor({kMatrix, true, false});
    context.writeTensor(in, testing::bytesOf(x));
    context.dispatch(graph, {{"x", in}}, {{"y", out}});
    return testing::readAs<float>(context, out);
  }
};

TEST(Threads, ManyThreadsDispatchOneGraph) {
  Model model;
  const auto w = values(0.5f), b = values(1.0f);
  model.fill(w, b);
  constexpr int kThreads = 8, kRuns = 10;
  std::atomic<int> wrong{0}, errors{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      const auto x = values(static_cast<float>(t + 1));
      const auto want = expected(x, w, b);
      for (int i = 0; i < kRuns; ++i) {
        try {
          if (model.run(x) != want) ++wrong;
        } catch (const Error&) {
          ++errors;
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(wrong, 0);
  EXPECT_EQ(errors, 0);
}

TEST(Threads, WritesToOneGraphWhileAnotherDispatches) {
  MLContext context = createContext();
  Model busy(context), filling(context);
  const auto w = values(0.5f), b = values(1.0f), x = values(2.0f);
  busy.fill(w, b);
  const auto want = expected(x, w, b);
  std::atomic<bool> stop{false};
  std::atomic<int> wrong{0};
  std::thread dispatcher([&] {
    while (!stop) {
      if (busy.run(x) != want) ++wrong;
    }
  });
  // Chunks of the two constants from two threads, while `busy` dispatches.
  auto writeChunks = [&](const MLOperand& constant, const std::vector<float>& data) {
    const auto bytes = testing::bytesOf(data);
    for (size_t offset = 0; offset < bytes.size(); offset += 1024) {
      filling.graph.writeConstantData(constant, offset, bytes.subspan(offset, 1024));
    }
  };
  for (int round = 0; round < 20; ++round) {
    std::thread tw([&] { writeChunks(filling.w, values(0.25f * static_cast<float>(round + 1))); });
    std::thread tb([&] { writeChunks(filling.b, values(static_cast<float>(round))); });
    tw.join();
    tb.join();
    EXPECT_TRUE(filling.graph.pendingConstants().empty());
    EXPECT_EQ(filling.run(x), expected(x, values(0.25f * static_cast<float>(round + 1)),
                                       values(static_cast<float>(round))));
  }
  stop = true;
  dispatcher.join();
  EXPECT_EQ(wrong, 0);
}

TEST(Threads, RefillsDuringADispatchAreRefusedAndNothingIsLost) {
  Model model;
  const auto x = values(1.0f), b = values(1.0f);
  const auto w1 = values(0.5f), w2 = values(3.0f);
  model.fill(w1, b);
  const auto one = expected(x, w1, b), two = expected(x, w2, b);
  std::atomic<bool> stop{false};
  std::atomic<int> mixed{0}, refused{0}, accepted{0}, dispatchesRefused{0}, otherErrors{0};
  std::thread dispatcher([&] {
    while (!stop) {
      try {
        const auto y = model.run(x);
        if (y != one && y != two) ++mixed;  // a half-written weight set
      } catch (const Error& e) {
        // A dispatch that starts while a re-fill writes finds the constant pending: refused,
        // naming it, like any dispatch of a graph with pending constants.
        if (e.kind() == Error::Kind::InvalidStateError &&
            std::string(e.what()).find("'w'") != std::string::npos) {
          ++dispatchesRefused;
        } else {
          ++otherErrors;
        }
      }
    }
  });
  int lastAccepted = 1;  // w1, the first fill
  for (int i = 0; i < 400; ++i) {
    try {
      model.graph.setConstantData(model.w, testing::bytesOf(i % 2 ? w1 : w2));
      ++accepted;
      lastAccepted = i;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), Error::Kind::InvalidStateError) << e.what();
      ++refused;
    }
    // A refused re-fill changes nothing: the constant stays complete.
    EXPECT_TRUE(model.graph.pendingConstants().empty());
  }
  stop = true;
  dispatcher.join();
  EXPECT_EQ(mixed, 0);
  EXPECT_EQ(otherErrors, 0);
  EXPECT_EQ(accepted + refused, 400);
  EXPECT_EQ(model.run(x), lastAccepted % 2 ? one : two) << "the last accepted re-fill holds";
  std::printf("re-fills: %d accepted, %d refused; dispatches refused mid-re-fill: %d\n",
              accepted.load(), refused.load(), dispatchesRefused.load());
}

// Destroys the graph (and, with `destroyTensors`, the input or output tensor) while another thread
// dispatches with them: the dispatches either run or throw InvalidStateError; nothing is used
// after it is freed.
void destroyWhileDispatching(bool destroyTensors) {
  for (int round = 0; round < 20; ++round) {
    Model model;
    model.fill(values(0.5f), values(1.0f));
    const auto x = values(1.0f);
    MLTensor in = model.context.createTensor({kMatrix, false, true});
    MLTensor out = model.context.createTensor({kMatrix, true, false});
    model.context.writeTensor(in, testing::bytesOf(x));
    std::atomic<bool> started{false};
    std::atomic<int> unexpected{0};
    std::thread dispatcher([&model, &started, &unexpected, in, out] {
      for (int i = 0; i < 50; ++i) {
        try {
          model.context.dispatch(model.graph, {{"x", in}}, {{"y", out}});
        } catch (const Error& e) {
          if (e.kind() != Error::Kind::InvalidStateError) ++unexpected;
        }
        started = true;
      }
    });
    while (!started) std::this_thread::yield();
    if (destroyTensors && round % 3 == 0) out.destroy();
    if (destroyTensors && round % 3 == 1) in.destroy();
    // A graph in use refuses destroy() (InvalidStateError); it goes once the dispatch returns.
    for (;;) {
      try {
        model.graph.destroy();
        break;
      } catch (const Error& e) {
        if (e.kind() != Error::Kind::InvalidStateError) {
          ADD_FAILURE() << e.what();
          break;
        }
        std::this_thread::yield();
      }
    }
    dispatcher.join();
    EXPECT_EQ(unexpected, 0);
    try {
      model.run(x);
      ADD_FAILURE() << "a destroyed graph dispatched";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), Error::Kind::InvalidStateError) << e.what();
    }
  }
}

TEST(Threads, GraphsDestroyedWhileAnotherThreadDispatches) {
  destroyWhileDispatching(false);
}

// A dispatch holds the tensors it binds, so destroy() never frees memory a running dispatch reads.
TEST(Threads, TensorsDestroyedWhileAnotherThreadDispatches) {
  destroyWhileDispatching(true);
}

TEST(Threads, LoadConstantsFromSeveralThreadsIntoDifferentGraphs) {
  testing::TempDir dir;
  const auto w = values(0.5f), b = values(1.0f), x = values(2.0f);
  const std::string path = dir.file("w.safetensors");
  auto asBytes = [](const std::vector<float>& v) {
    const auto span = testing::bytesOf(v);
    return testing::Bytes(span.begin(), span.end());
  };
  testing::writeFile(path, testing::makeSafetensors({{"w", "F32", {kSize, kSize}, asBytes(w)},
                                                     {"b", "F32", {kSize, kSize}, asBytes(b)}}));
  auto source = WeightSource::open(path);
  MLContext context = createContext();
  std::vector<std::unique_ptr<Model>> models;
  for (int i = 0; i < 6; ++i) models.push_back(std::make_unique<Model>(context));
  std::vector<std::thread> threads;
  std::atomic<int> errors{0};
  for (auto& model : models) {
    threads.emplace_back([&, m = model.get()] {
      try {
        m->graph.loadConstants(*source, {.threads = 2});
      } catch (const Error&) {
        ++errors;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(errors, 0);
  const auto want = expected(x, w, b);
  for (auto& model : models) EXPECT_EQ(model->run(x), want);
}

}  // namespace
}  // namespace webnn
