// WeightSource on safetensors files written by the generator in weight_generator_helpers.cpp.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <thread>

#include "weight_generators.h"

namespace webnn::testing {
namespace {

using Kind = Error::Kind;

struct Fixture {
  TempDir dir;
  std::vector<SafetensorsTensor> tensors;
  std::string path;
};

// A few tensors of every supported dtype; "big" is 2 MiB.
std::vector<SafetensorsTensor> sampleTensors() {
  return {
      {"big", "F32", {512, 1024}, patternBytes(512 * 1024 * 4, 1)},
      {"half", "F16", {3, 5}, patternBytes(30, 2)},
      {"i32", "I32", {7}, patternBytes(28, 3)},
      {"u32", "U32", {2, 2}, patternBytes(16, 4)},
      {"i64", "I64", {3}, patternBytes(24, 5)},
      {"u64", "U64", {1, 1, 1}, patternBytes(8, 6)},
      {"i8", "I8", {4, 4}, patternBytes(16, 7)},
      {"u8", "U8", {10}, patternBytes(10, 8)},
      {"scalar", "F32", {}, patternBytes(4, 9)},
  };
}

std::string writeSample(const TempDir& dir, const std::vector<SafetensorsTensor>& tensors) {
  const std::string path = dir.file("model.safetensors");
  writeFile(path, makeSafetensors(tensors, R"({"format":"pt","note":"x"})"));
  return path;
}

TEST(WeightSourceSafetensors, ListsEveryTensorFromTheHeader) {
  TempDir dir;
  const auto tensors = sampleTensors();
  const std::string path = writeSample(dir, tensors);
  auto source = WeightSource::open(path);
  EXPECT_EQ(source->formatName(), "safetensors");
  EXPECT_EQ(source->path(), path);
  EXPECT_EQ(source->filePath(), path);
  ASSERT_EQ(source->tensors().size(), tensors.size());
  uint64_t total = 0;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const TensorInfo& t = source->tensors()[i];  // in file order, which is the generator's order
    EXPECT_EQ(t.name, tensors[i].name);
    EXPECT_EQ(t.fileDataType, tensors[i].dtype);
    EXPECT_TRUE(t.supported) << t.unsupportedReason;
    EXPECT_EQ(t.byteLength, tensors[i].data.size());
    EXPECT_EQ(t.descriptor().byteLength(), t.byteLength);
    ASSERT_EQ(t.shape.size(), tensors[i].shape.size());
    for (size_t d = 0; d < t.shape.size(); ++d) EXPECT_EQ(t.shape[d], tensors[i].shape[d]);
    EXPECT_EQ(source->find(t.name), &t);
    if (i > 0) {
      const TensorInfo& previous = source->tensors()[i - 1];
      EXPECT_EQ(t.byteOffset, previous.byteOffset + previous.byteLength);
    }
    total += t.byteLength;
  }
  EXPECT_EQ(source->totalBytes(), total);
  EXPECT_EQ(source->find("big")->dataType, MLOperandDataType::Float32);
  EXPECT_EQ(source->find("half")->dataType, MLOperandDataType::Float16);
  EXPECT_EQ(source->find("i32")->dataType, MLOperandDataType::Int32);
  EXPECT_EQ(source->find("u32")->dataType, MLOperandDataType::Uint32);
  EXPECT_EQ(source->find("i64")->dataType, MLOperandDataType::Int64);
  EXPECT_EQ(source->find("u64")->dataType, MLOperandDataType::Uint64);
  EXPECT_EQ(source->find("i8")->dataType, MLOperandDataType::Int8);
  EXPECT_EQ(source->find("u8")->dataType, MLOperandDataType::Uint8);
  EXPECT_EQ(source->find("nope"), nullptr);
  EXPECT_EQ(source->find("__metadata__"), nullptr);
}

TEST(WeightSourceSafetensors, ListingReadsOnlyTheHeader) {
  TempDir dir;
  const std::string path = writeSample(dir, sampleTensors());
  auto reader = std::make_shared<FaultyReader>();
  const uint64_t headerEnd = [&] {
    auto plain = WeightSource::open(path);
    return plain->tensors().front().byteOffset;
  }();
  reader->arm(FaultyReader::Fault::Eio, headerEnd, UINT64_MAX);
  auto source = WeightSource::open(path, reader);  // no byte of tensor data is touched
  EXPECT_EQ(reader->faults.load(), 0u);
  EXPECT_EQ(source->tensors().size(), 9u);
}

TEST(WeightSourceSafetensors, ReadsWholeTensorsAndByteRanges) {
  TempDir dir;
  const auto tensors = sampleTensors();
  auto source = WeightSource::open(writeSample(dir, tensors));
  for (const auto& expected : tensors) {
    const TensorInfo* t = source->find(expected.name);
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(readTensor(*source, *t), expected.data) << expected.name;
  }
  const TensorInfo& big = *source->find("big");
  const auto& data = tensors[0].data;
  Bytes part(1000);
  source->read(big, 123457, part);
  EXPECT_EQ(0, std::memcmp(part.data(), data.data() + 123457, part.size()));
  Bytes last(1);
  source->read(big, big.byteLength - 1, last);
  EXPECT_EQ(last[0], data.back());
  Bytes none;
  source->read(big, big.byteLength, none);  // an empty range at the very end is fine
}

TEST(WeightSourceSafetensors, RejectsRangesOutsideATensorAndForeignTensors) {
  TempDir dir;
  auto source = WeightSource::open(writeSample(dir, sampleTensors()));
  const TensorInfo& i32 = *source->find("i32");
  Bytes buffer(29);
  expectError([&] { source->read(i32, 0, buffer); }, Kind::TypeError, {"'i32'", "28 bytes"});
  Bytes two(2);
  expectError([&] { source->read(i32, 27, two); }, Kind::TypeError, {"'i32'"});
  expectError([&] { source->read(i32, UINT64_MAX, two); }, Kind::TypeError, {"'i32'"});
  TensorInfo foreign = i32;
  foreign.name = "elsewhere";
  expectError([&] { source->read(foreign, 0, two); }, Kind::TypeError,
              {"'elsewhere'", "not a tensor of"});
  foreign = i32;
  foreign.byteOffset = 0;  // same name, another range: refused
  expectError([&] { source->read(foreign, 0, two); }, Kind::TypeError, {"'i32'"});
}

TEST(WeightSourceSafetensors, ReadsFromManyThreadsAtOnce) {
  TempDir dir;
  const auto tensors = sampleTensors();
  auto source = WeightSource::open(writeSample(dir, tensors));
  const TensorInfo& big = *source->find("big");
  const auto& data = tensors[0].data;
  constexpr int kThreads = 8;
  std::vector<Bytes> parts(kThreads);
  std::vector<std::thread> threads;
  const uint64_t slice = big.byteLength / kThreads;
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&, i] {
      parts[i].resize(slice);
      for (int repeat = 0; repeat < 4; ++repeat) source->read(big, i * slice, parts[i]);
    });
  }
  for (auto& thread : threads) thread.join();
  for (int i = 0; i < kThreads; ++i) {
    EXPECT_EQ(0, std::memcmp(parts[i].data(), data.data() + i * slice, slice)) << i;
  }
}

