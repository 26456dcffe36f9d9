// Faults while loading, swept over every chunk of a multi-chunk load, for each weights format: a
// read error (EIO), a short read (the file ends early) and a real truncation of the file at the
// chunk. Each time the load fails with OperationError, the constant holding the chunk stays
// pending (never counted as full while half-written), a retry completes the graph, and the results
// equal an uninterrupted load's.
#include <unistd.h>

#include <gtest/gtest.h>
#include <webnn/webnn.h>

#include <algorithm>
#include <cstring>
#include <filesystem>

#include "test_helpers.h"
#include "weights/weight_generators.h"

namespace webnn {
namespace {

using testing::Bytes;
using testing::FaultyReader;
using testing::TempDir;

constexpr uint64_t kChunk = 64 * 1024;  // the smallest chunk loadConstants takes
constexpr uint32_t kColumns = 1024;
constexpr uint32_t kRowsA = 48, kRowsB = 20;  // 192 KiB (3 chunks) and 80 KiB (2 chunks)

enum class Format { Safetensors, Gguf, Webnn };

// Finite, nonzero float32 values (adding zeros in the dispatch keeps their bits), distinct per
// position and seed.
Bytes floatBytes(size_t count, uint32_t seed) {
  Bytes bytes(count * 4);
  for (size_t i = 0; i < count; ++i) {
    const float value = 1.0f + static_cast<float>((i * 7919 + seed * 104729) % 65521) * 0.125f;
    std::memcpy(bytes.data() + i * 4, &value, 4);
  }
  return bytes;
}

struct Fixture {
  Bytes a = floatBytes(size_t{kRowsA} * kColumns, 11);
  Bytes b = floatBytes(size_t{kRowsB} * kColumns, 12);

  // Writes the two tensors in `format`; returns the path to open and sets `dataFile`.
  std::string write(const TempDir& dir, Format format, std::string& dataFile) const {
    switch (format) {
      case Format::Safetensors: {
        dataFile = dir.file("w.safetensors");
        testing::writeFile(dataFile,
                           testing::makeSafetensors({{"a", "F32", {kRowsA, kColumns}, a},
                                                     {"b", "F32", {kRowsB, kColumns}, b}}));
        return dataFile;
      }
      case Format::Gguf: {
        dataFile = dir.file("w.gguf");
        testing::writeFile(dataFile,
                           testing::makeGguf({{"a", testing::kGgmlF32, {kColumns, kRowsA}, a},
                                              {"b", testing::kGgmlF32, {kColumns, kRowsB}, b}}));
        return dataFile;
      }
      case Format::Webnn: {
        dataFile = testing::writeWebnnWeights(
            dir, "w",
            testing::makeWebnnWeights({{"a", "float32", {kRowsA, kColumns}, a},
                                       {"b", "float32", {kRowsB, kColumns}, b}}));
        return dataFile;
      }
    }
    return {};
  }
};

struct Graph {
  MLContext context = createContext();
  MLGraph graph;
  MLOperand a, b;

  Graph() {
    MLGraphBuilder builder(context);
    const MLOperandDescriptor da{MLOperandDataType::Float32, {kRowsA, kColumns}};
    const MLOperandDescriptor db{MLOperandDataType::Float32, {kRowsB, kColumns}};
    a = builder.constant(da, {.label = "a"});
    b = builder.constant(db, {.label = "b"});
    graph = builder.build({{"ya", builder.add(builder.input("xa", da), a)},
                           {"yb", builder.add(builder.input("xb", db), b)}});
  }

  // The constants' bytes, read back through a dispatch that adds zeros.
  std::pair<Bytes, Bytes> contents() {
    MLNamedTensors inputs, outputs;
    for (const auto& [name, d] : graph.inputDescriptors()) {
      inputs[name] = context.createTensor({d, false, true});
      context.writeTensor(inputs[name], Bytes(static_cast<size_t>(d.byteLength())));
    }
    for (const auto& [name, d] : graph.outputDescriptors())
      outputs[name] = context.createTensor({d, true, false});
    context.dispatch(graph, inputs, outputs);
    return {context.readTensor(outputs["ya"]), context.readTensor(outputs["yb"])};
  }

  bool pending(const MLOperand& constant) const {
    const auto list = graph.pendingConstants();
    return std::any_of(list.begin(), list.end(),
                       [&](const MLOperand& p) { return p.label() == constant.label(); });
  }
};

enum class Fault { ReadError, ShortRead, Truncation };

const char* faultName(Fault fault) {
  switch (fault) {
    case Fault::ReadError:
      return "EIO";
    case Fault::ShortRead:
      return "short read";
    case Fault::Truncation:
      return "truncation";
  }
  return "";
}

class FaultSweep : public ::testing::TestWithParam<Format> {};

TEST_P(FaultSweep, EveryChunkOfEveryConstantSurvivesEachFault) {
  const Fixture fixture;
  TempDir dir;
  std::string dataFile;
  const std::string path = fixture.write(dir, GetParam(), dataFile);
  Bytes original(static_cast<size_t>(std::filesystem::file_size(dataFile)));
  {
    FILE* file = std::fopen(dataFile.c_str(), "rb");
    ASSERT_EQ(std::fread(original.data(), 1, original.size(), file), original.size());
    std::fclose(file);
  }

  // The uninterrupted load: what every retried load must equal.
  Graph reference;
  reference.graph.loadConstants(*WeightSource::open(path));
  const auto expected = reference.contents();
  ASSERT_EQ(expected.first, fixture.a);
  ASSERT_EQ(expected.second, fixture.b);

  size_t sweeps = 0;
  for (const char* name : {"a", "b"}) {
    for (Fault fault : {Fault::ReadError, Fault::ShortRead, Fault::Truncation}) {
      auto reader = std::make_shared<FaultyReader>();
      auto source = WeightSource::open(path, reader);
      const TensorInfo& tensor = *source->find(name);
      for (uint64_t chunk = 0; chunk * kChunk < tensor.byteLength; ++chunk) {
        SCOPED_TRACE(std::string(name) + " chunk " + std::to_string(chunk) + ": " +
                     faultName(fault));
        const uint64_t at = tensor.byteOffset + chunk * kChunk;
        Graph g;
        LoadOptions options;
        options.chunkBytes = kChunk;
        options.threads = 1 + static_cast<uint32_t>(chunk % 2);
        if (fault == Fault::Truncation) {
          ASSERT_EQ(::truncate(dataFile.c_str(), static_cast<off_t>(at)), 0);
        } else {
          reader->arm(
              fault == Fault::ReadError ? FaultyReader::Fault::Eio : FaultyReader::Fault::Eof, at,
              at + 1);
        }
        testing::expectError([&] { g.graph.loadConstants(*source, options); },
                             Error::Kind::OperationError, {std::string("'") + name + "'"});
        EXPECT_TRUE(g.pending(std::string(name) == "a" ? g.a : g.b));
        testing::expectError([&] { g.contents(); }, Error::Kind::InvalidStateError, {name});

        // Undo the fault and retry: only what is pending is loaded, and the graph completes.
        reader->disarm();
        if (fault == Fault::Truncation) testing::writeFile(dataFile, original);
        g.graph.loadConstants(*source, options);
        EXPECT_TRUE(g.graph.pendingConstants().empty());
        EXPECT_EQ(g.contents(), expected);
        ++sweeps;
      }
    }
  }
  EXPECT_EQ(sweeps, 3u * (3 + 2));  // every fault at every chunk of both constants
}

INSTANTIATE_TEST_SUITE_P(Formats, FaultSweep,
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

}  // namespace
}  // namespace webnn
