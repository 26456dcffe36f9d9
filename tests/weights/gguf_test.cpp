// WeightSource on GGUF files written by the generator in weight_generator_helpers.cpp.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <mutex>
#include <utility>

#include "backends/transforming_backend.h"
#include "test_helpers.h"
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
      {"quantized", kGgmlQ4_1, {64, 2}, patternBytes(2 * 2 * 20, 7)},
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
  } cases[] = {{"quantized", "q4_1"},
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

// ---- q4_0 and q8_0: listed as the operands of dequantizeLinear ----

// Weights of every sign and size, different for each seed and block.
std::vector<float> weightValues(size_t count, uint32_t seed) {
  std::vector<float> values(count);
  for (size_t i = 0; i < count; ++i) {
    const float scale = 0.01f * static_cast<float>(1 + (i / 32 + seed) % 5);
    values[i] = static_cast<float>(static_cast<int>((i * 37 + seed * 11) % 101) - 50) * scale;
  }
  return values;
}

// What the derived tensors of the blocks `blocks` hold, computed here from ggml's layout.
struct Derived {
  Bytes values, scales, zeroPoints;
};
Derived expectedDerived(const Bytes& blocks, bool q4) {
  const size_t blockBytes = q4 ? 18 : 34;
  const size_t count = blocks.size() / blockBytes;
  Derived d;
  std::vector<uint8_t> nibbles;  // q4_0: one per element, in element order
  for (size_t b = 0; b < count; ++b) {
    const std::byte* block = blocks.data() + b * blockBytes;
    d.scales.insert(d.scales.end(), block, block + 2);  // the float16 d, as stored
    if (q4) {
      for (int j = 0; j < 16; ++j) nibbles.push_back(static_cast<uint8_t>(block[2 + j]) & 15);
      for (int j = 0; j < 16; ++j) nibbles.push_back(static_cast<uint8_t>(block[2 + j]) >> 4);
    } else {
      d.values.insert(d.values.end(), block + 2, block + 34);
      d.zeroPoints.push_back(std::byte{0});
    }
  }
  if (q4) {
    // WebNN's int4 packing: element 2i in the low nibble of byte i, 2i + 1 in the high one.
    for (size_t i = 0; i < nibbles.size(); i += 2) {
      d.values.push_back(static_cast<std::byte>(nibbles[i] | nibbles[i + 1] << 4));
    }
    d.zeroPoints.assign((count + 1) / 2, std::byte{0x88});
    if (count % 2) d.zeroPoints.back() = std::byte{0x08};
  }
  return d;
}

const Bytes& part(const Derived& d, const std::string& name) {
  if (name.ends_with(".scale")) return d.scales;
  if (name.ends_with(".zero_point")) return d.zeroPoints;
  return d.values;
}

std::vector<GgufTensor> quantizedTensors() {
  return {
      {"first", kGgmlF32, {4}, patternBytes(16, 1)},
      {"w4", kGgmlQ4_0, {64, 3}, quantizeQ4_0(weightValues(192, 2))},
      {"w8", kGgmlQ8_0, {32, 2, 2}, quantizeQ8_0(weightValues(128, 3))},
      {"odd", kGgmlQ4_0, {96}, patternBytes(3 * 18, 4)},  // any bytes: NaN, inf, subnormal scales
      {"raw8", kGgmlQ8_0, {64, 1}, patternBytes(2 * 34, 5)},
      {"last", kGgmlI32, {2}, patternBytes(8, 6)},
  };
}

TEST(WeightSourceGgufQuantized, ListedAsValuesScalesAndZeroPoints) {
  TempDir dir;
  const auto tensors = quantizedTensors();
  auto source = WeightSource::open(writeSample(dir, tensors));
  using T = MLOperandDataType;
  const struct {
    const char* name;
    T type;
    std::vector<uint32_t> shape;
    uint64_t bytes;
    const char* fileType;
  } expected[] = {
      {"first", T::Float32, {4}, 16, "f32"},
      {"w4", T::Uint4, {3, 64}, 96, "q4_0"},
      {"w4.scale", T::Float16, {3, 2}, 12, "q4_0"},
      {"w4.zero_point", T::Uint4, {3, 2}, 3, "q4_0"},
      {"w8", T::Int8, {2, 2, 32}, 128, "q8_0"},
      {"w8.scale", T::Float16, {2, 2, 1}, 8, "q8_0"},
      {"w8.zero_point", T::Int8, {2, 2, 1}, 4, "q8_0"},
      {"odd", T::Uint4, {96}, 48, "q4_0"},
      {"odd.scale", T::Float16, {3}, 6, "q4_0"},
      {"odd.zero_point", T::Uint4, {3}, 2, "q4_0"},
      {"raw8", T::Int8, {1, 64}, 64, "q8_0"},
      {"raw8.scale", T::Float16, {1, 2}, 4, "q8_0"},
      {"raw8.zero_point", T::Int8, {1, 2}, 2, "q8_0"},
      {"last", T::Int32, {2}, 8, "i32"},
  };
  ASSERT_EQ(source->tensors().size(), std::size(expected));
  uint64_t total = 0;
  for (size_t i = 0; i < std::size(expected); ++i) {
    const TensorInfo& t = source->tensors()[i];
    const auto& e = expected[i];
    EXPECT_EQ(t.name, e.name);
    EXPECT_EQ(t.dataType, e.type) << e.name;
    EXPECT_EQ(t.shape, e.shape) << e.name;
    EXPECT_EQ(t.byteLength, e.bytes) << e.name;
    EXPECT_EQ(t.descriptor().byteLength(), e.bytes) << e.name;
    EXPECT_EQ(t.fileDataType, e.fileType) << e.name;
    EXPECT_TRUE(t.supported) << e.name;
    EXPECT_EQ(t.derived, std::string(e.fileType).starts_with("q")) << e.name;
    EXPECT_EQ(source->find(e.name), &t);
    total += e.bytes;
  }
  EXPECT_EQ(source->totalBytes(), total);
  // The three derived tensors share the offset of the file's tensor, whose blocks follow "first".
  const uint64_t w4 = source->find("w4")->byteOffset;
  EXPECT_EQ(w4 % 32, 0u);
  EXPECT_GT(w4, source->find("first")->byteOffset);
  EXPECT_EQ(source->find("w4.scale")->byteOffset, w4);
  EXPECT_EQ(source->find("w4.zero_point")->byteOffset, w4);
  EXPECT_EQ(source->find("w8")->byteOffset, w4 + 128);  // 6 blocks of 18 bytes, aligned to 32
}

TEST(WeightSourceGgufQuantized, EveryRangeOfEveryDerivedTensorIsComputedFromTheBlocks) {
  TempDir dir;
  const auto tensors = quantizedTensors();
  auto source = WeightSource::open(writeSample(dir, tensors));
  for (const auto& file : tensors) {
    if (file.type != kGgmlQ4_0 && file.type != kGgmlQ8_0) continue;
    const Derived derived = expectedDerived(file.data, file.type == kGgmlQ4_0);
    for (const char* suffix : {"", ".scale", ".zero_point"}) {
      const std::string name = file.name + suffix;
      const TensorInfo& t = *source->find(name);
      const Bytes& wanted = part(derived, name);
      ASSERT_EQ(t.byteLength, wanted.size()) << name;
      EXPECT_EQ(readTensor(*source, t), wanted) << name;
      Bytes raw(wanted.size());
      source->readRaw(t, 0, raw);
      EXPECT_EQ(raw, wanted) << name;
      // Every (offset, size) pair, odd ones included.
      size_t mismatches = 0;
      for (size_t offset = 0; offset <= wanted.size(); ++offset) {
        for (size_t size = 0; offset + size <= wanted.size(); ++size) {
          Bytes bytes(size, std::byte{0x5a});
          source->read(t, offset, bytes);
          if (!std::equal(bytes.begin(), bytes.end(), wanted.begin() + offset)) ++mismatches;
        }
      }
      EXPECT_EQ(mismatches, 0u) << name;
      Bytes one(1);
      expectError([&] { source->read(t, wanted.size(), one); }, Kind::TypeError,
                  {"'" + name + "'", "beyond its " + std::to_string(wanted.size()) + " bytes"});
    }
  }
}

TEST(WeightSourceGgufQuantized, ValuesTimesScalesAreGgmlsDequantization) {
  TempDir dir;
  const std::vector<float> floats = weightValues(4 * 64, 7);
  const Bytes q4 = quantizeQ4_0(floats), q8 = quantizeQ8_0(floats);
  auto source = WeightSource::open(
      writeSample(dir, {{"a", kGgmlQ4_0, {64, 4}, q4}, {"b", kGgmlQ8_0, {64, 4}, q8}}));
  for (const bool isQ4 : {true, false}) {
    const std::string name = isQ4 ? "a" : "b";
    const Bytes values = readTensor(*source, *source->find(name));
    const Bytes scaleBytes = readTensor(*source, *source->find(name + ".scale"));
    std::vector<float> scales(scaleBytes.size() / 2);  // float16, widened exactly
    for (size_t b = 0; b < scales.size(); ++b) {
      scales[b] =
          floatOfHalfBits(static_cast<uint16_t>(static_cast<uint16_t>(scaleBytes[2 * b]) |
                                                static_cast<uint16_t>(scaleBytes[2 * b + 1]) << 8));
    }
    const std::vector<float> ggml = isQ4 ? dequantizeQ4_0(q4) : dequantizeQ8_0(q8);
    ASSERT_EQ(ggml.size(), floats.size());
    for (size_t i = 0; i < floats.size(); ++i) {
      const auto byte = static_cast<uint8_t>(values[isQ4 ? i / 2 : i]);
      const int q = isQ4 ? ((i % 2 ? byte >> 4 : byte & 15) - 8) : static_cast<int8_t>(byte);
      ASSERT_EQ(static_cast<float>(q) * scales[i / 32], ggml[i]) << name << "[" << i << "]";
      // The quantizer's round trip: within a step of the float it was given.
      EXPECT_LE(std::fabs(ggml[i] - floats[i]), std::fabs(scales[i / 32]) * 1.01f + 1e-6f);
    }
  }
}

// A FileReader that records the size of every call.
class RecordingReader : public FileReader {
 public:
  ssize_t pread(int fd, void* buffer, size_t count, uint64_t offset) override {
    {
      std::lock_guard lock(mutex_);
      reads.emplace_back(offset, count);
    }
    return FileReader::pread(fd, buffer, count, offset);
  }
  std::vector<std::pair<uint64_t, size_t>> taken() {
    std::lock_guard lock(mutex_);
    return std::exchange(reads, {});
  }

 private:
  std::mutex mutex_;
  std::vector<std::pair<uint64_t, size_t>> reads;
};

TEST(WeightSourceGgufQuantized, LargeTensorIsReadInBoundedPieces) {
  TempDir dir;
  const Bytes blocks = quantizeQ4_0(weightValues(64 * 4096, 8));  // 147456 bytes
  const Derived derived = expectedDerived(blocks, true);
  const std::string path = writeSample(dir, {{"w", kGgmlQ4_0, {4096, 64}, blocks}});
  auto reader = std::make_shared<RecordingReader>();
  auto source = WeightSource::open(path, reader);
  reader->taken();
  for (const char* name : {"w", "w.scale"}) {
    const TensorInfo& t = *source->find(name);
    EXPECT_EQ(readTensor(*source, t), part(derived, name)) << name;
    const auto reads = reader->taken();
    EXPECT_GE(reads.size(), 3u) << name;
    for (const auto& [offset, count] : reads) EXPECT_LE(count, 64u * 1024) << name;
  }
  // Ranges around the pieces' boundaries (3640 blocks of 18 bytes), and partial reads.
  const TensorInfo& w = *source->find("w");
  for (const auto& [offset, size] : {std::pair<size_t, size_t>{3640 * 16 - 3, 40000},
                                     {7280 * 16 - 1, 131072 - (7280 * 16 - 1)},
                                     {1, 70000}}) {
    Bytes bytes(size);
    source->read(w, offset, bytes);
    EXPECT_TRUE(std::equal(bytes.begin(), bytes.end(), derived.values.begin() + offset)) << offset;
  }
  auto faulty = std::make_shared<FaultyReader>();
  faulty->maxPerCall = 1000;
  auto cut = WeightSource::open(path, faulty);
  EXPECT_EQ(readTensor(*cut, *cut->find("w")), derived.values);
}

TEST(WeightSourceGgufQuantized, ZeroDimensionStaysUnsupported) {
  TempDir dir;
  auto source = WeightSource::open(writeSample(dir, {{"e", kGgmlQ4_0, {32, 0}, {}}}));
  ASSERT_EQ(source->tensors().size(), 1u);
  const TensorInfo& t = source->tensors()[0];
  EXPECT_FALSE(t.supported);
  EXPECT_FALSE(t.derived);
  EXPECT_NE(t.unsupportedReason.find("zero dimension"), std::string::npos) << t.unsupportedReason;
}

TEST(WeightSourceGgufQuantized, NameCollisionsNameBothTensors) {
  TempDir dir;
  const Bytes block = quantizeQ4_0(weightValues(32, 9));
  std::string path = writeSample(
      dir, {{"w", kGgmlQ4_0, {32, 1}, block}, {"w.scale", kGgmlF32, {1, 1}, patternBytes(4, 1)}});
  expectOpenError(path, {path, "two tensors are named 'w.scale'", "the scales of q4_0 tensor 'w'",
                         "tensor 'w.scale' (f32)"});
  path = writeSample(dir, {{"w.zero_point", kGgmlI8, {1}, patternBytes(1, 1)},
                           {"w", kGgmlQ8_0, {32}, quantizeQ8_0(weightValues(32, 9))}});
  expectOpenError(path, {"two tensors are named 'w.zero_point'", "tensor 'w.zero_point' (i8)",
                         "the zero points of q8_0 tensor 'w'"});
  path = writeSample(dir, {{"a", kGgmlQ4_0, {32}, block}, {"a.scale", kGgmlQ4_0, {32}, block}});
  expectOpenError(path, {"two tensors are named 'a.scale'", "the scales of q4_0 tensor 'a'",
                         "the quantized values of q4_0 tensor 'a.scale'"});
}

TEST(WeightSourceGgufQuantized, TruncatedFileIsADataErrorAndTruncationSinceOpenAReadError) {
  TempDir dir;
  const Bytes blocks = quantizeQ4_0(weightValues(4 * 64, 10));
  const Bytes full = makeGguf({{"w", kGgmlQ4_0, {64, 4}, blocks}});
  const std::string path = writeBytes(dir, Bytes(full.begin(), full.end() - 5));
  expectOpenError(path, {path, "tensor 'w'", "beyond the end of the file"});

  writeFile(path, full);
  auto source = WeightSource::open(path);
  ASSERT_EQ(::truncate(path.c_str(), static_cast<off_t>(full.size() - 20)), 0);
  const TensorInfo& scale = *source->find("w.scale");
  Bytes bytes(scale.byteLength);
  expectError([&] { source->read(scale, 0, bytes); }, Kind::OperationError,
              {path, "'w.scale'", "q4_0 tensor 'w'", "was it truncated?"});
  Bytes first(8);  // the first blocks are still there
  source->read(scale, 0, first);
  const Bytes scales = expectedDerived(blocks, true).scales;
  EXPECT_EQ(first, Bytes(scales.begin(), scales.begin() + 8));
}

TEST(WeightSourceGgufQuantized, ReadFaultNamesBothTensorsAndRetrySucceeds) {
  TempDir dir;
  const Bytes blocks = quantizeQ8_0(weightValues(4 * 64, 11));
  const std::string path = writeSample(dir, {{"w", kGgmlQ8_0, {64, 4}, blocks}});
  auto reader = std::make_shared<FaultyReader>();
  auto source = WeightSource::open(path, reader);
  const TensorInfo& values = *source->find("w");
  const uint64_t bad = values.byteOffset + 100;
  reader->arm(FaultyReader::Fault::Eio, bad, bad + 1);
  Bytes bytes(values.byteLength);
  expectError([&] { source->read(values, 0, bytes); }, Kind::OperationError,
              {path, "'w'", "q8_0", "offset " + std::to_string(bad), "byte 100"});
  reader->disarm();
  source->read(values, 0, bytes);
  EXPECT_EQ(bytes, expectedDerived(blocks, false).values);
}

// ---- q4_0 and q8_0 weights loaded into a weightless graph ----

constexpr uint32_t kRows = 40, kColumns = 4096;  // [N, K]: 80 KiB of uint4, 160 KiB of int8

struct QuantizedModel {
  MLContext context;
  MLGraph graph;
  std::vector<float> x;

  explicit QuantizedModel(MLContext c) : context(std::move(c)), x(2 * kColumns) {
    using T = MLOperandDataType;
    for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 7) - 3.0f;
    MLGraphBuilder builder(context);
    const auto input = builder.input("x", {T::Float32, {2, kColumns}});
    const auto weight = [&](const std::string& name, T type) {
      const auto values = builder.constant({type, {kRows, kColumns}}, {.label = name});
      // The file's float16 scales, widened exactly by a cast.
      const auto scale = builder.cast(
          builder.constant({T::Float16, {kRows, kColumns / 32}}, {.label = name + ".scale"}),
          T::Float32);
      const auto zero =
          builder.constant({type, {kRows, kColumns / 32}}, {.label = name + ".zero_point"});
      return builder.dequantizeLinear(values, scale, zero);
    };
    const auto w4 = weight("w4", T::Uint4), w8 = weight("w8", T::Int8);
    const auto bias = builder.constant({T::Float32, {kRows}}, {.label = "bias"});
    graph = builder.build({{"w4", w4},
                           {"w8", w8},
                           {"y4", builder.add(builder.matmul(input, builder.transpose(w4)), bias)},
                           {"y8", builder.matmul(input, builder.transpose(w8))}});
  }

  std::map<std::string, std::vector<float>> run() {
    MLTensor in = inputTensor(context, graph.inputDescriptors().at("x"));
    context.writeTensor(in, bytesOf(x));
    MLNamedTensors outputs;
    for (const auto& [name, descriptor] : graph.outputDescriptors()) {
      outputs.emplace(name, outputTensor(context, descriptor));
    }
    context.dispatch(graph, {{"x", in}}, outputs);
    std::map<std::string, std::vector<float>> results;
    for (const auto& [name, tensor] : outputs) {
      results[name] = readAs<float>(context, tensor);
    }
    return results;
  }
};

