// Faults while loading an ONNX model's external data, swept over every chunk: a read error, a
// short read (the file ends early) and a truncation of the data file. The affected weight stays
// pending, a retry completes the graph, and the results equal an uninterrupted load's.
#include <unistd.h>

#include <gtest/gtest.h>
#include <webnn/onnx.h>
#include <webnn/webnn.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>

#include "model_maker.h"
#include "test_helpers.h"

namespace webnn::testing {
namespace {

constexpr uint64_t kChunk = 64 * 1024;
constexpr int64_t kColumns = 1024, kRowsA = 48, kRowsB = 20;

// Fails reads that touch [begin, begin + 1) while armed: with EIO, or as the end of the file.
class ArmedReader : public FileReader {
 public:
  std::atomic<bool> armed{false}, eof{false};
  std::atomic<uint64_t> begin{0};
  ssize_t pread(int fd, void* buffer, size_t count, uint64_t offset) override {
    if (armed && offset <= begin && begin < offset + count) {
      // A short read: the bytes before `begin`, then the end of the file.
      if (eof) return offset == begin ? 0 : FileReader::pread(fd, buffer, begin - offset, offset);
      errno = EIO;
      return -1;
    }
    return FileReader::pread(fd, buffer, count, offset);
  }
};

std::vector<float> floats(size_t count, int seed) {
  std::vector<float> v(count);
  for (size_t i = 0; i < count; ++i)
    v[i] =
        1.0f + static_cast<float>((i * 7919 + static_cast<size_t>(seed) * 104729) % 65521) * 0.125f;
  return v;
}

struct Imported {
  MLContext context = createContext();
  MLGraph graph;
  onnx::ImportedModel model;

  Imported(const std::string& path, std::shared_ptr<FileReader> reader) {
    MLGraphBuilder builder(context);
    onnx::ImportOptions options;
    options.reader = std::move(reader);
    model = onnx::importModel(path, builder, options);
    graph = builder.build(model.outputOperands);
  }
  bool pending(const std::string& label) const {
    const auto list = graph.pendingConstants();
    return std::any_of(list.begin(), list.end(),
                       [&](const MLOperand& c) { return c.label() == label; });
  }
  std::vector<std::vector<float>> run() {
    MLNamedTensors inputs, outputs;
    for (const auto& [name, d] : model.inputs) {
      inputs[name] = context.createTensor({d, false, true});
      context.writeTensor(inputs[name],
                          std::vector<std::byte>(static_cast<size_t>(d.byteLength())));
    }
    for (const auto& [name, d] : model.outputs)
      outputs[name] = context.createTensor({d, true, false});
    context.dispatch(graph, inputs, outputs);
    return {readAs<float>(context, outputs["ya"]), readAs<float>(context, outputs["yb"])};
  }
};

TEST(ExternalDataFaults, EveryChunkSurvivesEachFault) {
  const auto a = floats(kRowsA * kColumns, 1), b = floats(kRowsB * kColumns, 2);
  ModelMaker m;
  m.input("xa", {kRowsA, kColumns});
  m.input("xb", {kRowsB, kColumns});
  const uint64_t aBytes = a.size() * 4, bBytes = b.size() * 4;
  m.externalFloats("a", {kRowsA, kColumns}, "weights.bin", 0, aBytes);
  m.externalFloats("b", {kRowsB, kColumns}, "weights.bin", aBytes, bBytes);
  m.node("Add", {"xa", "a"}, {"ya"});
  m.node("Add", {"xb", "b"}, {"yb"});
  m.output("ya");
  m.output("yb");
  const std::string data = m.folder() + "/weights.bin";
  std::string bytes(reinterpret_cast<const char*>(a.data()), aBytes);
  bytes.append(reinterpret_cast<const char*>(b.data()), bBytes);
  std::ofstream(data, std::ios::binary) << bytes;
  const std::string path = m.save();

  {
    Imported reference(path, nullptr);
    reference.graph.loadConstants(*reference.model.weights);
    ASSERT_EQ(reference.run(), (std::vector<std::vector<float>>{a, b}));
  }
  size_t sweeps = 0;
  for (const auto& [name, offset, length] : {std::tuple{std::string("a"), uint64_t{0}, aBytes},
                                             std::tuple{std::string("b"), aBytes, bBytes}}) {
    for (int fault = 0; fault < 3; ++fault) {
      for (uint64_t chunk = 0; chunk * kChunk < length; ++chunk) {
        SCOPED_TRACE(name + " chunk " + std::to_string(chunk) + " fault " + std::to_string(fault));
        auto reader = std::make_shared<ArmedReader>();
        Imported g(path, reader);
        const uint64_t at = offset + chunk * kChunk;
        if (fault == 2) {
          ASSERT_EQ(::truncate(data.c_str(), static_cast<off_t>(at)), 0);
        } else {
          reader->eof = fault == 1;
          reader->begin = at;
          reader->armed = true;
        }
        LoadOptions options;
        options.chunkBytes = kChunk;
        options.threads = 1 + static_cast<uint32_t>(chunk % 2);
        expectError([&] { g.graph.loadConstants(*g.model.weights, options); },
                    Error::Kind::OperationError, {"'" + name + "'"});
        EXPECT_TRUE(g.pending(name));
        reader->armed = false;
        if (fault == 2) std::ofstream(data, std::ios::binary | std::ios::trunc) << bytes;
        g.graph.loadConstants(*g.model.weights, options);
        EXPECT_TRUE(g.graph.pendingConstants().empty());
        EXPECT_EQ(g.run(), (std::vector<std::vector<float>>{a, b}));
        ++sweeps;
      }
    }
  }
  EXPECT_EQ(sweeps, 3u * (3 + 2));
}

}  // namespace
}  // namespace webnn::testing
