// WeightSource: a file that holds named tensors (safetensors, GGUF, or the WebNN graph weights
// format), listed from its header alone and read tensor by tensor straight into a caller's buffer.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "webnn/export.h"
#include "webnn/types.h"

namespace webnn {

// One tensor a WeightSource holds.
struct TensorInfo {
  std::string name{};
  // The WebNN data type of the stored bytes. Meaningful only when `supported`; an unsupported
  // tensor reports Uint8 (its raw bytes).
  MLOperandDataType dataType = MLOperandDataType::Uint8;
  // Row-major (WebNN order), outermost dimension first, whatever order the file lists them in.
  std::vector<uint32_t> shape{};
  // Absolute offset of the first byte, in the file WeightSource::filePath() names (for a derived
  // tensor, of the file's tensor it is computed from: see `derived`).
  uint64_t byteOffset = 0;
  uint64_t byteLength = 0;

  // The format's own name for the type ("F32", "BF16", "q4_K", "float32"), for messages and tools.
  std::string fileDataType{};
  // False when the tensor's type (or shape) has no WebNN equivalent: the tensor is listed, so that
  // tools can show it and a loader can name it, but WeightSource::read() refuses it with
  // `unsupportedReason` (a NotSupportedError naming the tensor and the type).
  bool supported = true;
  std::string unsupportedReason{};
  // True when the file does not hold the tensor's bytes as WebNN lays them out: read() computes
  // them from the file's bytes, range by range. A GGUF q4_0 or q8_0 tensor "X" is listed as three
  // derived tensors: "X" (the quantized values; q4_0: uint4, repacked to WebNN's two per byte,
  // element 2i in the low nibble of byte i; q8_0: int8), "X.scale" (float32, one per block of 32
  // along the innermost dimension: ggml's float16 scales, widened exactly) and "X.zero_point"
  // (uint4 all 8 or int8 all 0, the same shape), the operands of dequantizeLinear. Their byteLength
  // is the WebNN byte length; byteOffset is the first byte of the file's tensor they are computed
  // from (the three share it, and fileDataType, "q4_0" or "q8_0"). A loader never maps a derived
  // tensor's range.
  bool derived = false;

  MLOperandDescriptor descriptor() const { return {dataType, shape}; }
};

// Where every byte of a WeightSource is read. Tests derive from it to inject faults (EIO, short
// reads); the default calls ::pread. Same contract as ::pread: bytes read, 0 at end of file, or -1
// with errno set. Must be safe to call from several threads at once.
class WEBNN_EXPORT FileReader {
 public:
  virtual ~FileReader();
  virtual ssize_t pread(int fd, void* buffer, size_t count, uint64_t offset);
};

class WEBNN_EXPORT WeightSource {
 public:
  // Opens `path`, choosing the format from the file's contents:
  //   - GGUF: the file starts with "GGUF" (versions 2 and 3, little-endian);
  //   - safetensors: a little-endian u64 header length followed by '{';
  //   - WebNN graph weights (rustnn/webnn-graph): a `.weights` file starting with "WGWT" + u32
  //     version 1, described by its sibling `<stem>.manifest.json` (or `manifest.json`); or that
  //     manifest itself (a file starting with '{'), whose sibling `<stem>.weights` (or
  //     `model.weights`) holds the bytes.
  // Reads only the header (and manifest). Every size, offset, count, name and shape in it is
  // checked before anything proportional to it is allocated. Throws webnn::Error: DataError naming
  // the file and what is wrong with it; OperationError when the file cannot be opened or read.
  static std::unique_ptr<WeightSource> open(const std::string& path);
  // Same, but every byte (header and tensors) is read through `reader`.
  static std::unique_ptr<WeightSource> open(const std::string& path,
                                            std::shared_ptr<FileReader> reader);

  WeightSource(const WeightSource&) = delete;
  WeightSource& operator=(const WeightSource&) = delete;
  virtual ~WeightSource();

