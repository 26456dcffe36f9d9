// GGUF (llama.cpp, https://github.com/ggml-org/ggml/blob/master/docs/gguf.md), versions 2 and 3,
// little-endian:
//   "GGUF", u32 version, u64 tensor_count, u64 metadata_kv_count,
//   metadata: {string key, u32 value_type, value}*,
//   tensor infos: {string name, u32 n_dims, u64 dims[n_dims] (fastest-varying first), u32 type,
//                  u64 offset (relative to the data section, a multiple of the alignment)}*,
//   padding to general.alignment (default 32), then the data section.
// Strings are a u64 length and that many bytes.
//
// q4_0 and q8_0 tensors (ggml-quants.c: blocks of 32 elements along the innermost dimension, a
// float16 scale d then the quantized values; q4_0: 16 bytes, byte j holding element j in its low
// nibble and element j + 16 in its high one, value (q - 8) * d; q8_0: 32 int8, value q * d) are
// listed as the three derived tensors of dequantizeLinear (TensorInfo::derived): "X" (uint4 or
// int8), "X.scale" (float16: the blocks' d as stored, so a graph reads them through a cast to
// float32, dequantizing exactly as ggml does) and "X.zero_point" (uint4 8 or int8 0), computed
// on read from the blocks that cover the requested range, 64 KiB of them at a time.
#include <algorithm>
#include <cstring>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "file_reader.h"
#include "formats.h"

