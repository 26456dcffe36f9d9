// The WebNN graph weights format of the WebNN community's graph DSL (rustnn/webnn-graph,
// webmachinelearning/proposals#16), as webnn-graph's src/weights.rs and src/weights_io.rs write it:
//   <stem>.manifest.json: {"format": "wg-weights-manifest", "version": 1, "endianness": "little",
//                          "tensors": {name: {"dataType": "float32", "shape": [..],
//                                             "byteOffset": N, "byteLength": N,
//                                             "layout": "row-major" | null (optional)}}}
//   <stem>.weights: "WGWT", u32 version 1 (little-endian), then the tensor bytes.
// byteOffset is absolute in the .weights file (webnn-graph packs the first tensor at 8, right after
// the 8-byte header). Data types are WebNN's names. webnn-graph stores int4/uint4 one value per
// byte; WebNN packs two per byte: such a tensor is listed as unsupported.
#include <cstring>
#include <optional>

#include "file_reader.h"
#include "formats.h"
#include "json_walker.h"

namespace webnn::weights {
namespace {

constexpr uint64_t kMaxManifestBytes = uint64_t{256} << 20;
constexpr uint64_t kHeaderBytes = 8;
constexpr uint32_t kVersion = 1;

struct Entry {
  std::string name;
  std::optional<std::string> dataType;
  std::optional<std::vector<uint32_t>> shape;
  std::optional<uint64_t> byteOffset;
  std::optional<uint64_t> byteLength;
  std::optional<std::string> layout;
};

class ManifestWalker : public JsonWalker {
 public:
  explicit ManifestWalker(const std::string& file) : file_(file) {}

  std::optional<std::string> format;
  std::optional<uint64_t> version;
  std::optional<std::string> endianness;
  bool hasTensors = false;
  std::vector<Entry> entries;

  void onBeginObject(const JsonPath& path) override {
    if (path.empty()) return;
    if (path.size() == 1 && path[0].key == "tensors") {
      hasTensors = true;
      return;
    }
    if (path.size() == 2 && path[0].key == "tensors") {
      entries.push_back(Entry{path[1].key, {}, {}, {}, {}, {}});
      return;
    }
    misplaced(path, "an object");
  }
  void onBeginArray(const JsonPath& path) override {
    if (inEntry(path) && path.size() == 3 && path[2].key == "shape") {
      entries.back().shape.emplace();
      return;
    }
    misplaced(path, "an array");
  }
  void onEnd(const JsonPath& path, bool object) override {
    if (!(object && path.size() == 2 && path[0].key == "tensors")) return;
    const Entry& entry = entries.back();
    if (!entry.dataType) fail(entry.name, "has no \"dataType\"");
    if (!entry.shape) fail(entry.name, "has no \"shape\"");
    if (!entry.byteOffset) fail(entry.name, "has no \"byteOffset\"");
    if (!entry.byteLength) fail(entry.name, "has no \"byteLength\"");
  }
  void onScalar(const JsonPath& path, JsonScalar& value) override {
    if (path.size() == 1) {
      const std::string& key = path[0].key;
      if (key == "format" || key == "endianness") {
        if (value.kind != JsonScalar::Kind::String) misplaced(path, value.kindName());
        (key == "format" ? format : endianness) = std::move(value.string);
      } else if (key == "version") {
        if (value.kind != JsonScalar::Kind::Unsigned) misplaced(path, value.kindName());
        version = value.unsigned_;
      } else if (key == "tensors") {
        misplaced(path, value.kindName());
      }
      return;  // other members: ignored
    }
    if (inEntry(path) && path.size() == 3) {
      Entry& entry = entries.back();
      const std::string& key = path[2].key;
      if (key == "dataType") {
        if (value.kind != JsonScalar::Kind::String) misplaced(path, value.kindName());
        entry.dataType = std::move(value.string);
      } else if (key == "byteOffset" || key == "byteLength") {
        if (value.kind != JsonScalar::Kind::Unsigned) misplaced(path, value.kindName());
        (key == "byteOffset" ? entry.byteOffset : entry.byteLength) = value.unsigned_;
      } else if (key == "layout") {
        if (value.kind == JsonScalar::Kind::String) {
          entry.layout = std::move(value.string);
        } else if (value.kind != JsonScalar::Kind::Null) {
          misplaced(path, value.kindName());
        }
      } else if (key == "shape") {
        misplaced(path, value.kindName());
      }
      return;
    }
    if (inEntry(path) && path.size() == 4 && path[2].key == "shape") {
      if (value.kind != JsonScalar::Kind::Unsigned) {
        fail(path[1].key, "has a dimension that is " + std::string(value.kindName()));
      }
      if (value.unsigned_ > UINT32_MAX) {
        fail(path[1].key, "has dimension " + std::to_string(value.unsigned_) +
                              ", larger than WebNN's limit of 4294967295");
      }
      entries.back().shape->push_back(static_cast<uint32_t>(value.unsigned_));
      return;
    }
    misplaced(path, value.kindName());
  }

