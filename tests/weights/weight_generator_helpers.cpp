#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>

#include <gtest/gtest.h>

#include "weight_generators.h"

namespace webnn::testing {

TempDir::TempDir() {
  std::string base = std::filesystem::temp_directory_path().string() + "/webnn-weights-XXXXXX";
  if (!::mkdtemp(base.data())) throw std::runtime_error("mkdtemp failed");
  path_ = base;
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

Bytes patternBytes(size_t count, uint32_t seed) {
  Bytes bytes(count);
  uint32_t state = seed * 2654435761u + 12345u;
  for (size_t i = 0; i < count; ++i) {
    state = state * 1664525u + 1013904223u;
    bytes[i] = static_cast<std::byte>(state >> 24);
  }
  return bytes;
}

void writeFile(const std::string& path, const Bytes& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + path);
}

void writeFile(const std::string& path, const std::string& text) {
  writeFile(path, toBytes(text));
}

Bytes toBytes(const std::string& text) {
  Bytes bytes(text.size());
  std::memcpy(bytes.data(), text.data(), text.size());
  return bytes;
}

Bytes readTensor(const WeightSource& source, const TensorInfo& tensor) {
  Bytes bytes(static_cast<size_t>(tensor.byteLength));
  source.read(tensor, 0, bytes);
  return bytes;
}

ByteWriter& ByteWriter::u8(uint8_t v) {
  return raw(&v, 1);
}
ByteWriter& ByteWriter::u16(uint16_t v) {
  const uint8_t b[2] = {static_cast<uint8_t>(v), static_cast<uint8_t>(v >> 8)};
  return raw(b, 2);
}
ByteWriter& ByteWriter::u32(uint32_t v) {
  uint8_t b[4];
  for (int i = 0; i < 4; ++i) b[i] = static_cast<uint8_t>(v >> (8 * i));
  return raw(b, 4);
}
ByteWriter& ByteWriter::u64(uint64_t v) {
  uint8_t b[8];
  for (int i = 0; i < 8; ++i) b[i] = static_cast<uint8_t>(v >> (8 * i));
  return raw(b, 8);
}
ByteWriter& ByteWriter::raw(const void* data, size_t size) {
  const auto* p = static_cast<const std::byte*>(data);
  bytes_.insert(bytes_.end(), p, p + size);
  return *this;
}
ByteWriter& ByteWriter::padTo(size_t alignment) {
  while (bytes_.size() % alignment != 0) bytes_.push_back(std::byte{0});
  return *this;
}

namespace {

std::string shapeJson(const std::vector<uint64_t>& shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) text += (i ? "," : "") + std::to_string(shape[i]);
  return text + "]";
}

}  // namespace

Bytes makeSafetensors(const std::vector<SafetensorsTensor>& tensors,
                      const std::string& metadataJson) {
  std::string header = "{";
  if (!metadataJson.empty()) header += "\"__metadata__\":" + metadataJson;
  Bytes data;
  for (const auto& t : tensors) {
    if (header.size() > 1) header += ",";
    header += "\"" + t.name + "\":{\"dtype\":\"" + t.dtype + "\",\"shape\":" + shapeJson(t.shape) +
              ",\"data_offsets\":[" + std::to_string(data.size()) + "," +
              std::to_string(data.size() + t.data.size()) + "]}";
    data.insert(data.end(), t.data.begin(), t.data.end());
  }
  header += "}";
  while (header.size() % 8 != 0) header += ' ';
  return makeSafetensorsRaw(header, data);
}

Bytes makeSafetensorsRaw(const std::string& header, const Bytes& data) {
  ByteWriter writer;
  writer.u64(header.size()).raw(header).raw(data);
  return writer.bytes();
}

void ggufString(ByteWriter& writer, const std::string& text) {
  writer.u64(text.size()).raw(text);
}