namespace webnn::weights {
namespace {

constexpr uint32_t kDefaultAlignment = 32;
constexpr uint32_t kMaxDims = 4;  // GGML_MAX_DIMS
constexpr int kMaxArrayNesting = 8;
constexpr size_t kBufferBytes = 64 * 1024;

enum ValueType : uint32_t {
  kUint8 = 0,
  kInt8 = 1,
  kUint16 = 2,
  kInt16 = 3,
  kUint32 = 4,
  kInt32 = 5,
  kFloat32 = 6,
  kBool = 7,
  kString = 8,
  kArray = 9,
  kUint64 = 10,
  kInt64 = 11,
  kFloat64 = 12,
};

// Bytes of a fixed-size value type; 0 for strings, arrays and unknown types.
uint32_t valueSize(uint32_t type) {
  switch (type) {
    case kUint8:
    case kInt8:
    case kBool:
      return 1;
    case kUint16:
    case kInt16:
      return 2;
    case kUint32:
    case kInt32:
    case kFloat32:
      return 4;
    case kUint64:
    case kInt64:
    case kFloat64:
      return 8;
    default:
      return 0;
  }
}

struct GgmlType {
  const char* name;  // nullptr: no such type (removed or never assigned)
  uint32_t blockElements;
  uint32_t blockBytes;
  std::optional<MLOperandDataType> webnn;  // the values' type; derived tensors for q4_0 and q8_0
};

constexpr uint32_t kQuantBlock = 32;  // elements per q4_0 and q8_0 block

// ggml_type, by value: name, elements per block, bytes per block.
constexpr GgmlType kGgmlTypes[] = {
    {"f32", 1, 4, MLOperandDataType::Float32},   // 0
    {"f16", 1, 2, MLOperandDataType::Float16},   // 1
    {"q4_0", 32, 18, MLOperandDataType::Uint4},  // 2 (derived tensors)
    {"q4_1", 32, 20, std::nullopt},              // 3
    {nullptr, 0, 0, std::nullopt},               // 4 (q4_2, removed)
    {nullptr, 0, 0, std::nullopt},               // 5 (q4_3, removed)
    {"q5_0", 32, 22, std::nullopt},              // 6
    {"q5_1", 32, 24, std::nullopt},              // 7
    {"q8_0", 32, 34, MLOperandDataType::Int8},   // 8 (derived tensors)
    {"q8_1", 32, 36, std::nullopt},              // 9
    {"q2_K", 256, 84, std::nullopt},             // 10
    {"q3_K", 256, 110, std::nullopt},            // 11
    {"q4_K", 256, 144, std::nullopt},            // 12
    {"q5_K", 256, 176, std::nullopt},            // 13
    {"q6_K", 256, 210, std::nullopt},            // 14
    {"q8_K", 256, 292, std::nullopt},            // 15
    {"iq2_xxs", 256, 66, std::nullopt},          // 16
    {"iq2_xs", 256, 74, std::nullopt},           // 17
    {"iq3_xxs", 256, 98, std::nullopt},          // 18
    {"iq1_s", 256, 50, std::nullopt},            // 19
    {"iq4_nl", 32, 18, std::nullopt},            // 20
    {"iq3_s", 256, 110, std::nullopt},           // 21
    {"iq2_s", 256, 82, std::nullopt},            // 22
    {"iq4_xs", 256, 136, std::nullopt},          // 23
    {"i8", 1, 1, MLOperandDataType::Int8},       // 24
    {"i16", 1, 2, std::nullopt},                 // 25
    {"i32", 1, 4, MLOperandDataType::Int32},     // 26
    {"i64", 1, 8, MLOperandDataType::Int64},     // 27
    {"f64", 1, 8, std::nullopt},                 // 28
    {"iq1_m", 256, 56, std::nullopt},            // 29
    {"bf16", 1, 2, std::nullopt},                // 30
    {nullptr, 0, 0, std::nullopt},               // 31 (q4_0_4_4, removed)
    {nullptr, 0, 0, std::nullopt},               // 32 (q4_0_4_8, removed)
    {nullptr, 0, 0, std::nullopt},               // 33 (q4_0_8_8, removed)
    {"tq1_0", 256, 54, std::nullopt},            // 34
    {"tq2_0", 256, 66, std::nullopt},            // 35
    {nullptr, 0, 0, std::nullopt},               // 36 (iq4_nl_4_4, removed)
    {nullptr, 0, 0, std::nullopt},               // 37 (iq4_nl_4_8, removed)
    {nullptr, 0, 0, std::nullopt},               // 38 (iq4_nl_8_8, removed)
    {"mxfp4", 32, 17, std::nullopt},             // 39
};

const GgmlType* findGgmlType(uint32_t type) {
  if (type >= std::size(kGgmlTypes) || !kGgmlTypes[type].name) return nullptr;
  return &kGgmlTypes[type];
}

// Sequential reads of the header through the FileReader, buffered, bounded by the file size.
class Cursor {
 public:
  Cursor(FileReader& reader, int fd, uint64_t fileSize, const std::string& file)
      : reader_(reader), fd_(fd), fileSize_(fileSize), file_(file) {}

  uint64_t position() const { return position_; }
  uint64_t remaining() const { return fileSize_ - position_; }

  // Checks that `count` more bytes exist, naming `what` if not.
  void require(uint64_t count, const std::string& what) const {
    if (count > remaining()) {
      throwDataError(file_, "truncated: " + what + " at offset " + std::to_string(position_) +
                                " needs " + std::to_string(count) +
                                " bytes, but the file ends at " + std::to_string(fileSize_));
    }
  }

  void read(void* destination, size_t count, const std::string& what) {
    require(count, what);
    auto* out = static_cast<std::byte*>(destination);
    while (count > 0) {
      if (position_ < bufferStart_ || position_ >= bufferStart_ + buffer_.size()) {
        if (count >= kBufferBytes) {  // large: straight into the destination
          readAt(out, count, position_, what);
          position_ += count;
          return;
        }
        fill(count, what);
      }
      const size_t at = static_cast<size_t>(position_ - bufferStart_);
      const size_t n = std::min(count, buffer_.size() - at);
      std::memcpy(out, buffer_.data() + at, n);
      out += n;
      count -= n;
      position_ += n;
    }
  }

  template <typename T>
  T get(const std::string& what) {
    uint8_t bytes[sizeof(T)];
    read(bytes, sizeof(T), what);
    uint64_t value = 0;
    for (size_t i = sizeof(T); i-- > 0;) value = value << 8 | bytes[i];
    return static_cast<T>(value);
  }

