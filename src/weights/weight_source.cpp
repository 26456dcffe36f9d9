// WeightSource: the checks every format shares, reading, and open() sniffing the format.
#include <algorithm>
#include <array>
#include <cstring>

#include "file_reader.h"
#include "formats.h"
#include "webnn/weight_source.h"

namespace webnn {

using weights::quoteName;
using weights::throwDataError;

WeightSource::WeightSource(std::string path, std::string filePath, int fd, uint64_t fileSize,
                           std::shared_ptr<FileReader> reader)
    : path_(std::move(path)),
      filePath_(std::move(filePath)),
      fd_(fd),
      fileSize_(fileSize),
      reader_(std::move(reader)) {}

WeightSource::~WeightSource() {
  weights::FileHandle close(fd_);
}

std::optional<WeightSource::FileRange> WeightSource::fileRangeOf(const TensorInfo& t) const {
  if (fd_ < 0 || t.derived) return std::nullopt;
  return FileRange{fd_, t.byteOffset, fileSize_};
}

void WeightSource::setTensors(std::vector<TensorInfo> tensors) {
  // Unique names.
  std::unordered_map<std::string_view, size_t> seen;
  seen.reserve(tensors.size());
  for (size_t i = 0; i < tensors.size(); ++i) {
    if (!seen.emplace(tensors[i].name, i).second) {
      throwDataError(filePath_, "two tensors are named " + quoteName(tensors[i].name));
    }
  }
  // Every range inside the file.
  uint64_t total = 0;
  for (const auto& t : tensors) {
    uint64_t end;
    if (!weights::checkedAdd(t.byteOffset, t.byteLength, end) || end > fileSize_) {
      throwDataError(filePath_,
                     "tensor " + quoteName(t.name) + " lies at bytes [" +
                         std::to_string(t.byteOffset) + ", +" + std::to_string(t.byteLength) +
                         "), beyond the end of the file (" + std::to_string(fileSize_) + " bytes)");
    }
    total += t.byteLength;  // cannot overflow once the ranges are known not to overlap
  }
  // In file order; no two ranges overlapping (empty tensors overlap nothing).
  std::stable_sort(tensors.begin(), tensors.end(), [](const TensorInfo& a, const TensorInfo& b) {
    return a.byteOffset < b.byteOffset;
  });
  const TensorInfo* previous = nullptr;
  for (const auto& t : tensors) {
    if (t.byteLength == 0 || t.derived) continue;
    if (previous && t.byteOffset < previous->byteOffset + previous->byteLength) {
      throwDataError(filePath_, "tensors " + quoteName(previous->name) + " (bytes [" +
                                    std::to_string(previous->byteOffset) + ", " +
                                    std::to_string(previous->byteOffset + previous->byteLength) +
                                    ")) and " + quoteName(t.name) + " (bytes [" +
                                    std::to_string(t.byteOffset) + ", " +
                                    std::to_string(t.byteOffset + t.byteLength) + ")) overlap");
    }
    previous = &t;
  }
  tensors_ = std::move(tensors);
  totalBytes_ = total;
  index_.clear();
  index_.reserve(tensors_.size());
  for (size_t i = 0; i < tensors_.size(); ++i) index_.emplace(tensors_[i].name, i);
}

const TensorInfo* WeightSource::find(std::string_view name) const {
  const auto it = index_.find(name);
  return it == index_.end() ? nullptr : &tensors_[it->second];
}

const TensorInfo& WeightSource::checkTensor(const TensorInfo& t, uint64_t offsetInTensor,
                                            size_t size) const {
  const TensorInfo* own = find(t.name);
  if (!own || own->byteOffset != t.byteOffset || own->byteLength != t.byteLength) {
    throwTypeError("tensor " + quoteName(t.name) + " is not a tensor of " + filePath_);
  }
  if (offsetInTensor > own->byteLength || size > own->byteLength - offsetInTensor) {
    throwTypeError("reading bytes [" + std::to_string(offsetInTensor) + ", +" +
                   std::to_string(size) + ") of tensor " + quoteName(t.name) + " of " + filePath_ +
                   " goes beyond its " + std::to_string(own->byteLength) + " bytes");
  }
  return *own;
}

void WeightSource::read(const TensorInfo& t, uint64_t offsetInTensor,
                        std::span<std::byte> destination) const {
  const TensorInfo& own = checkTensor(t, offsetInTensor, destination.size());
  if (!own.supported) {
    throw Error(Error::Kind::NotSupportedError, filePath_ + ": " + own.unsupportedReason);
  }
  readRaw(own, offsetInTensor, destination);
}

void WeightSource::readRaw(const TensorInfo& t, uint64_t offsetInTensor,
                           std::span<std::byte> destination) const {
  const TensorInfo& own = checkTensor(t, offsetInTensor, destination.size());
  if (own.derived) {
    readDerived(own, offsetInTensor, destination);
    return;
  }
  const uint64_t start = own.byteOffset + offsetInTensor;
  const auto failure =
      weights::preadExact(*reader_, fd_, destination.data(), destination.size(), start);
  if (!failure) return;
  std::string message = filePath_ + ": reading tensor " + quoteName(own.name) +
                        " failed at offset " + std::to_string(failure->offset) + " (byte " +
                        std::to_string(failure->offset - own.byteOffset) +
                        " of the tensor): " + weights::describeFailure(*failure);
  if (failure->error == 0) {
    message +=
        " (the file was " + std::to_string(fileSize_) + " bytes when opened; was it truncated?)";
  }
  throwOperationError(message);
}

void WeightSource::readDerived(const TensorInfo& t, uint64_t, std::span<std::byte>) const {
  throwOperationError(filePath_ + ": tensor " + quoteName(t.name) +
                      " is derived, but its format computes no derived tensors");
}

namespace {

bool endsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

std::string directoryOf(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
}

std::string firstExisting(const std::vector<std::string>& candidates, const std::string& path,
                          std::string_view what) {
  for (const auto& candidate : candidates) {
    if (weights::isRegularFile(candidate)) return candidate;
  }
  std::string tried;
  for (const auto& candidate : candidates) {
    tried += (tried.empty() ? "" : " or ") + quoteName(candidate);
  }
  throwDataError(
      path, std::string("no ") + std::string(what) + " found beside it (looked for " + tried + ")");
}

// The manifest describing the .weights file `path`.
std::string manifestFor(const std::string& path) {
  std::vector<std::string> candidates;
  if (endsWith(path, ".weights")) {
    candidates.push_back(path.substr(0, path.size() - 8) + ".manifest.json");
  } else {
    candidates.push_back(path + ".manifest.json");
  }
  candidates.push_back(directoryOf(path) + "manifest.json");
  return firstExisting(candidates, path, "WebNN weights manifest");
}

// The .weights file the manifest `path` describes.
std::string weightsFor(const std::string& path) {
  std::vector<std::string> candidates;
  if (endsWith(path, ".manifest.json")) {
    candidates.push_back(path.substr(0, path.size() - 14) + ".weights");
  } else if (endsWith(path, ".json")) {
    candidates.push_back(path.substr(0, path.size() - 5) + ".weights");
  }
  candidates.push_back(directoryOf(path) + "model.weights");
  return firstExisting(candidates, path, ".weights file");
}

std::string hexBytes(const std::byte* bytes, size_t count) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string text;
  for (size_t i = 0; i < count; ++i) {
    const auto b = static_cast<unsigned>(bytes[i]);
    if (i) text += ' ';
    text += kHex[b >> 4];
    text += kHex[b & 15];
  }
  return text;
}

}  // namespace