TEST(WeightSourceSafetensors, FileDescriptorServesTheTensorBytes) {
  TempDir dir;
  const auto tensors = sampleTensors();
  auto source = WeightSource::open(writeSample(dir, tensors));
  const TensorInfo& u8 = *source->find("u8");
  Bytes bytes(u8.byteLength);
  ASSERT_EQ(::pread(source->fileDescriptor(), bytes.data(), bytes.size(),
                    static_cast<off_t>(u8.byteOffset)),
            static_cast<ssize_t>(bytes.size()));
  EXPECT_EQ(bytes, tensors[7].data);
}

TEST(WeightSourceSafetensors, ListsUnsupportedDtypesAndRefusesToReadThem) {
  TempDir dir;
  const std::string path = dir.file("mixed.safetensors");
  writeFile(path, makeSafetensors({{"w", "F32", {2}, patternBytes(8, 1)},
                                   {"b", "BF16", {4}, patternBytes(8, 2)},
                                   {"d", "F64", {1}, patternBytes(8, 3)},
                                   {"flags", "BOOL", {3}, patternBytes(3, 4)},
                                   {"s", "I16", {2}, patternBytes(4, 5)},
                                   {"f8", "F8_E4M3", {5}, patternBytes(5, 6)},
                                   {"future", "F3_NEW", {5}, patternBytes(7, 7)},
                                   {"empty", "F32", {0, 4}, {}}}));
  auto source = WeightSource::open(path);
  ASSERT_EQ(source->tensors().size(), 8u);
  EXPECT_TRUE(source->find("w")->supported);
  for (const char* name : {"b", "d", "flags", "s", "f8", "future", "empty"}) {
    EXPECT_FALSE(source->find(name)->supported) << name;
  }
  const TensorInfo& b = *source->find("b");
  EXPECT_EQ(b.fileDataType, "BF16");
  EXPECT_EQ(b.byteLength, 8u);
  Bytes buffer(8);
  expectError([&] { source->read(b, 0, buffer); }, Kind::NotSupportedError,
              {path, "'b'", "BF16", "no WebNN data type"});
  source->readRaw(b, 0, buffer);  // raw bytes stay readable for a converting loader
  EXPECT_EQ(buffer, patternBytes(8, 2));
  expectError([&] { source->read(*source->find("future"), 0, std::span(buffer).first(7)); },
              Kind::NotSupportedError, {"'future'", "unknown safetensors dtype 'F3_NEW'"});
  expectError([&] { source->read(*source->find("empty"), 0, {}); }, Kind::NotSupportedError,
              {"'empty'", "zero dimension"});
}

