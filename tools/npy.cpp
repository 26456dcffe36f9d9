// .npy reading and writing.
#include "npy.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <limits>

#include "core/checked_math.h"
#include "weights/file_reader.h"

namespace webnn::tools {
namespace {

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw Error(Error::Kind::DataError, path + ": " + what);
}

std::string descrOf(MLOperandDataType type, const std::string& path) {
  switch (type) {
    case MLOperandDataType::Float32:
      return "<f4";
    case MLOperandDataType::Float16:
      return "<f2";
    case MLOperandDataType::Int64:
      return "<i8";
    case MLOperandDataType::Int32:
      return "<i4";
    case MLOperandDataType::Uint8:
      return "|u1";
    case MLOperandDataType::Int8:
      return "|i1";
    case MLOperandDataType::Uint32:
      return "<u4";
    case MLOperandDataType::Uint64:
      return "<u8";
    default:
      fail(path, "cannot write " + std::string(toString(type)) + " as .npy");
  }
}

// The value of `key` in the header dictionary, as written ("'<f4'", "False", "(1, 3, )").
std::string field(const std::string& header, const std::string& key, const std::string& path) {
  const auto at = header.find("'" + key + "'");
  if (at == std::string::npos) fail(path, "the .npy header has no '" + key + "'");
  auto colon = header.find(':', at);
  if (colon == std::string::npos) fail(path, "malformed .npy header");
  size_t begin = colon + 1;
  while (begin < header.size() && header[begin] == ' ') ++begin;
  size_t end = begin;
  if (begin < header.size() && header[begin] == '(') {
    end = header.find(')', begin);
    if (end == std::string::npos) fail(path, "malformed shape in the .npy header");
    return header.substr(begin, end - begin + 1);
  }
  while (end < header.size() && header[end] != ',' && header[end] != '}') ++end;
  return header.substr(begin, end - begin);
}

// Reads the .npy file through exact preads, checking every length against the file's size first.
class NpyFile {
 public:
  explicit NpyFile(const std::string& path) : path_(path), file_(weights::openFile(path)) {}
  uint64_t size() const { return file_.size; }
  void read(void* into, uint64_t length, const char* what) {
    if (length > file_.size || offset_ > file_.size - length) {
      fail(path_, std::string(what) + " needs " + std::to_string(length) + " bytes at offset " +
                      std::to_string(offset_) + " but the file has " + std::to_string(file_.size) +
                      " bytes");
    }
    FileReader reader;
    if (const auto failure =
            weights::preadExact(reader, file_.handle.get(), static_cast<std::byte*>(into),
                                static_cast<size_t>(length), offset_)) {
      throw Error(Error::Kind::OperationError, path_ + ": reading " + what + " failed at offset " +
                                                   std::to_string(failure->offset) + ": " +
                                                   weights::describeFailure(*failure));
    }
    offset_ += length;
  }
  uint64_t remaining() const { return file_.size - offset_; }

 private:
  const std::string& path_;
  weights::OpenedFile file_;
  uint64_t offset_ = 0;
};

[[noreturn]] void failWrite(const std::string& path, const char* what) {
  throw Error(Error::Kind::OperationError, path + ": " + what + " failed: " + std::strerror(errno));
}

bool writeAll(int fd, std::span<const std::byte> bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = EIO;
      return false;
    }
    bytes = bytes.subspan(static_cast<size_t>(n));
  }
  return true;
}

}  // namespace

void writeFileChecked(const std::string& path,
                      std::initializer_list<std::span<const std::byte>> parts) {
  // A regular file (or a new one) is written beside its final name and renamed over it once every
  // byte is written, synced and closed: a failed write leaves the old file as it was. Anything
  // else (a device such as /dev/full or /dev/stdout) is written in place, every write and the
  // close checked.
  struct stat status {};
  const bool exists = ::stat(path.c_str(), &status) == 0;
  const bool replace = !exists || S_ISREG(status.st_mode);
  std::string temporary;
  int fd;
  if (replace) {
    temporary = path + ".partial-XXXXXX";
    fd = ::mkostemp(temporary.data(), O_CLOEXEC);
    if (fd < 0) failWrite(path, "creating the file");
    ::fchmod(fd, 0644);
  } else {
    fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_TRUNC);
    if (fd < 0) failWrite(path, "opening the file");
  }
  bool ok = true;
  const char* failed = "writing";
  for (const auto& part : parts) {
    if (ok && !writeAll(fd, part)) ok = false;
  }
  if (ok && replace && ::fsync(fd) != 0) {
    ok = false;
    failed = "syncing";
  }
  const int savedErrno = errno;
  if (::close(fd) != 0 && ok) {
    ok = false;
    failed = "closing";
  } else {
    errno = savedErrno;
  }
  if (ok && replace && ::rename(temporary.c_str(), path.c_str()) != 0) {
    ok = false;
    failed = "renaming the written file";
  }
  if (!ok) {
    const int error = errno;
    if (replace) ::unlink(temporary.c_str());
    errno = error;
    failWrite(path, failed);
  }
}