Bytes makeGguf(const std::vector<GgufTensor>& tensors, const GgufOptions& options) {
  ByteWriter w;
  const bool writeAlignment = options.writeAlignment || options.alignment != 32;
  uint64_t kvCount = (writeAlignment ? 1 : 0) + (options.allMetadataTypes ? 15 : 0);
  w.raw("GGUF").u32(options.version).u64(tensors.size()).u64(kvCount);
  if (options.allMetadataTypes) {
    ggufString(w, "general.architecture");
    w.u32(kGgufString);
    ggufString(w, "llama");
    ggufString(w, "test.u8");
    w.u32(kGgufUint8).u8(7);
    ggufString(w, "test.i8");
    w.u32(kGgufInt8).u8(0xff);
    ggufString(w, "test.u16");
    w.u32(kGgufUint16).u16(1234);
    ggufString(w, "test.i16");
    w.u32(kGgufInt16).u16(0xfffe);
    ggufString(w, "test.u32");
    w.u32(kGgufUint32).u32(123456);
    ggufString(w, "test.i32");
    w.u32(kGgufInt32).u32(0xfffffff0);
    ggufString(w, "test.f32");
    w.u32(kGgufFloat32).u32(0x3f800000);
    ggufString(w, "test.bool");
    w.u32(kGgufBool).u8(1);
    ggufString(w, "test.u64");
    w.u32(kGgufUint64).u64(1ull << 40);
    ggufString(w, "test.i64");
    w.u32(kGgufInt64).u64(~0ull);
    ggufString(w, "test.f64");
    w.u32(kGgufFloat64).u64(0x3ff0000000000000ull);
    ggufString(w, "tokenizer.ggml.tokens");  // array of strings
    w.u32(kGgufArray).u32(kGgufString).u64(3);
    ggufString(w, "<s>");
    ggufString(w, "");
    ggufString(w, "hello world");
    ggufString(w, "test.array_u32");
    w.u32(kGgufArray).u32(kGgufUint32).u64(4).u32(1).u32(2).u32(3).u32(4);
    ggufString(w, "test.nested");  // array of 2 arrays: [u16 x2], [string x1]
    w.u32(kGgufArray).u32(kGgufArray).u64(2);
    w.u32(kGgufUint16).u64(2).u16(1).u16(2);
    w.u32(kGgufString).u64(1);
    ggufString(w, "nested");
  }
  if (writeAlignment) {
    ggufString(w, "general.alignment");
    w.u32(kGgufUint32).u32(options.alignment);
  }
  uint64_t offset = 0;
  std::vector<uint64_t> offsets;
  for (const auto& t : tensors) {
    ggufString(w, t.name);
    w.u32(static_cast<uint32_t>(t.ggmlDims.size()));
    for (uint64_t d : t.ggmlDims) w.u64(d);
    w.u32(t.type).u64(offset);
    offsets.push_back(offset);
    offset += t.data.size();
    offset = (offset + options.alignment - 1) / options.alignment * options.alignment;
  }
  w.padTo(options.alignment);
  const size_t dataStart = w.size();
  for (size_t i = 0; i < tensors.size(); ++i) {
    while (w.size() < dataStart + offsets[i]) w.u8(0);
    w.raw(tensors[i].data);
  }
  return w.bytes();
}

