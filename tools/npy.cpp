// .npy reading and writing.
#include "npy.h"

#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>

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

}  // namespace

NpyArray readNpy(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(Error::Kind::OperationError, path + ": cannot open");
  char magic[8];
  if (!in.read(magic, 8) || std::memcmp(magic, "\x93NUMPY", 6) != 0) fail(path, "not a .npy file");
  const int major = static_cast<unsigned char>(magic[6]);
  uint32_t headerLength = 0;
  if (major == 1) {
    unsigned char b[2];
    if (!in.read(reinterpret_cast<char*>(b), 2)) fail(path, "truncated header");
    headerLength = b[0] | (b[1] << 8);
  } else if (major == 2 || major == 3) {
    unsigned char b[4];
    if (!in.read(reinterpret_cast<char*>(b), 4)) fail(path, "truncated header");
    headerLength = b[0] | (b[1] << 8) | (b[2] << 16) | (uint32_t{b[3]} << 24);
  } else {
    fail(path, ".npy version " + std::to_string(major) + " is not supported");
  }
  if (headerLength > (1u << 20)) fail(path, "the .npy header is too long");
  std::string header(headerLength, '\0');
  if (!in.read(header.data(), headerLength)) fail(path, "truncated header");

  NpyArray array;
  std::string descr = field(header, "descr", path);
  if (descr.size() < 2) fail(path, "malformed descr");
  descr = descr.substr(1, descr.size() - 2);
  if (descr == "<f4" || descr == "f4")
    array.dataType = MLOperandDataType::Float32;
  else if (descr == "<f2" || descr == "f2")
    array.dataType = MLOperandDataType::Float16;
  else if (descr == "<i8" || descr == "i8")
    array.dataType = MLOperandDataType::Int64;
  else if (descr == "<i4" || descr == "i4")
    array.dataType = MLOperandDataType::Int32;
  else if (descr == "|u1" || descr == "u1" || descr == "|b1" || descr == "b1")
    array.dataType = MLOperandDataType::Uint8;
  else
    fail(path, "dtype " + descr + " is not supported (float32, float16, int64, int32, uint8)");
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
    const uint64_t d = std::stoull(shape.substr(i, end - i));
    if (d > std::numeric_limits<uint32_t>::max()) fail(path, "dimension too large");
    array.shape.push_back(static_cast<uint32_t>(d));
    if (__builtin_mul_overflow(count, d, &count)) fail(path, "too many elements");
    i = end;
  }
  uint64_t bytes;
  if (__builtin_mul_overflow(count, uint64_t{bitsPerElement(array.dataType) / 8}, &bytes) ||
      bytes > (uint64_t{1} << 40)) {
    fail(path, "too many elements");
  }
  array.data.resize(static_cast<size_t>(bytes));
  if (!in.read(reinterpret_cast<char*>(array.data.data()), static_cast<std::streamsize>(bytes))) {
    fail(path, "the file holds fewer bytes than its shape needs (" + std::to_string(bytes) + ")");
  }
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
  std::ofstream out(path, std::ios::binary);
  if (!out) throw Error(Error::Kind::OperationError, path + ": cannot create");
  const uint16_t length = static_cast<uint16_t>(header.size());
  const unsigned char lengthBytes[2] = {static_cast<unsigned char>(length & 0xff),
                                        static_cast<unsigned char>(length >> 8)};
  out.write("\x93NUMPY\x01\x00", 8);
  out.write(reinterpret_cast<const char*>(lengthBytes), 2);
  out.write(header.data(), static_cast<std::streamsize>(header.size()));
  out.write(reinterpret_cast<const char*>(array.data.data()),
            static_cast<std::streamsize>(array.data.size()));
  if (!out) throw Error(Error::Kind::OperationError, path + ": writing failed");
}

}  // namespace webnn::tools
