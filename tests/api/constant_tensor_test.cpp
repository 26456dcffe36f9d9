// Constant tensors (MLContext::createConstantTensor, MLGraphBuilder::constant(tensor)): one copy
// of a weight that several graphs read, filled once (at creation, by chunks, or from a file),
// before or after the graphs are built. Runs on every backend.
#include <atomic>
#include <cstring>
#include <thread>

#include "api/context_state.h"
#include "test_helpers.h"
#include "weights/weight_generators.h"
#include "webnn/weight_source.h"

namespace webnn {
namespace {

using testing::bytesOf;
using testing::expectError;
using testing::runFloat;
using K = Error::Kind;

constexpr MLOperandDataType F32 = MLOperandDataType::Float32;

const std::vector<float> kW = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};  // [4, 3]
const std::vector<float> kB = {0.5f, -1, 2};                            // [3]

// y = x [rows, 4] . w [4, 3] + b, computed here.
std::vector<float> expected(const std::vector<float>& x, size_t rows) {
  std::vector<float> y(rows * 3);
  for (size_t r = 0; r < rows; ++r) {
    for (size_t c = 0; c < 3; ++c) {
      float sum = kB[c];
      for (size_t k = 0; k < 4; ++k) sum += x[r * 4 + k] * kW[k * 3 + c];
      y[r * 3 + c] = sum;
    }
  }
  return y;
}

std::vector<float> inputOf(size_t rows) {
  std::vector<float> x(rows * 4);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 7) - 3.0f;
  return x;
}

// A graph of `rows` rows over the tensors w and b.
MLGraph buildOn(MLContext& context, const MLTensor& w, const MLTensor& b, uint32_t rows) {
  MLGraphBuilder builder(context);
  auto x = builder.input("x", {F32, {rows, 4}});
  return builder.build({{"y", builder.add(builder.matmul(x, builder.constant(w)),
                                          builder.constant(b))}});
}

std::vector<float> run(MLContext& context, const MLGraph& graph, uint32_t rows) {
  return runFloat(context, graph, {{"x", inputOf(rows)}}, "y");
}

TEST(ConstantTensor, FilledAtCreationIsReadByGraphsOfEveryShape) {
  auto context = testing::createTestContext();
  auto w = context.createConstantTensor({F32, {4, 3}}, bytesOf(kW));
  auto b = context.createConstantTensor({F32, {3}}, bytesOf(kB));
  EXPECT_TRUE(w.constant());
  EXPECT_TRUE(w.constantComplete());
  EXPECT_FALSE(w.readable());
  EXPECT_FALSE(w.writable());
  auto small = buildOn(context, w, b, 2);
  auto large = buildOn(context, w, b, 33);
  EXPECT_EQ(run(context, small, 2), expected(inputOf(2), 2));
  EXPECT_EQ(run(context, large, 33), expected(inputOf(33), 33));
  EXPECT_TRUE(small.pendingConstants().empty());
}

TEST(ConstantTensor, HollowTensorFilledAfterTheGraphsAreBuilt) {
  auto context = testing::createTestContext();
  auto w = context.createConstantTensor({F32, {4, 3}}, MLConstantOptions{.label = "w"});
  auto b = context.createConstantTensor({F32, {3}}, MLConstantOptions{.label = "b"});
  EXPECT_EQ(w.label(), "w");
  EXPECT_FALSE(w.constantComplete());
  auto small = buildOn(context, w, b, 2);
  auto large = buildOn(context, w, b, 17);
  expectError([&] { run(context, small, 2); }, K::InvalidStateError,
              {"constant tensor", "'w'", "'b'"});
  // Chunks in any order, on element boundaries.
  const auto bytes = bytesOf(kW);
  context.writeConstantTensor(w, 24, bytes.subspan(24));
  EXPECT_FALSE(w.constantComplete());
  context.writeConstantTensor(w, 0, bytes.subspan(0, 24));
  EXPECT_TRUE(w.constantComplete());
  expectError([&] { run(context, large, 17); }, K::InvalidStateError, {"'b'"});
  context.writeConstantTensor(b, 0, bytesOf(kB));
  EXPECT_EQ(run(context, small, 2), expected(inputOf(2), 2));
  EXPECT_EQ(run(context, large, 17), expected(inputOf(17), 17));
}

