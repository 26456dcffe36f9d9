// Generators of weight files for the tests of src/weights: every test file is written by these at
// test time into a temporary directory (no binaries in the repository).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <functional>
#include <initializer_list>

#include "webnn/weight_source.h"

namespace webnn::testing {

using Bytes = std::vector<std::byte>;

// A fresh directory under the test temp dir, removed with everything in it on destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

// `count` bytes of a deterministic pattern that differs with `seed` and with position.
Bytes patternBytes(size_t count, uint32_t seed);
void writeFile(const std::string& path, const Bytes& bytes);
void writeFile(const std::string& path, const std::string& text);
Bytes toBytes(const std::string& text);
// Reads a whole tensor through WeightSource::read().
Bytes readTensor(const WeightSource& source, const TensorInfo& tensor);

// Little-endian binary writer.
class ByteWriter {
 public:
  ByteWriter& u8(uint8_t v);
  ByteWriter& u16(uint16_t v);
  ByteWriter& u32(uint32_t v);
  ByteWriter& u64(uint64_t v);
  ByteWriter& raw(const void* data, size_t size);
  ByteWriter& raw(const Bytes& bytes) { return raw(bytes.data(), bytes.size()); }
  ByteWriter& raw(const std::string& text) { return raw(text.data(), text.size()); }
  ByteWriter& padTo(size_t alignment);
  const Bytes& bytes() const { return bytes_; }
  size_t size() const { return bytes_.size(); }

 private:
  Bytes bytes_;
};

// ---- safetensors ----
struct SafetensorsTensor {
  std::string name;
  std::string dtype;  // "F32", "BF16", ...
  std::vector<uint64_t> shape;
  Bytes data;
};
// A valid file: the tensors' data packed in order, the header padded with spaces to 8 bytes.
Bytes makeSafetensors(const std::vector<SafetensorsTensor>& tensors,
                      const std::string& metadataJson = "");
// A file with this exact header text and data section.
Bytes makeSafetensorsRaw(const std::string& header, const Bytes& data);

// ---- GGUF ----
enum GgufValueType : uint32_t {
  kGgufUint8 = 0,
  kGgufInt8 = 1,
  kGgufUint16 = 2,
  kGgufInt16 = 3,
  kGgufUint32 = 4,
  kGgufInt32 = 5,
  kGgufFloat32 = 6,
  kGgufBool = 7,
  kGgufString = 8,
  kGgufArray = 9,
  kGgufUint64 = 10,
  kGgufInt64 = 11,
  kGgufFloat64 = 12,
};
enum GgmlTypeId : uint32_t {
  kGgmlF32 = 0,
  kGgmlF16 = 1,
  kGgmlQ4_0 = 2,
  kGgmlQ4_1 = 3,
  kGgmlQ8_0 = 8,
  kGgmlQ4_K = 12,
  kGgmlI8 = 24,
  kGgmlI16 = 25,
  kGgmlI32 = 26,
  kGgmlI64 = 27,
  kGgmlF64 = 28,
  kGgmlBF16 = 30,
};
struct GgufTensor {
  std::string name;
  uint32_t type;
  std::vector<uint64_t> ggmlDims;  // fastest-varying first, as GGUF stores them
  Bytes data;
};
struct GgufOptions {
  uint32_t version = 3;
  uint32_t alignment = 32;  // written as general.alignment unless 32 and !writeAlignment
  bool writeAlignment = false;
  bool allMetadataTypes = true;  // add metadata of every value type, arrays and nested arrays
};
// A valid file: tensors laid out in order, each at a multiple of the alignment.
Bytes makeGguf(const std::vector<GgufTensor>& tensors, const GgufOptions& options = {});
// A GGUF string: u64 length + bytes.
void ggufString(ByteWriter& writer, const std::string& text);
// `values` (a multiple of 32 of them, row-major) as ggml's reference quantizers write them
// (ggml-quants.c quantize_row_q4_0_ref / quantize_row_q8_0_ref): per block of 32, a float16
// scale d, then q4_0: 16 bytes, byte j holding q[j] (low nibble) and q[j + 16] (high), value
// (q - 8) * d; q8_0: 32 int8 q, value q * d.
Bytes quantizeQ4_0(const std::vector<float>& values);
Bytes quantizeQ8_0(const std::vector<float>& values);
// ggml's dequantization of such blocks (dequantize_row_q4_0 / q8_0), in float32.
std::vector<float> dequantizeQ4_0(const Bytes& blocks);
std::vector<float> dequantizeQ8_0(const Bytes& blocks);
// IEEE binary16 bits of `value` rounded to nearest even, and back (NaN payloads kept): the tests'
// own conversions, independent of the library's.
uint16_t halfBitsOf(float value);
float floatOfHalfBits(uint16_t bits);

// ---- WebNN weights (rustnn/webnn-graph) ----
struct WebnnTensor {
  std::string name;
  std::string dataType;  // WebNN name: "float32", ...
  std::vector<uint64_t> shape;
  Bytes data;
};
struct WebnnFiles {
  std::string manifestJson;
  Bytes weights;
};
// Valid files: "WGWT" + version 1, tensors packed from offset 8 in the given order; the manifest
// lists tensors sorted by name (as webnn-graph's BTreeMap does), each with "layout": "row-major".
WebnnFiles makeWebnnWeights(const std::vector<WebnnTensor>& tensors);
// Writes <dir>/<stem>.manifest.json and <dir>/<stem>.weights; returns the .weights path.
std::string writeWebnnWeights(const TempDir& dir, const std::string& stem, const WebnnFiles& files);

// ---- fault injection ----
// A FileReader that can fail on demand, and can cut every read short.
class FaultyReader : public FileReader {
 public:
  enum class Fault { None, Eio, Eof, Eintr };
  ssize_t pread(int fd, void* buffer, size_t count, uint64_t offset) override;

  // Reads touching [begin, end) fail with `fault` while armed.
  void arm(Fault fault, uint64_t begin, uint64_t end);
  void disarm() { fault_ = Fault::None; }
  // Every call transfers at most this many bytes (0: no limit).
  std::atomic<size_t> maxPerCall{0};
  std::atomic<uint64_t> calls{0};
  std::atomic<uint64_t> faults{0};

 private:
  std::atomic<Fault> fault_{Fault::None};
  std::atomic<uint64_t> begin_{0}, end_{0};
};

// Runs `statement`; expects a webnn::Error of `kind` whose message contains every one of `parts`.
// Returns the message ("" when no such error was thrown).
std::string expectError(const std::function<void()>& statement, Error::Kind kind,
                        std::initializer_list<std::string> parts);

}  // namespace webnn::testing