// ---- malformed files ----

Bytes f32Data(size_t elements) {
  return patternBytes(elements * 4, 42);
}

std::string writeRaw(const TempDir& dir, const std::string& header, const Bytes& data) {
  const std::string path = dir.file("bad.safetensors");
  writeFile(path, makeSafetensorsRaw(header, data));
  return path;
}

void expectOpenError(const std::string& path, std::initializer_list<std::string> parts) {
  expectError([&] { WeightSource::open(path); }, Kind::DataError, parts);
}

TEST(WeightSourceSafetensorsMalformed, HeaderLengthBeyondTheFile) {
  TempDir dir;
  ByteWriter w;
  w.u64(1000).raw(std::string("{\"a\":{}}"));
  const std::string path = dir.file("short.safetensors");
  writeFile(path, w.bytes());
  expectOpenError(path, {path, "header length 1000", "beyond the end of the file (16 bytes)"});
}

TEST(WeightSourceSafetensorsMalformed, TruncatedHeader) {
  TempDir dir;
  const Bytes full = makeSafetensors({{"w", "F32", {4}, f32Data(4)}});
  const std::string path = dir.file("cut.safetensors");
  writeFile(path, Bytes(full.begin(), full.begin() + 30));  // cut inside the JSON
  expectOpenError(path, {path, "beyond the end of the file (30 bytes)"});
}

TEST(WeightSourceSafetensorsMalformed, HeaderLengthOverTheLimit) {
  TempDir dir;
  const std::string path = dir.file("huge.safetensors");
  const uint64_t length = (uint64_t{100} << 20) + 1;
  ByteWriter w;
  w.u64(length).raw(std::string("{"));
  writeFile(path, w.bytes());
  ASSERT_EQ(::truncate(path.c_str(), static_cast<off_t>(8 + length + 16)), 0);  // sparse
  expectOpenError(path, {path, std::to_string(length), "exceeds the limit"});
}

TEST(WeightSourceSafetensorsMalformed, InvalidJson) {
  TempDir dir;
  const std::string path = writeRaw(dir, "{\"w\": {\"dtype\": \"F32\",, }", {});
  expectOpenError(path, {path, "safetensors header", "invalid JSON"});
}

TEST(WeightSourceSafetensorsMalformed, HeaderIsNotAnObject) {
  TempDir dir;
  // '{' must come first to be recognized; an array after it is still invalid JSON.
  expectOpenError(writeRaw(dir, "{\"w\": [1, 2]}", {}), {"tensor 'w'", "not an object"});
  expectOpenError(writeRaw(dir, "{\"__metadata__\": 3}", {}), {"__metadata__", "not an object"});
}

TEST(WeightSourceSafetensorsMalformed, OffsetsBeyondTheEnd) {
  TempDir dir;
  const std::string path = writeRaw(dir,
                                    R"({"w":{"dtype":"F32","shape":[4],"data_offsets":[0,16]},)"
                                    R"("v":{"dtype":"F32","shape":[4],"data_offsets":[16,32]}})",
                                    f32Data(6));
  expectOpenError(path, {path, "tensor 'v'", "[16, 32]", "beyond the end of the data (24 bytes"});
}