uint16_t halfBitsOf(float value) {
  const auto bits = std::bit_cast<uint32_t>(value);
  const auto sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  const uint32_t absolute = bits & 0x7fffffffu;
  if (absolute > 0x7f800000u) return static_cast<uint16_t>(sign | 0x7e00u);   // NaN
  if (absolute >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // 65520 and up: inf
  if (absolute < 0x38800000u) {  // below 2^-14: a subnormal, in units of 2^-24 (exact scaling)
    return static_cast<uint16_t>(
        sign | static_cast<uint16_t>(std::nearbyint(std::fabs(value) * 16777216.0f)));
  }
  const uint32_t rounded = absolute + 0xfffu + ((absolute >> 13) & 1u);  // to nearest even
  return static_cast<uint16_t>(sign | ((rounded - 0x38000000u) >> 13));
}

float floatOfHalfBits(uint16_t bits) {
  const uint32_t sign = static_cast<uint32_t>(bits & 0x8000u) << 16;
  const uint32_t exponent = (bits >> 10) & 0x1fu;
  const uint32_t mantissa = bits & 0x3ffu;
  if (exponent == 0x1f) return std::bit_cast<float>(sign | 0x7f800000u | mantissa << 13);
  const float magnitude = exponent == 0 ? std::ldexp(static_cast<float>(mantissa), -24)
                                        : std::ldexp(static_cast<float>(mantissa | 0x400u),
                                                     static_cast<int>(exponent) - 25);
  return sign ? -magnitude : magnitude;
}

namespace {

void appendHalf(Bytes& bytes, uint16_t half) {
  bytes.push_back(static_cast<std::byte>(half & 0xff));
  bytes.push_back(static_cast<std::byte>(half >> 8));
}

uint16_t halfAt(const Bytes& bytes, size_t at) {
  return static_cast<uint16_t>(static_cast<uint16_t>(bytes[at]) |
                               static_cast<uint16_t>(bytes[at + 1]) << 8);
}

}  // namespace

Bytes quantizeQ4_0(const std::vector<float>& values) {
  if (values.size() % 32 != 0) throw std::logic_error("q4_0: not a multiple of 32 values");
  Bytes bytes;
  for (size_t block = 0; block < values.size(); block += 32) {
    const float* x = values.data() + block;
    float amax = 0, max = 0;
    for (int j = 0; j < 32; ++j) {
      if (amax < std::fabs(x[j])) {
        amax = std::fabs(x[j]);
        max = x[j];
      }
    }
    const float d = max / -8;
    const float id = d != 0 ? 1.0f / d : 0.0f;
    appendHalf(bytes, halfBitsOf(d));
    for (int j = 0; j < 16; ++j) {
      const auto q0 = std::min<int>(15, static_cast<int8_t>(x[j] * id + 8.5f));
      const auto q1 = std::min<int>(15, static_cast<int8_t>(x[16 + j] * id + 8.5f));
      bytes.push_back(static_cast<std::byte>(q0 | q1 << 4));
    }
  }
  return bytes;
}

Bytes quantizeQ8_0(const std::vector<float>& values) {
  if (values.size() % 32 != 0) throw std::logic_error("q8_0: not a multiple of 32 values");
  Bytes bytes;
  for (size_t block = 0; block < values.size(); block += 32) {
    const float* x = values.data() + block;
    float amax = 0;
    for (int j = 0; j < 32; ++j) amax = std::max(amax, std::fabs(x[j]));
    const float d = amax / 127;
    const float id = d != 0 ? 1.0f / d : 0.0f;
    appendHalf(bytes, halfBitsOf(d));
    for (int j = 0; j < 32; ++j) {
      bytes.push_back(static_cast<std::byte>(static_cast<int8_t>(std::round(x[j] * id))));
    }
  }
  return bytes;
}

std::vector<float> dequantizeQ4_0(const Bytes& blocks) {
  std::vector<float> values;
  for (size_t at = 0; at + 18 <= blocks.size(); at += 18) {
    const float d = floatOfHalfBits(halfAt(blocks, at));
    std::vector<float> block(32);
    for (int j = 0; j < 16; ++j) {
      const auto byte = static_cast<int>(blocks[at + 2 + j]);
      block[j] = static_cast<float>((byte & 0x0f) - 8) * d;
      block[j + 16] = static_cast<float>((byte >> 4) - 8) * d;
    }
    values.insert(values.end(), block.begin(), block.end());
  }
  return values;
}

std::vector<float> dequantizeQ8_0(const Bytes& blocks) {
  std::vector<float> values;
  for (size_t at = 0; at + 34 <= blocks.size(); at += 34) {
    const float d = floatOfHalfBits(halfAt(blocks, at));
    for (int j = 0; j < 32; ++j) {
      values.push_back(static_cast<float>(static_cast<int8_t>(blocks[at + 2 + j])) * d);
    }
  }
  return values;
}

WebnnFiles makeWebnnWeights(const std::vector<WebnnTensor>& tensors) {
  WebnnFiles files;
  ByteWriter w;
  w.raw("WGWT").u32(1);
  std::map<std::string, std::string> entries;  // sorted by name, as webnn-graph writes them
  for (const auto& t : tensors) {
    entries[t.name] = "{\n      \"dataType\": \"" + t.dataType +
                      "\",\n      \"shape\": " + shapeJson(t.shape) +
                      ",\n      \"byteOffset\": " + std::to_string(w.size()) +
                      ",\n      \"byteLength\": " + std::to_string(t.data.size()) +
                      ",\n      \"layout\": \"row-major\"\n    }";
    w.raw(t.data);
  }
  std::string json =
      "{\n  \"format\": \"wg-weights-manifest\",\n  \"version\": 1,\n  \"endianness\": "
      "\"little\",\n  \"tensors\": {";
  bool first = true;
  for (const auto& [name, entry] : entries) {
    json += (first ? "\n    \"" : ",\n    \"") + name + "\": " + entry;
    first = false;
  }
  json += "\n  }\n}\n";
  files.manifestJson = json;
  files.weights = w.bytes();
  return files;
}

std::string writeWebnnWeights(const TempDir& dir, const std::string& stem,
                              const WebnnFiles& files) {
  writeFile(dir.file(stem + ".manifest.json"), files.manifestJson);
  const std::string weights = dir.file(stem + ".weights");
  writeFile(weights, files.weights);
  return weights;
}

ssize_t FaultyReader::pread(int fd, void* buffer, size_t count, uint64_t offset) {
  ++calls;
  const Fault fault = fault_.load();
  if (fault != Fault::None && offset < end_.load() && offset + count > begin_.load()) {
    // Deliver the bytes before the faulty range, then fail.
    if (offset < begin_.load()) {
      count = static_cast<size_t>(begin_.load() - offset);
    } else {
      ++faults;
      switch (fault) {
        case Fault::Eio:
          errno = EIO;
          return -1;
        case Fault::Eof:
          return 0;
        case Fault::Eintr:
          fault_ = Fault::None;  // once
          errno = EINTR;
          return -1;
        case Fault::None:
          break;
      }
    }
  }
  const size_t limit = maxPerCall.load();
  if (limit != 0 && count > limit) count = limit;
  return FileReader::pread(fd, buffer, count, offset);
}

void FaultyReader::arm(Fault fault, uint64_t begin, uint64_t end) {
  begin_ = begin;
  end_ = end;
  fault_ = fault;
}

std::string expectError(const std::function<void()>& statement, Error::Kind kind,
                        std::initializer_list<std::string> parts) {
  try {
    statement();
  } catch (const Error& error) {
    EXPECT_EQ(static_cast<int>(error.kind()), static_cast<int>(kind))
        << "wrong kind " << error.name() << ": " << error.message();
    for (const auto& part : parts) {
      EXPECT_NE(error.message().find(part), std::string::npos)
          << "message \"" << error.message() << "\" does not contain \"" << part << "\"";
    }
    return error.message();
  } catch (const std::exception& other) {
    ADD_FAILURE() << "threw a non-webnn exception: " << other.what();
    return "";
  }
  ADD_FAILURE() << "threw nothing";
  return "";
}

}  // namespace webnn::testing