  void skip(uint64_t count, const std::string& what) {
    require(count, what);
    position_ += count;
  }

  uint64_t stringLength(const std::string& what) {
    const uint64_t length = get<uint64_t>("the length of " + what);
    require(length, what + " (" + std::to_string(length) + " bytes)");
    return length;
  }
  std::string string(const std::string& what) {
    std::string text(static_cast<size_t>(stringLength(what)), '\0');
    read(text.data(), text.size(), what);
    return text;
  }
  void skipString(const std::string& what) { position_ += stringLength(what); }

 private:
  // Reads ahead up to kBufferBytes, but needs only `needed` of them: a failure past those (in the
  // tensor data after the header, say) is not the header's problem and just shortens the buffer.
  void fill(size_t needed, const std::string& what) {
    const size_t n = static_cast<size_t>(std::min<uint64_t>(kBufferBytes, remaining()));
    buffer_.resize(n);
    bufferStart_ = position_;
    if (const auto failure = preadExact(reader_, fd_, buffer_.data(), n, position_)) {
      const uint64_t got = failure->offset - position_;
      if (got < needed) fail(*failure, what);
      buffer_.resize(static_cast<size_t>(got));
    }
  }
  void readAt(std::byte* destination, size_t count, uint64_t offset, const std::string& what) {
    if (const auto failure = preadExact(reader_, fd_, destination, count, offset)) {
      fail(*failure, what);
    }
  }
  [[noreturn]] void fail(const ReadFailure& failure, const std::string& what) {
    throwOperationError(file_ + ": reading the GGUF header (" + what + ") failed at offset " +
                        std::to_string(failure.offset) + ": " + describeFailure(failure));
  }

  FileReader& reader_;
  int fd_;
  uint64_t fileSize_;
  const std::string& file_;
  uint64_t position_ = 0;
  std::vector<std::byte> buffer_;
  uint64_t bufferStart_ = 0;
};

class GgufSource : public WeightSource {
 public:
  GgufSource(const std::string& path, OpenedFile file, std::shared_ptr<FileReader> reader)
      : WeightSource(path, path, file.handle.release(), file.size, std::move(reader)) {
    parse();
  }
  std::string_view formatName() const override { return "gguf"; }