 private:
  static bool inEntry(const JsonPath& path) { return path.size() >= 2 && path[0].key == "tensors"; }
  static bool known(const std::string& key) {
    return key == "dataType" || key == "shape" || key == "byteOffset" || key == "byteLength" ||
           key == "layout";
  }
  // Misplaced values in the members this reader uses are errors; unknown members are ignored.
  void misplaced(const JsonPath& path, std::string_view kind) {
    if (path.empty())
      throwDataError(file_, "the manifest is " + std::string(kind) + ", not an object");
    const std::string& top = path[0].key;
    if (top != "format" && top != "version" && top != "endianness" && top != "tensors") return;
    if (path.size() == 1 || (top == "tensors" && path.size() == 2) ||
        (top == "tensors" && known(path[2].key))) {
      throwDataError(file_, "manifest member " + pathToString(path) + " is " + std::string(kind));
    }
  }
  [[noreturn]] void fail(const std::string& tensor, const std::string& what) {
    throwDataError(file_, "tensor " + quoteName(tensor) + " " + what);
  }

  const std::string& file_;
};

class WebnnWeightsSource : public WeightSource {
 public:
  WebnnWeightsSource(const std::string& openedPath, const std::string& manifestPath,
                     const std::string& weightsPath, OpenedFile weights,
                     std::shared_ptr<FileReader> reader)
      : WeightSource(openedPath, weightsPath, weights.handle.release(), weights.size,
                     std::move(reader)) {
    checkWeightsHeader();
    parseManifest(manifestPath);
  }
  std::string_view formatName() const override { return "webnn-weights"; }

 private:
  void checkWeightsHeader() {
    const std::string& file = filePath();
    if (fileSize() < kHeaderBytes) {
      throwDataError(
          file, "too small (" + std::to_string(fileSize()) + " bytes) for the 8-byte WGWT header");
    }
    uint8_t header[kHeaderBytes];
    if (const auto failure = preadExact(reader(), fileDescriptor(),
                                        reinterpret_cast<std::byte*>(header), kHeaderBytes, 0)) {
      throwOperationError(file + ": reading the header failed at offset " +
                          std::to_string(failure->offset) + ": " + describeFailure(*failure));
    }
    if (std::memcmp(header, "WGWT", 4) != 0) {
      throwDataError(file, "not a WebNN weights file: the magic is not \"WGWT\"");
    }
    const uint32_t version = static_cast<uint32_t>(header[4]) | header[5] << 8 | header[6] << 16 |
                             static_cast<uint32_t>(header[7]) << 24;
    if (version != kVersion) {
      throwDataError(file, "unsupported WGWT version " + std::to_string(version) +
                               " (version 1 is supported)");
    }
  }

