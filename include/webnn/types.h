// Data types, descriptors and the error type of the WebNN API (https://www.w3.org/TR/webnn/).
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "webnn/export.h"

namespace webnn {

// MLOperandDataType: the spec's enum, in the spec's order.
enum class MLOperandDataType { Float32, Float16, Int32, Uint32, Int64, Uint64, Int8, Uint8, Int4, Uint4 };

// The spec's string for a data type ("float32", "int4", ...).
WEBNN_EXPORT std::string_view toString(MLOperandDataType);
// Parses the spec's string; nullopt when the string names no data type.
WEBNN_EXPORT std::optional<MLOperandDataType> parseDataType(std::string_view);

// Bits one element takes in memory (4 for int4/uint4, which pack two per byte, low nibble first).
WEBNN_EXPORT uint32_t bitsPerElement(MLOperandDataType);
WEBNN_EXPORT bool isFloatingPoint(MLOperandDataType);
WEBNN_EXPORT bool isSigned(MLOperandDataType);

struct WEBNN_EXPORT MLOperandDescriptor {
  MLOperandDataType dataType = MLOperandDataType::Float32;
  std::vector<uint32_t> shape{};

  // Product of the dimensions (1 for a scalar). Throws TypeError on overflow.
  uint64_t elementCount() const;
  // Bytes the tensor takes, int4/uint4 packed two per byte (rounded up). Throws TypeError on overflow.
  uint64_t byteLength() const;
  bool operator==(const MLOperandDescriptor&) const = default;
};

struct MLTensorDescriptor : MLOperandDescriptor {
  bool readable = false;
  bool writable = false;
};

// "float32 [1, 3, 224, 224]"
WEBNN_EXPORT std::string toString(const MLOperandDescriptor&);

// The spec's errors are DOMExceptions (and TypeError); name() is the spec's name.
class WEBNN_EXPORT Error : public std::exception {
 public:
  enum class Kind { TypeError, InvalidStateError, OperationError, UnknownError, NotSupportedError, DataError };
  Error(Kind kind, std::string message);
  const char* what() const noexcept override { return message_.c_str(); }
  Kind kind() const noexcept { return kind_; }
  // "TypeError", "InvalidStateError", "OperationError", "UnknownError", ...
  std::string_view name() const noexcept;
  const std::string& message() const noexcept { return message_; }

 private:
  Kind kind_{};
  std::string message_{};
};

[[noreturn]] WEBNN_EXPORT void throwTypeError(const std::string& message);
[[noreturn]] WEBNN_EXPORT void throwInvalidStateError(const std::string& message);
[[noreturn]] WEBNN_EXPORT void throwOperationError(const std::string& message);

}  // namespace webnn