 private:
  void parse() {
    const std::string& file = filePath();
    Cursor cursor(reader(), fileDescriptor(), fileSize(), file);
    char magic[4];
    cursor.read(magic, 4, "the magic");
    if (std::memcmp(magic, "GGUF", 4) != 0) throwDataError(file, "not a GGUF file (bad magic)");
    const uint32_t version = cursor.get<uint32_t>("the version");
    if (version != 2 && version != 3) {
      const uint32_t swapped = __builtin_bswap32(version);
      if (swapped >= 1 && swapped <= 3) {
        throwDataError(file, "a big-endian GGUF file, which is not supported");
      }
      if (version == 1) {
        throwDataError(file, "GGUF version 1 is not supported (versions 2 and 3 are)");
      }
      throwDataError(file, "unsupported GGUF version " + std::to_string(version) +
                               " (versions 2 and 3 are supported)");
    }
    const uint64_t tensorCount = cursor.get<uint64_t>("the tensor count");
    const uint64_t kvCount = cursor.get<uint64_t>("the metadata count");
    // Every metadata entry takes at least 13 bytes (key length, type, a 1-byte value), every
    // tensor info at least 24 (name length, n_dims, type, offset): bound the counts by the file
    // before trusting them.
    if (kvCount > cursor.remaining() / 13) {
      throwDataError(file, "the metadata count " + std::to_string(kvCount) +
                               " cannot fit in the file (" + std::to_string(fileSize()) +
                               " bytes)");
    }
    if (tensorCount > cursor.remaining() / 24) {
      throwDataError(file, "the tensor count " + std::to_string(tensorCount) +
                               " cannot fit in the file (" + std::to_string(fileSize()) +
                               " bytes)");
    }

    uint32_t alignment = kDefaultAlignment;
    std::unordered_set<std::string> keys;
    for (uint64_t i = 0; i < kvCount; ++i) {
      std::string key = cursor.string("the key of metadata entry " + std::to_string(i));
      const uint32_t type = cursor.get<uint32_t>("the type of metadata " + quoteName(key));
      if (key == "general.alignment") {
        alignment = readAlignment(cursor, type);
      } else {
        skipValue(cursor, type, key, 0);
      }
      if (!keys.insert(key).second) {
        throwDataError(file, "metadata key " + quoteName(key) + " appears twice");
      }
    }
    if (tensorCount > cursor.remaining() / 24) {
      throwDataError(file, "the tensor count " + std::to_string(tensorCount) +
                               " cannot fit in what remains of the file after the metadata");
    }

    struct RawInfo {
      TensorInfo info;
      uint64_t relativeOffset;
    };
    std::vector<RawInfo> infos;
    infos.reserve(static_cast<size_t>(tensorCount));
    for (uint64_t i = 0; i < tensorCount; ++i) {
      RawInfo raw;
      TensorInfo& t = raw.info;
      t.name = cursor.string("the name of tensor " + std::to_string(i));
      const auto fail = [&](const std::string& what) {
        throwDataError(file, "tensor " + quoteName(t.name) + " " + what);
      };
      const uint32_t nDims = cursor.get<uint32_t>("the rank of tensor " + quoteName(t.name));
      if (nDims > kMaxDims) {
        fail("has " + std::to_string(nDims) + " dimensions; GGUF allows at most " +
             std::to_string(kMaxDims));
      }
      t.shape.resize(nDims);
      for (uint32_t d = 0; d < nDims; ++d) {
        const uint64_t dimension =
            cursor.get<uint64_t>("the dimensions of tensor " + quoteName(t.name));
        if (dimension > UINT32_MAX) {
          fail("has dimension " + std::to_string(dimension) +
               ", larger than WebNN's limit of 4294967295");
        }
        t.shape[nDims - 1 - d] = static_cast<uint32_t>(dimension);  // WebNN: slowest first
      }
      const uint32_t type = cursor.get<uint32_t>("the type of tensor " + quoteName(t.name));
      raw.relativeOffset = cursor.get<uint64_t>("the offset of tensor " + quoteName(t.name));
      if (raw.relativeOffset % alignment != 0) {
        fail("has offset " + std::to_string(raw.relativeOffset) +
             ", not a multiple of the alignment " + std::to_string(alignment));
      }
      const GgmlType* ggml = findGgmlType(type);
      const auto count = elementCount(t.shape);
      if (!count) fail("has shape " + shapeToString(t.shape) + " whose size overflows");
      if (!ggml) {
        t.fileDataType = "ggml type " + std::to_string(type);
        t.supported = false;
        t.unsupportedReason =
            "tensor " + quoteName(t.name) + " has the unknown GGML type " + std::to_string(type);
        t.byteLength = 0;  // unknown
      } else {
        t.fileDataType = ggml->name;
        const uint64_t innermost = nDims ? t.shape.back() : 1;
        if (innermost % ggml->blockElements != 0) {
          fail("is " + t.fileDataType + " with innermost dimension " + std::to_string(innermost) +
               ", not a multiple of its block of " + std::to_string(ggml->blockElements));
        }
        if (!checkedMul(*count / ggml->blockElements, ggml->blockBytes, t.byteLength)) {
          fail("has shape " + shapeToString(t.shape) + " whose size overflows");
        }
        if (!ggml->webnn) {
          t.supported = false;
          t.unsupportedReason = "tensor " + quoteName(t.name) + " has GGML type " + t.fileDataType +
                                " (" + std::to_string(type) + "), which has no WebNN data type";
        } else {
          t.dataType = *ggml->webnn;
          for (uint32_t dimension : t.shape) {
            if (dimension == 0) {
              t.supported = false;
              t.unsupportedReason = "tensor " + quoteName(t.name) + " (" + t.fileDataType + " " +
                                    shapeToString(t.shape) +
                                    ") has a zero dimension, which WebNN does not allow";
              break;
            }
          }
        }
      }
      if (!t.supported) t.dataType = MLOperandDataType::Uint8;
      infos.push_back(std::move(raw));
    }

    const uint64_t headerEnd = cursor.position();
    const uint64_t dataStart = headerEnd + (alignment - headerEnd % alignment) % alignment;
    std::vector<TensorInfo> tensors;
    tensors.reserve(infos.size());
    bool quantized = false;
    for (auto& raw : infos) {
      if (!checkedAdd(dataStart, raw.relativeOffset, raw.info.byteOffset)) {
        throwDataError(file, "tensor " + quoteName(raw.info.name) + " has offset " +
                                 std::to_string(raw.relativeOffset) + ", which overflows");
      }
      quantized = quantized || isQuantized(raw.info);
      tensors.push_back(std::move(raw.info));
    }
    // The file's own ranges (q4_0 and q8_0 ones included) checked: inside the file, no overlap.
    setTensors(std::move(tensors));
    if (!quantized) return;

    // Then each q4_0 and q8_0 tensor replaced by its derived tensors.
    std::vector<TensorInfo> listed;
    std::unordered_map<std::string, std::string> origins;  // name -> what it is, for collisions
    const auto add = [&](TensorInfo t, std::string origin) {
      const auto [it, inserted] = origins.emplace(t.name, origin);
      if (!inserted) {
        throwDataError(file, "two tensors are named " + quoteName(t.name) + ": " + it->second +
                                 " and " + origin);
      }
      listed.push_back(std::move(t));
    };
    for (const TensorInfo& t : WeightSource::tensors()) {  // (`tensors` was moved)
      if (isQuantized(t)) {
        addDerived(t, add);
      } else {
        add(t, "tensor " + quoteName(t.name) + " (" + t.fileDataType + ")");
      }
    }
    setTensors(std::move(listed));
  }