  void parseManifest(const std::string& manifestPath) {
    const std::string text =
        readSmallFile(manifestPath, kMaxManifestBytes, reader(), "WebNN weights manifest");
    ManifestWalker walker(manifestPath);
    walker.parse(text, manifestPath, "WebNN weights manifest");
    if (!walker.format) throwDataError(manifestPath, "the manifest has no \"format\"");
    if (*walker.format != "wg-weights-manifest" && *walker.format != "webnn-weights-manifest") {
      throwDataError(manifestPath, "the manifest format is " + quoteName(*walker.format) +
                                       ", not \"wg-weights-manifest\"");
    }
    if (!walker.version) throwDataError(manifestPath, "the manifest has no \"version\"");
    if (*walker.version != 1) {
      throwDataError(manifestPath, "unsupported manifest version " +
                                       std::to_string(*walker.version) +
                                       " (version 1 is supported)");
    }
    if (walker.endianness && *walker.endianness != "little") {
      throwDataError(manifestPath, "the manifest's endianness is " + quoteName(*walker.endianness) +
                                       "; only \"little\" is supported");
    }
    if (!walker.hasTensors) throwDataError(manifestPath, "the manifest has no \"tensors\"");

    std::vector<TensorInfo> tensors;
    tensors.reserve(walker.entries.size());
    for (auto& entry : walker.entries) {
      const auto fail = [&](const std::string& what) {
        throwDataError(manifestPath, "tensor " + quoteName(entry.name) + " " + what);
      };
      TensorInfo t;
      t.name = entry.name;
      t.shape = std::move(*entry.shape);
      t.fileDataType = std::move(*entry.dataType);
      t.byteOffset = *entry.byteOffset;
      t.byteLength = *entry.byteLength;
      if (t.byteOffset < kHeaderBytes && t.byteLength > 0) {
        fail("has byteOffset " + std::to_string(t.byteOffset) +
             ", inside the 8-byte header of the .weights file");
      }
      const std::string described = t.fileDataType + " " + shapeToString(t.shape);
      const auto count = elementCount(t.shape);
      if (!count) fail("has shape " + shapeToString(t.shape) + " whose size overflows");
      const auto dataType = parseDataType(t.fileDataType);
      if (dataType) {
        const auto bytes = bytesFor(*count, bitsPerElement(*dataType));
        if (!bytes) fail("has shape " + shapeToString(t.shape) + " whose size overflows");
        const bool fourBit =
            *dataType == MLOperandDataType::Int4 || *dataType == MLOperandDataType::Uint4;
        if (fourBit && t.byteLength == *count && *count != *bytes) {
          t.supported = false;
          t.unsupportedReason = "tensor " + quoteName(t.name) + " (" + described +
                                ") stores one 4-bit value per byte; WebNN packs two per byte";
        } else if (*bytes != t.byteLength) {
          fail("is " + described + ", which takes " + std::to_string(*bytes) +
               " bytes, but its byteLength is " + std::to_string(t.byteLength));
        }
      } else {
        t.supported = false;
        t.unsupportedReason = "tensor " + quoteName(t.name) + " has data type " +
                              quoteName(t.fileDataType) + ", which is not a WebNN data type";
      }
      if (t.supported && entry.layout && *entry.layout != "row-major") {
        t.supported = false;
        t.unsupportedReason = "tensor " + quoteName(t.name) + " has layout " +
                              quoteName(*entry.layout) + "; only row-major is supported";
      }
      if (t.supported) {
        t.dataType = *dataType;
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

std::string readSmallFile(const std::string& path, uint64_t limit, FileReader& reader,
                          std::string_view what) {
  OpenedFile file = openFile(path);
  if (file.size > limit) {
    throwDataError(path, "the " + std::string(what) + " is " + std::to_string(file.size) +
                             " bytes, more than the limit of " + std::to_string(limit));
  }
  std::string text(static_cast<size_t>(file.size), '\0');
  if (const auto failure = preadExact(reader, file.handle.get(),
                                      reinterpret_cast<std::byte*>(text.data()), text.size(), 0)) {
    throwOperationError(path + ": reading the " + std::string(what) + " failed at offset " +
                        std::to_string(failure->offset) + ": " + describeFailure(*failure));
  }
  return text;
}

std::unique_ptr<WeightSource> openWebnnWeights(const std::string& openedPath,
                                               const std::string& manifestPath,
                                               const std::string& weightsPath,
                                               std::shared_ptr<FileReader> reader) {
  OpenedFile weights = openFile(weightsPath);
  return std::make_unique<WebnnWeightsSource>(openedPath, manifestPath, weightsPath,
                                              std::move(weights), std::move(reader));
}

}  // namespace webnn::weights
