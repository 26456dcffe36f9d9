// The seam's staging path, through the backends that have no direct storage for the constants of
// these tests: the transforming test backend, and the cpu backend (whose matmul weights are packed
// on arrival): loadConstants and writeConstantData stage bounded chunks, commit them in any order
// and from several threads, survive faults in the middle and re-fills, keep the staging peak
// bounded by chunk size x chunks in flight (and above zero), respect the slots' write
// granularity, and tell slots and graphs when their constants are complete (what the transforming
// backend checks as it goes). Also: a backend's limits reach the builder.
#include <algorithm>
#include <cstring>
#include <numeric>
#include <random>
#include <thread>

#include "backends/reference/reference_backend.h"
#include "api/graph_state.h"
#include "backends/transforming_backend.h"
#include "webnn/config.h"
#include "test_helpers.h"
#include "weights/weight_generators.h"

namespace webnn {
namespace {

using testing::TempDir;
using Type = MLOperandDataType;

constexpr uint32_t kRows = 96, kColumns = 4096;  // 1.5 MiB of float32 per constant

std::vector<float> valuesFor(uint32_t seed, size_t count) {
  std::vector<float> values(count);
  for (size_t i = 0; i < count; ++i) {
    values[i] = static_cast<float>((i * 13 + seed * 101) % 2003) - 1000.0f;
  }
  return values;
}

std::vector<std::byte> bytesOf(const std::vector<float>& values) {
  std::vector<std::byte> bytes(values.size() * sizeof(float));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

// y = I a + I b + x over two big hollow constants (each the B of a matmul by the identity, so
// that the cpu backend packs them) and one small one, on a given backend. The graph outputs I a
// and I b; the sum is taken here (integers: exact in any order, on every backend).
struct Model {
  MLContext context;
  MLOperand a, b, c;
  MLGraph graph;

  explicit Model(const std::string& backend) : context(createContext({.backend = backend})) {
    MLGraphBuilder builder(context);
    auto x = builder.input("x", {Type::Float32, {1}});
    std::vector<float> identity(size_t{kRows} * kRows, 0.0f);
    for (uint32_t i = 0; i < kRows; ++i) identity[size_t{i} * kRows + i] = 1.0f;
    auto eye = builder.constant({Type::Float32, {kRows, kRows}}, testing::bytesOf(identity));
    a = builder.constant({Type::Float32, {kRows, kColumns}}, {.label = "a"});
    b = builder.constant({Type::Float32, {kRows, kColumns}}, {.label = "b"});
    c = builder.constant({Type::Float32, {3}}, {.label = "c"});
    graph = builder.build({{"ia", builder.matmul(eye, a)},
                           {"ib", builder.matmul(eye, b)},
                           {"z", builder.mul(c, x)}});
  }

  backend::StagingHints hints() const { return graph.state()->compiled->stagingHints(); }

  std::vector<float> run(float x, const std::string& output = "y") {
    if (output != "y") return testing::runFloat(context, graph, {{"x", {x}}}, output);
    std::vector<float> y = testing::runFloat(context, graph, {{"x", {x}}}, "ia");
    const std::vector<float> ib = testing::runFloat(context, graph, {{"x", {x}}}, "ib");
    for (size_t i = 0; i < y.size(); ++i) y[i] = y[i] + ib[i] + x;
    return y;
  }
};

std::vector<float> expectedSum(uint32_t seedA, uint32_t seedB, float x) {
  const auto a = valuesFor(seedA, size_t{kRows} * kColumns);
  const auto b = valuesFor(seedB, size_t{kRows} * kColumns);
  std::vector<float> y(a.size());
  for (size_t i = 0; i < y.size(); ++i) y[i] = a[i] + b[i] + x;
  return y;
}

std::string writeWeights(const TempDir& dir, const std::string& name, uint32_t seedA,
                         uint32_t seedB) {
  std::vector<testing::SafetensorsTensor> tensors = {
      {"a", "F32", {kRows, kColumns}, bytesOf(valuesFor(seedA, size_t{kRows} * kColumns))},
      {"b", "F32", {kRows, kColumns}, bytesOf(valuesFor(seedB, size_t{kRows} * kColumns))},
      {"c", "F32", {3}, bytesOf({1.0f, 2.0f, 3.0f})}};
  const std::string path = dir.path() + "/" + name;
  testing::writeFile(path, testing::makeSafetensors(tensors));
  return path;
}

// Runs on the transforming backend and on the cpu backend (where it is built); what only the
// transforming backend observes (its stats, its options) is checked there only.
class Staging : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    testing::setTransformingBackendOptions({});
    testing::resetTransformingStats();
  }
  void TearDown() override {
    EXPECT_EQ(testing::transformingStats().violations.load(), 0u)
        << "the API layer broke a promise of the seam";
    testing::setTransformingBackendOptions({});
  }
  const std::string& backendName() const { return GetParam(); }
  bool transforming() const { return GetParam() == testing::kTransformingBackend; }
  // The backend stages these constants (the test means nothing otherwise).
  void expectStaged(const Model& model) const {
    const backend::StagingHints hints = model.hints();
    EXPECT_FALSE(hints.direct) << backendName() << " keeps these constants in the file's layout";
    EXPECT_GT(hints.maxChunksInFlight, 0u);
  }
  TempDir dir;
};

std::vector<std::string> stagingBackends() {
  std::vector<std::string> names = {testing::kTransformingBackend};
#ifdef WEBNN_HAVE_CPU
  names.push_back("cpu");
#endif
  return names;
}

INSTANTIATE_TEST_SUITE_P(Staging, Staging, ::testing::ValuesIn(stagingBackends()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return info.param;
                         });

TEST_P(Staging, LoadConstantsStagesBoundedChunksAndMatchesTheReference) {
  const std::string path = writeWeights(dir, "w.safetensors", 1, 2);
  Model model(backendName());
  expectStaged(model);
  const backend::StagingHints hints = model.hints();  // transforming: 256 KiB x 2 in flight
  model.graph.loadConstants(*WeightSource::open(path), [] {
    LoadOptions options;
    options.threads = 4;  // more threads than chunks in flight: the hint caps them
    return options;
  }());
  EXPECT_TRUE(model.graph.pendingConstants().empty());
  EXPECT_EQ(model.run(0.5f), expectedSum(1, 2, 0.5f));

  Model reference("reference");
  reference.graph.loadConstants(*WeightSource::open(path));
  EXPECT_EQ(model.run(0.5f), reference.run(0.5f));
  EXPECT_EQ(model.run(2.0f, "z"), reference.run(2.0f, "z"));

  if (transforming()) {
    const auto& stats = testing::transformingStats();
    // 1.5 MiB / 256 KiB = 6 chunks per big constant, 1 for the small one.
    EXPECT_EQ(stats.stagedWrites.load(), 13u);
    EXPECT_EQ(stats.completions.load(), 3u);
    EXPECT_EQ(stats.graphCompletions.load(), 1u);
    EXPECT_LE(stats.peakInFlight.load(), hints.maxChunksInFlight);
  }
  const MLMemoryStats memory = model.context.memoryStats();
  EXPECT_GT(memory.stagingBytesPeak, 0u);
  EXPECT_LE(memory.stagingBytesPeak, hints.chunkBytes * hints.maxChunksInFlight);
  EXPECT_EQ(memory.stagingBytes, 0u) << "staging outlived the load";
}

TEST_P(Staging, StagingPeakFollowsTheHintsWhateverTheModelSize) {
  const std::string path = writeWeights(dir, "w.safetensors", 3, 4);
  for (const auto& [chunk, inFlight] :
       std::vector<std::pair<uint64_t, uint32_t>>{{64 * 1024, 1}, {128 * 1024, 3}}) {
    // The transforming backend takes both as hints; on the others they are the loader's chunk
    // size and threads (which the backend's hints may cut further).
    testing::setTransformingBackendOptions({.chunkBytes = chunk, .maxChunksInFlight = inFlight});
    Model model(backendName());
    expectStaged(model);
    LoadOptions options;
    options.chunkBytes = chunk;
    options.threads = inFlight;
    model.graph.loadConstants(*WeightSource::open(path), options);
    EXPECT_EQ(model.run(1.0f), expectedSum(3, 4, 1.0f));
    const MLMemoryStats memory = model.context.memoryStats();
    EXPECT_GT(memory.stagingBytesPeak, 0u);
    const uint64_t staged = testing::loaderChunkBytes(model.graph, chunk);
    EXPECT_LE(staged, chunk);
    EXPECT_LE(memory.stagingBytesPeak,
              staged * std::min<uint64_t>(inFlight, model.hints().maxChunksInFlight))
        << chunk << " x " << inFlight;
  }
}

TEST_P(Staging, ChunkBoundariesFollowTheSlotsWriteGranularity) {
  const std::string path = writeWeights(dir, "w.safetensors", 5, 6);
  // 4 KiB + 4 bytes: no power of two, so chunk ends only fall on granules if the loader aligns
  // them.
  testing::setTransformingBackendOptions(
      {.chunkBytes = 200 * 1024, .maxChunksInFlight = 4, .writeGranularity = 4100});
  Model model(backendName());
  LoadOptions options;
  options.threads = 4;
  options.chunkBytes = 200 * 1024 + 4;  // not a multiple of the cpu backend's 4-byte granules
  model.graph.loadConstants(*WeightSource::open(path), options);
  EXPECT_EQ(model.run(0.0f), expectedSum(5, 6, 0.0f));
  // (The slot counts a violation when two writes in flight touch one granule.)
}

TEST_P(Staging, WritesInRandomOrderFromSeveralThreads) {
  Model model(backendName());
  const auto a = bytesOf(valuesFor(7, size_t{kRows} * kColumns));
  const auto b = bytesOf(valuesFor(8, size_t{kRows} * kColumns));
  constexpr uint64_t kChunk = 48 * 1024;
  struct Piece {
    const MLOperand* constant;
    const std::vector<std::byte>* bytes;
    uint64_t offset;
  };
  std::vector<Piece> pieces;
  for (uint64_t offset = 0; offset < a.size(); offset += kChunk) {
    pieces.push_back({&model.a, &a, offset});
    pieces.push_back({&model.b, &b, offset});
  }
  std::shuffle(pieces.begin(), pieces.end(), std::mt19937(11));
  std::atomic<size_t> next{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (size_t i = next++; i < pieces.size(); i = next++) {
        const Piece& piece = pieces[i];
        const uint64_t size = std::min<uint64_t>(kChunk, piece.bytes->size() - piece.offset);
        model.graph.writeConstantData(*piece.constant, piece.offset,
                                      std::span(*piece.bytes).subspan(piece.offset, size));
      }
    });
  }
  for (auto& thread : threads) thread.join();
  model.graph.setConstantData(model.c, bytesOf({1.0f, 2.0f, 3.0f}));
  EXPECT_EQ(model.run(3.0f), expectedSum(7, 8, 3.0f));
  EXPECT_EQ(model.context.memoryStats().stagingBytesPeak, 0u)
      << "writeConstantData transforms straight from the caller's bytes";
  if (!transforming()) return;
  const auto& stats = testing::transformingStats();
  EXPECT_EQ(stats.directWrites.load(), pieces.size() + 1);  // transformed straight from the caller
  EXPECT_EQ(stats.completions.load(), 3u);
  EXPECT_EQ(stats.graphCompletions.load(), 1u);
}