  // A q4_0 or q8_0 tensor that WebNN can hold (no zero dimension), before it is derived.
  static bool isQuantized(const TensorInfo& t) {
    return t.supported && !t.derived && (t.fileDataType == "q4_0" || t.fileDataType == "q8_0");
  }

  // The three derived tensors of the q4_0 or q8_0 tensor `t` (its file range in byteOffset and
  // byteLength, already checked against the file).
  template <class Add>
  void addDerived(const TensorInfo& t, Add& add) {
    const bool q4 = t.fileDataType == "q4_0";
    const uint64_t blocks = t.byteLength / (q4 ? 18 : 34);
    const std::string of = " of " + t.fileDataType + " tensor " + quoteName(t.name);
    TensorInfo values = t;  // name, shape, fileDataType, byteOffset
    values.derived = true;
    values.dataType = q4 ? MLOperandDataType::Uint4 : MLOperandDataType::Int8;
    values.byteLength = blocks * (q4 ? 16 : 32);
    TensorInfo scales = values;
    scales.name = t.name + ".scale";
    scales.dataType = MLOperandDataType::Float16;
    scales.shape.back() /= kQuantBlock;
    scales.byteLength = blocks * 2;
    TensorInfo zeroPoints = scales;
    zeroPoints.name = t.name + ".zero_point";
    zeroPoints.dataType = values.dataType;
    zeroPoints.byteLength = q4 ? (blocks + 1) / 2 : blocks;
    const std::string valuesName = values.name;
    derivations_[values.name] = {Part::Values, q4, t.byteOffset, blocks, valuesName};
    derivations_[scales.name] = {Part::Scales, q4, t.byteOffset, blocks, valuesName};
    derivations_[zeroPoints.name] = {Part::ZeroPoints, q4, t.byteOffset, blocks, valuesName};
    add(std::move(values), "the quantized values" + of);
    add(std::move(scales), "the scales" + of);
    add(std::move(zeroPoints), "the zero points" + of);
  }

