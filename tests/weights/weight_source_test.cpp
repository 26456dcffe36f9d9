// WeightSource::open(): the format comes from the file's contents, and errors name the file.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include "weight_generators.h"

namespace webnn::testing {
namespace {

using Kind = Error::Kind;

TEST(WeightSourceOpen, ChoosesTheFormatFromContentsNotTheName) {
  TempDir dir;
  writeFile(dir.file("actually_safetensors.gguf"),
            makeSafetensors({{"w", "F32", {1}, patternBytes(4, 1)}}));
  EXPECT_EQ(WeightSource::open(dir.file("actually_safetensors.gguf"))->formatName(), "safetensors");
  writeFile(dir.file("actually_gguf.safetensors"),
            makeGguf({{"w", kGgmlF32, {1}, patternBytes(4, 1)}}));
  EXPECT_EQ(WeightSource::open(dir.file("actually_gguf.safetensors"))->formatName(), "gguf");
  writeFile(dir.file("noext"), makeGguf({}));
  EXPECT_EQ(WeightSource::open(dir.file("noext"))->tensors().size(), 0u);
}

TEST(WeightSourceOpen, GarbageEmptyMissingAndDirectories) {
  TempDir dir;
  writeFile(dir.file("garbage.bin"), patternBytes(100, 5));
  expectError([&] { WeightSource::open(dir.file("garbage.bin")); }, Kind::DataError,
              {dir.file("garbage.bin"), "unknown weights format", "starts with"});
  writeFile(dir.file("empty.bin"), Bytes{});
  expectError([&] { WeightSource::open(dir.file("empty.bin")); }, Kind::DataError,
              {"empty.bin", "empty"});
  writeFile(dir.file("tiny.bin"), toBytes("GG"));
  expectError([&] { WeightSource::open(dir.file("tiny.bin")); }, Kind::DataError,
              {"tiny.bin", "unknown weights format"});
  expectError([&] { WeightSource::open(dir.file("missing.safetensors")); }, Kind::OperationError,
              {"missing.safetensors", "No such file"});
  expectError([&] { WeightSource::open(dir.path()); }, Kind::DataError, {"not a regular file"});
  expectError([&] { WeightSource::open(dir.file("garbage.bin"), nullptr); }, Kind::TypeError,
              {"reader"});
}

TEST(WeightSourceOpen, EveryByteGoesThroughTheReader) {
  TempDir dir;
  writeFile(dir.file("m.safetensors"), makeSafetensors({{"w", "F32", {4}, patternBytes(16, 1)}}));
  auto reader = std::make_shared<FaultyReader>();
  auto source = WeightSource::open(dir.file("m.safetensors"), reader);
  const uint64_t afterOpen = reader->calls.load();
  EXPECT_GT(afterOpen, 0u);
  readTensor(*source, source->tensors()[0]);
  EXPECT_GT(reader->calls.load(), afterOpen);
}

}  // namespace
}  // namespace webnn::testing