TEST_P(Staging, UnalignedWritesToOneConstantAreSerialized) {
  // Granules of 4096 bytes; writes of 1000 floats (4000 bytes) straddle them. The API layer must
  // serialize such writes (the slot counts a violation if two overlap a granule at once).
  testing::setTransformingBackendOptions({.writeGranularity = 4096});
  Model model(backendName());
  const auto a = bytesOf(valuesFor(9, size_t{kRows} * kColumns));
  const auto b = bytesOf(valuesFor(10, size_t{kRows} * kColumns));
  constexpr uint64_t kChunk = 4000;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (uint64_t offset = t * kChunk; offset < a.size(); offset += 4 * kChunk) {
        const uint64_t size = std::min<uint64_t>(kChunk, a.size() - offset);
        model.graph.writeConstantData(model.a, offset, std::span(a).subspan(offset, size));
        model.graph.writeConstantData(model.b, offset, std::span(b).subspan(offset, size));
      }
    });
  }
  for (auto& thread : threads) thread.join();
  model.graph.setConstantData(model.c, bytesOf({1.0f, 2.0f, 3.0f}));
  EXPECT_EQ(model.run(-1.0f), expectedSum(9, 10, -1.0f));
}

TEST_P(Staging, FaultInTheMiddleLeavesThePendingConstantAndRetryCompletes) {
  const std::string path = writeWeights(dir, "w.safetensors", 12, 13);
  Model model(backendName());
  LoadOptions options;
  options.chunkBytes = 256 * 1024;  // the transforming backend's chunks, on every backend
  auto reader = std::make_shared<testing::FaultyReader>();
  auto source = WeightSource::open(path, reader);
  const uint64_t faultAt = source->find("b")->byteOffset + 700 * 1024;  // b's third chunk
  reader->arm(testing::FaultyReader::Fault::Eio, faultAt, faultAt + 1);
  EXPECT_THROW(model.graph.loadConstants(*source, options), Error);
  std::vector<std::string> pending;
  for (const auto& constant : model.graph.pendingConstants()) pending.push_back(constant.label());
  EXPECT_EQ(pending, std::vector<std::string>{"b"});
  testing::expectError([&] { model.run(0.0f); }, Error::Kind::InvalidStateError, {"'b'"});
  EXPECT_EQ(testing::transformingStats().graphCompletions.load(), 0u);

  reader->disarm();
  model.graph.loadConstants(*source, options);
  EXPECT_EQ(model.run(0.0f), expectedSum(12, 13, 0.0f));
  if (transforming()) {
    EXPECT_EQ(testing::transformingStats().graphCompletions.load(), 1u);
  }
  EXPECT_EQ(model.context.memoryStats().stagingBytes, 0u) << "staging outlived the load";
}