struct QuantizedFile {
  Bytes q4, q8;
  std::vector<float> bias;
  std::string path;
};

QuantizedFile writeQuantized(const TempDir& dir, uint32_t seed) {
  QuantizedFile file;
  file.q4 = quantizeQ4_0(weightValues(size_t{kRows} * kColumns, seed));
  file.q8 = quantizeQ8_0(weightValues(size_t{kRows} * kColumns, seed + 1));
  for (uint32_t n = 0; n < kRows; ++n) file.bias.push_back(static_cast<float>(n) * 0.5f);
  Bytes bias(kRows * 4);
  std::memcpy(bias.data(), file.bias.data(), bias.size());
  file.path = dir.file("quantized-" + std::to_string(seed) + ".gguf");
  writeFile(file.path, makeGguf({{"bias", kGgmlF32, {kRows}, bias},
                                 {"w4", kGgmlQ4_0, {kColumns, kRows}, file.q4},
                                 {"w8", kGgmlQ8_0, {kColumns, kRows}, file.q8}}));
  return file;
}

// The dequantized weights exactly as ggml computes them; y within float32 rounding of x . w^T.
void expectGgmlResults(QuantizedModel& model, const QuantizedFile& file) {
  auto results = model.run();
  const std::vector<float> w4 = dequantizeQ4_0(file.q4), w8 = dequantizeQ8_0(file.q8);
  ASSERT_EQ(results["w4"].size(), w4.size());
  EXPECT_TRUE(results["w4"] == w4) << "w4 differs from ggml's dequantize_row_q4_0";
  EXPECT_TRUE(results["w8"] == w8) << "w8 differs from ggml's dequantize_row_q8_0";
  for (const bool isQ4 : {true, false}) {
    const std::vector<float>& w = isQ4 ? w4 : w8;
    const std::vector<float>& y = results[isQ4 ? "y4" : "y8"];
    ASSERT_EQ(y.size(), 2u * kRows);
    for (uint32_t m = 0; m < 2; ++m) {
      for (uint32_t n = 0; n < kRows; ++n) {
        double sum = isQ4 ? file.bias[n] : 0.0, magnitude = 0;
        for (uint32_t k = 0; k < kColumns; ++k) {
          const double term = double{model.x[m * kColumns + k]} * w[size_t{n} * kColumns + k];
          sum += term;
          magnitude += std::fabs(term);
        }
        ASSERT_NEAR(y[m * kRows + n], sum, 1e-5 * magnitude + 1e-6)
            << (isQ4 ? "y4[" : "y8[") << m << ", " << n << "]";
      }
    }
  }
}