std::unique_ptr<WeightSource> WeightSource::open(const std::string& path) {
  return open(path, std::make_shared<FileReader>());
}

std::unique_ptr<WeightSource> WeightSource::open(const std::string& path,
                                                 std::shared_ptr<FileReader> reader) {
  if (!reader) throwTypeError("WeightSource::open: the reader is null");
  weights::OpenedFile file = weights::openFile(path);
  std::array<std::byte, 16> head{};
  const size_t headSize = static_cast<size_t>(std::min<uint64_t>(file.size, head.size()));
  if (const auto failure =
          weights::preadExact(*reader, file.handle.get(), head.data(), headSize, 0)) {
    throwOperationError(path + ": reading the first bytes failed at offset " +
                        std::to_string(failure->offset) + ": " +
                        weights::describeFailure(*failure));
  }
  const auto startsWith = [&](const char* magic) {
    const size_t n = std::strlen(magic);
    return headSize >= n && std::memcmp(head.data(), magic, n) == 0;
  };
  if (startsWith("GGUF")) return weights::openGguf(path, std::move(file), std::move(reader));
  if (startsWith("WGWT")) {
    const std::string manifest = manifestFor(path);
    file = {};  // the WebNN format reopens both files
    return weights::openWebnnWeights(path, manifest, path, std::move(reader));
  }
  if (headSize >= 9 && head[8] == std::byte{'{'}) {
    return weights::openSafetensors(path, std::move(file), std::move(reader));
  }
  // A JSON manifest: '{' after optional whitespace.
  size_t first = 0;
  while (first < headSize && std::strchr(" \t\r\n", static_cast<char>(head[first])) &&
         head[first] != std::byte{0}) {
    ++first;
  }
  if (first < headSize && head[first] == std::byte{'{'}) {
    const std::string weightsPath = weightsFor(path);
    file = {};
    return weights::openWebnnWeights(path, path, weightsPath, std::move(reader));
  }
  if (endsWith(path, ".weights")) {
    throwDataError(path, "not a WebNN weights file: it starts with " +
                             hexBytes(head.data(), std::min<size_t>(headSize, 4)) +
                             ", not the magic \"WGWT\"");
  }
  if (file.size == 0) throwDataError(path, "the file is empty");
  throwDataError(path, "unknown weights format: the file starts with " +
                           hexBytes(head.data(), std::min<size_t>(headSize, 12)) +
                           " (expected safetensors, GGUF, or a WebNN weights file or manifest)");
}

}  // namespace webnn