  // "safetensors", "gguf" or "webnn-weights".
  virtual std::string_view formatName() const = 0;

  // The path given to open().
  const std::string& path() const { return path_; }
  // The file holding the tensor bytes (the .weights file for the WebNN format; path() otherwise).
  const std::string& filePath() const { return filePath_; }
  // Its size in bytes, as seen at open().
  uint64_t fileSize() const { return fileSize_; }

  // Every tensor, in the order its bytes lie in the file (by byteOffset; header order for ties).
  const std::vector<TensorInfo>& tensors() const { return tensors_; }
  // The tensor named `name`, or nullptr.
  const TensorInfo* find(std::string_view name) const;
  // Sum of the byte lengths of all tensors (a derived tensor's WebNN byte length).
  uint64_t totalBytes() const { return totalBytes_; }

  // Reads `destination.size()` bytes of tensor `t` (one of tensors()), starting `offsetInTensor`
  // bytes into it, straight into `destination` (a pread loop, no intermediate buffer; a derived
  // tensor is computed from the file's bytes through a bounded one).
  // Thread-safe. Throws TypeError when `t` is not a tensor of this source or the range is outside
  // it; NotSupportedError when !t.supported; OperationError naming the file, the tensor and the
  // absolute offset when the read fails (EIO, short read, file truncated since open). A failed
  // read can be retried.
  void read(const TensorInfo& t, uint64_t offsetInTensor, std::span<std::byte> destination) const;
  // Same as read(), also for unsupported tensors: their raw bytes, for a caller that converts them.
  // A derived tensor's bytes are computed as read() computes them.
  void readRaw(const TensorInfo& t, uint64_t offsetInTensor,
               std::span<std::byte> destination) const;

  // The open file descriptor of filePath(), valid as long as this object lives, so that a loader
  // may mmap a tensor's range (zero copy) where the final layout equals the file's; -1 where the
  // tensors lie in several files (an ONNX model with external data): fileRangeOf says per tensor.
  int fileDescriptor() const { return fd_; }

  // Where tensor `t` (one of tensors()) lies as stored: an open file descriptor (valid as long as
  // this object lives), the tensor's offset in that file and the file's size at open(). nullopt
  // for a derived tensor (the file does not hold its bytes) or where no single file holds them.
  // The default: fileDescriptor() at t.byteOffset.
  struct FileRange {
    int fd = -1;
    uint64_t offset = 0;
    uint64_t fileSize = 0;
  };
  virtual std::optional<FileRange> fileRangeOf(const TensorInfo& t) const;

 protected:
  // Takes ownership of `fd`.
  WeightSource(std::string path, std::string filePath, int fd, uint64_t fileSize,
               std::shared_ptr<FileReader> reader);

  // Installs the tensor list after checking it against the file: names unique, every range inside
  // the file, no two ranges overlapping (derived tensors aside: the format checks the ranges they
  // are computed from). Throws DataError naming the file and the tensor(s).
  void setTensors(std::vector<TensorInfo> tensors);

  // Computes bytes [offsetInTensor, +destination.size()) of the derived tensor `t` (one of
  // tensors(), the range checked). Formats that list derived tensors override it; the default
  // throws.
  virtual void readDerived(const TensorInfo& t, uint64_t offsetInTensor,
                           std::span<std::byte> destination) const;

  FileReader& reader() const { return *reader_; }

 private:
  const TensorInfo& checkTensor(const TensorInfo& t, uint64_t offsetInTensor, size_t size) const;

  std::string path_{};
  std::string filePath_{};
  int fd_ = -1;
  uint64_t fileSize_ = 0;
  std::shared_ptr<FileReader> reader_{};
  std::vector<TensorInfo> tensors_{};
  std::unordered_map<std::string_view, size_t> index_{};
  uint64_t totalBytes_ = 0;
};

}  // namespace webnn
