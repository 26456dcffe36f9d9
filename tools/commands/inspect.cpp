// webnn inspect: lists the tensors of a weights file (safetensors, GGUF, WebNN graph weights) from
// its header alone: names, data types, shapes, byte ranges, totals.
#include <webnn/webnn.h>
#include <webnn/weight_source.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "command.h"

namespace {

// Names come from untrusted headers: control characters are shown as \xNN.
std::string printable(const std::string& text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f) {
      out += "\\x";
      out += kHex[byte >> 4];
      out += kHex[byte & 15];
    } else {
      out += c;
    }
  }
  return out;
}

std::string shapeText(const std::vector<uint32_t>& shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + "]";
}

std::string typeText(const webnn::TensorInfo& tensor) {
  if (!tensor.supported) return tensor.fileDataType + " (unsupported)";
  if (tensor.derived) {
    return std::string(webnn::toString(tensor.dataType)) + " (from " + tensor.fileDataType + ")";
  }
  return std::string(webnn::toString(tensor.dataType));
}

std::string humanBytes(uint64_t bytes) {
  static const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  size_t unit = 0;
  while (value >= 1024.0 && unit + 1 < std::size(kUnits)) value /= 1024.0, ++unit;
  char text[32];
  std::snprintf(text, sizeof text, unit == 0 ? "%.0f %s" : "%.1f %s", value, kUnits[unit]);
  return text;
}

size_t unsupportedCount(const webnn::WeightSource& source) {
  return static_cast<size_t>(std::count_if(source.tensors().begin(), source.tensors().end(),
                                           [](const auto& t) { return !t.supported; }));
}

size_t derivedCount(const webnn::WeightSource& source) {
  return static_cast<size_t>(std::count_if(source.tensors().begin(), source.tensors().end(),
                                           [](const auto& t) { return t.derived; }));
}

void printJson(const webnn::WeightSource& source) {
  nlohmann::json tensors = nlohmann::json::array();
  for (const auto& t : source.tensors()) {
    nlohmann::json entry = {
        {"name", t.name},
        {"dataType", t.supported ? std::string(webnn::toString(t.dataType)) : std::string()},
        {"fileDataType", t.fileDataType},
        {"shape", t.shape},
        {"byteOffset", t.byteOffset},
        {"byteLength", t.byteLength},
        {"supported", t.supported},
        {"derived", t.derived}};
    if (!t.supported) {
      entry["dataType"] = nullptr;
      entry["unsupportedReason"] = t.unsupportedReason;
    }
    tensors.push_back(std::move(entry));
  }
  const nlohmann::json report = {{"file", source.path()},
                                 {"dataFile", source.filePath()},
                                 {"fileSize", source.fileSize()},
                                 {"format", source.formatName()},
                                 {"tensors", std::move(tensors)},
                                 {"tensorCount", source.tensors().size()},
                                 {"totalBytes", source.totalBytes()},
                                 {"unsupportedCount", unsupportedCount(source)},
                                 {"derivedCount", derivedCount(source)}};
  // Names are not guaranteed UTF-8: invalid bytes become U+FFFD rather than an error.
  std::printf("%s\n",
              report.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
}

void printTable(const webnn::WeightSource& source) {
  std::printf("file:    %s\n", source.path().c_str());
  if (source.filePath() != source.path()) std::printf("data:    %s\n", source.filePath().c_str());
  std::printf("format:  %s\n", std::string(source.formatName()).c_str());
  std::printf("size:    %llu bytes (%s)\n\n", static_cast<unsigned long long>(source.fileSize()),
              humanBytes(source.fileSize()).c_str());

  struct Row {
    std::string name, type, shape, offset, bytes;
  };
  std::vector<Row> rows;
  Row widths{"NAME", "TYPE", "SHAPE", "OFFSET", "BYTES"};
  for (const auto& t : source.tensors()) {
    rows.push_back({printable(t.name), typeText(t), shapeText(t.shape),
                    std::to_string(t.byteOffset), std::to_string(t.byteLength)});
  }
  size_t w[5] = {4, 4, 5, 6, 5};
  for (const auto& r : rows) {
    w[0] = std::max(w[0], r.name.size());
    w[1] = std::max(w[1], r.type.size());
    w[2] = std::max(w[2], r.shape.size());
    w[3] = std::max(w[3], r.offset.size());
    w[4] = std::max(w[4], r.bytes.size());
  }
  auto line = [&](const Row& r) {
    std::printf("%-*s  %-*s  %-*s  %*s  %*s\n", static_cast<int>(w[0]), r.name.c_str(),
                static_cast<int>(w[1]), r.type.c_str(), static_cast<int>(w[2]), r.shape.c_str(),
                static_cast<int>(w[3]), r.offset.c_str(), static_cast<int>(w[4]), r.bytes.c_str());
  };
  line(widths);
  for (const auto& r : rows) line(r);

  const size_t unsupported = unsupportedCount(source);
  std::printf("\n%zu tensor%s, %llu bytes (%s)", source.tensors().size(),
              source.tensors().size() == 1 ? "" : "s",
              static_cast<unsigned long long>(source.totalBytes()),
              humanBytes(source.totalBytes()).c_str());
  std::printf(", %zu unsupported\n", unsupported);
  if (const size_t derived = derivedCount(source)) {
    std::printf(
        "\n%zu tensor%s derived from quantized tensors (\"(from ...)\"): their bytes are computed "
        "on read, BYTES is their WebNN size, OFFSET that of the file's tensor they come from\n",
        derived, derived == 1 ? "" : "s");
  }
  if (unsupported > 0) {
    std::printf(
        "\nunsupported (no WebNN equivalent; loading them fails with NotSupportedError):\n");
    for (const auto& t : source.tensors()) {
      if (!t.supported) std::printf("  %s\n", printable(t.unsupportedReason).c_str());
    }
  }
}

}  // namespace

WEBNN_COMMAND("inspect", registerInspectCommand,
              "List the tensors of a weights file (safetensors, GGUF, WebNN weights)") {
  auto file = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  app.add_option("FILE", *file,
                 "A .safetensors, .gguf, or WebNN weights file (.weights or .manifest.json)")
      ->required();
  app.add_flag("--json", *json, "Print one JSON object instead of the table");
  app.footer("Reads only the file's header; tensor bytes are not read.");
  return [file, json] {
    const auto source = webnn::WeightSource::open(*file);
    if (*json) {
      printJson(*source);
    } else {
      printTable(*source);
    }
    return 0;
  };
}