TEST(ConstantTensor, HollowTensorFilledBeforeTheGraphIsBuilt) {
  auto context = testing::createTestContext();
  auto w = context.createConstantTensor({F32, {4, 3}}, MLConstantOptions{.label = "w"});
  auto b = context.createConstantTensor({F32, {3}}, MLConstantOptions{.label = "b"});
  context.writeConstantTensor(w, 0, bytesOf(kW));
  context.writeConstantTensor(b, 0, bytesOf(kB));
  auto first = buildOn(context, w, b, 5);
  EXPECT_EQ(run(context, first, 5), expected(inputOf(5), 5));
  auto second = buildOn(context, w, b, 9);  // built after the first one ran
  EXPECT_EQ(run(context, second, 9), expected(inputOf(9), 9));
  EXPECT_EQ(run(context, first, 5), expected(inputOf(5), 5));
}

TEST(ConstantTensor, ACompleteTensorNeverChanges) {
  auto context = testing::createTestContext();
  auto w = context.createConstantTensor({F32, {4, 3}}, bytesOf(kW));
  auto b = context.createConstantTensor({F32, {3}}, bytesOf(kB));
  auto graph = buildOn(context, w, b, 2);
  std::vector<float> other(12, 0.0f);
  expectError([&] { context.writeConstantTensor(w, 0, bytesOf(other)); }, K::InvalidStateError,
              {"never changes"});
  // Nor through a graph that reads it.
  MLGraphBuilder builder(context);
  auto x = builder.input("x", {F32, {2, 4}});
  auto operand = builder.constant(w);
  auto g = builder.build({{"y", builder.matmul(x, operand)}});
  expectError([&] { g.setConstantData(operand, bytesOf(other)); }, K::TypeError,
              {"constant tensor"});
  EXPECT_EQ(run(context, graph, 2), expected(inputOf(2), 2));
}

TEST(ConstantTensor, BadWritesThrowAndChangeNothing) {
  auto context = testing::createTestContext();
  auto w = context.createConstantTensor({F32, {4, 3}}, MLConstantOptions{.label = "w"});
  const auto bytes = bytesOf(kW);
  expectError([&] { context.writeConstantTensor(w, 40, bytes.subspan(0, 12)); }, K::TypeError,
              {"outside", "'w'"});
  expectError([&] { context.writeConstantTensor(w, 2, bytes.subspan(0, 8)); }, K::TypeError,
              {"not aligned"});
  expectError([&] { context.writeConstantTensor(w, 0, bytes.subspan(0, 0)); }, K::TypeError,
              {"empty"});
  expectError([&] { context.createConstantTensor({F32, {4, 3}}, bytes.subspan(0, 44)); },
              K::TypeError, {"48 bytes", "44"});
  EXPECT_FALSE(w.constantComplete());
  context.writeConstantTensor(w, 0, bytes);
  EXPECT_TRUE(w.constantComplete());
}

TEST(ConstantTensor, IsNeverBoundToADispatchNorReadOrWritten) {
  auto context = testing::createTestContext();
  auto w = context.createConstantTensor({F32, {4, 3}}, bytesOf(kW));
  auto b = context.createConstantTensor({F32, {3}}, bytesOf(kB));
  auto graph = buildOn(context, w, b, 4);
  auto input = context.createTensor({{F32, {4, 4}}, false, true});
  auto wrongOutput = context.createConstantTensor({F32, {4, 3}}, bytesOf(kW));
  expectError([&] { context.dispatch(graph, {{"x", input}}, {{"y", wrongOutput}}); },
              K::TypeError, {"constant tensor"});
  expectError([&] { context.readTensor(w); }, K::TypeError, {"not readable"});
  expectError([&] { context.writeTensor(w, bytesOf(kW)); }, K::TypeError, {"not writable"});
  auto plain = context.createTensor({{F32, {4, 3}}, true, true});
  MLGraphBuilder builder(context);
  expectError([&] { builder.constant(plain); }, K::TypeError, {"not a constant tensor"});
  auto otherContext = testing::createTestContext();
  MLGraphBuilder otherBuilder(otherContext);
  expectError([&] { otherBuilder.constant(w); }, K::TypeError, {"another context"});
}

