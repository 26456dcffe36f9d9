// ModelWeightSource: one address space over the model file and its external data files.
#include "onnx/model_source.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <map>
#include <optional>

#include "onnx/errors.h"
#include "weights/file_reader.h"

namespace webnn::onnx_import {
namespace {

struct Segment {
  uint64_t base = 0;
  uint64_t size = 0;
  weights::FileHandle handle;
};

// Resolves offsets of the joined address space to (file, offset) and reads through `inner`.
class SegmentedReader : public FileReader {
 public:
  SegmentedReader(std::vector<Segment> segments, std::shared_ptr<FileReader> inner)
      : segments_(std::move(segments)), inner_(std::move(inner)) {}

  // The file that holds [offset, offset + length) of the joined address space whole, or nullopt.
  std::optional<WeightSource::FileRange> locate(uint64_t offset, uint64_t length) const {
    auto it = std::upper_bound(segments_.begin(), segments_.end(), offset,
                               [](uint64_t o, const Segment& s) { return o < s.base; });
    if (it == segments_.begin()) return std::nullopt;
    --it;
    if (offset - it->base > it->size || length > it->size - (offset - it->base)) {
      return std::nullopt;
    }
    return WeightSource::FileRange{it->handle.get(), offset - it->base, it->size};
  }

  ssize_t pread(int, void* buffer, size_t count, uint64_t offset) override {
    auto it = std::upper_bound(segments_.begin(), segments_.end(), offset,
                               [](uint64_t o, const Segment& s) { return o < s.base; });
    if (it == segments_.begin()) return 0;
    --it;
    if (offset >= it->base + it->size) return 0;
    const uint64_t available = it->base + it->size - offset;
    count = static_cast<size_t>(std::min<uint64_t>(count, available));
    return inner_->pread(it->handle.get(), buffer, count, offset - it->base);
  }

 private:
  std::vector<Segment> segments_;
  std::shared_ptr<FileReader> inner_;
};

class ModelWeightSource : public WeightSource {
 public:
  ModelWeightSource(std::string path, std::string filePath, int fd, uint64_t size,
                    std::shared_ptr<SegmentedReader> reader, std::vector<TensorInfo> tensors)
      : WeightSource(std::move(path), std::move(filePath), fd, size, reader), segments_(reader) {
    setTensors(std::move(tensors));
  }
  std::string_view formatName() const override { return "onnx"; }

  // Each tensor in its own file (the model's or an external data file), so that loadConstants
  // maps the weights of a model with external data, which also embeds small ones in the model.
  std::optional<FileRange> fileRangeOf(const TensorInfo& t) const override {
    if (t.derived) return std::nullopt;
    return segments_->locate(t.byteOffset, t.byteLength);
  }

 private:
  std::shared_ptr<SegmentedReader> segments_;  // also the reader: owns the files' descriptors
};

}  // namespace

std::unique_ptr<WeightSource> makeModelWeightSource(const std::string& modelPath,
                                                    std::vector<WeightEntry> entries,
                                                    std::shared_ptr<FileReader> reader) {
  // Files in order of first use; each range checked against its own file.
  std::vector<std::string> files;
  std::map<std::string, size_t> fileIndex;
  for (const auto& entry : entries) {
    if (fileIndex.emplace(entry.file, files.size()).second) files.push_back(entry.file);
    uint64_t end;
    if (!weights::checkedAdd(entry.info.byteOffset, entry.info.byteLength, end) ||
        end > entry.fileSize) {
      throwDataError(modelPath, "tensor " + quoteName(entry.info.name) + " lies at bytes [" +
                                    std::to_string(entry.info.byteOffset) + ", +" +
                                    std::to_string(entry.info.byteLength) + ") of " +
                                    quoteName(entry.file) + ", beyond its end (" +
                                    std::to_string(entry.fileSize) + " bytes)");
    }
  }
  if (files.empty()) files.push_back(modelPath);

  std::vector<Segment> segments;
  std::vector<uint64_t> bases;
  uint64_t base = 0;
  for (const auto& file : files) {
    // External data files are resolved paths (symlinks already followed and checked).
    weights::OpenedFile opened = weights::openFile(file, file == modelPath ? 0 : O_NOFOLLOW);
    Segment segment;
    segment.base = base;
    segment.size = opened.size;
    segment.handle = std::move(opened.handle);
    bases.push_back(base);
    base += segment.size;
    segments.push_back(std::move(segment));
  }
  const uint64_t totalSize = base;

  std::vector<TensorInfo> tensors;
  tensors.reserve(entries.size());
  for (auto& entry : entries) {
    entry.info.byteOffset += bases[fileIndex.at(entry.file)];
    tensors.push_back(std::move(entry.info));
  }

  // With one file, its own descriptor (offsets are the file's); otherwise none, so that nothing
  // maps the joined address space (fileRangeOf gives each tensor's file).
  int fd = -1;
  if (segments.size() == 1) {
    fd = ::fcntl(segments[0].handle.get(), F_DUPFD_CLOEXEC, 0);
    if (fd < 0) throwOperationError(files[0] + ": cannot duplicate its file descriptor");
  }
  const std::string filePath = files.size() == 1 ? files[0] : modelPath;
  if (!reader) reader = std::make_shared<FileReader>();
  auto segmented = std::make_shared<SegmentedReader>(std::move(segments), std::move(reader));
  return std::make_unique<ModelWeightSource>(modelPath, filePath, fd, totalSize,
                                             std::move(segmented), std::move(tensors));
}

}  // namespace webnn::onnx_import
