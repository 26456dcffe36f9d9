// safetensors (https://github.com/huggingface/safetensors): a little-endian u64 N, N bytes of JSON
// header {name: {"dtype", "shape", "data_offsets": [begin, end]}, "__metadata__": {...}}, then the
// data; offsets are relative to the first byte after the header.
#include <cstring>
#include <optional>

#include "file_reader.h"
#include "formats.h"
#include "json_walker.h"

namespace webnn::weights {
namespace {

constexpr uint64_t kMaxHeaderBytes = uint64_t{100} << 20;

struct DtypeInfo {
  std::string_view name;
  uint32_t bits;
  std::optional<MLOperandDataType> webnn;
};

// Every dtype of the safetensors specification, with its WebNN equivalent where there is one.
constexpr DtypeInfo kDtypes[] = {
    {"F32", 32, MLOperandDataType::Float32},
    {"F16", 16, MLOperandDataType::Float16},
    {"I32", 32, MLOperandDataType::Int32},
    {"U32", 32, MLOperandDataType::Uint32},
    {"I64", 64, MLOperandDataType::Int64},
    {"U64", 64, MLOperandDataType::Uint64},
    {"I8", 8, MLOperandDataType::Int8},
    {"U8", 8, MLOperandDataType::Uint8},
    {"BF16", 16, std::nullopt},
    {"F64", 64, std::nullopt},
    {"BOOL", 8, std::nullopt},
    {"I16", 16, std::nullopt},
    {"U16", 16, std::nullopt},
    {"F8_E4M3", 8, std::nullopt},
    {"F8_E5M2", 8, std::nullopt},
    {"F8_E8M0", 8, std::nullopt},
    {"F6_E2M3", 6, std::nullopt},
    {"F6_E3M2", 6, std::nullopt},
    {"F4", 4, std::nullopt},
    {"C64", 64, std::nullopt},
};

const DtypeInfo* findDtype(std::string_view name) {
  for (const auto& info : kDtypes) {
    if (info.name == name) return &info;
  }
  return nullptr;
}

struct Entry {
  std::string name;
  std::optional<std::string> dtype;
  std::optional<std::vector<uint32_t>> shape;
  std::vector<uint64_t> offsets;
  bool hasOffsets = false;
};

class HeaderWalker : public JsonWalker {
 public:
  explicit HeaderWalker(const std::string& file) : file_(file) {}

  std::vector<Entry> entries;

  void onBeginObject(const JsonPath& path) override {
    if (path.empty()) return;
    if (path.size() == 1) {
      if (path[0].key == "__metadata__") return;
      entries.push_back(Entry{path[0].key, {}, {}, {}, false});
      return;
    }
    valueIsNot(path, "an object");
  }
  void onBeginArray(const JsonPath& path) override {
    if (path.size() == 2 && !isMetadata(path)) {
      if (path[1].key == "shape") {
        entries.back().shape.emplace();
      } else if (path[1].key == "data_offsets") {
        entries.back().hasOffsets = true;
      }
      return;
    }
    valueIsNot(path, "an array");
  }
  void onEnd(const JsonPath& path, bool object) override {
    if (path.size() == 1 && object && !isMetadata(path)) {
      const Entry& entry = entries.back();
      if (!entry.dtype) fail(entry.name, "has no \"dtype\"");
      if (!entry.shape) fail(entry.name, "has no \"shape\"");
      if (!entry.hasOffsets) fail(entry.name, "has no \"data_offsets\"");
      if (entry.offsets.size() != 2) {
        fail(entry.name,
             "has " + std::to_string(entry.offsets.size()) + " \"data_offsets\" instead of 2");
      }
    }
  }
  void onScalar(const JsonPath& path, JsonScalar& value) override {
    if (path.size() == 2 && !isMetadata(path) && path[1].key == "dtype") {
      if (value.kind != JsonScalar::Kind::String) {
        fail(path[0].key, "has a \"dtype\" that is " + std::string(value.kindName()));
      }
      entries.back().dtype = std::move(value.string);
      return;
    }
    if (path.size() == 3 && !isMetadata(path) && path[1].key == "shape") {
      if (value.kind != JsonScalar::Kind::Unsigned) {
        fail(path[0].key, "has a dimension that is " + std::string(value.kindName()));
      }
      if (value.unsigned_ > UINT32_MAX) {
        fail(path[0].key, "has dimension " + std::to_string(value.unsigned_) +
                              ", larger than WebNN's limit of 4294967295");
      }
      entries.back().shape->push_back(static_cast<uint32_t>(value.unsigned_));
      return;
    }
    if (path.size() == 3 && !isMetadata(path) && path[1].key == "data_offsets") {
      if (value.kind != JsonScalar::Kind::Unsigned) {
        fail(path[0].key, "has a data offset that is " + std::string(value.kindName()));
      }
      if (entries.back().offsets.size() >= 2) fail(path[0].key, "has more than 2 data_offsets");
      entries.back().offsets.push_back(value.unsigned_);
      return;
    }
    valueIsNot(path, std::string(value.kindName()));
  }

