#include "file_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <limits>

namespace webnn {
namespace weights {

FileHandle& FileHandle::operator=(FileHandle&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.release();
  }
  return *this;
}

FileHandle::~FileHandle() {
  if (fd_ >= 0) ::close(fd_);
}

OpenedFile openFile(const std::string& path, int extraFlags) {
  if (path.find('\0') != std::string::npos) {
    throw Error(Error::Kind::DataError, quoteName(path) + ": the path holds a NUL character");
  }
  // O_NONBLOCK: opening a FIFO (or a device) must not wait for a writer; the type is checked
  // right after, and regular files ignore the flag.
  int fd;
  do {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | extraFlags);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) {
    throwOperationError("cannot open '" + path + "': " + std::strerror(errno));
  }
  OpenedFile file{FileHandle(fd), 0};
  struct stat status {};
  if (::fstat(fd, &status) != 0) {
    throwOperationError("cannot stat '" + path + "': " + std::strerror(errno));
  }
  if (!S_ISREG(status.st_mode)) {
    throw Error(Error::Kind::DataError, "'" + path + "' is not a regular file");
  }
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  file.size = static_cast<uint64_t>(status.st_size);
  return file;
}

bool isRegularFile(const std::string& path) {
  struct stat status {};
  return ::stat(path.c_str(), &status) == 0 && S_ISREG(status.st_mode);
}

std::optional<ReadFailure> preadExact(FileReader& reader, int fd, std::byte* destination,
                                      size_t count, uint64_t offset) noexcept {
  // Linux transfers at most 0x7ffff000 bytes per call; ask for no more than 1 GiB at a time.
  constexpr size_t kMaxPerCall = size_t{1} << 30;
  while (count > 0) {
    const size_t ask = count < kMaxPerCall ? count : kMaxPerCall;
    const ssize_t got = reader.pread(fd, destination, ask, offset);
    if (got < 0) {
      if (errno == EINTR) continue;
      return ReadFailure{offset, errno != 0 ? errno : EIO};
    }
    if (got == 0) return ReadFailure{offset, 0};
    const auto done = static_cast<size_t>(got) < ask ? static_cast<size_t>(got) : ask;
    destination += done;
    count -= done;
    offset += done;
  }
  return std::nullopt;
}

std::string describeFailure(const ReadFailure& failure) {
  if (failure.error == 0) return "unexpected end of file";
  return std::strerror(failure.error);
}

void throwDataError(std::string_view file, std::string_view what) {
  std::string message(file);
  message += ": ";
  message += what;
  throw Error(Error::Kind::DataError, std::move(message));
}

std::string quoteName(std::string_view text) {
  constexpr size_t kMaxShown = 200;
  std::string out = "'";
  const size_t shown = text.size() < kMaxShown ? text.size() : kMaxShown;
  for (size_t i = 0; i < shown; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c == 0x7f || c == '\'' || c == '\\') {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  if (shown < text.size()) out += "...";
  out += "'";
  return out;
}

std::string shapeToString(const std::vector<uint32_t>& shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) text += ", ";
    text += std::to_string(shape[i]);
  }
  return text + "]";
}

std::optional<uint64_t> elementCount(const std::vector<uint32_t>& shape) {
  return checked::elementCount(shape);
}

std::optional<uint64_t> bytesFor(uint64_t elements, uint64_t bits) {
  uint64_t total;
  if (!checkedMul(elements, bits, total)) return std::nullopt;
  return total / 8 + (total % 8 != 0 ? 1 : 0);
}

}  // namespace weights
}  // namespace webnn