TEST_P(Staging, RefillWithAnotherWeightSetIsDecodedBeforeTheNextDispatch) {
  const std::string first = writeWeights(dir, "first.safetensors", 14, 15);
  const std::string second = writeWeights(dir, "second.safetensors", 16, 17);
  Model model(backendName());
  model.graph.loadConstants(*WeightSource::open(first));
  EXPECT_EQ(model.run(1.0f), expectedSum(14, 15, 1.0f));
  LoadOptions reload;
  reload.reload = true;
  model.graph.loadConstants(*WeightSource::open(second), reload);
  EXPECT_EQ(model.run(1.0f), expectedSum(16, 17, 1.0f));
  const auto& stats = testing::transformingStats();
  if (transforming()) {
    EXPECT_EQ(stats.completions.load(), 6u);
    EXPECT_EQ(stats.graphCompletions.load(), 2u);
  }

  // A re-fill through writeConstantData: the first chunk makes the constant pending again.
  const auto a = bytesOf(valuesFor(18, size_t{kRows} * kColumns));
  model.graph.writeConstantData(model.a, 0, std::span(a).subspan(0, 4096));
  testing::expectError([&] { model.run(1.0f); }, Error::Kind::InvalidStateError, {"'a'"});
  model.graph.writeConstantData(model.a, 4096, std::span(a).subspan(4096));
  EXPECT_EQ(model.run(1.0f), expectedSum(18, 17, 1.0f));
  if (transforming()) {
    EXPECT_EQ(stats.graphCompletions.load(), 3u);
  }
}

