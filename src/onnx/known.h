// Known tensors: values the importer holds at import time (Constant nodes, small initializers,
// shapes, folded subgraphs). Integers and booleans are kept as int64, floating point as double.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "webnn/types.h"

namespace onnx {
class TensorProto;
}

namespace webnn::onnx_import {

// ONNX TensorProto.DataType values used by the importer.
enum OnnxType : int32_t {
  kUndefined = 0,
  kFloat = 1,
  kUint8 = 2,
  kInt8 = 3,
  kUint16 = 4,
  kInt16 = 5,
  kInt32 = 6,
  kInt64 = 7,
  kString = 8,
  kBool = 9,
  kFloat16 = 10,
  kDouble = 11,
  kUint32 = 12,
  kUint64 = 13,
  kBfloat16 = 16
};

// The WebNN type holding an ONNX type (bool -> uint8), or nullopt.
std::optional<MLOperandDataType> webnnType(int32_t onnxType);
// Bytes per element of an ONNX type (0 when unknown or variable).
size_t onnxElementSize(int32_t onnxType);
std::string onnxTypeName(int32_t onnxType);
bool isOnnxFloat(int32_t onnxType);

struct Known {
  int32_t type = kFloat;
  std::vector<int64_t> shape;
  std::vector<int64_t> ints;   // integer and bool types
  std::vector<double> floats;  // floating-point types

  bool isFloat() const { return isOnnxFloat(type); }
  size_t size() const { return isFloat() ? floats.size() : ints.size(); }
  // Element i (DataError when the value has no element i: an empty or mis-shaped input).
  double number(size_t i) const;
  // Element i as an integer: floating-point values truncated toward zero, saturating at the
  // int64 range (NaN gives 0).
  int64_t integer(size_t i) const;
  std::vector<int64_t> integers() const;

  static Known scalarInt(int32_t type, int64_t value);
  static Known vectorInts(std::vector<int64_t> values);
  // Zero-filled; the caller has reserved the shape (Context::reserveKnown).
  static Known ofShape(int32_t type, std::vector<int64_t> shape);
  // Converts to `type` (ONNX Cast semantics for the types the importer folds).
  Known castTo(int32_t newType) const;
};

// Element count of an ONNX shape (1 for a scalar); nullopt on negative dims or overflow.
std::optional<uint64_t> shapeElements(const std::vector<int64_t>& shape);

// Decodes `proto`'s values; `data` holds its raw bytes when they were stripped from the proto.
// `where` names the tensor in errors.
Known decodeTensor(const ::onnx::TensorProto& proto, const std::vector<std::byte>* data,
                   const std::string& where);
// Decodes little-endian raw bytes of `type`.
Known decodeRaw(int32_t type, std::vector<int64_t> shape, std::span<const std::byte> bytes,
                const std::string& where);
// The bytes of `known` as WebNN type `type`.
std::vector<std::byte> encode(const Known& known, MLOperandDataType type);

}  // namespace webnn::onnx_import