LoadOptions loadOptions(uint32_t threads, uint64_t chunkBytes, bool allowMapping = false) {
  LoadOptions options;
  options.threads = threads;
  options.chunkBytes = chunkBytes;
  options.allowMapping = allowMapping;
  return options;
}

TEST(WeightSourceGgufQuantized, LoadConstantsComputesGgmlsDequantization) {
  TempDir dir;
  const QuantizedFile file = writeQuantized(dir, 20);
  auto source = WeightSource::open(file.path);
  for (const uint32_t threads : {1u, 4u}) {
    QuantizedModel model(createContext({.backend = "reference"}));
    model.graph.loadConstants(*source, loadOptions(threads, 1));  // the smallest chunks: 64 KiB
    EXPECT_TRUE(model.graph.pendingConstants().empty());
    expectGgmlResults(model, file);
  }
}

TEST(WeightSourceGgufQuantized, TinyChunksOfAStagingBackend) {
  TempDir dir;
  const QuantizedFile file = writeQuantized(dir, 21);
  auto source = WeightSource::open(file.path);
  struct Restore {
    ~Restore() { setTransformingBackendOptions({}); }
  } restore;
  for (const auto& [chunk, granularity] : {std::pair<uint64_t, uint64_t>{7, 1}, {1000, 3}}) {
    setTransformingBackendOptions(
        {.chunkBytes = chunk, .maxChunksInFlight = 4, .writeGranularity = granularity});
    resetTransformingStats();
    QuantizedModel model(createContext({.backend = kTransformingBackend}));
    ASSERT_EQ(loaderChunkBytes(model.graph, 1u << 20), chunk);
    model.graph.loadConstants(*source, loadOptions(3, 1));
    EXPECT_TRUE(model.graph.pendingConstants().empty());
    EXPECT_EQ(transformingStats().violations.load(), 0u);
    EXPECT_GT(transformingStats().stagedWrites.load(), 80u * 1024 / chunk);
    expectGgmlResults(model, file);
  }
}

