// The semantics of weightless graphs: hollow constants, build without bytes, pending constants,
// checked writes, chunked fills, re-fills, concurrency, copy-once and the memory account.
#include <atomic>
#include <thread>

#include "api/graph_state.h"
#include "test_helpers.h"

namespace webnn {
namespace {

using testing::bytesOf;
using testing::expectError;
using testing::runFloat;
using K = Error::Kind;

constexpr MLOperandDataType F32 = MLOperandDataType::Float32;

// y = x * w + b over [2, 3] tensors, with w and b hollow.
struct Model {
  MLContext context = testing::createTestContext();
  MLOperand w, b;
  MLGraph graph;
  Model() {
    MLGraphBuilder builder(context);
    auto x = builder.input("x", {F32, {2, 3}});
    w = builder.constant({F32, {2, 3}}, {.label = "w"});
    b = builder.constant({F32, {3}}, {.label = "b"});
    graph = builder.build({{"y", builder.add(builder.mul(x, w), b)}});
  }
  std::vector<float> run(const std::vector<float>& x) {
    return runFloat(context, graph, {{"x", x}}, "y");
  }
};

const std::vector<float> kX = {1, 2, 3, 4, 5, 6};
const std::vector<float> kW = {1, 1, 1, 2, 2, 2};
const std::vector<float> kB = {10, 20, 30};

TEST(Weightless, BuildNeedsNoBytesAndEveryHollowConstantStartsPending) {
  Model model;
  auto pending = model.graph.pendingConstants();
  ASSERT_EQ(pending.size(), 2u);
  EXPECT_EQ(pending[0].label(), "w");
  EXPECT_EQ(pending[1].label(), "b");
  EXPECT_TRUE(pending[0].isConstant());
  EXPECT_EQ(model.w.node()->data, nullptr);  // the builder holds no bytes for a hollow constant
}

TEST(Weightless, DispatchWhilePendingNamesThePendingConstants) {
  Model model;
  expectError([&] { model.run(kX); }, K::InvalidStateError, {"'w'", "'b'", "without data"});
  model.graph.setConstantData(model.w, bytesOf(kW));
  expectError([&] { model.run(kX); }, K::InvalidStateError, {"'b'"});
  try {
    model.run(kX);
  } catch (const Error& error) {
    EXPECT_EQ(std::string(error.what()).find("'w'"), std::string::npos) << error.what();
  }
}

TEST(Weightless, FilledGraphComputes) {
  Model model;
  model.graph.setConstantData(model.w, bytesOf(kW));
  model.graph.setConstantData(model.b, bytesOf(kB));
  EXPECT_TRUE(model.graph.pendingConstants().empty());
  EXPECT_EQ(model.run(kX), (std::vector<float>{11, 22, 33, 18, 30, 42}));
}

TEST(Weightless, HollowConstantCannotBeAnOutput) {
  MLContext context = testing::createTestContext();
  MLGraphBuilder builder(context);
  auto w = builder.constant({F32, {2}}, {.label = "w"});
  expectError([&] { builder.build({{"w", w}}); }, K::TypeError, {"constant"});
}

TEST(Weightless, HollowConstantSatisfiesConstantRules) {
  MLContext context = testing::createTestContext();
  MLGraphBuilder builder(context);
  auto w = builder.constant({F32, {2}}, {.label = "w"});
  EXPECT_TRUE(w.isConstant());
  EXPECT_EQ(w.shape(), (std::vector<uint32_t>{2}));
  EXPECT_EQ(w.dataType(), F32);
}

TEST(Weightless, ChunksInAnyOrderCompleteTheConstant) {
  Model model;
  auto all = bytesOf(kW);
  model.graph.writeConstantData(model.w, 16, all.subspan(16));
  EXPECT_EQ(model.graph.pendingConstants().size(), 2u);
  model.graph.writeConstantData(model.w, 4, all.subspan(4, 12));
  model.graph.writeConstantData(model.w, 4, all.subspan(4, 8));  // overlap is fine
  EXPECT_EQ(model.graph.pendingConstants().size(), 2u);
  model.graph.writeConstantData(model.w, 0, all.subspan(0, 4));
  ASSERT_EQ(model.graph.pendingConstants().size(), 1u);
  EXPECT_EQ(model.graph.pendingConstants()[0].label(), "b");
  model.graph.setConstantData(model.b, bytesOf(kB));
  EXPECT_EQ(model.run(kX), (std::vector<float>{11, 22, 33, 18, 30, 42}));
}

TEST(Weightless, BadWritesThrowTypeErrorAndChangeNothing) {
  Model model;
  model.graph.setConstantData(model.w, bytesOf(kW));
  auto b = bytesOf(kB);
  std::vector<float> wrong = {9, 9};
  expectError([&] { model.graph.setConstantData(model.b, bytesOf(wrong)); }, K::TypeError,
              {"'b'", "12", "8"});
  expectError([&] { model.graph.writeConstantData(model.b, 8, b); }, K::TypeError, {"outside"});
  expectError([&] { model.graph.writeConstantData(model.b, ~0ull - 2, b.subspan(0, 4)); },
              K::TypeError, {"outside"});
  expectError([&] { model.graph.writeConstantData(model.b, 2, b.subspan(0, 4)); }, K::TypeError,
              {"aligned"});
  expectError([&] { model.graph.writeConstantData(model.b, 0, b.subspan(0, 6)); }, K::TypeError,
              {"aligned"});
  expectError([&] { model.graph.writeConstantData(model.b, 0, {}); }, K::TypeError, {"empty"});
  // Operands that are not hollow constants of this graph.
  Model other;
  expectError([&] { model.graph.setConstantData(other.b, b); }, K::TypeError, {"another graph"});
  expectError([&] { model.graph.setConstantData(MLOperand(), b); }, K::TypeError, {"empty"});
  // Nothing changed: w still complete, b still pending, and w's data intact.
  ASSERT_EQ(model.graph.pendingConstants().size(), 1u);
  model.graph.setConstantData(model.b, b);
  EXPECT_EQ(model.run(kX), (std::vector<float>{11, 22, 33, 18, 30, 42}));
}

TEST(Weightless, InputsAndIntermediatesCannotBeWritten) {
  MLContext context = testing::createTestContext();
  MLGraphBuilder builder(context);
  auto x = builder.input("x", {F32, {2}});
  std::vector<float> values = {1, 2};
  auto c = builder.constant({F32, {2}}, bytesOf(values));
  auto sum = builder.add(x, c);
  auto graph = builder.build({{"y", builder.relu(sum)}});
  for (const auto& operand : {x, c, sum}) {
    expectError([&] { graph.setConstantData(operand, bytesOf(values)); }, K::TypeError,
                {"not a hollow constant"});
  }
}

TEST(Weightless, UnusedHollowConstantIsNotPartOfTheGraph) {
  MLContext context = testing::createTestContext();
  MLGraphBuilder builder(context);
  auto x = builder.input("x", {F32, {2}});
  auto unused = builder.constant({F32, {2}}, {.label = "unused"});
  auto graph = builder.build({{"y", builder.relu(x)}});
  EXPECT_TRUE(graph.pendingConstants().empty());
  std::vector<float> values = {1, 2};
  expectError([&] { graph.setConstantData(unused, bytesOf(values)); }, K::TypeError, {"'unused'"});
}

TEST(Weightless, RefillingGivesNewResults) {
  Model model;
  model.graph.setConstantData(model.w, bytesOf(kW));
  model.graph.setConstantData(model.b, bytesOf(kB));
  EXPECT_EQ(model.run(kX), (std::vector<float>{11, 22, 33, 18, 30, 42}));
  std::vector<float> zeros(3, 0.0f);
  model.graph.setConstantData(model.b, bytesOf(zeros));
  EXPECT_EQ(model.run(kX), (std::vector<float>{1, 2, 3, 8, 10, 12}));
  // A chunked re-fill makes the constant pending until it is covered again.
  std::vector<float> w2(6, 3.0f);
  model.graph.writeConstantData(model.w, 0, bytesOf(w2).subspan(0, 12));
  expectError([&] { model.run(kX); }, K::InvalidStateError, {"'w'"});
  model.graph.writeConstantData(model.w, 12, bytesOf(w2).subspan(12));
  EXPECT_EQ(model.run(kX), (std::vector<float>{3, 6, 9, 12, 15, 18}));
}

TEST(Weightless, WriteWhileDispatchRunsIsInvalidState) {
  Model model;
  model.graph.setConstantData(model.w, bytesOf(kW));
  model.graph.setConstantData(model.b, bytesOf(kB));
  auto& state = *model.graph.state();
  state.beginDispatch();  // as a running dispatch does
  expectError([&] { model.graph.setConstantData(model.b, bytesOf(kB)); }, K::InvalidStateError,
              {"dispatch"});
  state.endDispatch();
  model.graph.setConstantData(model.b, bytesOf(kB));
  EXPECT_TRUE(model.graph.pendingConstants().empty());
}

TEST(Weightless, ConcurrentWritesToDifferentConstants) {
  constexpr int kConstants = 8;
  constexpr uint32_t kSize = 1 << 16;
  MLContext context = testing::createTestContext();
  MLGraphBuilder builder(context);
  auto x = builder.input("x", {F32, {kSize}});
  std::vector<MLOperand> constants;
  MLOperand sum = x;
  for (int i = 0; i < kConstants; ++i) {
    constants.push_back(builder.constant({F32, {kSize}}, {.label = "c" + std::to_string(i)}));
    sum = builder.add(sum, constants.back());
  }
  auto graph = builder.build({{"y", sum}});
  std::vector<std::thread> threads;
  for (int i = 0; i < kConstants; ++i) {
    threads.emplace_back([&, i] {
      std::vector<float> values(kSize, static_cast<float>(i + 1));
      auto bytes = bytesOf(values);
      for (size_t offset = 0; offset < bytes.size(); offset += 4096) {
        graph.writeConstantData(constants[i], offset, bytes.subspan(offset, 4096));
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_TRUE(graph.pendingConstants().empty());
  auto y = runFloat(context, graph, {{"x", std::vector<float>(kSize, 0.5f)}}, "y");
  EXPECT_EQ(y.front(), 36.5f);
  EXPECT_EQ(y.back(), 36.5f);
}

TEST(Weightless, WritesCopyTheCallersBytes) {
  Model model;
  std::vector<float> w = kW;
  model.graph.setConstantData(model.w, bytesOf(w));
  model.graph.setConstantData(model.b, bytesOf(kB));
  std::fill(w.begin(), w.end(), 100.0f);  // the caller's buffer is theirs again
  EXPECT_EQ(model.run(kX), (std::vector<float>{11, 22, 33, 18, 30, 42}));
}

TEST(Weightless, ClassicConstantCopiesAtTheCall) {
  MLContext context = testing::createTestContext();
  MLGraphBuilder builder(context);
  auto x = builder.input("x", {F32, {3}});
  std::vector<float> values = {1, 2, 3};
  auto c = builder.constant({F32, {3}}, bytesOf(values));
  values = {7, 7, 7};
  auto graph = builder.build({{"y", builder.add(x, c)}});
  EXPECT_EQ(runFloat(context, graph, {{"x", {0, 0, 0}}}, "y"), (std::vector<float>{1, 2, 3}));
  expectError([&] { builder.input("z", {F32, {1}}); }, K::InvalidStateError, {"one-shot"});
}

TEST(Weightless, BuilderIsOneShot) {
  MLContext context = testing::createTestContext();
  MLGraphBuilder builder(context);
  auto x = builder.input("x", {F32, {2}});
  auto y = builder.relu(x);
  builder.build({{"y", y}});
  expectError([&] { builder.relu(x); }, K::InvalidStateError, {"already built"});
  expectError([&] { builder.constant({F32, {2}}, {.label = "late"}); }, K::InvalidStateError);
  expectError([&] { builder.constant(F32, 1.0); }, K::InvalidStateError);
  expectError([&] { builder.build({{"y", y}}); }, K::InvalidStateError);
}

TEST(Weightless, MemoryAccountShowsConstantsAndActivations) {
  Model model;
  EXPECT_EQ(model.context.memoryStats().constantBytes, (6u + 3u) * 4u);
  model.graph.setConstantData(model.w, bytesOf(kW));
  model.graph.setConstantData(model.b, bytesOf(kB));
  model.run(kX);
  auto stats = model.context.memoryStats();
  // The mul result, in an arena planned at build (intermediates 64-byte aligned). A backend
  // frees it after the dispatch or keeps it for the next one, until the graph is destroyed.
  EXPECT_GE(stats.activationBytesPeak, 6u * 4u);
  EXPECT_LE(stats.activationBytesPeak, 64u);
  EXPECT_TRUE(stats.activationBytes == 0u || stats.activationBytes == stats.activationBytesPeak);
  model.run(kX);  // a kept arena is reused: no more than one dispatch's worth
  EXPECT_LE(model.context.memoryStats().activationBytesPeak, 64u);
  EXPECT_EQ(stats.tensorBytes, 0u);  // runFloat's tensors are gone
  MLTensor tensor = model.context.createTensor({{F32, {4, 4}}, true, true});
  EXPECT_EQ(model.context.memoryStats().tensorBytes, 64u);
  tensor.destroy();
  EXPECT_EQ(model.context.memoryStats().tensorBytes, 0u);
  model.graph.destroy();
  EXPECT_EQ(model.context.memoryStats().constantBytes, 0u);
  EXPECT_EQ(model.context.memoryStats().activationBytes, 0u);
}

TEST(Weightless, DestroyedGraphRejectsUse) {
  Model model;
  model.graph.destroy();
  expectError([&] { model.graph.setConstantData(model.w, bytesOf(kW)); }, K::InvalidStateError,
              {"destroyed"});
  expectError([&] { model.run(kX); }, K::InvalidStateError, {"destroyed"});
}

}  // namespace
}  // namespace webnn
