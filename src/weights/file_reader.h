// Internal helpers of src/weights: an owned file descriptor, exact reads through a FileReader,
// errors naming the file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/checked_math.h"
#include "webnn/weight_source.h"

namespace webnn::weights {

// An open file descriptor, closed on destruction.
class FileHandle {
 public:
  FileHandle() = default;
  explicit FileHandle(int fd) : fd_(fd) {}
  FileHandle(FileHandle&& other) noexcept : fd_(other.release()) {}
  FileHandle& operator=(FileHandle&& other) noexcept;
  FileHandle(const FileHandle&) = delete;
  FileHandle& operator=(const FileHandle&) = delete;
  ~FileHandle();

  int get() const { return fd_; }
  int release() {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }

 private:
  int fd_ = -1;
};

struct OpenedFile {
  FileHandle handle;
  uint64_t size = 0;
};

// Opens `path` read-only without blocking (a FIFO is refused, not waited on); it must be a
// regular file (DataError otherwise) and hold no NUL. `extraFlags` are added to open()'s flags
// (O_NOFOLLOW). Throws OperationError naming the path and the system's reason.
OpenedFile openFile(const std::string& path, int extraFlags = 0);

// True when `path` names an existing regular file.
bool isRegularFile(const std::string& path);

// How an exact read failed.
struct ReadFailure {
  uint64_t offset = 0;  // absolute offset of the first byte not read
  int error = 0;        // errno, or 0 when the file ended early
};

// Reads exactly `count` bytes at `offset` into `destination` through `reader` (retrying EINTR and
// partial reads). Returns the failure, if any; never throws.
std::optional<ReadFailure> preadExact(FileReader& reader, int fd, std::byte* destination,
                                      size_t count, uint64_t offset) noexcept;

// "Input/output error", or "unexpected end of file" for error 0.
std::string describeFailure(const ReadFailure& failure);

[[noreturn]] void throwDataError(std::string_view file, std::string_view what);

// "'name'" with control characters and long names escaped, for messages naming header strings.
std::string quoteName(std::string_view text);

// Overflow-checked arithmetic on sizes read from untrusted headers.
// (Wrappers of core/checked_math.h, the one helper for size arithmetic.)
inline bool checkedAdd(uint64_t a, uint64_t b, uint64_t& result) {
  const auto sum = checked::add(a, b);
  if (sum) result = *sum;
  return sum.has_value();
}
inline bool checkedMul(uint64_t a, uint64_t b, uint64_t& result) {
  const auto product = checked::mul(a, b);
  if (product) result = *product;
  return product.has_value();
}

// "[2, 3, 4]"
std::string shapeToString(const std::vector<uint32_t>& shape);

// Product of `shape`, or nullopt on overflow (1 for a scalar).
std::optional<uint64_t> elementCount(const std::vector<uint32_t>& shape);

// Bytes `elements` elements of `bits` bits take, rounded up; nullopt on overflow.
std::optional<uint64_t> bytesFor(uint64_t elements, uint64_t bits);

}  // namespace webnn::weights
