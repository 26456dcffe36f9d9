// WeightSource on GGUF files written by the generator in weight_generator_helpers.cpp.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>

#include "weight_generators.h"

namespace webnn::testing {
namespace {

using Kind = Error::Kind;

// "big" is [512, 1024] float32 (2 MiB); GGUF lists its dimensions as {1024, 512}.
std::vector<GgufTensor> sampleTensors() {
  return {
      {"big", kGgmlF32, {1024, 512}, patternBytes(512 * 1024 * 4, 1)},
      {"half", kGgmlF16, {5, 3}, patternBytes(30, 2)},
      {"bytes", kGgmlI8, {4, 2, 3}, patternBytes(24, 3)},
      {"ints", kGgmlI32, {7}, patternBytes(28, 4)},
      {"longs", kGgmlI64, {2, 1, 1, 3}, patternBytes(48, 5)},
      {"scalar", kGgmlF32, {}, patternBytes(4, 6)},
      {"quantized", kGgmlQ4_0, {64, 2}, patternBytes(2 * 2 * 18, 7)},
      {"brain", kGgmlBF16, {8}, patternBytes(16, 8)},
      {"shorts", kGgmlI16, {3}, patternBytes(6, 9)},
      {"doubles", kGgmlF64, {2}, patternBytes(16, 10)},
      {"k_quant", kGgmlQ4_K, {256}, patternBytes(144, 11)},
  };
}

std::string writeSample(const TempDir& dir, const std::vector<GgufTensor>& tensors,
                        const GgufOptions& options = {}) {
  const std::string path = dir.file("model.gguf");
  writeFile(path, makeGguf(tensors, options));
  return path;
}

std::vector<uint32_t> reversed(const std::vector<uint64_t>& dims) {
  return std::vector<uint32_t>(dims.rbegin(), dims.rend());
}

void checkSample(const WeightSource& source, const std::vector<GgufTensor>& tensors,
                 uint32_t alignment) {
  EXPECT_EQ(source.formatName(), "gguf");
  ASSERT_EQ(source.tensors().size(), tensors.size());
  for (size_t i = 0; i < tensors.size(); ++i) {
    const TensorInfo& t = source.tensors()[i];
    EXPECT_EQ(t.name, tensors[i].name);
    EXPECT_EQ(t.shape, reversed(tensors[i].ggmlDims)) << t.name;
    EXPECT_EQ(t.byteLength, tensors[i].data.size()) << t.name;
    EXPECT_EQ(t.byteOffset % alignment, 0u) << t.name;
    Bytes bytes(t.byteLength);
    source.readRaw(t, 0, bytes);
    EXPECT_EQ(bytes, tensors[i].data) << t.name;
  }
}

TEST(WeightSourceGguf, ListsAndReadsVersion3WithEveryMetadataType) {
  TempDir dir;
  const auto tensors = sampleTensors();
  auto source = WeightSource::open(writeSample(dir, tensors, {.version = 3, .alignment = 64}));
  checkSample(*source, tensors, 64);
  EXPECT_EQ(source->find("big")->dataType, MLOperandDataType::Float32);
  EXPECT_EQ(source->find("big")->shape, (std::vector<uint32_t>{512, 1024}));
  EXPECT_EQ(source->find("half")->dataType, MLOperandDataType::Float16);
  EXPECT_EQ(source->find("bytes")->dataType, MLOperandDataType::Int8);
  EXPECT_EQ(source->find("bytes")->shape, (std::vector<uint32_t>{3, 2, 4}));
  EXPECT_EQ(source->find("ints")->dataType, MLOperandDataType::Int32);
  EXPECT_EQ(source->find("longs")->dataType, MLOperandDataType::Int64);
  EXPECT_EQ(source->find("scalar")->shape, std::vector<uint32_t>{});
  for (const char* name : {"big", "half", "bytes", "ints", "longs", "scalar"}) {
    EXPECT_TRUE(source->find(name)->supported) << name;
    EXPECT_EQ(readTensor(*source, *source->find(name)).size(), source->find(name)->byteLength);
  }
  const TensorInfo& big = *source->find("big");
  Bytes part(4096);
  source->read(big, 777777, part);
  EXPECT_EQ(0, std::memcmp(part.data(), tensors[0].data.data() + 777777, part.size()));
}

TEST(WeightSourceGguf, ReadsVersion2WithTheDefaultAlignment) {
  TempDir dir;
  const auto tensors = sampleTensors();
  auto source = WeightSource::open(
      writeSample(dir, tensors, {.version = 2, .alignment = 32, .allMetadataTypes = false}));
  checkSample(*source, tensors, 32);
}

TEST(WeightSourceGguf, UnsupportedTypesAreListedAndRefusedByName) {
  TempDir dir;
  const std::string path = writeSample(dir, sampleTensors());
  auto source = WeightSource::open(path);
  const struct {
    const char* name;
    const char* type;
  } cases[] = {{"quantized", "q4_0"},
               {"brain", "bf16"},
               {"shorts", "i16"},
               {"doubles", "f64"},
               {"k_quant", "q4_K"}};
  for (const auto& c : cases) {
    const TensorInfo& t = *source->find(c.name);
    EXPECT_FALSE(t.supported) << c.name;
    EXPECT_EQ(t.fileDataType, c.type);
    Bytes bytes(t.byteLength);
    expectError([&] { source->read(t, 0, bytes); }, Kind::NotSupportedError,
                {path, std::string("'") + c.name + "'", c.type, "no WebNN data type"});
  }
}

TEST(WeightSourceGguf, UnknownGgmlTypeIsListedWithoutBytes) {
  TempDir dir;
  auto tensors = sampleTensors();
  tensors.resize(1);
  tensors.push_back({"future", 99, {16}, {}});
  auto source = WeightSource::open(writeSample(dir, tensors));
  const TensorInfo& t = *source->find("future");
  EXPECT_FALSE(t.supported);
  EXPECT_EQ(t.byteLength, 0u);
  expectError([&] { source->read(t, 0, {}); }, Kind::NotSupportedError,
              {"'future'", "unknown GGML type 99"});
}

// ---- malformed files ----

void expectOpenError(const std::string& path, std::initializer_list<std::string> parts) {
  expectError([&] { WeightSource::open(path); }, Kind::DataError, parts);
}

std::string writeBytes(const TempDir& dir, const Bytes& bytes) {
  const std::string path = dir.file("bad.gguf");
  writeFile(path, bytes);
  return path;
}

// Header: magic, version, counts.
ByteWriter header(uint64_t tensors, uint64_t kvs, uint32_t version = 3) {
  ByteWriter w;
  w.raw(std::string("GGUF")).u32(version).u64(tensors).u64(kvs);
  return w;
}

TEST(WeightSourceGgufMalformed, Versions) {
  TempDir dir;
  ByteWriter v1 = header(0, 0, 1);
  expectOpenError(writeBytes(dir, v1.bytes()), {"version 1 is not supported"});
  ByteWriter v9 = header(0, 0, 9);
  expectOpenError(writeBytes(dir, v9.bytes()), {"unsupported GGUF version 9"});
  ByteWriter big;
  big.raw(std::string("GGUF")).u32(0x03000000).u64(0).u64(0);
  expectOpenError(writeBytes(dir, big.bytes()), {"big-endian"});
}

TEST(WeightSourceGgufMalformed, TruncatedHeader) {
  TempDir dir;
  const Bytes full = makeGguf(sampleTensors());
  expectOpenError(writeBytes(dir, Bytes(full.begin(), full.begin() + 6)), {"truncated", "version"});
  // Cut inside the last tensor info (39 bytes long, then at most 31 bytes of padding).
  const uint64_t dataStart = [&] {
    const std::string whole = writeBytes(dir, full);
    return WeightSource::open(whole)->tensors().front().byteOffset;
  }();
  const uint64_t cut = dataStart - 36;
  const std::string path = writeBytes(dir, Bytes(full.begin(), full.begin() + cut));
  expectOpenError(path,
                  {path, "truncated", "tensor 10", "the file ends at " + std::to_string(cut)});
}

TEST(WeightSourceGgufMalformed, CountsThatCannotFitAreRefusedBeforeAllocating) {
  TempDir dir;
  expectOpenError(writeBytes(dir, header(UINT64_MAX, 0).bytes()),
                  {"tensor count 18446744073709551615", "cannot fit"});
  expectOpenError(writeBytes(dir, header(0, uint64_t{1} << 60).bytes()),
                  {"metadata count", "cannot fit"});
}

TEST(WeightSourceGgufMalformed, StringLengthBeyondTheFile) {
  TempDir dir;
  ByteWriter w = header(0, 1);
  w.u64(uint64_t{1} << 40).raw(std::string("general.name"));
  expectOpenError(writeBytes(dir, w.bytes()), {"truncated", "metadata entry 0", "1099511627776"});
}

TEST(WeightSourceGgufMalformed, MetadataValues) {
  TempDir dir;
  {
    ByteWriter w = header(0, 1);
    ggufString(w, "x.weird");
    w.u32(77).u64(0);
    expectOpenError(writeBytes(dir, w.bytes()), {"'x.weird'", "unknown value type 77"});
  }
  {
    ByteWriter w = header(0, 1);
    ggufString(w, "x.array");
    w.u32(kGgufArray).u32(kGgufUint64).u64(uint64_t{1} << 61);
    expectOpenError(writeBytes(dir, w.bytes()), {"'x.array'", "cannot fit"});
  }
  {
    ByteWriter w = header(0, 1);
    ggufString(w, "x.strings");
    w.u32(kGgufArray).u32(kGgufString).u64(2);
    ggufString(w, "a");
    w.u64(999);  // second string runs past the end
    expectOpenError(writeBytes(dir, w.bytes()), {"'x.strings'", "truncated"});
  }
  {
    ByteWriter w = header(0, 1);
    ggufString(w, "x.deep");
    w.u32(kGgufArray);
    for (int i = 0; i < 20; ++i) w.u32(kGgufArray).u64(1);
    w.u32(kGgufUint8).u64(0);
    expectOpenError(writeBytes(dir, w.bytes()), {"'x.deep'", "nests arrays"});
  }
  {
    ByteWriter w = header(0, 2);
    ggufString(w, "a.key");
    w.u32(kGgufUint8).u8(1);
    ggufString(w, "a.key");
    w.u32(kGgufUint8).u8(2);
    expectOpenError(writeBytes(dir, w.bytes()), {"'a.key'", "twice"});
  }
  {
    ByteWriter w = header(0, 1);
    ggufString(w, "general.alignment");
    w.u32(kGgufUint32).u32(48);
    expectOpenError(writeBytes(dir, w.bytes()), {"general.alignment 48", "power of two"});
  }
  {
    ByteWriter w = header(0, 1);
    ggufString(w, "general.alignment");
    w.u32(kGgufString);
    ggufString(w, "32");
    expectOpenError(writeBytes(dir, w.bytes()), {"general.alignment", "not an unsigned integer"});
  }
}

// One tensor info, then `data` at the 32-aligned data section.
Bytes oneTensor(const std::string& name, std::vector<uint64_t> dims, uint32_t type, uint64_t offset,
                const Bytes& data) {
  ByteWriter w = header(1, 0);
  ggufString(w, name);
  w.u32(static_cast<uint32_t>(dims.size()));
  for (uint64_t d : dims) w.u64(d);
  w.u32(type).u64(offset).padTo(32).raw(data);
  return w.bytes();
}

TEST(WeightSourceGgufMalformed, TensorInfos) {
  TempDir dir;
  expectOpenError(writeBytes(dir, oneTensor("t", {1, 1, 1, 1, 1}, kGgmlF32, 0, patternBytes(4, 1))),
                  {"tensor 't'", "5 dimensions"});
  expectOpenError(writeBytes(dir, oneTensor("t", {uint64_t{1} << 32}, kGgmlI8, 0, {})),
                  {"tensor 't'", "4294967296"});
  expectOpenError(
      writeBytes(dir, oneTensor("t", {4294967295u, 4294967295u, 4294967295u}, kGgmlF32, 0, {})),
      {"tensor 't'", "overflows"});
  expectOpenError(writeBytes(dir, oneTensor("t", {4}, kGgmlF32, 8, patternBytes(64, 1))),
                  {"tensor 't'", "offset 8", "alignment 32"});
  const std::string path = writeBytes(dir, oneTensor("t", {4}, kGgmlF32, 32, patternBytes(40, 1)));
  expectOpenError(path, {path, "tensor 't'", "beyond the end of the file"});
  expectOpenError(writeBytes(dir, oneTensor("t", {48}, kGgmlQ4_0, 0, patternBytes(64, 1))),
                  {"tensor 't'", "48", "block of 32"});
  expectOpenError(writeBytes(dir, oneTensor("t", {4}, kGgmlF32, UINT64_MAX - 31, {})),
                  {"tensor 't'", "overflows"});
}

TEST(WeightSourceGgufMalformed, OverlappingAndDuplicateTensors) {
  TempDir dir;
  for (const bool duplicate : {false, true}) {
    ByteWriter w = header(2, 0);
    ggufString(w, "a");
    w.u32(1).u64(16).u32(kGgmlF32).u64(0);
    ggufString(w, duplicate ? "a" : "b");
    w.u32(1).u64(16).u32(kGgmlF32).u64(duplicate ? 64 : 32);
    w.padTo(32).raw(patternBytes(128, 1));
    const std::string path = writeBytes(dir, w.bytes());
    if (duplicate) {
      expectOpenError(path, {path, "two tensors are named 'a'"});
    } else {
      expectOpenError(path, {path, "'a'", "'b'", "overlap"});
    }
  }
}

// ---- read faults ----

TEST(WeightSourceGgufFaults, EioAndShortReadNameFileTensorOffsetAndRetrySucceeds) {
  TempDir dir;
  const auto tensors = sampleTensors();
  const std::string path = writeSample(dir, tensors);
  auto reader = std::make_shared<FaultyReader>();
  auto source = WeightSource::open(path, reader);
  const TensorInfo& big = *source->find("big");
  Bytes bytes(big.byteLength);
  for (const auto fault : {FaultyReader::Fault::Eio, FaultyReader::Fault::Eof}) {
    const uint64_t bad = big.byteOffset + 65536;
    reader->arm(fault, bad, bad + 100);
    expectError([&] { source->read(big, 0, bytes); }, Kind::OperationError,
                {path, "'big'", "offset " + std::to_string(bad)});
    reader->disarm();
    source->read(big, 0, bytes);
    EXPECT_EQ(bytes, tensors[0].data);
  }
}

TEST(WeightSourceGgufFaults, OpeningNeedsNoByteOfTensorData) {
  TempDir dir;
  const auto tensors = sampleTensors();
  const std::string path = writeSample(dir, tensors);
  const uint64_t dataStart = WeightSource::open(path)->tensors().front().byteOffset;
  auto reader = std::make_shared<FaultyReader>();
  reader->arm(FaultyReader::Fault::Eio, dataStart, UINT64_MAX);  // the header reads ahead into it
  auto source = WeightSource::open(path, reader);
  EXPECT_EQ(source->tensors().size(), tensors.size());
}

TEST(WeightSourceGgufFaults, FaultInTheMetadataIsAnOperationError) {
  TempDir dir;
  const std::string path = writeSample(dir, sampleTensors());
  auto reader = std::make_shared<FaultyReader>();
  reader->arm(FaultyReader::Fault::Eio, 100, 101);
  expectError([&] { WeightSource::open(path, reader); }, Kind::OperationError,
              {path, "GGUF header", "offset 100"});
}

}  // namespace
}  // namespace webnn::testing