TEST(ConstantTensor, OneTensorTwiceInABuilderIsOneOperand) {
  auto context = testing::createTestContext();
  auto w = context.createConstantTensor({F32, {4, 3}}, bytesOf(kW));
  MLGraphBuilder builder(context);
  auto first = builder.constant(w);
  auto second = builder.constant(w);
  EXPECT_EQ(first.node(), second.node());
}

TEST(ConstantTensor, AGraphDestroyedWhileAnotherReadsTheTensor) {
  auto context = testing::createTestContext();
  auto w = context.createConstantTensor({F32, {4, 3}}, MLConstantOptions{.label = "w"});
  auto b = context.createConstantTensor({F32, {3}}, MLConstantOptions{.label = "b"});
  auto first = buildOn(context, w, b, 2);
  auto second = buildOn(context, w, b, 6);
  context.writeConstantTensor(w, 0, bytesOf(kW));
  context.writeConstantTensor(b, 0, bytesOf(kB));
  EXPECT_EQ(run(context, first, 2), expected(inputOf(2), 2));
  first.destroy();
  first = MLGraph();
  EXPECT_EQ(run(context, second, 6), expected(inputOf(6), 6));
  // The tensor destroyed too: graphs that read it keep its values.
  w.destroy();
  b.destroy();
  EXPECT_EQ(run(context, second, 6), expected(inputOf(6), 6));
  expectError([&] { MLGraphBuilder builder(context); builder.constant(w); },
              K::InvalidStateError, {"destroyed"});
}

TEST(ConstantTensor, LoadedFromAFileOnceForEveryGraph) {
  testing::TempDir dir;
  std::vector<testing::SafetensorsTensor> tensors;
  auto raw = [](const std::vector<float>& values) {
    testing::Bytes bytes(values.size() * sizeof(float));
    std::memcpy(bytes.data(), values.data(), bytes.size());
    return bytes;
  };
  tensors.push_back({"w", "F32", {4, 3}, raw(kW)});
  tensors.push_back({"b", "F32", {3}, raw(kB)});
  const std::string path = dir.file("weights.safetensors");
  testing::writeFile(path, testing::makeSafetensors(tensors));
  auto source = WeightSource::open(path);

  auto context = testing::createTestContext();
  auto w = context.createConstantTensor({F32, {4, 3}}, MLConstantOptions{.label = "w"});
  auto b = context.createConstantTensor({F32, {3}}, MLConstantOptions{.label = "b"});
  auto missing = context.createConstantTensor({F32, {2}}, MLConstantOptions{.label = "absent"});
  auto small = buildOn(context, w, b, 3);
  auto large = buildOn(context, w, b, 40);
  expectError([&] { context.loadConstants({w, b, missing}, *source); }, K::TypeError,
              {"'absent'"});
  EXPECT_TRUE(w.constantComplete());  // the others are in
  EXPECT_TRUE(b.constantComplete());
  EXPECT_EQ(run(context, small, 3), expected(inputOf(3), 3));
  EXPECT_EQ(run(context, large, 40), expected(inputOf(40), 40));
  // Loading complete tensors again reads nothing and changes nothing.
  context.loadConstants({w, b}, *source);
  auto wrongShape = context.createConstantTensor({F32, {3, 4}}, MLConstantOptions{.label = "w"});
  expectError([&] { context.loadConstants({wrongShape}, *source); }, K::TypeError, {"differs"});
  EXPECT_FALSE(wrongShape.constantComplete());
}

TEST(ConstantTensor, ConcurrentDispatchesOfGraphsThatShareATensor) {
  auto context = testing::createTestContext();
  auto w = context.createConstantTensor({F32, {4, 3}}, bytesOf(kW));
  auto b = context.createConstantTensor({F32, {3}}, bytesOf(kB));
  auto first = buildOn(context, w, b, 3);
  auto second = buildOn(context, w, b, 8);
  std::atomic<int> wrong{0};
  auto loop = [&](const MLGraph& graph, uint32_t rows) {
    for (int i = 0; i < 20; ++i) {
      if (run(context, graph, rows) != expected(inputOf(rows), rows)) ++wrong;
    }
  };
  std::thread a(loop, std::cref(first), 3u);
  std::thread c(loop, std::cref(second), 8u);
  a.join();
  c.join();
  EXPECT_EQ(wrong.load(), 0);
}

}  // namespace
}  // namespace webnn
