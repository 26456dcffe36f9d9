#include "webnn/types.h"

#include <array>
#include <limits>

namespace webnn {
namespace {

struct DataTypeInfo {
  MLOperandDataType type;
  std::string_view name;
  uint32_t bits;
  bool floating;
  bool isSigned;
};

constexpr std::array<DataTypeInfo, 10> kDataTypes = {{
    {MLOperandDataType::Float32, "float32", 32, true, true},
    {MLOperandDataType::Float16, "float16", 16, true, true},
    {MLOperandDataType::Int32, "int32", 32, false, true},
    {MLOperandDataType::Uint32, "uint32", 32, false, false},
    {MLOperandDataType::Int64, "int64", 64, false, true},
    {MLOperandDataType::Uint64, "uint64", 64, false, false},
    {MLOperandDataType::Int8, "int8", 8, false, true},
    {MLOperandDataType::Uint8, "uint8", 8, false, false},
    {MLOperandDataType::Int4, "int4", 4, false, true},
    {MLOperandDataType::Uint4, "uint4", 4, false, false},
}};

const DataTypeInfo& info(MLOperandDataType type) {
  return kDataTypes.at(static_cast<size_t>(type));
}

}  // namespace

std::string_view toString(MLOperandDataType type) { return info(type).name; }

std::optional<MLOperandDataType> parseDataType(std::string_view name) {
  for (const auto& entry : kDataTypes) {
    if (entry.name == name) return entry.type;
  }
  return std::nullopt;
}

uint32_t bitsPerElement(MLOperandDataType type) { return info(type).bits; }
bool isFloatingPoint(MLOperandDataType type) { return info(type).floating; }
bool isSigned(MLOperandDataType type) { return info(type).isSigned; }

uint64_t MLOperandDescriptor::elementCount() const {
  uint64_t count = 1;
  for (uint32_t dimension : shape) {
    if (dimension != 0 && count > std::numeric_limits<uint64_t>::max() / dimension) {
      throwTypeError("the element count of " + toString(*this) + " overflows");
    }
    count *= dimension;
  }
  return count;
}

uint64_t MLOperandDescriptor::byteLength() const {
  const uint64_t count = elementCount();
  const uint32_t bits = bitsPerElement(dataType);
  if (count > std::numeric_limits<uint64_t>::max() / bits) {
    throwTypeError("the byte length of " + toString(*this) + " overflows");
  }
  return (count * bits + 7) / 8;
}

std::string toString(const MLOperandDescriptor& descriptor) {
  std::string text(toString(descriptor.dataType));
  text += " [";
  for (size_t i = 0; i < descriptor.shape.size(); ++i) {
    if (i) text += ", ";
    text += std::to_string(descriptor.shape[i]);
  }
  text += "]";
  return text;
}

Error::Error(Kind kind, std::string message) : kind_(kind), message_(std::move(message)) {}

std::string_view Error::name() const noexcept {
  switch (kind_) {
    case Kind::TypeError: return "TypeError";
    case Kind::InvalidStateError: return "InvalidStateError";
    case Kind::OperationError: return "OperationError";
    case Kind::UnknownError: return "UnknownError";
    case Kind::NotSupportedError: return "NotSupportedError";
    case Kind::DataError: return "DataError";
  }
  return "UnknownError";
}

void throwTypeError(const std::string& message) { throw Error(Error::Kind::TypeError, message); }
void throwInvalidStateError(const std::string& message) {
  throw Error(Error::Kind::InvalidStateError, message);
}
void throwOperationError(const std::string& message) {
  throw Error(Error::Kind::OperationError, message);
}

}  // namespace webnn
