// MLGraph::loadConstants: weightless graphs filled from safetensors, GGUF and WebNN weights files
// (written at test time by tests/weights' generators), checked by a dispatch against values
// computed here. Also: name mapping, mismatches that load nothing, missing and unsupported
// tensors, injected read faults and retry, reload, progress, threads, zero-copy mapping, concurrent
// loads and the copy-once memory account.
#include <algorithm>
#include <cstring>
#include <fstream>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "test_helpers.h"
#include "weights/weight_generators.h"

namespace webnn {
namespace {

using testing::Bytes;
using testing::FaultyReader;
using testing::TempDir;
using K = Error::Kind;
using Type = MLOperandDataType;

// ---- weights and the files that hold them ----

constexpr uint32_t kBigRows = 1280, kBigColumns = 4096;  // 20 MiB of float32: 3 chunks of 8 MiB
constexpr size_t kBigCount = size_t{kBigRows} * kBigColumns;
constexpr int32_t kAddI32 = 3;
constexpr int64_t kAddI64 = int64_t{1} << 33;

// float16 bits of `value`, which must be zero or a normal float16 with an exact representation.
uint16_t halfBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  const auto sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  const uint32_t exponent = (bits >> 23) & 0xffu;
  if (exponent == 0) return sign;
  return static_cast<uint16_t>(sign | ((exponent - 112u) << 10) | ((bits & 0x7fffffu) >> 13));
}

template <class T>
Bytes bytesOfValues(const std::vector<T>& values) {
  Bytes bytes(values.size() * sizeof(T));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

// One weight set, different for every seed, with values whose sums are exact.
struct Weights {
  std::vector<float> big;    // float32 [1280, 4096]
  std::vector<float> half;   // float16 [3, 5], kept here as the floats they encode
  std::vector<int32_t> i32;  // int32 [2, 3]
  std::vector<int64_t> i64;  // int64 [4]

  explicit Weights(uint32_t seed) : big(kBigCount), half(15), i32(6), i64(4) {
    for (size_t i = 0; i < kBigCount; ++i) {
      big[i] = static_cast<float>((i * 7 + seed * 131) % 4001) * 0.5f - 1000.0f;
    }
    for (size_t i = 0; i < half.size(); ++i) {
      half[i] = static_cast<float>(static_cast<int>((i + seed) % 15) - 7) * 0.25f;
    }
    for (size_t i = 0; i < i32.size(); ++i) {
      i32[i] = static_cast<int32_t>(i * 1000003 + seed) - 2500000;
    }
    for (size_t i = 0; i < i64.size(); ++i) {
      i64[i] = (static_cast<int64_t>(seed) << 40) + static_cast<int64_t>(i) * 3 - 5;
    }
  }
  Bytes halfBytes() const {
    std::vector<uint16_t> bits;
    for (float value : half) bits.push_back(halfBits(value));
    return bytesOfValues(bits);
  }
};

// One tensor of a file to write.
struct Spec {
  std::string name;
  Type type;
  std::vector<uint32_t> shape;
  Bytes data;
  bool bfloat16 = false;  // written as the format's bfloat16 type (no WebNN equivalent)
};

// The tensors of `w` under the constants' labels, in an order that keeps each one aligned to its
// element size in every format (so that allowMapping can adopt them all).
std::vector<Spec> specsOf(const Weights& w) {
  return {
      {"big", Type::Float32, {kBigRows, kBigColumns}, bytesOfValues(w.big)},
      {"i64", Type::Int64, {4}, bytesOfValues(w.i64)},
      {"i32", Type::Int32, {2, 3}, bytesOfValues(w.i32)},
      {"half", Type::Float16, {3, 5}, w.halfBytes()},
  };
}

Spec& specNamed(std::vector<Spec>& specs, const std::string& name) {
  for (auto& spec : specs) {
    if (spec.name == name) return spec;
  }
  throw std::logic_error("no spec " + name);
}

enum class Format { Safetensors, Gguf, Webnn };

std::string formatName(Format format) {
  switch (format) {
    case Format::Safetensors:
      return "safetensors";
    case Format::Gguf:
      return "gguf";
    case Format::Webnn:
      return "webnn-weights";
  }
  return "";
}

std::string safetensorsType(const Spec& spec) {
  if (spec.bfloat16) return "BF16";
  switch (spec.type) {
    case Type::Float32:
      return "F32";
    case Type::Float16:
      return "F16";
    case Type::Int32:
      return "I32";
    case Type::Int64:
      return "I64";
    default:
      throw std::logic_error("no safetensors type");
  }
}

uint32_t ggmlType(const Spec& spec) {
  if (spec.bfloat16) return testing::kGgmlBF16;
  switch (spec.type) {
    case Type::Float32:
      return testing::kGgmlF32;
    case Type::Float16:
      return testing::kGgmlF16;
    case Type::Int32:
      return testing::kGgmlI32;
    case Type::Int64:
      return testing::kGgmlI64;
    default:
      throw std::logic_error("no GGUF type");
  }
}

std::vector<uint64_t> wide(const std::vector<uint32_t>& shape) {
  return {shape.begin(), shape.end()};
}

// Writes `specs` as a `format` file in `dir`; returns the path to give WeightSource::open.
std::string writeWeights(const TempDir& dir, Format format, const std::string& stem,
                         const std::vector<Spec>& specs) {
  switch (format) {
    case Format::Safetensors: {
      std::vector<testing::SafetensorsTensor> tensors;
      for (const auto& s : specs)
        tensors.push_back({s.name, safetensorsType(s), wide(s.shape), s.data});
      const std::string path = dir.file(stem + ".safetensors");
      testing::writeFile(path, testing::makeSafetensors(tensors));
      return path;
    }
    case Format::Gguf: {
      std::vector<testing::GgufTensor> tensors;
      for (const auto& s : specs) {
        auto dims = wide(s.shape);
        std::reverse(dims.begin(), dims.end());  // GGUF lists the fastest-varying dimension first
        tensors.push_back({s.name, ggmlType(s), dims, s.data});
      }
      const std::string path = dir.file(stem + ".gguf");
      testing::writeFile(path, testing::makeGguf(tensors));
      return path;
    }
    case Format::Webnn: {
      std::vector<testing::WebnnTensor> tensors;
      for (const auto& s : specs) {
        const std::string type = s.bfloat16 ? "bfloat16" : std::string(toString(s.type));
        tensors.push_back({s.name, type, wide(s.shape), s.data});
      }
      return testing::writeWebnnWeights(dir, stem, testing::makeWebnnWeights(tensors));
    }
  }
  return "";
}

// ---- the graph ----

struct Results {
  std::vector<float> big;
  std::vector<float> half;
  std::vector<int32_t> i32;
  std::vector<int64_t> i64;
};

// What the graph computes from `w`, computed here without the library.
Results expected(const Weights& w) {
  Results r;
  for (float value : w.big) r.big.push_back(value + 1.0f);
  r.half = w.half;
  for (int32_t value : w.i32) r.i32.push_back(value + kAddI32);
  for (int64_t value : w.i64) r.i64.push_back(value + kAddI64);
  return r;
}

template <class T>
void expectSame(const std::vector<T>& actual, const std::vector<T>& wanted, const char* what) {
  ASSERT_EQ(actual.size(), wanted.size()) << what;
  for (size_t i = 0; i < actual.size(); ++i) {
    if (actual[i] != wanted[i]) {
      ADD_FAILURE() << what << "[" << i << "] is " << actual[i] << ", expected " << wanted[i];
      return;
    }
  }
}

void expectResults(const Results& actual, const Results& wanted) {
  expectSame(actual.big, wanted.big, "big");
  expectSame(actual.half, wanted.half, "half");
  expectSame(actual.i32, wanted.i32, "i32");
  expectSame(actual.i64, wanted.i64, "i64");
}

// yBig = big + x, yHalf = cast(half, float32), yI32 = i32 + xi, yI64 = i64 + xl: every hollow
// constant reaches an output, every element of each checked.
struct Model {
  MLContext context;
  MLOperand big, half, i32, i64;
  MLGraph graph;

  explicit Model(MLContext c = testing::createTestContext()) : context(std::move(c)) {
    MLGraphBuilder builder(context);
    auto x = builder.input("x", {Type::Float32, {1}});
    auto xi = builder.input("xi", {Type::Int32, {1}});
    auto xl = builder.input("xl", {Type::Int64, {1}});
    big = builder.constant({Type::Float32, {kBigRows, kBigColumns}}, {.label = "big"});
    half = builder.constant({Type::Float16, {3, 5}}, {.label = "half"});
    i32 = builder.constant({Type::Int32, {2, 3}}, {.label = "i32"});
    i64 = builder.constant({Type::Int64, {4}}, {.label = "i64"});
    graph = builder.build({{"yBig", builder.add(big, x)},
                           {"yHalf", builder.cast(half, Type::Float32)},
                           {"yI32", builder.add(i32, xi)},
                           {"yI64", builder.add(i64, xl)}});
  }

  std::vector<std::string> pending() const {
    std::vector<std::string> labels;
    for (const auto& constant : graph.pendingConstants()) labels.push_back(constant.label());
    return labels;
  }

  Results run() {
    const auto inputs = graph.inputDescriptors();
    auto in = [&](const std::string& name, auto value) {
      MLTensor tensor = testing::inputTensor(context, inputs.at(name));
      context.writeTensor(tensor, testing::bytesOf(std::vector<decltype(value)>{value}));
      return tensor;
    };
    MLNamedTensors inputTensors = {
        {"x", in("x", 1.0f)}, {"xi", in("xi", kAddI32)}, {"xl", in("xl", kAddI64)}};
    MLNamedTensors outputs;
    for (const auto& [name, descriptor] : graph.outputDescriptors()) {
      outputs.emplace(name, testing::outputTensor(context, descriptor));
    }
    context.dispatch(graph, inputTensors, outputs);
    return {testing::readAs<float>(context, outputs.at("yBig")),
            testing::readAs<float>(context, outputs.at("yHalf")),
            testing::readAs<int32_t>(context, outputs.at("yI32")),
            testing::readAs<int64_t>(context, outputs.at("yI64"))};
  }
};

const std::vector<std::string> kAllPending = {"big", "half", "i32", "i64"};

// LoadOptions without its callbacks, for designated initializers (g++ -Wextra warns when one
// leaves out LoadOptions' std::function members, which have no default member initializer).
struct Options {
  uint32_t threads = 0;
  bool requireAll = true;
  bool reload = false;
  bool allowMapping = false;
  uint64_t chunkBytes = 8ull << 20;
};
LoadOptions with(const Options& plain) {
  LoadOptions options;
  options.threads = plain.threads;
  options.requireAll = plain.requireAll;
  options.reload = plain.reload;
  options.allowMapping = plain.allowMapping;
  options.chunkBytes = plain.chunkBytes;
  return options;
}

uint64_t totalBytesOf(const std::vector<Spec>& specs) {
  uint64_t total = 0;
  for (const auto& spec : specs) total += spec.data.size();
  return total;
}

// What the backend stores for them: their bytes, but the cpu backend computes float16 in float32
// and keeps float16 constants widened (backends/cpu/widen_float16.h).
uint64_t storedBytesOf(const std::vector<Spec>& specs, const std::string& backend) {
  uint64_t total = totalBytesOf(specs);
  if (backend != "cpu") return total;
  for (const auto& spec : specs) {
    if (spec.type == Type::Float16) total += spec.data.size();
  }
  return total;
}

// ---- every format ----

class LoadConstants : public ::testing::TestWithParam<Format> {
 protected:
  TempDir dir;
  Format format() const { return GetParam(); }
  std::string write(const std::string& stem, const std::vector<Spec>& specs) {
    return writeWeights(dir, format(), stem, specs);
  }
};

TEST_P(LoadConstants, LoadsEveryConstantAndTheGraphComputes) {
  const Weights weights(1);
  const auto specs = specsOf(weights);
  const std::string path = write("model", specs);
  auto source = WeightSource::open(path);
  EXPECT_EQ(source->formatName(), formatName(format()));
  ASSERT_GT(source->find("big")->byteLength, 16u << 20);  // several chunks, several threads

  Model model;
  EXPECT_EQ(model.pending(), kAllPending);
  model.graph.loadConstants(*source, with({.threads = 4}));
  EXPECT_TRUE(model.pending().empty());
  expectResults(model.run(), expected(weights));
}

TEST_P(LoadConstants, NameMappingMapsLabelsToTensorNames) {
  const Weights weights(2);
  auto specs = specsOf(weights);
  for (auto& spec : specs) spec.name = "model.layers.0." + spec.name;
  auto source = WeightSource::open(write("mapped", specs));

  Model model;
  // Without the mapping, nothing matches; the error names every constant.
  testing::expectError([&] { model.graph.loadConstants(*source); }, K::TypeError,
                       {"'big'", "'half'", "'i32'", "'i64'", "pending"});
  EXPECT_EQ(model.pending(), kAllPending);

  std::vector<std::string> asked;
  LoadOptions options;
  options.nameMapping = [&](const std::string& label) {
    asked.push_back(label);
    return "model.layers.0." + label;
  };
  model.graph.loadConstants(*source, options);
  EXPECT_EQ(asked, kAllPending);
  EXPECT_TRUE(model.pending().empty());
  expectResults(model.run(), expected(weights));
}

TEST_P(LoadConstants, DataTypeMismatchNamesBothSidesAndLoadsNothing) {
  const Weights weights(3);
  auto specs = specsOf(weights);
  Spec& half = specNamed(specs, "half");
  half.type = Type::Float32;  // the graph says float16
  half.data = bytesOfValues(weights.half);
  auto reader = std::make_shared<FaultyReader>();
  auto source = WeightSource::open(write("dtype", specs), reader);

  Model model;
  const uint64_t calls = reader->calls;
  testing::expectError([&] { model.graph.loadConstants(*source, with({.allowMapping = true})); },
                       K::TypeError, {"'half'", "float16 [3, 5]", "float32 [3, 5]"});
  EXPECT_EQ(model.pending(), kAllPending);
  EXPECT_EQ(reader->calls, calls);  // not a byte read
}

TEST_P(LoadConstants, ShapeMismatchNamesBothSidesAndLoadsNothing) {
  const Weights weights(4);
  auto specs = specsOf(weights);
  specNamed(specs, "i32").shape = {3, 2};  // the graph says [2, 3]
  auto reader = std::make_shared<FaultyReader>();
  auto source = WeightSource::open(write("shape", specs), reader);

  Model model;
  const uint64_t calls = reader->calls;
  testing::expectError([&] { model.graph.loadConstants(*source, with({.threads = 4})); },
                       K::TypeError, {"'i32'", "int32 [2, 3]", "int32 [3, 2]"});
  EXPECT_EQ(model.pending(), kAllPending);
  EXPECT_EQ(reader->calls, calls);
}

TEST_P(LoadConstants, MissingConstantIsListedAfterTheOthersLoad) {
  const Weights weights(5);
  auto specs = specsOf(weights);
  specs.erase(specs.begin() + 1);  // i64
  const std::string path = write("missing", specs);
  auto source = WeightSource::open(path);
  {
    Model model;
    testing::expectError([&] { model.graph.loadConstants(*source); }, K::TypeError,
                         {"'i64'", "1 constant", "pending", path});
    EXPECT_EQ(model.pending(), std::vector<std::string>{"i64"});
  }
  Model model;
  model.graph.loadConstants(*source, with({.requireAll = false}));  // silently
  EXPECT_EQ(model.pending(), std::vector<std::string>{"i64"});
  model.graph.setConstantData(model.i64, testing::bytesOf(weights.i64));
  expectResults(model.run(), expected(weights));
}

TEST_P(LoadConstants, UnsupportedTensorTypeIsNotSupportedErrorAndLoadsNothing) {
  const Weights weights(6);
  auto specs = specsOf(weights);
  specNamed(specs, "half").bfloat16 = true;  // same size, no WebNN type
  auto source = WeightSource::open(write("bf16", specs));
  const TensorInfo* tensor = source->find("half");
  ASSERT_NE(tensor, nullptr);
  EXPECT_FALSE(tensor->supported);

  Model model;
  testing::expectError([&] { model.graph.loadConstants(*source); }, K::NotSupportedError,
                       {"'half'", tensor->fileDataType});
  EXPECT_EQ(model.pending(), kAllPending);
}

// A read fault (EIO) in the second chunk of the 20 MiB constant, with 4 threads.
TEST_P(LoadConstants, ReadErrorLeavesThatConstantPendingAndRetryFinishes) {
  const Weights weights(7);
  auto reader = std::make_shared<FaultyReader>();
  auto source = WeightSource::open(write("eio", specsOf(weights)), reader);
  const TensorInfo& big = *source->find("big");
  const uint64_t faultAt = big.byteOffset + (9u << 20);
  reader->arm(FaultyReader::Fault::Eio, faultAt, faultAt + 1);

  Model model;
  testing::expectError(
      [&] { model.graph.loadConstants(*source, with({.threads = 4})); }, K::OperationError,
      {source->filePath(), "'big'", "offset " + std::to_string(faultAt), "Input/output error"});
  EXPECT_GT(reader->faults, 0u);
  EXPECT_EQ(model.pending(), std::vector<std::string>{"big"});  // the others loaded

  reader->disarm();
  const uint64_t calls = reader->calls;
  model.graph.loadConstants(*source, with({.threads = 4}));
  // Only big's chunks are read again (three of 8 MiB where the backend takes them whole).
  const uint64_t chunk = testing::loaderChunkBytes(model.graph, 8ull << 20);
  EXPECT_EQ(reader->calls - calls, (kBigCount * 4 + chunk - 1) / chunk);
  EXPECT_TRUE(model.pending().empty());
  expectResults(model.run(), expected(weights));
}

// A pending constant partly covered before (here by writeConstantData, or by a load that failed)
// is read whole; the first chunk completing the coverage must not start a new fill that the later
// chunks leave incomplete.
TEST_P(LoadConstants, PartlyWrittenConstantIsReadWhole) {
  const Weights weights(26);
  auto source = WeightSource::open(write("partly", specsOf(weights)));
  Model model;
  const std::vector<std::byte> zeros(12u << 20);
  model.graph.writeConstantData(model.big, 8u << 20, zeros);  // [8 MiB, 20 MiB): wrong bytes
  model.graph.loadConstants(*source, with({.threads = 1}));
  EXPECT_TRUE(model.pending().empty());
  expectResults(model.run(), expected(weights));
}

// A short read (end of file where the header promised bytes) inside a small constant.
TEST_P(LoadConstants, ShortReadIsAnErrorNamingFileTensorAndOffset) {
  const Weights weights(8);
  auto reader = std::make_shared<FaultyReader>();
  auto source = WeightSource::open(write("short", specsOf(weights)), reader);
  const TensorInfo& i32 = *source->find("i32");
  reader->arm(FaultyReader::Fault::Eof, i32.byteOffset + 8, i32.byteOffset + 9);

  Model model;
  testing::expectError(
      [&] { model.graph.loadConstants(*source, with({.threads = 1})); }, K::OperationError,
      {source->filePath(), "'i32'", "offset " + std::to_string(i32.byteOffset + 8), "end of file"});
  EXPECT_EQ(model.pending(), std::vector<std::string>{"i32"});

  reader->disarm();
  const uint64_t calls = reader->calls;
  model.graph.loadConstants(*source, with({.threads = 1}));
  EXPECT_EQ(reader->calls - calls, 1u);  // only i32 is read again
  EXPECT_TRUE(model.pending().empty());
  expectResults(model.run(), expected(weights));
}

TEST_P(LoadConstants, FaultsInSeveralConstantsListThemAll) {
  const Weights weights(9);
  auto reader = std::make_shared<FaultyReader>();
  auto source = WeightSource::open(write("two", specsOf(weights)), reader);
  const TensorInfo& i64 = *source->find("i64");  // i64 then i32 in every format
  const TensorInfo& i32 = *source->find("i32");
  reader->arm(FaultyReader::Fault::Eio, i64.byteOffset, i32.byteOffset + i32.byteLength);

  Model model;
  testing::expectError([&] { model.graph.loadConstants(*source, with({.threads = 2})); },
                       K::OperationError, {"2 constants", "'i32'", "'i64'"});
  EXPECT_EQ(model.pending(), (std::vector<std::string>{"i32", "i64"}));
  reader->disarm();
  model.graph.loadConstants(*source);
  expectResults(model.run(), expected(weights));
}

// Reads cut short by the reader (not errors) are continued.
TEST_P(LoadConstants, PartialReadsAreContinued) {
  const Weights weights(10);
  auto reader = std::make_shared<FaultyReader>();
  auto source = WeightSource::open(write("partial", specsOf(weights)), reader);
  reader->maxPerCall = 1 << 16;
  Model model;
  model.graph.loadConstants(*source, with({.threads = 3}));
  EXPECT_GT(reader->calls, kBigCount * 4 / (1 << 16));
  expectResults(model.run(), expected(weights));
}

TEST_P(LoadConstants, ReloadRefillsCompleteConstantsFromAnotherFile) {
  const Weights first(11), second(12);
  auto a = WeightSource::open(write("a", specsOf(first)));
  auto b = WeightSource::open(write("b", specsOf(second)));

  Model model;
  model.graph.loadConstants(*a);
  expectResults(model.run(), expected(first));
  model.graph.loadConstants(*b);  // nothing pending: nothing to do
  expectResults(model.run(), expected(first));
  model.graph.loadConstants(*b, with({.reload = true}));
  EXPECT_TRUE(model.pending().empty());
  expectResults(model.run(), expected(second));

  // A reload that does not fit changes nothing.
  auto specs = specsOf(first);
  specNamed(specs, "i64").shape = {2, 2};
  auto bad = WeightSource::open(write("bad", specs));
  testing::expectError([&] { model.graph.loadConstants(*bad, with({.reload = true})); },
                       K::TypeError, {"'i64'", "int64 [4]", "int64 [2, 2]"});
  EXPECT_TRUE(model.pending().empty());
  expectResults(model.run(), expected(second));
}

TEST_P(LoadConstants, ProgressIsMonotoneAndEndsAtTheTotal) {
  const Weights weights(13);
  const auto specs = specsOf(weights);
  auto source = WeightSource::open(write("progress", specs));

  std::mutex mutex;
  std::vector<std::pair<uint64_t, uint64_t>> calls;
  LoadOptions options;
  options.threads = 4;
  options.chunkBytes = 1u << 20;
  options.progress = [&](uint64_t done, uint64_t total) {
    std::lock_guard lock(mutex);
    calls.emplace_back(done, total);
  };
  Model model;
  model.graph.loadConstants(*source, options);
  const uint64_t total = totalBytesOf(specs);
  // big's chunks (20 of 1 MiB where the backend takes them whole), one per small constant.
  const uint64_t chunk = testing::loaderChunkBytes(model.graph, options.chunkBytes);
  ASSERT_EQ(calls.size(), (kBigCount * 4 + chunk - 1) / chunk + 3u);
  for (size_t i = 0; i < calls.size(); ++i) {
    EXPECT_EQ(calls[i].second, total);
    if (i > 0) {
      EXPECT_GT(calls[i].first, calls[i - 1].first);
    }
  }
  EXPECT_EQ(calls.back().first, total);
  expectResults(model.run(), expected(weights));
}

TEST_P(LoadConstants, OneThreadAndFourThreadsGiveTheSameResults) {
  const Weights weights(14);
  auto source = WeightSource::open(write("threads", specsOf(weights)));
  Model one, four;
  one.graph.loadConstants(*source, with({.threads = 1}));
  four.graph.loadConstants(*source, with({.threads = 4, .chunkBytes = 64u << 10}));
  const Results a = one.run();
  const Results b = four.run();
  EXPECT_TRUE(a.big == b.big && a.half == b.half && a.i32 == b.i32 && a.i64 == b.i64);
  expectResults(a, expected(weights));
}

// ---- zero copy ----

// The resident file-backed memory of this process (RssFile + RssShmem, for a tmpfs temp dir), or
// -1 where /proc is unavailable.
int64_t rssFileBytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  int64_t bytes = -1;
  while (std::getline(status, line)) {
    if (line.rfind("RssFile:", 0) == 0 || line.rfind("RssShmem:", 0) == 0) {
      std::istringstream fields(line.substr(line.find(':') + 1));
      int64_t kilobytes = 0;
      fields >> kilobytes;
      bytes = std::max<int64_t>(bytes, 0) + kilobytes * 1024;
    }
  }
  return bytes;
}

TEST_P(LoadConstants, AllowMappingAdoptsTheFilesBytes) {
  const Weights weights(15), second(16);
  const auto specs = specsOf(weights);
  auto reader = std::make_shared<FaultyReader>();
  auto source = WeightSource::open(write("mapped", specs), reader);

  Model model;
  std::vector<std::pair<uint64_t, uint64_t>> progress;
  LoadOptions options;
  options.allowMapping = true;
  options.progress = [&](uint64_t done, uint64_t total) { progress.emplace_back(done, total); };
  const uint64_t calls = reader->calls;
  model.graph.loadConstants(*source, options);
  EXPECT_TRUE(model.pending().empty());
  if (!testing::keepsTheFilesLayout(model.graph)) {
    // A backend that transforms constants cannot adopt a mapping: it reads, and computes the same.
    EXPECT_GT(reader->calls, calls);
    expectResults(model.run(), expected(weights));
    return;
  }
  EXPECT_EQ(reader->calls, calls);  // every constant adopted its mapping: no reads
  ASSERT_FALSE(progress.empty());
  EXPECT_EQ(progress.back(), std::make_pair(totalBytesOf(specs), totalBytesOf(specs)));
  EXPECT_EQ(model.context.memoryStats().stagingBytesPeak, 0u);

  const int64_t before = rssFileBytes();
  expectResults(model.run(), expected(weights));
  const int64_t after = rssFileBytes();
  if (before >= 0 && after >= 0) {
    // The dispatch touched big's 20 MiB through the mapping: file pages, not anonymous memory.
    EXPECT_GE(after - before, int64_t{16} << 20) << "RssFile " << before << " -> " << after;
  }

  // The mapping outlives the source; a reload without mapping goes back to the slots' storage.
  source.reset();
  expectResults(model.run(), expected(weights));
  auto other = WeightSource::open(write("second", specsOf(second)));
  model.graph.loadConstants(*other, with({.reload = true}));
  expectResults(model.run(), expected(second));
}

INSTANTIATE_TEST_SUITE_P(Formats, LoadConstants,
                         ::testing::Values(Format::Safetensors, Format::Gguf, Format::Webnn),
                         [](const auto& info) {
                           switch (info.param) {
                             case Format::Safetensors:
                               return std::string("Safetensors");
                             case Format::Gguf:
                               return std::string("Gguf");
                             case Format::Webnn:
                               return std::string("WebnnWeights");
                           }
                           return std::string();
                         });

// ---- one format is enough ----

TEST(LoadConstantsSafetensors, ConcurrentLoadsIntoTwoGraphs) {
  TempDir dir;
  const Weights first(21), second(22);
  auto a = WeightSource::open(writeWeights(dir, Format::Safetensors, "a", specsOf(first)));
  auto b = WeightSource::open(writeWeights(dir, Format::Safetensors, "b", specsOf(second)));
  MLContext shared = testing::createTestContext();
  Model one(shared), two(shared);  // one context, two graphs
  std::exception_ptr errors[2];
  std::thread t1([&] {
    try {
      one.graph.loadConstants(*a, with({.threads = 2, .chunkBytes = 1u << 20}));
    } catch (...) {
      errors[0] = std::current_exception();
    }
  });
  std::thread t2([&] {
    try {
      two.graph.loadConstants(*b, with({.threads = 2, .chunkBytes = 1u << 20}));
    } catch (...) {
      errors[1] = std::current_exception();
    }
  });
  t1.join();
  t2.join();
  for (auto& error : errors) {
    if (error) std::rethrow_exception(error);
  }
  expectResults(one.run(), expected(first));
  expectResults(two.run(), expected(second));
}

// Reads go straight into the constants' slots (no staging buffer on a backend that keeps the file's
// layout; bounded chunks on one that transforms, gone after the load), and the only constant
// storage is the graph's (each byte copied once, from the file to its final place).
TEST(LoadConstantsSafetensors, EachByteIsCopiedOnce) {
  TempDir dir;
  const Weights weights(23);
  const auto specs = specsOf(weights);
  auto source = WeightSource::open(writeWeights(dir, Format::Safetensors, "once", specs));
  Model model;
  model.graph.loadConstants(*source, with({.threads = 4}));
  const MLMemoryStats stats = model.context.memoryStats();
  if (model.context.backendName() == "reference") {
    EXPECT_EQ(stats.stagingBytesPeak, 0u);
  } else {
    EXPECT_LE(stats.stagingBytesPeak, 64ull << 20);  // a few chunks, never the 20 MiB constant
  }
  EXPECT_EQ(stats.stagingBytes, 0u);
  EXPECT_EQ(stats.constantBytes, storedBytesOf(specs, model.context.backendName()));
  EXPECT_EQ(stats.constantBytesPeak, storedBytesOf(specs, model.context.backendName()));
  expectResults(model.run(), expected(weights));
}

TEST(LoadConstantsSafetensors, ThrowingProgressCallbackCancelsAndRetryFinishes) {
  TempDir dir;
  const Weights weights(24);
  auto source =
      WeightSource::open(writeWeights(dir, Format::Safetensors, "cancel", specsOf(weights)));
  Model model;
  LoadOptions options;
  options.threads = 2;
  options.chunkBytes = 1u << 20;
  options.progress = [](uint64_t, uint64_t) { throw std::runtime_error("cancelled"); };
  EXPECT_THROW(model.graph.loadConstants(*source, options), std::runtime_error);
  EXPECT_FALSE(model.pending().empty());
  model.graph.loadConstants(*source);
  EXPECT_TRUE(model.pending().empty());
  expectResults(model.run(), expected(weights));
}

TEST(LoadConstantsSafetensors, DestroyedGraphIsInvalidState) {
  TempDir dir;
  const Weights weights(25);
  auto source =
      WeightSource::open(writeWeights(dir, Format::Safetensors, "gone", specsOf(weights)));
  Model model;
  model.graph.destroy();
  testing::expectError([&] { model.graph.loadConstants(*source); }, K::InvalidStateError,
                       {"loadConstants", "destroyed"});
  testing::expectError([&] { model.graph.loadConstants(*source, with({.reload = true})); },
                       K::InvalidStateError, {"loadConstants", "destroyed"});
  testing::expectError([&] { MLGraph().loadConstants(*source); }, K::InvalidStateError, {"empty"});
}

}  // namespace
}  // namespace webnn
