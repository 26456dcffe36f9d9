#include <webnn/webnn.h>

#ifdef WEBNN_HAVE_ONNX
#include "onnx_suite/tensor_file.h"

#include <cstring>

#include "core/checked_math.h"
#include "onnx/onnx_pb.h"
#include "weights/file_reader.h"

namespace webnn::onnx_suite {
namespace {

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw Error(Error::Kind::DataError, path + ": " + what);
}

std::string readWholeFile(const std::string& path) {
  weights::OpenedFile file = weights::openFile(path);
  if (file.size > kMaxTensorFileBytes) {
    fail(path, "the file is " + std::to_string(file.size) + " bytes, above the limit of " +
                   std::to_string(kMaxTensorFileBytes));
  }
  std::string bytes(file.size, '\0');
  FileReader reader;
  if (const auto failure = weights::preadExact(
          reader, file.handle.get(), reinterpret_cast<std::byte*>(bytes.data()), bytes.size(), 0)) {
    fail(path, weights::describeFailure(*failure));
  }
  return bytes;
}

// The ONNX element type's WebNN type and its bytes per element (bool -> uint8); 0 bytes when
// WebNN has no type for it.
struct ElementType {
  MLOperandDataType dataType = MLOperandDataType::Float32;
  size_t bytes = 0;
  const char* name = "?";
};

ElementType elementType(int32_t type) {
  using P = ::onnx::TensorProto;
  switch (type) {
    case P::FLOAT:
      return {MLOperandDataType::Float32, 4, "float"};
    case P::FLOAT16:
      return {MLOperandDataType::Float16, 2, "float16"};
    case P::INT32:
      return {MLOperandDataType::Int32, 4, "int32"};
    case P::UINT32:
      return {MLOperandDataType::Uint32, 4, "uint32"};
    case P::INT64:
      return {MLOperandDataType::Int64, 8, "int64"};
    case P::UINT64:
      return {MLOperandDataType::Uint64, 8, "uint64"};
    case P::INT8:
      return {MLOperandDataType::Int8, 1, "int8"};
    case P::UINT8:
      return {MLOperandDataType::Uint8, 1, "uint8"};
    case P::BOOL:
      return {MLOperandDataType::Uint8, 1, "bool"};
    case P::DOUBLE:
      return {MLOperandDataType::Float32, 0, "double"};
    case P::INT16:
      return {MLOperandDataType::Float32, 0, "int16"};
    case P::UINT16:
      return {MLOperandDataType::Float32, 0, "uint16"};
    case P::STRING:
      return {MLOperandDataType::Float32, 0, "string"};
    case P::BFLOAT16:
      return {MLOperandDataType::Float32, 0, "bfloat16"};
    case P::COMPLEX64:
      return {MLOperandDataType::Float32, 0, "complex64"};
    case P::COMPLEX128:
      return {MLOperandDataType::Float32, 0, "complex128"};
    default:
      return {MLOperandDataType::Float32, 0, "undefined"};
  }
}

template <typename T, typename Field>
void copyTyped(const Field& field, std::vector<std::byte>& out, size_t elements,
               const std::string& path, const char* fieldName) {
  if (static_cast<size_t>(field.size()) != elements) {
    fail(path, std::string(fieldName) + " holds " + std::to_string(field.size()) +
                   " elements, the shape " + std::to_string(elements));
  }
  out.resize(elements * sizeof(T));
  for (size_t i = 0; i < elements; ++i) {
    const T value = static_cast<T>(field.Get(static_cast<int>(i)));
    std::memcpy(out.data() + i * sizeof(T), &value, sizeof(T));
  }
}

}  // namespace

TensorFile readTensorFile(const std::string& path) {
  const std::string bytes = readWholeFile(path);
  ::onnx::TensorProto proto;
  if (!proto.ParseFromString(bytes)) fail(path, "not a serialized ONNX TensorProto");
  TensorFile file;
  file.name = proto.name();
  const ElementType type = elementType(proto.data_type());
  file.onnxType = type.name;
  if (proto.data_location() == ::onnx::TensorProto::EXTERNAL) {
    fail(path, "tensor data in an external file is not read here");
  }
  std::vector<int64_t> dims(proto.dims().begin(), proto.dims().end());
  for (int64_t d : dims) {
    const auto dimension = checked::toDimension(d);
    if (!dimension) fail(path, "dimension " + std::to_string(d) + " is not a WebNN dimension");
    file.value.shape.push_back(*dimension);
  }
  if (type.bytes == 0) {
    file.supported = false;
    file.unsupportedReason =
        "ONNX type " + std::string(type.name) + ", which WebNN has no type for";
    return file;
  }
  file.value.dataType = type.dataType;
  const auto byteLength = checked::byteLength(file.value.shape, type.bytes);
  if (!byteLength || *byteLength > kMaxTensorFileBytes) fail(path, "the shape is too large");
  const size_t elements = *byteLength / type.bytes;
  auto& out = file.value.bytes;
  using P = ::onnx::TensorProto;
  if (proto.has_raw_data()) {
    if (proto.raw_data().size() != *byteLength) {
      fail(path, "raw_data holds " + std::to_string(proto.raw_data().size()) + " bytes, the " +
                     std::string(type.name) + " shape " + std::to_string(*byteLength));
    }
    out.assign(reinterpret_cast<const std::byte*>(proto.raw_data().data()),
               reinterpret_cast<const std::byte*>(proto.raw_data().data()) + *byteLength);
    return file;
  }
  switch (proto.data_type()) {
    case P::FLOAT:
      copyTyped<float>(proto.float_data(), out, elements, path, "float_data");
      break;
    case P::FLOAT16:
      copyTyped<uint16_t>(proto.int32_data(), out, elements, path, "int32_data");
      break;
    case P::INT32:
      copyTyped<int32_t>(proto.int32_data(), out, elements, path, "int32_data");
      break;
    case P::INT8:
      copyTyped<int8_t>(proto.int32_data(), out, elements, path, "int32_data");
      break;
    case P::UINT8:
    case P::BOOL:
      copyTyped<uint8_t>(proto.int32_data(), out, elements, path, "int32_data");
      break;
    case P::INT64:
      copyTyped<int64_t>(proto.int64_data(), out, elements, path, "int64_data");
      break;
    case P::UINT32:
      copyTyped<uint32_t>(proto.uint64_data(), out, elements, path, "uint64_data");
      break;
    case P::UINT64:
      copyTyped<uint64_t>(proto.uint64_data(), out, elements, path, "uint64_data");
      break;
    default:
      fail(path, "unexpected data type");
  }
  return file;
}

}  // namespace webnn::onnx_suite
#endif  // WEBNN_HAVE_ONNX
