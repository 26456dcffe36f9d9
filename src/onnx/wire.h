// A small protobuf wire-format walker over an ONNX ModelProto: it finds the byte range of every
// weight's data (initializers and Constant-node tensors: raw_data, or packed float_data) and
// writes a copy of the model without the large ones, small enough to parse with libonnx. Weight
// bytes are never copied or parsed; every length is checked against the bytes that hold it.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

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

// `file` holds the whole model (memory-mapped; only the pages holding field headers are touched).
// Data fields longer than `stripAbove` bytes are left out of `bytes`. Throws DataError naming
// `path` on malformed input.
StrippedModel stripModel(std::string_view file, const std::string& path, uint64_t stripAbove);

}  // namespace webnn::onnx_import
