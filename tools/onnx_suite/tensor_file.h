// A tensor of an ONNX test case: a serialized TensorProto (input_0.pb, output_0.pb of the ONNX
// backend tests) read into WebNN's element layout.
#pragma once

#include <cstdint>
#include <string>

#include "onnx_suite/allclose.h"

namespace webnn::onnx_suite {

struct TensorFile {
  std::string name;      // the proto's name (may be empty)
  std::string onnxType;  // "float", "double", ... as ONNX names it
  // The value; meaningful only when `supported` (bool is read as uint8, as the importer maps it).
  TensorValue value;
  bool supported = true;
  std::string unsupportedReason;  // e.g. "ONNX type double, which WebNN has no type for"
};

// Files above this many bytes are refused before they are read.
constexpr uint64_t kMaxTensorFileBytes = uint64_t{1} << 30;

// Throws webnn::Error (DataError) naming the file when it cannot be read, is not a TensorProto,
// or its data does not hold its shape's element count.
TensorFile readTensorFile(const std::string& path);

}  // namespace webnn::onnx_suite
