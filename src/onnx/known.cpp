// Decoding ONNX tensors into known values and encoding known values as WebNN constants.
#include "onnx/known.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "core/checked_math.h"
#include "core/float16.h"
#include "onnx/errors.h"
#include "onnx/onnx_pb.h"

namespace webnn::onnx_import {

std::optional<MLOperandDataType> webnnType(int32_t onnxType) {
  switch (onnxType) {
    case kFloat:
      return MLOperandDataType::Float32;
    case kFloat16:
      return MLOperandDataType::Float16;
    case kInt32:
      return MLOperandDataType::Int32;
    case kUint32:
      return MLOperandDataType::Uint32;
    case kInt64:
      return MLOperandDataType::Int64;
    case kUint64:
      return MLOperandDataType::Uint64;
    case kInt8:
      return MLOperandDataType::Int8;
    case kUint8:
    case kBool:
      return MLOperandDataType::Uint8;
    default:
      return std::nullopt;
  }
}

size_t onnxElementSize(int32_t onnxType) {
  switch (onnxType) {
    case kUint8:
    case kInt8:
    case kBool:
      return 1;
    case kUint16:
    case kInt16:
    case kFloat16:
    case kBfloat16:
      return 2;
    case kFloat:
    case kInt32:
    case kUint32:
      return 4;
    case kInt64:
    case kUint64:
    case kDouble:
      return 8;
    default:
      return 0;
  }
}

std::string onnxTypeName(int32_t onnxType) {
  switch (onnxType) {
    case kFloat:
      return "float";
    case kUint8:
      return "uint8";
    case kInt8:
      return "int8";
    case kUint16:
      return "uint16";
    case kInt16:
      return "int16";
    case kInt32:
      return "int32";
    case kInt64:
      return "int64";
    case kString:
      return "string";
    case kBool:
      return "bool";
    case kFloat16:
      return "float16";
    case kDouble:
      return "double";
    case kUint32:
      return "uint32";
    case kUint64:
      return "uint64";
    case kBfloat16:
      return "bfloat16";
    default:
      return "type " + std::to_string(onnxType);
  }
}

bool isOnnxFloat(int32_t onnxType) {
  return onnxType == kFloat || onnxType == kFloat16 || onnxType == kDouble || onnxType == kBfloat16;
}

namespace {
// double -> float without the undefined behaviour of converting a value outside float's range.
float toFloat(double v) {
  if (std::isfinite(v) && std::fabs(v) > static_cast<double>(std::numeric_limits<float>::max())) {
    return v < 0 ? -std::numeric_limits<float>::infinity() : std::numeric_limits<float>::infinity();
  }
  return static_cast<float>(v);
}

void checkElement(const Known& k, size_t i) {
  if (i >= k.size()) {
    throw Error(Error::Kind::DataError, "a known value of " + std::to_string(k.size()) +
                                            " elements has no element " + std::to_string(i));
  }
}
}  // namespace

double Known::number(size_t i) const {
  checkElement(*this, i);
  return isFloat() ? floats[i] : static_cast<double>(ints[i]);
}

int64_t Known::integer(size_t i) const {
  checkElement(*this, i);
  return isFloat() ? checked::toInt64Saturated(floats[i]) : ints[i];
}

std::vector<int64_t> Known::integers() const {
  std::vector<int64_t> values(size());
  for (size_t i = 0; i < values.size(); ++i) values[i] = integer(i);
  return values;
}

Known Known::scalarInt(int32_t type, int64_t value) {
  Known k;
  k.type = type;
  k.ints = {value};
  return k;
}

Known Known::vectorInts(std::vector<int64_t> values) {
  Known k;
  k.type = kInt64;
  k.shape = {static_cast<int64_t>(values.size())};
  k.ints = std::move(values);
  return k;
}

Known Known::ofShape(int32_t type, std::vector<int64_t> shape) {
  Known k;
  k.type = type;
  const auto n = shapeElements(shape);
  if (!n) throw Error(Error::Kind::DataError, "a shape with a negative or too large dimension");
  k.shape = std::move(shape);
  if (k.isFloat()) {
    k.floats.assign(*n, 0.0);
  } else {
    k.ints.assign(*n, 0);
  }
  return k;
}

Known Known::castTo(int32_t newType) const {
  Known k;
  k.type = newType;
  k.shape = shape;
  const size_t n = size();
  if (k.isFloat()) {
    k.floats.resize(n);
    for (size_t i = 0; i < n; ++i) k.floats[i] = number(i);
    if (newType == kFloat) {
      for (auto& v : k.floats) v = toFloat(v);
    }
  } else {
    k.ints.resize(n);
    for (size_t i = 0; i < n; ++i) {
      if (newType == kBool) {
        k.ints[i] = number(i) != 0.0;
      } else if (isFloat()) {
        k.ints[i] = checked::toInt64(floats[i]).value_or(0);
      } else {
        k.ints[i] = ints[i];
      }
      switch (newType) {
        case kInt32:
          k.ints[i] = static_cast<int32_t>(k.ints[i]);
          break;
        case kUint32:
          k.ints[i] = static_cast<uint32_t>(k.ints[i]);
          break;
        case kInt8:
          k.ints[i] = static_cast<int8_t>(k.ints[i]);
          break;
        case kUint8:
          k.ints[i] = static_cast<uint8_t>(k.ints[i]);
          break;
        default:
          break;
      }
    }
  }
  return k;
}

std::optional<uint64_t> shapeElements(const std::vector<int64_t>& shape) {
  return checked::elementCount(shape);
}

namespace {

template <class T>
T load(const std::byte* p) {
  T value;
  std::memcpy(&value, p, sizeof(T));
  return value;
}

}  // namespace

Known decodeRaw(int32_t type, std::vector<int64_t> shape, std::span<const std::byte> bytes,
                const std::string& where) {
  Known k;
  k.type = type;
  k.shape = std::move(shape);
  const auto count = shapeElements(k.shape);
  const size_t size = onnxElementSize(type);
  if (!count) throwDataError(where, "the tensor has a negative or too large dimension");
  if (size == 0 || type == kBfloat16) {
    throwNotSupported(where + ": tensors of ONNX type " + onnxTypeName(type) +
                      " are not supported");
  }
  if (*count > bytes.size() / size || *count * size != bytes.size()) {
    throwDataError(where, "the tensor holds " + std::to_string(bytes.size()) + " bytes but its " +
                              std::to_string(*count) + " " + onnxTypeName(type) +
                              " elements take " + std::to_string(*count * size));
  }
  const std::byte* p = bytes.data();
  if (k.isFloat()) {
    k.floats.resize(*count);
    for (uint64_t i = 0; i < *count; ++i, p += size) {
      switch (type) {
        case kFloat:
          k.floats[i] = load<float>(p);
          break;
        case kDouble:
          k.floats[i] = load<double>(p);
          break;
        default:
          k.floats[i] = halfToFloat(load<uint16_t>(p));
          break;
      }
    }
  } else {
    k.ints.resize(*count);
    for (uint64_t i = 0; i < *count; ++i, p += size) {
      switch (type) {
        case kUint8:
        case kBool:
          k.ints[i] = load<uint8_t>(p);
          break;
        case kInt8:
          k.ints[i] = load<int8_t>(p);
          break;
        case kUint16:
          k.ints[i] = load<uint16_t>(p);
          break;
        case kInt16:
          k.ints[i] = load<int16_t>(p);
          break;
        case kInt32:
          k.ints[i] = load<int32_t>(p);
          break;
        case kUint32:
          k.ints[i] = load<uint32_t>(p);
          break;
        default:
          k.ints[i] = load<int64_t>(p);
          break;
      }
    }
  }
  return k;
}

Known decodeTensor(const ::onnx::TensorProto& proto, const std::vector<std::byte>* data,
                   const std::string& where) {
  std::vector<int64_t> shape(proto.dims().begin(), proto.dims().end());
  const int32_t type = proto.data_type();
  if (data) return decodeRaw(type, std::move(shape), *data, where);
  if (proto.has_raw_data()) {
    const std::string& raw = proto.raw_data();
    return decodeRaw(type, std::move(shape), std::as_bytes(std::span(raw.data(), raw.size())),
                     where);
  }
  if (proto.data_location() == ::onnx::TensorProto::EXTERNAL) {
    throwDataError(where, "external data was expected to be read from its file");
  }
  Known k;
  k.type = type;
  k.shape = std::move(shape);
  const auto count = shapeElements(k.shape);
  if (!count) throwDataError(where, "the tensor has a negative or too large dimension");
  size_t stored = 0;
  switch (type) {
    case kFloat:
      k.floats.assign(proto.float_data().begin(), proto.float_data().end());
      stored = k.floats.size();
      break;
    case kDouble:
      k.floats.assign(proto.double_data().begin(), proto.double_data().end());
      stored = k.floats.size();
      break;
    case kFloat16:
      for (int32_t v : proto.int32_data())
        k.floats.push_back(halfToFloat(static_cast<uint16_t>(v)));
      stored = k.floats.size();
      break;
    case kInt64:
      k.ints.assign(proto.int64_data().begin(), proto.int64_data().end());
      stored = k.ints.size();
      break;
    case kUint32:
    case kUint64:
      k.ints.assign(proto.uint64_data().begin(), proto.uint64_data().end());
      stored = k.ints.size();
      break;
    case kInt32:
    case kInt16:
    case kInt8:
    case kUint16:
    case kUint8:
    case kBool:
      k.ints.assign(proto.int32_data().begin(), proto.int32_data().end());
      stored = k.ints.size();
      break;
    default:
      throwNotSupported(where + ": tensors of ONNX type " + onnxTypeName(type) +
                        " are not supported");
  }
  if (stored != *count) {
    throwDataError(where, "the tensor holds " + std::to_string(stored) +
                              " values but its shape has " + std::to_string(*count) + " elements");
  }
  return k;
}

std::vector<std::byte> encode(const Known& known, MLOperandDataType type) {
  const size_t n = known.size();
  const size_t size = bitsPerElement(type) / 8;
  std::vector<std::byte> bytes(n * size);
  std::byte* p = bytes.data();
  auto store = [&](auto value) {
    std::memcpy(p, &value, sizeof(value));
    p += sizeof(value);
  };
  for (size_t i = 0; i < n; ++i) {
    switch (type) {
      case MLOperandDataType::Float32:
        store(toFloat(known.number(i)));
        break;
      case MLOperandDataType::Float16:
        store(doubleToHalf(known.number(i)));
        break;
      case MLOperandDataType::Int32:
        store(static_cast<int32_t>(known.integer(i)));
        break;
      case MLOperandDataType::Uint32:
        store(static_cast<uint32_t>(known.integer(i)));
        break;
      case MLOperandDataType::Int64:
        store(static_cast<int64_t>(known.integer(i)));
        break;
      case MLOperandDataType::Uint64:
        store(static_cast<uint64_t>(known.integer(i)));
        break;
      case MLOperandDataType::Int8:
        store(static_cast<int8_t>(known.integer(i)));
        break;
      case MLOperandDataType::Uint8:
        store(static_cast<uint8_t>(known.integer(i)));
        break;
      default:
        throwNotSupported("constants of type " + std::string(toString(type)) +
                          " cannot be made from known values");
    }
  }
  return bytes;
}

}  // namespace webnn::onnx_import
