// The cpu backend packs weights on arrival: a hollow constant that only packing ops read (conv2d
// filters, matmul/gemm B) is scattered chunk by chunk, straight into oneDNN's blocked layout, with
// no plain copy beside it (memoryStats' constants are the packed bytes), through bounded staging;
// chunks in any order, from several threads, unaligned; loads that fail in the middle and retry;
// re-fills with another weight set. Results equal the reference backend's.
#include "webnn/config.h"
#ifdef WEBNN_HAVE_CPU

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "api/graph_state.h"
#include "backends/cpu/blocked_layout.h"
#include "backends/cpu/cpu_backend.h"
#include "test_helpers.h"
#include "webnn/webnn.h"
#include "webnn/weight_source.h"
#include "weights/weight_generators.h"

namespace webnn {
namespace {

using Type = MLOperandDataType;
using testing::TempDir;

// conv2d: x [2, 12, 12, 24] nhwc, filter [40, 3, 3, 24] ohwi (40 output channels: the blocked
// layout pads them). matmul: the flattened conv output [2, 4000] x w [4000, 72] (72 columns: padded
// too). gemm: [2, 72] x g^T with g [50, 72]. s [50, 50]: read by a matmul and by a relu (another
// layout: a plain slot). conv2d nchw: x2 [1, 3, 9, 9], filter f2 [16, 3, 3, 3] oihw.
struct Weights {
  std::vector<float> filter, w, g, s, f2;
};

std::vector<float> valuesFor(uint32_t seed, size_t count) {
  std::vector<float> values(count);
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> uniform(-0.5f, 0.5f);
  for (auto& value : values) value = uniform(random);
  return values;
}

Weights weightsFor(uint32_t seed) {
  return {valuesFor(seed, 40 * 3 * 3 * 24), valuesFor(seed + 1, 4000 * 72),
          valuesFor(seed + 2, 50 * 72), valuesFor(seed + 3, 50 * 50),
          valuesFor(seed + 4, 16 * 3 * 3 * 3)};
}

testing::Bytes bytesOf(const std::vector<float>& values) {
  testing::Bytes bytes(values.size() * sizeof(float));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

std::string writeWeights(const TempDir& dir, const std::string& name, const Weights& weights) {
  const std::string path = dir.file(name);
  testing::writeFile(path, testing::makeSafetensors({
                               {"filter", "F32", {40, 3, 3, 24}, bytesOf(weights.filter)},
                               {"w", "F32", {4000, 72}, bytesOf(weights.w)},
                               {"g", "F32", {50, 72}, bytesOf(weights.g)},
                               {"s", "F32", {50, 50}, bytesOf(weights.s)},
                               {"f2", "F32", {16, 3, 3, 3}, bytesOf(weights.f2)},
                           }));
  return path;
}

struct Model {
  MLContext context;
  MLOperand filter, w, g, s, f2;
  MLGraph graph;

  explicit Model(const std::string& backend) : context(createContext({.backend = backend})) {
    MLGraphBuilder builder(context);
    auto x = builder.input("x", {Type::Float32, {2, 12, 12, 24}});
    auto x2 = builder.input("x2", {Type::Float32, {1, 3, 9, 9}});
    filter = builder.constant({Type::Float32, {40, 3, 3, 24}}, {.label = "filter"});
    w = builder.constant({Type::Float32, {4000, 72}}, {.label = "w"});
    g = builder.constant({Type::Float32, {50, 72}}, {.label = "g"});
    s = builder.constant({Type::Float32, {50, 50}}, {.label = "s"});
    f2 = builder.constant({Type::Float32, {16, 3, 3, 3}}, {.label = "f2"});
    auto convolved = builder.conv2d(x, filter,
                                    {.inputLayout = MLInputOperandLayout::Nhwc,
                                     .filterLayout = MLConv2dFilterOperandLayout::Ohwi});
    auto rows = builder.reshape(builder.relu(convolved), {2, 4000});
    auto projected = builder.matmul(rows, w);                       // [2, 72]
    auto mixed = builder.gemm(projected, g, {.bTranspose = true});  // [2, 50]
    auto y = builder.matmul(mixed, s);                              // [2, 50]
    graph = builder.build({{"y", y}, {"s2", builder.relu(s)}, {"c2", builder.conv2d(x2, f2)}});
  }

  std::map<std::string, std::vector<float>> run() {
    const std::vector<float> x = valuesFor(99, 2 * 12 * 12 * 24);
    const std::vector<float> x2 = valuesFor(98, 3 * 9 * 9);
    std::map<std::string, std::vector<float>> outputs;
    for (const char* name : {"y", "s2", "c2"}) {
      outputs[name] = testing::runFloat(context, graph, {{"x", x}, {"x2", x2}}, name);
    }
    return outputs;
  }

  void setAll(const Weights& weights) {
    graph.setConstantData(filter, testing::bytesOf(weights.filter));
    graph.setConstantData(w, testing::bytesOf(weights.w));
    graph.setConstantData(g, testing::bytesOf(weights.g));
    graph.setConstantData(s, testing::bytesOf(weights.s));
    graph.setConstantData(f2, testing::bytesOf(weights.f2));
  }
};

std::map<std::string, std::vector<float>> referenceOutputs(const Weights& weights) {
  Model reference("reference");
  reference.setAll(weights);
  return reference.run();
}

void expectClose(const std::map<std::string, std::vector<float>>& actual,
                 const std::map<std::string, std::vector<float>>& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (const auto& [name, values] : expected) {
    const auto& got = actual.at(name);
    ASSERT_EQ(got.size(), values.size()) << name;
    double scale = 1.0;
    for (float value : values) scale = std::max(scale, double{std::fabs(value)});
    size_t bad = 0;
    for (size_t i = 0; i < values.size(); ++i) {
      if (!(std::fabs(double{got[i]} - double{values[i]}) <= 1e-4 * scale)) ++bad;
    }
    EXPECT_EQ(bad, 0u) << "output " << name << ": " << bad << " of " << values.size()
                       << " elements differ from the reference";
  }
}

// The bytes each hollow constant keeps (the packed buffer when packed on arrival), from the cpu
// backend's description; and whether `label` is packed on arrival.
struct Layouts {
  std::vector<std::string> lines;
  bool packed(const std::string& label) const {
    return std::any_of(lines.begin(), lines.end(), [&](const std::string& line) {
      return line.find(" " + label + ": packed on arrival") != std::string::npos;
    });
  }
  uint64_t packedBytes() const {
    uint64_t total = 0;
    for (const auto& line : lines) {
      const size_t at = line.find("packed on arrival (");
      if (at != std::string::npos) total += std::stoull(line.substr(at + 19));
    }
    return total;
  }
};

Layouts layoutsOf(const Model& model) {
  return {cpu::constantLayouts(*model.graph.state()->compiled)};
}

uint64_t plainBytesOf(const Model& model, const Layouts& layouts) {
  uint64_t total = 0;
  for (const MLOperand& constant : model.graph.hollowConstants()) {
    if (!layouts.packed(constant.label())) total += constant.descriptor().byteLength();
  }
  return total;
}

class CpuPacking : public ::testing::Test {
 protected:
  TempDir dir;
};

TEST_F(CpuPacking, WeightsLoadedChunkByChunkArePackedOnArrivalWithoutAPlainCopy) {
  const Weights weights = weightsFor(1);
  const std::string path = writeWeights(dir, "w.safetensors", weights);
  Model model("cpu");
  const Layouts layouts = layoutsOf(model);
  // Only packing ops read these: no plain slot.
  EXPECT_TRUE(layouts.packed("filter")) << ::testing::PrintToString(layouts.lines);
  EXPECT_TRUE(layouts.packed("w"));
  EXPECT_TRUE(layouts.packed("g"));
  // s is also read plainly (relu): a plain slot.
  EXPECT_FALSE(layouts.packed("s"));
  const backend::StagingHints hints = model.graph.state()->compiled->stagingHints();
  EXPECT_FALSE(hints.direct);
  EXPECT_LE(hints.chunkBytes, 16ull << 20);
  ASSERT_GT(hints.maxChunksInFlight, 0u);

  LoadOptions options;
  options.chunkBytes = 64 * 1024;  // w takes 18 chunks
  options.threads = 4;
  model.graph.loadConstants(*WeightSource::open(path), options);
  EXPECT_TRUE(model.graph.pendingConstants().empty());
  expectClose(model.run(), referenceOutputs(weights));

  const MLMemoryStats memory = model.context.memoryStats();
  const uint64_t chunk = testing::loaderChunkBytes(model.graph, options.chunkBytes);
  EXPECT_EQ(chunk, 64u * 1024);
  EXPECT_GT(memory.stagingBytesPeak, 0u);
  EXPECT_LE(memory.stagingBytesPeak, chunk * hints.maxChunksInFlight);
  EXPECT_EQ(memory.stagingBytes, 0u) << "staging outlived the load";
  // The packed buffers, the plain slots (s, and f2 unless oneDNN packs it) and the reordered copy
  // of s that its matmul reads: nothing else. Without packing on arrival, filter, w and g would
  // also keep their plain bytes.
  const uint64_t packed = layouts.packedBytes();
  EXPECT_GE(packed, (40u * 3 * 3 * 24 + 4000u * 72 + 50u * 72) * 4);
  const uint64_t plain = plainBytesOf(model, layouts);
  EXPECT_GE(memory.constantBytes, packed + plain);
  EXPECT_LE(memory.constantBytes, packed + plain + 2 * 64 * 64 * 4)  // s's reordered copy, padded
      << "a plain copy of a packed constant is kept";
}

TEST_F(CpuPacking, UnalignedWritesInRandomOrderFromSeveralThreads) {
  const Weights weights = weightsFor(2);
  Model model("cpu");
  struct Piece {
    const MLOperand* constant;
    const std::vector<float>* values;
    uint64_t offset, size;  // bytes
  };
  std::vector<Piece> pieces;
  std::mt19937 random(5);
  auto cut = [&](const MLOperand& constant, const std::vector<float>& values) {
    const uint64_t length = values.size() * sizeof(float);
    for (uint64_t offset = 0; offset < length;) {
      // 1 to 700 elements: boundaries fall inside blocks and rows.
      const uint64_t size = std::min<uint64_t>(length - offset, 4 * (1 + random() % 700));
      pieces.push_back({&constant, &values, offset, size});
      offset += size;
    }
  };
  cut(model.filter, weights.filter);
  cut(model.w, weights.w);
  cut(model.g, weights.g);
  cut(model.s, weights.s);
  cut(model.f2, weights.f2);
  std::shuffle(pieces.begin(), pieces.end(), random);
  std::atomic<size_t> next{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (size_t i = next++; i < pieces.size(); i = next++) {
        const Piece& piece = pieces[i];
        const auto bytes = std::as_bytes(std::span(*piece.values));
        model.graph.writeConstantData(*piece.constant, piece.offset,
                                      bytes.subspan(piece.offset, piece.size));
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_TRUE(model.graph.pendingConstants().empty());
  expectClose(model.run(), referenceOutputs(weights));
  EXPECT_EQ(model.context.memoryStats().stagingBytesPeak, 0u)
      << "writeConstantData scatters from the caller's bytes";
}

TEST_F(CpuPacking, LoadFailingInTheMiddleThenRetriedAndRefilledWithAnotherWeightSet) {
  const Weights first = weightsFor(3), second = weightsFor(4);
  const std::string firstPath = writeWeights(dir, "first.safetensors", first);
  const std::string secondPath = writeWeights(dir, "second.safetensors", second);
  Model model("cpu");
  auto reader = std::make_shared<testing::FaultyReader>();
  auto source = WeightSource::open(firstPath, reader);
  const uint64_t faultAt = source->find("w")->byteOffset + 300 * 1024;  // w's fifth chunk
  reader->arm(testing::FaultyReader::Fault::Eio, faultAt, faultAt + 1);
  LoadOptions options;
  options.chunkBytes = 64 * 1024;
  options.threads = 3;
  EXPECT_THROW(model.graph.loadConstants(*source, options), Error);
  std::vector<std::string> pending;
  for (const auto& constant : model.graph.pendingConstants()) pending.push_back(constant.label());
  EXPECT_EQ(pending, std::vector<std::string>{"w"});
  testing::expectError([&] { model.run(); }, Error::Kind::InvalidStateError, {"'w'"});

  reader->disarm();
  model.graph.loadConstants(*source, options);
  expectClose(model.run(), referenceOutputs(first));

  // Another weight set for the same graph: every packed buffer is overwritten in place.
  LoadOptions reload = options;
  reload.reload = true;
  model.graph.loadConstants(*WeightSource::open(secondPath), reload);
  const auto secondReference = referenceOutputs(second);
  expectClose(model.run(), secondReference);

  // A re-fill through writeConstantData: pending (no dispatch sees a half-written packed weight)
  // until every byte is in again.
  const Weights third = weightsFor(5);
  const auto w = std::as_bytes(std::span(third.w));
  model.graph.writeConstantData(model.w, 0, w.subspan(0, 4 * 1001));
  testing::expectError([&] { model.run(); }, Error::Kind::InvalidStateError, {"'w'"});
  model.graph.writeConstantData(model.w, 4 * 1001, w.subspan(4 * 1001));
  Weights mixed = second;
  mixed.w = third.w;
  expectClose(model.run(), referenceOutputs(mixed));
  const MLMemoryStats memory = model.context.memoryStats();
  EXPECT_EQ(memory.stagingBytes, 0u);
  EXPECT_LE(memory.stagingBytesPeak, options.chunkBytes * 4);
}

// The process's resident bytes (/proc/self/statm).
uint64_t residentBytes() {
  std::ifstream statm("/proc/self/statm");
  uint64_t size = 0, resident = 0;
  statm >> size >> resident;
  return resident * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

// A fill writes every byte of a constant's storage, so its first chunk commits the whole buffer in
// one call (MADV_POPULATE_WRITE) instead of a page fault per 4 KiB as the scatter goes: the MLP's
// 512 MiB loaded in 557 ms instead of 1,000 on a VM. Both kinds of storage: a packed buffer and
// a plain slot.
TEST_F(CpuPacking, TheFirstChunkOfAFillCommitsTheConstantsWholeStorage) {
  constexpr uint64_t kRows = 2048, kColumns = 4096;  // 32 MiB each
  MLContext context = createContext({.backend = "cpu"});
  MLGraphBuilder builder(context);
  auto x = builder.input("x", {Type::Float32, {1, kRows}});
  auto w = builder.constant({Type::Float32, {kRows, kColumns}}, {.label = "w"});
  auto p = builder.constant({Type::Float32, {kRows, kColumns}}, {.label = "p"});
  auto z = builder.input("z", {Type::Float32, {kRows, kColumns}});
  MLGraph graph = builder.build({{"y", builder.matmul(x, w)}, {"q", builder.add(z, p)}});
  const Layouts layouts{cpu::constantLayouts(*graph.state()->compiled)};
  ASSERT_TRUE(layouts.packed("w")) << ::testing::PrintToString(layouts.lines);
  ASSERT_FALSE(layouts.packed("p"));

  const std::vector<std::byte> chunk(4096, std::byte{1});
  constexpr uint64_t kBytes = kRows * kColumns * sizeof(float);
  for (const MLOperand* constant : {&w, &p}) {
    const uint64_t before = residentBytes();
    graph.writeConstantData(*constant, 0, chunk);
    const uint64_t grown = residentBytes() - before;
    EXPECT_GE(grown, kBytes - kBytes / 16)
        << constant->label() << ": " << grown << " bytes committed by its first chunk";
  }
}

TEST_F(CpuPacking, ClassicConstantsArePackedAtBuildAndCountedOnce) {
  const Weights weights = weightsFor(6);
  MLContext context = createContext({.backend = "cpu"});
  MLGraphBuilder builder(context);
  auto x = builder.input("x", {Type::Float32, {2, 4000}});
  auto w = builder.constant({Type::Float32, {4000, 72}}, testing::bytesOf(weights.w));
  MLGraph graph = builder.build({{"y", builder.matmul(x, w)}});
  EXPECT_TRUE(cpu::constantLayouts(*graph.state()->compiled).empty());  // nothing hollow
  const MLMemoryStats memory = context.memoryStats();
  // The graph's plain bytes and one packed copy (padded to blocks), no more.
  EXPECT_GE(memory.constantBytes, 2 * 4000u * 72 * 4);
  EXPECT_LE(memory.constantBytes, 4000u * 72 * 4 + 4000u * 128 * 4);
  EXPECT_EQ(memory.stagingBytesPeak, 0u);

  const std::vector<float> input = valuesFor(7, 2 * 4000);
  auto y = testing::runFloat(context, graph, {{"x", input}}, "y");
  ASSERT_EQ(y.size(), 2u * 72);
  for (size_t column = 0; column < 72; ++column) {
    double sum = 0;
    for (size_t k = 0; k < 4000; ++k) sum += double{input[k]} * weights.w[k * 72 + column];
    EXPECT_NEAR(y[column], sum, 1e-3) << column;
  }
}

// The scatter against oneDNN's own reorder, byte for byte (padding included: it stays zero), for
// blocked layouts with one or several blocks per dim, grouped and transposed sources, in chunks of
// odd sizes in random order.
TEST(BlockedScatter, MatchesOneDnnReorderForBlockedLayouts) {
  using dnnl::memory;
  using Tag = memory::format_tag;
  const dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  struct Case {
    memory::dims dims;
    memory::dims plainStrides;  // the source layout (a dense permutation)
    Tag packed;
  };
  const std::vector<Case> cases = {
      {{100, 72}, {72, 1}, Tag::BA16a64b},                        // matmul B, padded both ways
      {{72, 100}, {1, 72}, Tag::BA16a64b},                        // a transposed gemm B
      {{40, 24, 3, 3}, {216, 1, 72, 24}, Tag::Acdb48a},           // ohwi filter, o blocked
      {{20, 10, 3, 3}, {90, 9, 3, 1}, Tag::OIhw4i16o4i},          // oihw, two blocks on i
      {{4, 12, 12, 3, 3}, {1296, 108, 9, 3, 1}, Tag::gOIhw4i4o},  // grouped
      {{32, 1, 1, 3, 3}, {9, 9, 9, 3, 1}, Tag::Goihw16g},         // depthwise
      {{3, 5, 7}, {35, 7, 1}, Tag::aBC16b16c},                    // batched, two dims blocked
      {{1}, {1}, Tag::a},                                         // one element
  };
  std::mt19937 random(3);
  for (const Case& c : cases) {
    const memory::desc plain(c.dims, memory::data_type::f32, c.plainStrides);
    const memory::desc packed(c.dims, memory::data_type::f32, c.packed);
    auto scatter = cpu::BlockedScatter::create(plain, packed);
    ASSERT_TRUE(scatter) << "case " << &c - cases.data();
    const uint64_t count = scatter->elementCount();
    std::vector<float> values(count);
    for (float& value : values) value = static_cast<float>(random() % 1000) + 0.5f;

    std::vector<std::byte> expected(packed.get_size(), std::byte{0});
    {
      memory source(plain, engine, values.data()), destination(packed, engine, expected.data());
      dnnl::stream stream(engine);
      dnnl::reorder(source, destination).execute(stream, source, destination);
      stream.wait();
    }
    std::vector<std::byte> actual(packed.get_size(), std::byte{0});
    std::vector<std::pair<uint64_t, uint64_t>> pieces;  // elements [first, first + n)
    for (uint64_t first = 0; first < count;) {
      const uint64_t n = std::min<uint64_t>(count - first, 1 + random() % 500);
      pieces.emplace_back(first, n);
      first += n;
    }
    std::shuffle(pieces.begin(), pieces.end(), random);
    for (const auto& piece : pieces) {
      scatter->scatter(reinterpret_cast<const std::byte*>(values.data() + piece.first), piece.first,
                       piece.second, actual.data(), 2);
    }
    EXPECT_EQ(actual, expected) << "case " << &c - cases.data();
    // One whole-tensor scatter (rows tiled, several threads) gives the same bytes.
    std::vector<std::byte> whole(packed.get_size(), std::byte{0});
    scatter->scatter(reinterpret_cast<const std::byte*>(values.data()), 0, count, whole.data(), 4);
    EXPECT_EQ(whole, expected) << "case " << &c - cases.data();
  }
}

// int8 weights whose packed layout carries oneDNN's compensation (a runtime source zero point:
// asymmetric uint8 activations; an int8 source): the scatter places the weights, then
// writeCompensation() computes the int32 values after them from the packed weights. Against
// oneDNN's own reorder from the plain weights, byte for byte (weights, padding and compensation),
// for the layouts oneDNN's int8 convolutions (groups 1, grouped, depthwise) and matmul choose on
// this CPU; chunks in random order and sizes; then a re-fill with other values.
TEST(BlockedScatter, Int8CompensationMatchesOneDnnReorder) {
  using dnnl::memory;
  using Tag = memory::format_tag;
  using DataType = memory::data_type;
  const dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  struct Case {
    std::string label;
    dnnl::memory::desc plain;
    dnnl::memory::desc packed;  // the primitive's weights_desc()
  };
  std::vector<Case> cases;
  const auto attributesFor = [](bool zeroPoint, memory::dim channels, int ndims) {
    dnnl::primitive_attr attributes;
    dnnl::post_ops postOps;
    memory::dims perChannel(static_cast<size_t>(ndims), 1);
    perChannel[1] = channels;
    postOps.append_binary(dnnl::algorithm::binary_mul,
                          memory::desc(perChannel, DataType::f32, memory::format_tag::any));
    attributes.set_post_ops(postOps);
    if (zeroPoint) attributes.set_zero_points(DNNL_ARG_SRC, 0, {DNNL_RUNTIME_S32_VAL});
    return attributes;
  };
  struct Conv {
    std::string label;
    memory::dim groups, inputChannels, outputChannels, size, kernel;
  };
  const std::vector<Conv> convs = {
      {"conv 32->48 3x3", 1, 32, 48, 14, 3},   {"conv 20->40 3x3", 1, 20, 40, 9, 3},
      {"conv 24->36 1x1", 1, 24, 36, 8, 1},    {"conv 64->24 1x1", 1, 64, 24, 10, 1},
      {"grouped 2x(8->12)", 2, 16, 24, 10, 3}, {"grouped 4x(6->10)", 4, 24, 40, 9, 3},
      {"depthwise 24", 24, 24, 24, 10, 3},     {"depthwise 20 5x5", 20, 20, 20, 9, 5},
  };
  for (const DataType source : {DataType::u8, DataType::s8}) {
    for (const bool zeroPoint : {true, false}) {
      const std::string how = std::string(source == DataType::u8 ? "u8" : "s8") +
                              (zeroPoint ? " source, zero point" : " source");
      for (const Conv& c : convs) {
        const memory::dims weightsDims =
            c.groups == 1 ? memory::dims{c.outputChannels, c.inputChannels, c.kernel, c.kernel}
                          : memory::dims{c.groups, c.outputChannels / c.groups,
                                         c.inputChannels / c.groups, c.kernel, c.kernel};
        const memory::desc plain(weightsDims, DataType::s8, c.groups == 1 ? Tag::oihw : Tag::goihw);
        const memory::desc src({1, c.inputChannels, c.size, c.size}, source, Tag::any);
        const memory::desc weights(weightsDims, DataType::s8, Tag::any);
        const memory::desc dst({1, c.outputChannels, c.size, c.size}, DataType::f32, Tag::any);
        const memory::dim pad = c.kernel / 2;
        const dnnl::convolution_forward::desc descriptor(
            dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct, src, weights,
            dst, {1, 1}, {pad, pad}, {pad, pad});
        const dnnl::convolution_forward::primitive_desc primitive(
            descriptor, attributesFor(zeroPoint, c.outputChannels, 4), engine);
        cases.push_back({c.label + ", " + how + " (" + primitive.impl_info_str() + ")", plain,
                         primitive.weights_desc()});
      }
      for (const auto& [depth, columns] : std::vector<std::pair<memory::dim, memory::dim>>{
               {100, 72}, {64, 256}, {37, 20}, {1024, 1000}}) {
        const memory::desc plain({depth, columns}, DataType::s8, Tag::ab);
        const memory::desc a({5, depth}, source, Tag::ab);
        const memory::desc b({depth, columns}, DataType::s8, Tag::any);
        const memory::desc c({5, columns}, DataType::f32, Tag::ab);
        const dnnl::matmul::primitive_desc primitive(dnnl::matmul::desc(a, b, c),
                                                     attributesFor(zeroPoint, columns, 2), engine);
        cases.push_back({"matmul " + std::to_string(depth) + "x" + std::to_string(columns) + ", " +
                             how + " (" + primitive.impl_info_str() + ")",
                         plain, primitive.weights_desc()});
      }
    }
  }

  std::mt19937 random(11);
  size_t compensated = 0;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.label);
    const dnnl_memory_desc_t& q = c.packed.data;
    auto scatter = cpu::BlockedScatter::create(c.plain, c.packed);
    const bool scaled =
        (q.extra.flags & dnnl_memory_extra_flag_scale_adjust) != 0 && q.extra.scale_adjust != 1.0f;
    if (scaled) {  // the weights themselves scaled: not packed on arrival
      EXPECT_FALSE(scatter);
      continue;
    }
    ASSERT_TRUE(scatter);
    const uint64_t compensation = dnnl_memory_extra_flag_compensation_conv_s8s8 |
                                  dnnl_memory_extra_flag_compensation_conv_asymmetric_src;
    EXPECT_EQ(scatter->hasCompensation(), (q.extra.flags & compensation) != 0);
    if (scatter->hasCompensation()) ++compensated;
    const uint64_t count = scatter->elementCount();
    // A re-fill overwrites the same buffer (its compensation from the first fill still there).
    std::vector<std::byte> actual(c.packed.get_size(), std::byte{0});
    for (int fill = 0; fill < 2; ++fill) {
      std::vector<int8_t> values(count);
      for (int8_t& value : values)
        value = static_cast<int8_t>(static_cast<int>(random() % 256) - 128);
      if (fill == 0 && count > 2) values[0] = values[1] = -128;  // the extremes
      std::vector<std::byte> expected(c.packed.get_size(), std::byte{0});
      {
        memory source(c.plain, engine, values.data());
        memory destination(c.packed, engine, expected.data());
        dnnl::stream stream(engine);
        dnnl::reorder(source, destination).execute(stream, source, destination);
        stream.wait();
      }
      std::vector<std::pair<uint64_t, uint64_t>> pieces;
      for (uint64_t first = 0; first < count;) {
        const uint64_t n = std::min<uint64_t>(count - first, 1 + random() % 700);
        pieces.emplace_back(first, n);
        first += n;
      }
      std::shuffle(pieces.begin(), pieces.end(), random);
      for (const auto& piece : pieces) {
        scatter->scatter(reinterpret_cast<const std::byte*>(values.data() + piece.first),
                         piece.first, piece.second, actual.data(), 2);
      }
      scatter->writeCompensation(actual.data(), 1 + fill * 3);  // one thread, then a team
      ASSERT_EQ(actual.size(), expected.size());
      EXPECT_TRUE(actual == expected) << "fill " << fill;
    }
  }
  // This CPU's int8 primitives asked for compensation somewhere (a source zero point at least).
  EXPECT_GT(compensated, 0u);
}

}  // namespace
}  // namespace webnn

#endif  // WEBNN_HAVE_CPU