  void readDerived(const TensorInfo& t, uint64_t offsetInTensor,
                   std::span<std::byte> destination) const override {
    const auto found = derivations_.find(t.name);
    if (found == derivations_.end()) {
      WeightSource::readDerived(t, offsetInTensor, destination);  // throws
      return;
    }
    const Derivation& d = found->second;
    if (destination.empty()) return;
    if (d.part == Part::ZeroPoints) {
      // q4_0: two 8s a byte (an odd count leaves the last high nibble 0); q8_0: zeros.
      std::fill(destination.begin(), destination.end(),
                std::byte{d.q4 ? uint8_t{0x88} : uint8_t{0}});
      if (d.q4 && d.blocks % 2 != 0 && offsetInTensor + destination.size() == t.byteLength) {
        destination.back() = std::byte{0x08};
      }
      return;
    }
    const uint32_t blockBytes = d.q4 ? 18 : 34;
    const uint32_t perBlock = d.part == Part::Scales ? 2 : (d.q4 ? 16 : 32);  // bytes out
    const uint64_t end = offsetInTensor + destination.size();  // within byteLength: checked
    const uint64_t first = offsetInTensor / perBlock;
    const uint64_t last = (end - 1) / perBlock;  // inclusive
    const uint64_t batch = std::min<uint64_t>(kBufferBytes / blockBytes, last - first + 1);
    std::vector<std::byte> buffer(static_cast<size_t>(batch * blockBytes));
    for (uint64_t block = first; block <= last;) {
      const uint64_t count = std::min(batch, last + 1 - block);
      const uint64_t at = d.fileOffset + block * blockBytes;
      if (const auto failure = preadExact(reader(), fileDescriptor(), buffer.data(),
                                          static_cast<size_t>(count * blockBytes), at)) {
        failDerived(t, d, *failure);
      }
      for (uint64_t b = 0; b < count; ++b) {
        const std::byte* in = buffer.data() + b * blockBytes;
        const uint64_t start = (block + b) * perBlock;
        const uint64_t from = std::max(start, offsetInTensor);
        const uint64_t to = std::min(start + perBlock, end);
        std::byte* out = destination.data() + (from - offsetInTensor);
        if (from == start && to == start + perBlock) {
          convertBlock(d, in, out);
        } else {
          std::byte whole[32];
          convertBlock(d, in, whole);
          std::memcpy(out, whole + (from - start), static_cast<size_t>(to - from));
        }
      }
      block += count;
    }
  }

  enum class Part : uint8_t { Values, Scales, ZeroPoints };
  struct Derivation {
    Part part = Part::Values;
    bool q4 = true;           // q4_0, else q8_0
    uint64_t fileOffset = 0;  // the first block of the file's tensor
    uint64_t blocks = 0;
    std::string source;  // the file's tensor
  };

  // One block's bytes of the derived tensor: 16 (q4_0 values), 32 (q8_0 values) or 2 (the
  // float16 scale, little-endian in both).
  static void convertBlock(const Derivation& d, const std::byte* block, std::byte* out) {
    if (d.part == Part::Scales) {
      std::memcpy(out, block, 2);
      return;
    }
    const std::byte* qs = block + 2;
    if (!d.q4) {
      std::memcpy(out, qs, 32);
      return;
    }
    // ggml: byte j holds elements j (low nibble) and j + 16 (high). WebNN: byte i holds elements
    // 2i (low) and 2i + 1 (high).
    for (int i = 0; i < 8; ++i) {
      out[i] = (qs[2 * i] & std::byte{0x0f}) | (qs[2 * i + 1] & std::byte{0x0f}) << 4;
      out[8 + i] = (qs[2 * i] >> 4) | (qs[2 * i + 1] & std::byte{0xf0});
    }
  }