TEST(WeightSourceGgufQuantized, AllowMappingNeverMapsADerivedTensor) {
  TempDir dir;
  const QuantizedFile file = writeQuantized(dir, 22);
  auto reader = std::make_shared<RecordingReader>();
  auto source = WeightSource::open(file.path, reader);
  reader->taken();
  QuantizedModel model(createContext({.backend = "reference"}));
  ASSERT_TRUE(keepsTheFilesLayout(model.graph));  // so "bias" can be mapped
  model.graph.loadConstants(*source, loadOptions(2, 1, true));
  EXPECT_TRUE(model.graph.pendingConstants().empty());
  const TensorInfo& bias = *source->find("bias");
  const TensorInfo& w4 = *source->find("w4");
  uint64_t biasReads = 0, w4Bytes = 0;
  for (const auto& [offset, count] : reader->taken()) {
    if (offset < bias.byteOffset + bias.byteLength && offset + count > bias.byteOffset) ++biasReads;
    if (offset >= w4.byteOffset && offset < source->find("w8")->byteOffset) w4Bytes += count;
  }
  EXPECT_EQ(biasReads, 0u);            // adopted: mapped, not read
  EXPECT_GE(w4Bytes, file.q4.size());  // the q4_0 blocks were read (for values and scales)
  expectGgmlResults(model, file);
  source.reset();  // the mapping outlives the source
  expectGgmlResults(model, file);
}

TEST(WeightSourceGgufQuantized, ReadErrorLeavesTheConstantPending) {
  TempDir dir;
  const QuantizedFile file = writeQuantized(dir, 23);
  auto reader = std::make_shared<FaultyReader>();
  auto source = WeightSource::open(file.path, reader);
  const uint64_t bad = source->find("w4")->byteOffset + 18 * 1000;
  reader->arm(FaultyReader::Fault::Eio, bad, bad + 1);
  QuantizedModel model(createContext({.backend = "reference"}));
  expectError([&] { model.graph.loadConstants(*source, loadOptions(1, 1)); }, Kind::OperationError,
              {"stays pending", "'w4", "offset " + std::to_string(bad)});
  EXPECT_FALSE(model.graph.pendingConstants().empty());
  reader->disarm();
  model.graph.loadConstants(*source);
  EXPECT_TRUE(model.graph.pendingConstants().empty());
  expectGgmlResults(model, file);
}

}  // namespace
}  // namespace webnn::testing