TEST(WeightSourceSafetensorsMalformed, HugeOffsetsDoNotOverflow) {
  TempDir dir;
  const std::string path = writeRaw(
      dir,
      R"({"w":{"dtype":"U8","shape":[1],"data_offsets":[18446744073709551615,18446744073709551615]}})",
      f32Data(1));
  expectOpenError(path, {"tensor 'w'", "beyond the end"});
}

TEST(WeightSourceSafetensorsMalformed, ReversedOffsets) {
  TempDir dir;
  expectOpenError(
      writeRaw(dir, R"({"w":{"dtype":"U8","shape":[0],"data_offsets":[8,4]}})", f32Data(4)),
      {"tensor 'w'", "[8, 4]", "end before they begin"});
}

TEST(WeightSourceSafetensorsMalformed, OverlappingTensors) {
  TempDir dir;
  const std::string path = writeRaw(dir,
                                    R"({"a":{"dtype":"F32","shape":[4],"data_offsets":[0,16]},)"
                                    R"("b":{"dtype":"F32","shape":[2],"data_offsets":[8,16]}})",
                                    f32Data(4));
  expectOpenError(path, {path, "'a'", "'b'", "overlap"});
}

TEST(WeightSourceSafetensorsMalformed, DuplicateNames) {
  TempDir dir;
  const std::string path = writeRaw(dir,
                                    R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},)"
                                    R"("a":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})",
                                    f32Data(2));
  expectOpenError(path, {path, "duplicate key 'a'"});
}

TEST(WeightSourceSafetensorsMalformed, ByteLengthMismatch) {
  TempDir dir;
  const std::string path =
      writeRaw(dir, R"({"w":{"dtype":"F32","shape":[2,3],"data_offsets":[0,20]}})", f32Data(6));
  expectOpenError(path, {path, "tensor 'w'", "F32 [2, 3]", "24 bytes", "hold 20"});
}

TEST(WeightSourceSafetensorsMalformed, OverflowingShapes) {
  TempDir dir;
  expectOpenError(
      writeRaw(
          dir,
          R"({"w":{"dtype":"F32","shape":[4294967295,4294967295,4294967295],"data_offsets":[0,4]}})",
          f32Data(1)),
      {"tensor 'w'", "overflows"});
  expectOpenError(
      writeRaw(dir, R"({"w":{"dtype":"F32","shape":[4294967296],"data_offsets":[0,4]}})",
               f32Data(1)),
      {"tensor 'w'", "4294967296", "limit"});
  expectOpenError(
      writeRaw(dir, R"({"w":{"dtype":"F32","shape":[-1],"data_offsets":[0,4]}})", f32Data(1)),
      {"tensor 'w'", "dimension", "negative"});
  expectOpenError(
      writeRaw(dir, R"({"w":{"dtype":"F32","shape":[1.5],"data_offsets":[0,4]}})", f32Data(1)),
      {"tensor 'w'", "dimension", "non-integer"});
}

TEST(WeightSourceSafetensorsMalformed, MissingOrMistypedMembers) {
  TempDir dir;
  expectOpenError(writeRaw(dir, R"({"w":{"shape":[1],"data_offsets":[0,4]}})", f32Data(1)),
                  {"tensor 'w'", "no \"dtype\""});
  expectOpenError(writeRaw(dir, R"({"w":{"dtype":"F32","data_offsets":[0,4]}})", f32Data(1)),
                  {"tensor 'w'", "no \"shape\""});
  expectOpenError(writeRaw(dir, R"({"w":{"dtype":"F32","shape":[1]}})", f32Data(1)),
                  {"tensor 'w'", "no \"data_offsets\""});
  expectOpenError(
      writeRaw(dir, R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4,8]}})", f32Data(2)),
      {"tensor 'w'", "more than 2"});
  expectOpenError(
      writeRaw(dir, R"({"w":{"dtype":7,"shape":[1],"data_offsets":[0,4]}})", f32Data(1)),
      {"tensor 'w'", "\"dtype\""});
  expectOpenError(
      writeRaw(dir, R"({"w":{"dtype":"F32","shape":"1","data_offsets":[0,4]}})", f32Data(1)),
      {"tensor 'w'", "\"shape\""});
}