  [[noreturn]] void failDerived(const TensorInfo& t, const Derivation& d,
                                const ReadFailure& failure) const {
    std::string message = filePath() + ": reading tensor " + quoteName(t.name) + " (from " +
                          (d.q4 ? "q4_0" : "q8_0") + " tensor " + quoteName(d.source) +
                          ") failed at offset " + std::to_string(failure.offset) + " (byte " +
                          std::to_string(failure.offset - d.fileOffset) + " of " +
                          quoteName(d.source) + " in the file): " + describeFailure(failure);
    if (failure.error == 0) {
      message +=
          " (the file was " + std::to_string(fileSize()) + " bytes when opened; was it truncated?)";
    }
    throwOperationError(message);
  }

  std::unordered_map<std::string, Derivation> derivations_;

  uint32_t readAlignment(Cursor& cursor, uint32_t type) {
    uint64_t value;
    switch (type) {
      case kUint8:
        value = cursor.get<uint8_t>("general.alignment");
        break;
      case kUint16:
        value = cursor.get<uint16_t>("general.alignment");
        break;
      case kUint32:
        value = cursor.get<uint32_t>("general.alignment");
        break;
      case kUint64:
        value = cursor.get<uint64_t>("general.alignment");
        break;
      case kInt32:
        value = cursor.get<uint32_t>("general.alignment");
        if (value > INT32_MAX) value = 0;
        break;
      default:
        throwDataError(filePath(), "general.alignment has value type " + std::to_string(type) +
                                       ", not an unsigned integer");
    }
    if (value == 0 || (value & (value - 1)) != 0 || value > (uint64_t{1} << 30)) {
      throwDataError(filePath(), "general.alignment " + std::to_string(value) +
                                     " is not a power of two up to 2^30");
    }
    return static_cast<uint32_t>(value);
  }

  void skipValue(Cursor& cursor, uint32_t type, const std::string& key, int depth) {
    const std::string what = "the value of metadata " + quoteName(key);
    if (const uint32_t size = valueSize(type)) {
      cursor.skip(size, what);
      return;
    }
    if (type == kString) {
      cursor.skipString(what);
      return;
    }
    if (type != kArray) {
      throwDataError(filePath(), "metadata " + quoteName(key) + " has unknown value type " +
                                     std::to_string(type));
    }
    if (depth >= kMaxArrayNesting) {
      throwDataError(filePath(), "metadata " + quoteName(key) + " nests arrays more than " +
                                     std::to_string(kMaxArrayNesting) + " deep");
    }
    const uint32_t elementType = cursor.get<uint32_t>("the element type of " + what);
    const uint64_t count = cursor.get<uint64_t>("the length of " + what);
    // The smallest encoding of one element: its fixed size, a string's length, or an array's
    // element type and length.
    uint64_t minimum = valueSize(elementType);
    if (elementType == kString) minimum = 8;
    if (elementType == kArray) minimum = 12;
    if (minimum == 0) {
      throwDataError(filePath(), "metadata " + quoteName(key) + " is an array of unknown type " +
                                     std::to_string(elementType));
    }
    uint64_t bytes;
    if (!checkedMul(count, minimum, bytes) || bytes > cursor.remaining()) {
      throwDataError(filePath(), "metadata " + quoteName(key) + " is an array of " +
                                     std::to_string(count) +
                                     " elements, which cannot fit in the file");
    }
    if (elementType != kString && elementType != kArray) {
      cursor.skip(bytes, what);
      return;
    }
    for (uint64_t i = 0; i < count; ++i) {
      if (elementType == kString) {
        cursor.skipString(what);
      } else {
        skipValue(cursor, kArray, key, depth + 1);
      }
    }
  }
};

}  // namespace

std::unique_ptr<WeightSource> openGguf(const std::string& path, OpenedFile file,
                                       std::shared_ptr<FileReader> reader) {
  return std::make_unique<GgufSource>(path, std::move(file), std::move(reader));
}

}  // namespace webnn::weights