NpyArray readNpy(const std::string& path) {
  NpyFile in(path);
  char magic[8];
  if (in.size() < 8) fail(path, "not a .npy file");
  in.read(magic, 8, "the magic string");
  if (std::memcmp(magic, "\x93NUMPY", 6) != 0) fail(path, "not a .npy file");
  const int major = static_cast<unsigned char>(magic[6]);
  uint32_t headerLength = 0;
  if (major == 1) {
    unsigned char b[2];
    in.read(b, 2, "the header length");
    headerLength = b[0] | (b[1] << 8);
  } else if (major == 2 || major == 3) {
    unsigned char b[4];
    in.read(b, 4, "the header length");
    headerLength = b[0] | (b[1] << 8) | (b[2] << 16) | (uint32_t{b[3]} << 24);
  } else {
    fail(path, ".npy version " + std::to_string(major) + " is not supported");
  }
  if (headerLength > (1u << 20)) fail(path, "the .npy header is too long");
  std::string header(std::min<uint64_t>(headerLength, in.remaining()), '\0');
  if (header.size() != headerLength) fail(path, "truncated header");
  in.read(header.data(), headerLength, "the header");

  NpyArray array;
  std::string descr = field(header, "descr", path);
  if (descr.size() < 2) fail(path, "malformed descr");
  descr = descr.substr(1, descr.size() - 2);
  // Every WebNN type numpy has (bool reads as uint8), little-endian or byte-sized; '=' is the
  // machine's order, little-endian here.
  const std::string written = descr;
  if (!descr.empty() && (descr[0] == '<' || descr[0] == '|' || descr[0] == '=')) descr.erase(0, 1);
  static const std::pair<const char*, MLOperandDataType> kTypes[] = {
      {"f4", MLOperandDataType::Float32}, {"f2", MLOperandDataType::Float16},
      {"i8", MLOperandDataType::Int64},   {"u8", MLOperandDataType::Uint64},
      {"i4", MLOperandDataType::Int32},   {"u4", MLOperandDataType::Uint32},
      {"i1", MLOperandDataType::Int8},    {"u1", MLOperandDataType::Uint8},
      {"b1", MLOperandDataType::Uint8}};
  bool known = false;
  for (const auto& [name, type] : kTypes) {
    if (descr == name) {
      array.dataType = type;
      known = true;
    }
  }
  if (!known) {
    fail(path, "dtype " + written +
                   " is not supported: WebNN's types are float32, float16, int64, " +
                   "uint64, int32, uint32, int8, uint8 (and bool as uint8), little-endian");
  }
  if (field(header, "fortran_order", path).find("False") == std::string::npos) {
    fail(path, "Fortran-order arrays are not supported");
  }
  const std::string shape = field(header, "shape", path);
  uint64_t count = 1;
  for (size_t i = 1; i < shape.size();) {
    while (i < shape.size() && (shape[i] == ' ' || shape[i] == ',')) ++i;
    if (i >= shape.size() || shape[i] == ')') break;
    size_t end = i;
    while (end < shape.size() && std::isdigit(static_cast<unsigned char>(shape[end]))) ++end;
    if (end == i) fail(path, "malformed shape " + shape);
    const std::string text = shape.substr(i, end - i);
    const auto d = checked::parseInteger<uint32_t>(text);
    if (!d) fail(path, "dimension " + text + " is above WebNN's largest (4294967295)");
    array.shape.push_back(*d);
    const auto product = checked::mul<uint64_t>(count, *d);
    if (!product) fail(path, "the shape " + shape + " has too many elements");
    count = *product;
    i = end;
  }
  const auto bytes = checked::mul<uint64_t>(count, bitsPerElement(array.dataType) / 8);
  if (!bytes) fail(path, "the shape " + shape + " has too many elements");
  // Checked against the file before anything is allocated.
  if (*bytes > in.remaining()) {
    fail(path, "the file holds fewer bytes of data (" + std::to_string(in.remaining()) +
                   ") than its shape " + shape + " needs (" + std::to_string(*bytes) + ")");
  }
  array.data.resize(static_cast<size_t>(*bytes));
  in.read(array.data.data(), *bytes, "the data");
  return array;
}

void writeNpy(const std::string& path, const NpyArray& array) {
  std::string header =
      "{'descr': '" + descrOf(array.dataType, path) + "', 'fortran_order': False, 'shape': (";
  for (size_t i = 0; i < array.shape.size(); ++i) {
    header += std::to_string(array.shape[i]) +
              (array.shape.size() == 1 ? "," : (i + 1 < array.shape.size() ? ", " : ""));
  }
  header += "), }";
  // Pad with spaces so that the data starts on a 64-byte boundary; end with '\n'.
  const size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  const uint16_t length = static_cast<uint16_t>(header.size());
  std::string prefix = "\x93NUMPY\x01";
  prefix += '\0';
  prefix += static_cast<char>(length & 0xff);
  prefix += static_cast<char>(length >> 8);
  prefix += header;
  writeFileChecked(path, {std::as_bytes(std::span(prefix.data(), prefix.size())),
                          std::span<const std::byte>(array.data)});
}

}  // namespace webnn::tools