TEST(WeightSourceSafetensorsMalformed, DeepNestingIsRefused) {
  TempDir dir;
  std::string header = "{\"__metadata__\":{\"x\":";
  for (int i = 0; i < 100; ++i) header += "[";
  for (int i = 0; i < 100; ++i) header += "]";
  header += "}}";
  expectOpenError(writeRaw(dir, header, {}), {"nested deeper"});
}

TEST(WeightSourceSafetensorsMalformed, GarbageAfterTheLengthIsNotSafetensors) {
  TempDir dir;
  const std::string path = dir.file("garbage.safetensors");
  writeFile(path, patternBytes(64, 77));
  expectOpenError(path, {path, "unknown weights format"});
}

// ---- read faults ----

TEST(WeightSourceSafetensorsFaults, EioNamesFileTensorAndOffsetAndARetrySucceeds) {
  TempDir dir;
  const auto tensors = sampleTensors();
  const std::string path = writeSample(dir, tensors);
  auto reader = std::make_shared<FaultyReader>();
  auto source = WeightSource::open(path, reader);
  const TensorInfo& big = *source->find("big");
  const uint64_t bad = big.byteOffset + 1000000;
  reader->arm(FaultyReader::Fault::Eio, bad, bad + 1);
  Bytes bytes(big.byteLength);
  expectError([&] { source->read(big, 0, bytes); }, Kind::OperationError,
              {path, "'big'", "offset " + std::to_string(bad), "byte 1000000 of the tensor",
               std::strerror(EIO)});
  reader->disarm();
  source->read(big, 0, bytes);
  EXPECT_EQ(bytes, tensors[0].data);
}

TEST(WeightSourceSafetensorsFaults, ShortReadReturningZeroIsAnError) {
  TempDir dir;
  const auto tensors = sampleTensors();
  const std::string path = writeSample(dir, tensors);
  auto reader = std::make_shared<FaultyReader>();
  auto source = WeightSource::open(path, reader);
  const TensorInfo& half = *source->find("half");
  reader->arm(FaultyReader::Fault::Eof, half.byteOffset + 10, UINT64_MAX);
  Bytes bytes(half.byteLength);
  expectError(
      [&] { source->read(half, 0, bytes); }, Kind::OperationError,
      {path, "'half'", "offset " + std::to_string(half.byteOffset + 10), "unexpected end of file"});
  reader->disarm();
  source->read(half, 0, bytes);
  EXPECT_EQ(bytes, tensors[1].data);
}

TEST(WeightSourceSafetensorsFaults, PartialReadsAndEintrAreRetried) {
  TempDir dir;
  const auto tensors = sampleTensors();
  auto reader = std::make_shared<FaultyReader>();
  reader->maxPerCall = 7;
  auto source = WeightSource::open(writeSample(dir, tensors), reader);
  reader->maxPerCall = 4093;
  const TensorInfo& big = *source->find("big");
  reader->arm(FaultyReader::Fault::Eintr, big.byteOffset + 5000, big.byteOffset + 5001);
  EXPECT_EQ(readTensor(*source, big), tensors[0].data);
  EXPECT_EQ(reader->faults.load(), 1u);
}

TEST(WeightSourceSafetensorsFaults, FaultWhileReadingTheHeaderIsAnOperationError) {
  TempDir dir;
  const std::string path = writeSample(dir, sampleTensors());
  auto reader = std::make_shared<FaultyReader>();
  reader->arm(FaultyReader::Fault::Eio, 20, 21);
  expectError([&] { WeightSource::open(path, reader); }, Kind::OperationError,
              {path, "header", "offset 20"});
  reader->disarm();
  EXPECT_EQ(WeightSource::open(path, reader)->tensors().size(), 9u);
}

TEST(WeightSourceSafetensorsFaults, FileTruncatedAfterOpen) {
  TempDir dir;
  const auto tensors = sampleTensors();
  const std::string path = writeSample(dir, tensors);
  auto source = WeightSource::open(path);
  const TensorInfo& big = *source->find("big");
  const uint64_t cut = big.byteOffset + 4096;
  ASSERT_EQ(::truncate(path.c_str(), static_cast<off_t>(cut)), 0);
  Bytes bytes(big.byteLength);
  expectError([&] { source->read(big, 0, bytes); }, Kind::OperationError,
              {path, "'big'", "offset " + std::to_string(cut), "truncated"});
}

}  // namespace
}  // namespace webnn::testing