 private:
  static bool isMetadata(const JsonPath& path) {
    return !path.empty() && path[0].key == "__metadata__";
  }
  // Anything under "__metadata__" and unknown members of an entry are ignored; everything else
  // that reaches here is misplaced.
  void valueIsNot(const JsonPath& path, const std::string& kind) {
    if (path.empty()) throwDataError(file_, "the header is " + kind + ", not a JSON object");
    if (isMetadata(path)) {
      if (path.size() == 1)
        throwDataError(file_, "\"__metadata__\" is " + kind + ", not an object");
      return;
    }
    if (path.size() == 1) fail(path[0].key, "is " + kind + ", not an object");
    if (path[1].key == "dtype" || path[1].key == "shape" || path[1].key == "data_offsets") {
      fail(path[0].key, "has \"" + path[1].key + "\" holding " + kind + " at " +
                            pathToString(JsonPath(path.begin() + 1, path.end())));
    }
  }
  [[noreturn]] void fail(const std::string& tensor, const std::string& what) {
    throwDataError(file_, "tensor " + quoteName(tensor) + " " + what);
  }

  const std::string& file_;
};

class SafetensorsSource : public WeightSource {
 public:
  SafetensorsSource(const std::string& path, OpenedFile file, std::shared_ptr<FileReader> reader)
      : WeightSource(path, path, file.handle.release(), file.size, std::move(reader)) {
    parseHeader();
  }
  std::string_view formatName() const override { return "safetensors"; }

 private:
  void parseHeader() {
    const std::string& file = filePath();
    if (fileSize() < 8) throwDataError(file, "too small for a safetensors header length");
    std::byte lengthBytes[8];
    if (const auto failure = preadExact(reader(), fileDescriptor(), lengthBytes, 8, 0)) {
      throwOperationError(file + ": reading the header length failed at offset " +
                          std::to_string(failure->offset) + ": " + describeFailure(*failure));
    }
    uint64_t headerLength = 0;
    for (int i = 7; i >= 0; --i)
      headerLength = headerLength << 8 | static_cast<uint8_t>(lengthBytes[i]);
    if (headerLength > fileSize() - 8) {
      throwDataError(file, "the header length " + std::to_string(headerLength) +
                               " goes beyond the end of the file (" + std::to_string(fileSize()) +
                               " bytes)");
    }
    if (headerLength > kMaxHeaderBytes) {
      throwDataError(file, "the header length " + std::to_string(headerLength) +
                               " exceeds the limit of " + std::to_string(kMaxHeaderBytes) +
                               " bytes");
    }
    if (headerLength < 2) {
      throwDataError(file, "the header length " + std::to_string(headerLength) +
                               " is too small for a JSON object");
    }
    std::string header(headerLength, '\0');
    if (const auto failure =
            preadExact(reader(), fileDescriptor(), reinterpret_cast<std::byte*>(header.data()),
                       header.size(), 8)) {
      throwOperationError(file + ": reading the header failed at offset " +
                          std::to_string(failure->offset) + ": " + describeFailure(*failure));
    }
    HeaderWalker walker(file);
    walker.parse(header, file, "safetensors header");

    const uint64_t dataStart = 8 + headerLength;
    const uint64_t dataSize = fileSize() - dataStart;
    std::vector<TensorInfo> tensors;
    tensors.reserve(walker.entries.size());
    for (auto& entry : walker.entries) {
      const auto fail = [&](const std::string& what) {
        throwDataError(file, "tensor " + quoteName(entry.name) + " " + what);
      };
      const uint64_t begin = entry.offsets[0];
      const uint64_t end = entry.offsets[1];
      const std::string range = "[" + std::to_string(begin) + ", " + std::to_string(end) + "]";
      if (begin > end) fail("has data_offsets " + range + " that end before they begin");
      if (end > dataSize) {
        fail("has data_offsets " + range + " beyond the end of the data (" +
             std::to_string(dataSize) + " bytes after the header)");
      }
      TensorInfo t;
      t.name = entry.name;
      t.shape = std::move(*entry.shape);
      t.fileDataType = std::move(*entry.dtype);
      t.byteOffset = dataStart + begin;
      t.byteLength = end - begin;
      const DtypeInfo* dtype = findDtype(t.fileDataType);
      const std::string described = t.fileDataType + " " + shapeToString(t.shape);
      if (dtype) {
        const auto count = elementCount(t.shape);
        const auto bytes = count ? bytesFor(*count, dtype->bits) : std::nullopt;
        if (!bytes) fail("has shape " + shapeToString(t.shape) + " whose size overflows");
        if (*bytes != t.byteLength) {
          fail("is " + described + ", which takes " + std::to_string(*bytes) +
               " bytes, but its data_offsets " + range + " hold " + std::to_string(t.byteLength));
        }
      }
      if (!dtype) {
        t.supported = false;
        t.unsupportedReason = "tensor " + quoteName(t.name) +
                              " has the unknown safetensors dtype " + quoteName(t.fileDataType);
      } else if (!dtype->webnn) {
        t.supported = false;
        t.unsupportedReason = "tensor " + quoteName(t.name) + " has safetensors dtype " +
                              t.fileDataType + ", which has no WebNN data type";
      } else {
        t.dataType = *dtype->webnn;
        for (uint32_t dimension : t.shape) {
          if (dimension == 0) {
            t.supported = false;
            t.unsupportedReason = "tensor " + quoteName(t.name) + " (" + described +
                                  ") has a zero dimension, which WebNN does not allow";
            break;
          }
        }
      }
      if (!t.supported) t.dataType = MLOperandDataType::Uint8;
      tensors.push_back(std::move(t));
    }
    setTensors(std::move(tensors));
  }
};

}  // namespace

std::unique_ptr<WeightSource> openSafetensors(const std::string& path, OpenedFile file,
                                              std::shared_ptr<FileReader> reader) {
  return std::make_unique<SafetensorsSource>(path, std::move(file), std::move(reader));
}

}  // namespace webnn::weights