// A backend that is the reference backend without int64/uint64, anywhere.
class NoInt64Backend final : public backend::Backend {
 public:
  std::string_view name() const override { return "no-int64"; }
  MLOpSupportLimits opSupportLimits() const override {
    MLOpSupportLimits limits = reference_->opSupportLimits();
    auto drop = [](MLTensorLimits& limit) {
      std::erase_if(limit.dataTypes,
                    [](Type type) { return type == Type::Int64 || type == Type::Uint64; });
    };
    drop(limits.input);
    drop(limits.constant);
    drop(limits.output);
    for (auto& [op, operands] : limits.ops) {
      for (auto& [name, limit] : operands) drop(limit);
    }
    limits.ops.erase("gatherND");  // and without one op
    return limits;
  }
  std::unique_ptr<backend::CompiledGraph> compile(
      std::shared_ptr<const graph::GraphIR> ir,
      std::shared_ptr<backend::MemoryAccount> memory) override {
    return reference_->compile(std::move(ir), std::move(memory));
  }
  std::unique_ptr<backend::BackendTensor> createTensor(
      const MLTensorDescriptor& descriptor,
      std::shared_ptr<backend::MemoryAccount> memory) override {
    return reference_->createTensor(descriptor, std::move(memory));
  }

 private:
  std::unique_ptr<backend::Backend> reference_ = reference::createReferenceBackend();
};

TEST(BackendLimits, BuilderCallsCheckTheContextsBackend) {
  static const bool registered = [] {
    backend::registerBackend("no-int64", -20, [] { return std::make_unique<NoInt64Backend>(); });
    return true;
  }();
  (void)registered;
  MLContext context = createContext({.backend = "no-int64"});
  MLGraphBuilder builder(context);
  // At the builder call, as the spec says: an int64 input, constant or op operand is a TypeError.
  testing::expectError(
      [&] {
        builder.input("x", {Type::Int64, {2}});
      },
      Error::Kind::TypeError, {"int64", "no-int64 backend"});
  testing::expectError([&] { builder.constant(Type::Int64, int64_t{1}); }, Error::Kind::TypeError,
                       {"int64"});
  auto i32 = builder.input("i", {Type::Int32, {2}});
  testing::expectError([&] { builder.cast(i32, Type::Int64); }, Error::Kind::TypeError,
                       {"cast", "int64"});
  auto f = builder.input("f", {Type::Float32, {2}});
  testing::expectError([&] { builder.gatherND(f, i32); }, Error::Kind::NotSupportedError,
                       {"gatherND", "not supported by the no-int64 backend"});
  // What the backend supports still builds and runs.
  MLGraph graph = builder.build({{"y", builder.add(f, f)}});
  EXPECT_EQ(testing::runFloat(context, graph, {{"f", {1, 2}}}, "y"), (std::vector<float>{2, 4}));
  // And opSupportLimits says the same.
  const auto limits = context.opSupportLimits();
  EXPECT_FALSE(limits.input.supports(Type::Int64));
  EXPECT_FALSE(limits.ops.contains("gatherND"));
}

}  // namespace
}  // namespace webnn
