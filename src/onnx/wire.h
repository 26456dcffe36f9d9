// A small protobuf wire-format walker over an ONNX ModelProto: it finds the byte range of every
// weight's data (initializers and Constant-node tensors: raw_data, or packed float_data) and
// writes a copy of the model without the large ones, small enough to parse with libonnx. Weight
// bytes are never copied or parsed; every length is checked against the bytes that hold it.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "webnn/weight_source.h"

namespace webnn::onnx_import {

// Where a tensor's data lies in the model file.
struct DataRange {
  uint64_t offset = 0;
  uint64_t length = 0;
  bool fromFloatData = false;  // packed float_data rather than raw_data
  bool stripped = false;       // removed from the parsed copy (read it from the file)
};

struct StrippedModel {
  std::string bytes;  // the ModelProto without the stripped data fields
  // By the initializer's index in graph.initializer.
  std::map<int, DataRange> initializers;
  // By (node index in graph.node, attribute index in node.attribute): the attribute's tensor `t`.
  std::map<std::pair<int, int>, DataRange> attributeTensors;
};

// The model file read through bounded pread windows (never memory-mapped: a file that shrinks
// while it is parsed gives a DataError, not SIGBUS). Only the windows holding field headers and
// the fields kept in the parsed copy are read.
class ModelBytes {
 public:
  // `fd` stays owned by the caller; `size` is the file's size when it was opened.
  ModelBytes(int fd, uint64_t size, FileReader& reader, const std::string& path);
  uint64_t size() const { return size_; }
  uint8_t at(uint64_t position);
  // Appends bytes [begin, end) to `out`.
  void append(std::string& out, uint64_t begin, uint64_t end);

 private:
  void load(uint64_t position);
  [[noreturn]] void failRead(uint64_t offset, const std::string& why) const;

  int fd_;
  uint64_t size_;
  FileReader& reader_;
  const std::string& path_;
  std::string window_;
  uint64_t windowBegin_ = 0;
};

// Data fields longer than `stripAbove` bytes are left out of `bytes`. Throws DataError naming
// `path` on malformed input or a file that changed while it was read.
StrippedModel stripModel(ModelBytes& file, const std::string& path, uint64_t stripAbove);

}  // namespace webnn::onnx_import
